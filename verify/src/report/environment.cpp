// The environment of a campaign, observed at run time: what the hardware
// actually does with rounding and subnormals is measured, not assumed.
#include <symerr/verify/report/verdict.hpp>

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <cfenv>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <symerr/verify/kernel/sandbox.hpp>
#include <symerr/version.hpp>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace symerr::verify {

namespace {

// The rounding of double addition as observed: 1 + 3/4 ulp, 1 + 1/4 ulp and
// -(1 + 1/4 ulp) tell the four IEEE directions apart. volatile keeps the
// compiler from folding the sums at compile time.
std::string observed_rounding_mode() {
  volatile double one = 1.0;
  volatile double three_quarter = 0x3p-54, quarter = 0x1p-54;
  const double up3 = one + three_quarter, up1 = one + quarter, down1 = -one - quarter;
  const bool r3 = up3 > 1.0, r1 = up1 > 1.0, d1 = down1 < -1.0;
  if (r3 && !r1 && !d1) return "RNE";
  if (r3 && r1 && !d1) return "RUP";
  if (!r3 && !r1 && d1) return "RDN";
  if (!r3 && !r1 && !d1) return "RTZ";
  return "unknown";
}

// FTZ: a product whose exact value is subnormal comes out as zero.
bool observed_flush_to_zero() {
  volatile double tiny = 0x1p-1000, scale = 0x1p-40;
  volatile float tinyf = 0x1p-100f, scalef = 0x1p-40f;
  return tiny * scale == 0.0 || tinyf * scalef == 0.0f;
}

// DAZ: a subnormal operand is read as zero.
bool observed_denormals_are_zero() {
  volatile double sub = 0x1p-1060, scale = 0x1p100;
  volatile float subf = 0x1p-140f, scalef = 0x1p40f;
  return sub * scale == 0.0 || subf * scalef == 0.0f;
}

std::string compile_flags() {
  std::string f;
  auto add = [&f](const char* s) {
    if (!f.empty()) f += ' ';
    f += s;
  };
#if defined(__OPTIMIZE__)
  add("optimized");
#else
  add("-O0");
#endif
#if defined(NDEBUG)
  add("-DNDEBUG");
#endif
#if defined(__SANITIZE_ADDRESS__)
  add("-fsanitize=address");
#endif
#if defined(__FAST_MATH__)
  add("-ffast-math");
#endif
#if defined(__FP_FAST_FMA)
  add("fma-available");
#endif
#if defined(__AVX2__)
  add("-mavx2");
#elif defined(__SSE2__)
  add("sse2");
#endif
#if defined(__aarch64__)
  add("aarch64");
#endif
  add("-ffp-contract=off");  // the symerr build flags (cmake/SymerrFlags.cmake)
  return f;
}

std::string compiler() {
#if defined(__clang__)
  return std::string("Clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("GCC ") + __VERSION__;
#else
  return "unknown";
#endif
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0 || line.rfind("Model", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) {
        auto v = line.substr(colon + 1);
        const auto start = v.find_first_not_of(' ');
        return start == std::string::npos ? v : v.substr(start);
      }
    }
  }
  return "unknown";
}

std::string os_name() {
  utsname u{};
  if (uname(&u) != 0) return "unknown";
  return std::string(u.sysname) + " " + u.release + " " + u.machine;
}

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// The CPU's features that kernels choose code paths by (CPUID leaves 1 and 7).
std::vector<std::string> cpu_features() {
  std::vector<std::string> f;
#if defined(__x86_64__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  auto add = [&f](bool has, const char* name) {
    if (has) f.emplace_back(name);
  };
  if (__get_cpuid(1, &a, &b, &c, &d)) {
    add(d & (1u << 25), "sse");
    add(d & (1u << 26), "sse2");
    add(c & (1u << 0), "sse3");
    add(c & (1u << 9), "ssse3");
    add(c & (1u << 19), "sse4.1");
    add(c & (1u << 20), "sse4.2");
    add(c & (1u << 28), "avx");
    add(c & (1u << 12), "fma");
    add(c & (1u << 29), "f16c");
  }
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
    add(b & (1u << 5), "avx2");
    add(b & (1u << 16), "avx512f");
    add(b & (1u << 17), "avx512dq");
    add(b & (1u << 21), "avx512ifma");
    add(b & (1u << 28), "avx512cd");
    add(b & (1u << 30), "avx512bw");
    add(b & (1u << 31), "avx512vl");
    add(c & (1u << 1), "avx512vbmi");
    add(c & (1u << 11), "avx512vnni");
    add(c & (1u << 14), "avx512vpopcntdq");
    add(d & (1u << 23), "avx512fp16");
    add(d & (1u << 22), "amx-bf16");
  }
  if (__get_cpuid_count(7, 1, &a, &b, &c, &d)) {
    add(a & (1u << 5), "avx512bf16");
    add(a & (1u << 4), "avx-vnni");
  }
#endif
  return f;
}

}  // namespace

std::map<std::string, std::string> code_path_variables(const std::vector<std::string>& extra) {
  static const char* const kPrefixes[] = {"ONEDNN_", "DNNL_", "OPENBLAS_", "GOTOBLAS_", "MKL_", "OMP_",
                                          "GOMP_",   "KMP_",  "XNNPACK_",  "BLIS_"};
  static const char* const kNames[] = {"GLIBC_TUNABLES", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_BIND_NOW"};
  std::map<std::string, std::string> out;
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    const auto eq = kv.find('=');
    if (eq == std::string::npos) continue;
    const std::string name = kv.substr(0, eq);
    bool wanted = std::find(extra.begin(), extra.end(), name) != extra.end();
    for (const char* p : kPrefixes) wanted = wanted || name.rfind(p, 0) == 0;
    for (const char* n : kNames) wanted = wanted || name == n;
    if (wanted) out[name] = kv.substr(eq + 1, 1024);
  }
  return out;
}

Environment current_environment(std::uint64_t seed) {
  Environment e;
  e.symerr_version = symerr::version();
  e.git_commit = symerr::git_commit();
  e.compiler = compiler();
  e.flags = compile_flags();
  e.cpu_model = cpu_model();
  e.cpu_features = cpu_features();
  e.kernel_fp_state = describe_fp_state(mxcsr::kDocumented) + ", exception flags clear (set before every kernel call)";
  e.hardware_threads = std::thread::hardware_concurrency();
  e.os = os_name();
  e.rounding_mode = observed_rounding_mode();
  e.flush_to_zero = observed_flush_to_zero();
  e.denormals_are_zero = observed_denormals_are_zero();
  e.seed = seed;
  e.date = utc_now();
  e.code_path_variables = code_path_variables();
  return e;
}

}  // namespace symerr::verify
