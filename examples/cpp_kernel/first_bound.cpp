#include <iostream>
#include <vector>

#include <symerr/symerr.hpp>

template <class T> T dot(const T* a, const T* b, int n) {  // a kernel written once, for any number type
  T acc = 0;
  for (int i = 0; i < n; ++i) acc += a[i] * b[i];
  return acc;
}
template <class T> T relu(T x) { return x < 0 ? T(0) : x; }

int main() {
  using symerr::SymbolicError;
  // 8 FP32 inputs: each anywhere in [-1, 1], each off by at most 1e-6 from its ideal value
  const std::vector<SymbolicError> x(8, SymbolicError::input(-1, 1, -1e-6, 1e-6, symerr::FP32));
  const SymbolicError d = dot(x.data(), x.data() + 4, 4);
  std::cout << "dot:  |err| <= " << mag(d.err) << "\n";

  symerr::verify::DriverOptions opt;  // relu branches on its input: run it under the branch driver
  const std::size_t sizes[] = {8};
  symerr::verify::elementwise_lanes(opt, sizes, 8);  // output i depends on input i only
  const auto r = symerr::verify::run_kernel(
      [](std::span<SymbolicError> in, std::span<SymbolicError> out) {
        for (std::size_t i = 0; i < in.size(); ++i) out[i] = relu(in[i]);
      },
      x, 8, opt);
  std::cout << "relu: |err| <= " << mag(r.outputs[0].err) << " (" << r.report.summary() << ")\n";
  return mag(d.err) < 1e-5 && mag(r.outputs[0].err) <= 1.000001e-6 ? 0 : 1;
}
