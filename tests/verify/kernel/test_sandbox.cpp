// The harness-owned FP environment and the child-process sandbox
// (sandbox.hpp), SHA-256 (identity.hpp).
#include <catch2/catch.hpp>

#include <csignal>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#include <symerr/verify/concrete/concrete.hpp>
#include <symerr/verify/concrete/exhaustive.hpp>
#include <symerr/verify/report/identity.hpp>
#include <symerr/verify/kernel/sandbox.hpp>

#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

using namespace symerr::verify;
using symerr::OpId;

namespace {

void correct(const float* a, const float* b, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] = a[i] / b[i];
}
void leaves_daz(const float* a, const float* b, float* y, std::size_t n) {
  write_fp_state(read_fp_state() | mxcsr::kDAZ);
  correct(a, b, y, n);
}
void segfaults_on_nan(const float* a, const float* b, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != a[i]) std::raise(SIGSEGV);
  correct(a, b, y, n);
}
void exits_on_inf(const float* a, const float* b, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] == INFINITY) std::_Exit(3);
  correct(a, b, y, n);
}
void hangs(const float*, const float*, float*, std::size_t) {
  for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(10));
}
void throws_on_zero(const float* a, const float* b, float* y, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i)
    if (b[i] == 0) throw std::runtime_error("no zero divisors");
  correct(a, b, y, n);
}

CheckOptions sandboxed(double limit = 5) {
  CheckOptions o;
  o.strategies.random_count = 500;
  o.strategies.boundary = false;
  o.isolation = SandboxOptions{limit};
  return o;
}

}  // namespace

TEST_CASE("FP state: documented word, descriptions", "[sandbox][fpenv]") {
  CHECK(describe_fp_state(mxcsr::kDocumented) == "RNE, FTZ off, DAZ off, traps off");
  CHECK(describe_fp_change(mxcsr::kDocumented) == "");
  CHECK(describe_fp_change(mxcsr::kDocumented | mxcsr::kDAZ) == "leaves DAZ set");
  CHECK(describe_fp_change(mxcsr::kDocumented | mxcsr::kFTZ | mxcsr::kDAZ | 0x4000) ==
        "leaves FTZ+DAZ set, leaves rounding upward");
  CHECK(describe_fp_change(mxcsr::kDocumented & ~0x0200u) == "leaves FP traps enabled");
  FpStateLog log;
  log.record_after(mxcsr::kDocumented | mxcsr::kFlags);  // exception flags do not count
  CHECK(!log.changed());
  log.record_after(mxcsr::kDocumented | mxcsr::kDAZ);
  CHECK(log.changed());
  CHECK(log.describe() == "leaves DAZ set after a call (1 of 2 calls)");
}

#if defined(__x86_64__)
TEST_CASE("in-process kernels run in the documented state, the caller's state is restored", "[sandbox][fpenv]") {
  const std::uint32_t caller = mxcsr::kDocumented | mxcsr::kFTZ | 0x2000;  // FTZ on, rounding down
  const std::uint32_t saved = read_fp_state();
  write_fp_state(caller);
  std::uint32_t seen = 0;
  FpStateLog log;
  call_in_documented_state([&] { seen = read_fp_state(); write_fp_state(seen | mxcsr::kDAZ); }, &log);
  const std::uint32_t after = read_fp_state();
  write_fp_state(saved);
  CHECK((seen & ~mxcsr::kFlags) == mxcsr::kDocumented);
  CHECK((after & ~mxcsr::kFlags) == caller);  // neither the kernel's DAZ nor the documented state leaks
  CHECK(log.describe() == "leaves DAZ set after a call (1 of 1 calls)");

  // the check of a correct kernel is unaffected by a caller running with FTZ+DAZ
  write_fp_state(mxcsr::kDocumented | mxcsr::kFTZ | mxcsr::kDAZ);
  CheckOptions o;
  o.strategies.random_count = 2000;
  const CheckResult r = check_kernel(make_kernel<float>("correct", OpId::Div, ElementType::FP32, correct), o);
  write_fp_state(saved);
  CHECK(r.verdict == Verdict::PassedOnSamples);
}
#endif

