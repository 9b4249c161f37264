// Kernels loaded from a user's shared library by symbol name, end to end: the
// zoo's C file is compiled with `cc -shared` into a temporary directory and
// loaded with load_kernel (dlopen/dlsym).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <symerr/verify/concrete/concrete.hpp>

using namespace symerr;
using namespace symerr::verify;
namespace fs = std::filesystem;

namespace {

// Builds tests/verify/zoo/zoo_kernels.c once per test run; "" if cc failed.
const std::string& zoo_library() {
  static const std::string path = [] {
    const fs::path dir = fs::temp_directory_path() / ("symerr_zoo_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path so = dir / "libzoo.so";
    // one literal (GCC 12's -Warray-bounds misfires on std::string(dir) + "..." at -O2)
    const std::string src = SYMERR_SOURCE_DIR "/tests/verify/zoo/zoo_kernels.c";
    const std::string cmd = "cc -std=c11 -O2 -ffp-contract=off -shared -fPIC -o '" + so.string() + "' '" +
                            src + "' 2> '" + (dir / "cc.log").string() + "'";
    return std::system(cmd.c_str()) == 0 ? so.string() : std::string();
  }();
  return path;
}

CheckOptions quick() {
  CheckOptions o;
  o.strategies.random_count = 5000;
  return o;
}

}  // namespace

TEST_CASE("dlopen: zoo kernels from a shared library get their verdicts", "[concrete][dlopen]") {
  const std::string& so = zoo_library();
  REQUIRE(!so.empty());
  const Kernel good = load_kernel(so, "zoo_div_fp32", parse_signature("Div FP32"));
  CHECK(good.name == "zoo_div_fp32@" + so);
  CHECK(check_kernel(good, quick()).evidence.failures == 0);

  const CheckResult bad = check_kernel(load_kernel(so, "zoo_div_fp32_reciprocal", parse_signature("div:fp32")), quick());
  CHECK(bad.verdict == Verdict::Violated);
  CHECK(!bad.witnesses.empty());

  const CheckResult sat = check_kernel(load_kernel(so, "zoo_sub_int8_saturate", parse_signature("Sub INT8")), quick());
  CHECK(sat.verdict == Verdict::Violated);
  const CheckResult wrap = check_kernel(load_kernel(so, "zoo_sub_uint8_wrap", parse_signature("Sub UINT8 elementwise")), quick());
  CHECK(wrap.verdict == Verdict::Proven);

  const Kernel tensor = load_kernel(so, "zoo_div_fp32_tensor", parse_signature("Div FP32 tensor"));
  CHECK(tensor.form == KernelForm::Tensor);
  CHECK(check_kernel(tensor, quick()).evidence.failures == 0);

  // the kernel keeps the library loaded after every other copy is gone
  Kernel copy;
  {
    const Kernel k = load_kernel(so, "zoo_div_fp16", parse_signature("Div FP16"));
    copy = k;
  }
  CHECK(check_kernel(copy, quick()).evidence.failures == 0);
}

TEST_CASE("dlopen: loading errors name the file and the symbol", "[concrete][dlopen]") {
  const std::string& so = zoo_library();
  REQUIRE(!so.empty());
  try {
    load_kernel("/nonexistent/libnothing.so", "zoo_div_fp32", parse_signature("Div FP32"));
    FAIL("no exception");
  } catch (const KernelLoadError& e) {
    const std::string m = e.what();
    CHECK(m.find("/nonexistent/libnothing.so") != std::string::npos);
    CHECK(m.find("zoo_div_fp32") != std::string::npos);
    CHECK(m.find("does not exist") != std::string::npos);
  }
  try {
    load_kernel(so, "no_such_kernel", parse_signature("Div FP32"));
    FAIL("no exception");
  } catch (const KernelLoadError& e) {
    const std::string m = e.what();
    CHECK(m.find(so) != std::string::npos);
    CHECK(m.find("no_such_kernel") != std::string::npos);
    CHECK(m.find("not defined") != std::string::npos);
  }
  // a file that is not a shared object
  const std::string src = SYMERR_SOURCE_DIR "/tests/verify/zoo/zoo_kernels.c";
  CHECK_THROWS_AS(load_kernel(src, "zoo_div_fp32", parse_signature("Div FP32")), KernelLoadError);
}

TEST_CASE("kernel signatures parse and reject bad words", "[concrete][kernel]") {
  const KernelSignature s = parse_signature("mul bfloat16 tensor");
  CHECK(s.op == OpId::Mul);
  CHECK(s.type == ElementType::BF16);
  CHECK(s.form == KernelForm::Tensor);
  CHECK(parse_signature("Add:INT32").type == ElementType::INT32);
  // names come from the operator table: a known operator without a two-input
  // check and an unknown one are told apart, with the operators available
  CHECK_THROWS_WITH(parse_signature("Pow FP32"),
                    Catch::Contains("operator 'Pow' has no two-input concrete check (expected one of Add, Sub, Mul, Div)"));
  CHECK_THROWS_WITH(parse_signature("Frob FP32"), Catch::Contains("operator 'Frob' is unknown"));
  CHECK_THROWS_WITH(parse_signature("Div FP8"), Catch::Contains("unknown element type \"FP8\""));
  CHECK_THROWS_WITH(parse_signature("Div FP32 strided"), Catch::Contains("unknown form"));
  CHECK_THROWS_AS(parse_signature("Div"), std::invalid_argument);
}
