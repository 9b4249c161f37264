// symerr unary: the concrete check of a unary kernel from a shared library,
// and the unary part of symerr audit (the SONNX unary bounds).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>

#include <symerr/verify/concrete/unary.hpp>
#include <symerr/verify/bounds/unary_audit.hpp>

#include "commands.hpp"

namespace symerr::cli {

using namespace symerr::verify;

int unary_command(const UnaryArgs& a) {
  std::optional<OpId> op;
  try {
    op = parse_unary_operator(a.op);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "symerr: %s\n", e.what());
    return 2;
  }
  const auto type = parse_element_type(a.type);
  if (!type || !is_float(*type)) {
    std::fprintf(stderr, "symerr: '%s' is not a float type (FP16, BF16, FP32, FP64)\n", a.type.c_str());
    return 2;
  }
  double bound = 0.5;
  if (a.bound != "cr") {
    char* end = nullptr;
    bound = std::strtod(a.bound.c_str(), &end);
    if (end == a.bound.c_str() || *end != '\0' || !(bound >= 0.5)) {
      std::fprintf(stderr, "symerr: --bound must be 'cr' or a number of ulps >= 0.5, got '%s'\n", a.bound.c_str());
      return 2;
    }
  }
  std::vector<UnaryStrategy> strategies;
  if (a.strategy == "all" || a.strategy == "special") strategies.push_back(UnaryStrategy::Special);
  if (a.strategy == "all" || a.strategy == "boundary") strategies.push_back(UnaryStrategy::Boundary);
  if (a.strategy == "all" || a.strategy == "random") strategies.push_back(UnaryStrategy::Random);
  if (a.strategy == "exhaustive") strategies.push_back(UnaryStrategy::Exhaustive);
  if (strategies.empty()) {
    std::fprintf(stderr, "symerr: --strategy must be special, boundary, random, exhaustive or all\n");
    return 2;
  }
  UnaryKernel k;
  try {
    k = load_unary_kernel(a.library, a.symbol, *op, *type);
  } catch (const KernelLoadError& e) {
    std::fprintf(stderr, "symerr: cannot load a kernel: %s\n", e.what());
    return 2;
  }
  bool violated = false;
  for (UnaryStrategy s : strategies) {
    UnaryOptions o;
    o.strategy = s;
    o.ulp_bound = bound;
    o.samples = a.samples;
    o.threads = a.threads;
    o.seed = a.seed;
    o.isolation = SandboxOptions{};  // the kernel in child processes: time and memory limits, guarded buffers
    o.progress = [](std::string_view line) { std::cerr << "symerr: " << line << std::endl; };
    const UnaryResult r = check_unary_kernel(k, o);
    std::cout << r.summary() << "\n";
    for (const auto& w : r.worst) {
      char buf[200];
      std::snprintf(buf, sizeof buf, "  worst: x = %a (bits 0x%llx): y = %a, correctly rounded %a, %.4g ulp\n", w.x,
                    static_cast<unsigned long long>(w.bits), w.y, w.expected, w.ulp_error);
      std::cout << buf;
    }
    violated = violated || !r.passed();
  }
  return violated ? 1 : 0;
}

void write_unary_audit(const std::string& dir) {
  const auto entries = run_unary_audit();
  const std::string md = "# symerr audit: unary SONNX bounds\n\n" + unary_audit_markdown(entries);
  std::filesystem::create_directories(dir);
  const auto path = std::filesystem::path(dir) / "unary_audit.md";
  std::ofstream(path) << md;
  std::cout << "\nunary SONNX bounds (accuracy digest §1.5):\n" << md << "report: "
            << std::filesystem::absolute(path).string() << "\n";
}

}  // namespace symerr::cli
