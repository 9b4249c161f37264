// A downstream project using the installed symerr package.
#include <cstdio>

#include <symerr/format.hpp>
#include <symerr/version.hpp>

int main() {
  using namespace symerr;
  const Rounded r = round_to(mpq_class(1, 3), FP16, RoundingMode::NearestEven);
  std::printf("symerr %s: 1/3 in FP16 = %a (ulp %a)\n", version(), r.value, ulp(r.value, FP16));
  return r.value == 0x1.554p-2 ? 0 : 1;
}