TEST_CASE("sandboxed kernels: crash, exit, hang, exception each give their verdict and reproducer", "[sandbox]") {
  SECTION("a correct kernel passes; its FP state is reported unchanged") {
    const auto r = check_kernel(make_kernel<float>("correct", OpId::Div, ElementType::FP32, correct), sandboxed());
    CHECK(r.verdict == Verdict::PassedOnSamples);
    CHECK_THAT(r.fp_environment, Catch::Contains("in a child process") && Catch::Contains("left it unchanged"));
  }
  SECTION("DAZ left set is reported, and does not reach the next kernel") {
    const auto r = check_kernel(make_kernel<float>("leaves_daz", OpId::Div, ElementType::FP32, leaves_daz), sandboxed());
    CHECK_THAT(r.fp_environment, Catch::Contains("leaves DAZ set after a call"));
    CHECK((read_fp_state() & mxcsr::kDAZ) == 0);
  }
  SECTION("SIGSEGV") {
    const auto r = check_kernel(make_kernel<float>("segv", OpId::Div, ElementType::FP32, segfaults_on_nan), sandboxed());
    CHECK(r.verdict == Verdict::Crashed);
    REQUIRE(r.fault);
    CHECK(r.fault->kind == "signal");
    CHECK(r.fault->reproducer_size == 1);
    CHECK((std::isnan(r.fault->reproducer.at(0).at(0).value)));
  }
  SECTION("_Exit(3)") {
    const auto r = check_kernel(make_kernel<float>("exit", OpId::Div, ElementType::FP32, exits_on_inf), sandboxed());
    CHECK(r.verdict == Verdict::Crashed);
    REQUIRE(r.fault);
    CHECK(r.fault->kind == "exit");
    CHECK_THAT(r.fault->message, Catch::Contains("exit status 3"));
    CHECK(r.fault->reproducer.at(0).at(0).value == INFINITY);
  }
  SECTION("a hang is killed at the time limit") {
    const auto r = check_kernel(make_kernel<float>("hang", OpId::Div, ElementType::FP32, hangs), sandboxed(0.2));
    CHECK(r.verdict == Verdict::TimedOut);
    REQUIRE(r.fault);
    CHECK(r.fault->kind == "timeout");
  }
  SECTION("an exception, sandboxed and in-process") {
    for (bool isolate : {true, false}) {
      CheckOptions o = sandboxed();
      if (!isolate) o.isolation.reset();
      const auto r = check_kernel(make_kernel<float>("throws", OpId::Div, ElementType::FP32, throws_on_zero), o);
      CHECK(r.verdict == Verdict::Crashed);
      REQUIRE(r.fault);
      CHECK(r.fault->kind == "exception");
      CHECK_THAT(r.fault->message, Catch::Contains("no zero divisors"));
      CHECK(r.fault->reproducer_size == 1);
      CHECK(r.fault->reproducer.at(0).at(1).value == 0);
    }
  }
}

TEST_CASE("exhaustive sweep: a crashing kernel is bisected to its input, with progress lines", "[sandbox][exhaustive]") {
  static auto crash_at_7 = [](const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* y, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      if (a[i] == 200 && b[i] == 7) std::raise(SIGSEGV);
      y[i] = static_cast<std::uint8_t>(a[i] + b[i]);
    }
  };
  ExhaustiveOptions o;
  o.threads = 2;
  o.check.isolation = SandboxOptions{5};
  o.progress = ProgressDisplay::Never;
  const auto k = make_kernel<std::uint8_t>("crash_at_7", OpId::Add, ElementType::UINT8,
                                           +[](const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* y,
                                               std::size_t n) { crash_at_7(a, b, y, n); });
  const CheckResult r = check_exhaustive(k, o);
  CHECK(r.verdict == Verdict::Crashed);
  REQUIRE(r.fault);
  CHECK(r.fault->reproducer_size == 1);
  CHECK(r.fault->reproducer.at(0).at(0).value == 200);
  CHECK(r.fault->reproducer.at(0).at(1).value == 7);

  // a slow correct kernel: periodic progress lines reach a non-terminal log
  static auto slow = [](const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* y, std::size_t n) {
    std::this_thread::sleep_for(std::chrono::milliseconds(3));
    for (std::size_t i = 0; i < n; ++i) y[i] = static_cast<std::uint8_t>(a[i] + b[i]);
  };
  std::vector<std::string> lines;
  ExhaustiveOptions p;
  p.threads = 1;
  p.progress = ProgressDisplay::Never;
  p.progress_interval = 0;
  p.progress_lines = [&](std::string_view l) { lines.emplace_back(l); };
  const auto ks = make_kernel<std::uint8_t>("slow", OpId::Add, ElementType::UINT8,
                                            +[](const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* y,
                                                std::size_t n) { slow(a, b, y, n); });
  const CheckResult s = check_exhaustive(ks, p);
  CHECK(s.verdict == Verdict::Proven);
  REQUIRE(!lines.empty());
  CHECK_THAT(lines.front(), Catch::Contains("[Add UINT8 slow]") && Catch::Contains("%"));
}

TEST_CASE("SHA-256: FIPS 180-4 example vectors", "[identity]") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  CHECK(debian_package_of("/nonexistent/file") == "");
}
