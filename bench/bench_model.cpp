// Whole-model tightness and time (docs/models.md): for the checked-in MLP
// 784-128-64-10 and LeNet-5 (tests/data/models), FP32, input error 2^-20,
// per input point and on the whole [0, 1] box: the symbolic time (sum of the
// per-node times), each output's bound, the largest error of the concrete
// executions (random and directed: input errors and corners along the sign of
// each output element's gradient) and the ratio bound / observed; the
// per-node table of the box run. Not a Google Benchmark: one run, printed.
//   bench_model [MODEL_DIR] [POINTS] [SAMPLES] [interval|affine] [AFFINE_TERMS] [mlp-only]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <symerr/onnx/model.hpp>

namespace so = symerr::onnx;

namespace {

double symbolic_seconds(const so::ModelResult& r) {
  double s = 0;
  for (const auto& t : r.tensors) s += t.node_seconds;
  return s;
}

void outputs(const so::Graph& g, const so::ModelResult& r, const char* mode) {
  for (const auto& o : g.outputs)
    for (const auto& t : r.tensors)
      if (t.name == o.name)
        std::printf("  %-6s output %-7s bound %10.3g  observed %10.3g  ratio %10.3g\n", mode, t.name.c_str(),
                    t.max_abs_err, t.observed, t.max_abs_err / t.observed);
}

void run(const std::string& file, int points, std::size_t samples, const std::string& domain,
         std::size_t affine_terms) {
  const so::Graph g = so::load_graph(file);
  std::printf("%s\n", file.c_str());
  so::ModelOptions opt;
  opt.input_error = std::ldexp(1.0, -20);
  opt.samples = samples;
  opt.check_every_tensor = false;
  opt.domain = domain;
  opt.affine_max_terms = affine_terms;
  for (int p = 0; p < points; ++p) {
    so::ModelOptions po = opt;
    const auto& in = g.inputs.at(0);
    std::vector<float> v(symerr::element_count(in.shape));
    for (std::size_t k = 0; k < v.size(); ++k) v[k] = static_cast<float>(((k + 1) * (37 + p * 12) % 101) / 100.0);
    po.points.emplace(in.name, symerr::Tensor<float>(in.shape, v));
    const auto t0 = std::chrono::steady_clock::now();
    const so::ModelResult r = so::analyse_model(g, po);
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf(" point %d: symbolic %.3f s, with %zu concrete executions (%zu directed) %.1f s\n", p,
                symbolic_seconds(r), r.samples_run, r.directed_run, total);
    outputs(g, r, "point");
  }
  const so::ModelResult r = so::analyse_model(g, opt);
  std::printf(" box [0, 1]: symbolic %.3f s, %zu concrete executions (%zu directed)\n", symbolic_seconds(r),
              r.samples_run, r.directed_run);
  outputs(g, r, "box");
  std::printf("  %-8s %-12s %12s %10s\n", "tensor", "op", "bound", "node s");
  for (const auto& t : r.tensors)
    std::printf("  %-8s %-12s %12.3g %10.4f\n", t.name.c_str(), t.op_type.c_str(), t.max_abs_err, t.node_seconds);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : SYMERR_MODEL_DIR;
  const int points = argc > 2 ? std::atoi(argv[2]) : 2;
  const std::size_t samples = argc > 3 ? static_cast<std::size_t>(std::atol(argv[3])) : 20;
  const std::string domain = argc > 4 ? argv[4] : "interval";
  const std::size_t terms = argc > 5 ? static_cast<std::size_t>(std::atol(argv[5])) : 48;
  std::printf("domain: %s (affine terms %zu)\n", domain.c_str(), terms);
  run(dir + "/mlp_784_128_64_10.onnx", points, samples, domain, terms);
  if (argc <= 6) run(dir + "/lenet5.onnx", points, samples, domain, terms);
}
