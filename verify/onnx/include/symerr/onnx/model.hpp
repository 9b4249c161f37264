// Whole-model analysis (docs/models.md): sound enclosures of every tensor of
// an ONNX graph run in FP32 by symerr's reference runner, concrete
// executions of that runner measured against an exact (MPFR, 256 bits)
// execution, and an ε verdict per graph output.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <symerr/onnx/graph.hpp>

namespace symerr::onnx {

/// What the analysis assumes about the graph inputs and what it checks.
struct ModelOptions {
  /// Per graph input, the box [lo, hi] of every element's real value
  /// (inputs not named: `default_box`).
  std::map<std::string, std::pair<double, double>> boxes;
  std::pair<double, double> default_box{0.0, 1.0};  ///< the box of inputs not in `boxes`
  /// Per graph input, a point: the FP32 input the runner gets; its real value
  /// is within input_error of it. An input with a point is not a box.
  std::map<std::string, Tensor<float>> points;
  /// Per input point, a box around it: each element's real value lies in
  /// [p − h, p + h] (p the point's element, the ends computed in binary64)
  /// and the runner gets any FP32 value of that box within input_error of it;
  /// 0: the point itself.
  double point_half_width = 0;
  double input_error = 0;                 ///< |computed − real| of every input element
  /// The enclosures' domain for every node: "interval" (SymbolicError) or
  /// "affine" (SymbolicDomainError<Affine>: correlations kept, slower, more memory).
  std::string domain = "interval";
  /// Affine only: the most noise symbols one form keeps (AffineOptions::max_terms);
  /// per input point, at least the input elements' count keeps the input errors apart.
  std::size_t affine_max_terms = 48;
  std::optional<double> epsilon;          ///< absolute ε on every graph output element
  std::size_t samples = 1000;             ///< concrete executions (FP32 runner vs exact runner)
  std::uint64_t seed = 1;                 ///< seed of the sampled inputs
  /// Also the directed executions: per output element (the first 16 of each
  /// output), input errors — and in box mode the box's corner — along the sign
  /// of the element's gradient (forward differences in binary64), and against it.
  bool directed = true;
  /// Check every element of every tensor of every execution against its
  /// enclosure (keeps every tensor's enclosures in memory).
  bool check_every_tensor = true;
  /// Factor on the err enclosures in those checks: 1, or 0.5 for the
  /// halved-bound twin that the tests expect to fail.
  double enclosure_scale = 1.0;
  std::filesystem::path witness_dir;      ///< where violated verdicts save their inputs ("" = none)
  /// Progress per node (name, op, elements, elapsed) or per sample batch; none when empty.
  std::function<void(const std::string&)> progress;
};

/// The enclosures and observations of one tensor.
struct TensorSummary {
  /// The tensor's name.
  std::string name;
  std::string node;        ///< producing node ("input" for a graph input)
  std::string op_type;     ///< its operator ("" for a graph input)
  Shape shape;             ///< static shape
  ///@{
  /// Enclosure of every element's real and computed value (union over elements).
  double real_lo = 0, real_hi = 0, fp_lo = 0, fp_hi = 0;
  ///@}
  double max_abs_err = 0;        ///< the bound: max over elements of max |err|
  std::size_t max_abs_err_at = 0;  ///< flat index of that element
  double max_rel_err = 0;        ///< max |rel_err| (inf when some real value may be 0)
  double max_propagated = 0;     ///< max |propagated error| (the inputs' errors carried)
  double max_introduced = 0;     ///< max |introduced error| (this and earlier nodes' roundings)
  bool may_be_special = false;   ///< some element may be NaN or ±inf
  double observed = 0;           ///< the largest |err| seen in the concrete executions
  double node_seconds = 0;       ///< time of the symbolic node
};

/// The verdict on one graph output against ε.
struct OutputVerdict {
  /// The output's name.
  std::string output;
  /// "proven", "violated" or "inconclusive".
  std::string verdict;
  double bound = 0;      ///< the proven bound (max |err| over its elements)
  double epsilon = 0;    ///< the ε checked
  double observed = 0;   ///< the largest error of the concrete executions
  std::vector<std::filesystem::path> witness;  ///< violated: the saved input tensors (.pb)
};

/// Everything the analysis found.
struct ModelResult {
  /// Per tensor (graph inputs, then node outputs in order).
  std::vector<TensorSummary> tensors;
  /// Per graph output, when an ε was given.
  std::vector<OutputVerdict> verdicts;
  std::size_t samples_run = 0;                 ///< concrete executions done (random and directed)
  std::size_t directed_run = 0;                ///< of which directed
  std::size_t elements_checked = 0;            ///< element checks against enclosures
  std::vector<std::string> containment_failures;  ///< element outside its enclosure (a soundness bug; first 20)
  std::map<std::string, std::size_t> failures_per_tensor;  ///< every such element, counted per tensor
  std::string mode;                            ///< "box" or "point"
};

/// Runs the analysis (symbolic enclosures, then the concrete executions and the verdicts).
/// @throws InputError for an input the graph does not have, a box or point of the wrong shape.
ModelResult analyse_model(const Graph& g, const ModelOptions& opt);

/// The result as JSON (schema: docs/models.md).
std::string model_json(const Graph& g, const ModelOptions& opt, const ModelResult& r);
/// The result as Markdown: hypotheses, per-tensor table, verdicts.
std::string model_markdown(const Graph& g, const ModelOptions& opt, const ModelResult& r);

/// One point of a point set: per graph input it gives, the FP32 tensor the
/// runner gets (its real value within the input error of it) and its file.
struct InputPoint {
  std::map<std::string, Tensor<float>> inputs;  ///< per graph input, the FP32 tensor
  std::map<std::string, std::string> files;     ///< per graph input, the .pb file it came from
};

/// One graph output over a point set.
struct PointSetOutput {
  /// The output's name.
  std::string output;
  double max_bound = 0;       ///< the largest bound (max |err|) over the points
  std::size_t at_point = 0;   ///< the index of the point with that bound (the first one on ties)
  double observed = 0;        ///< the largest error of the concrete executions over the points
  /// With an ε: "proven" when proven at every point, "violated" when some
  /// point has a re-checked witness, otherwise "inconclusive"; "" without ε.
  std::string verdict;
};

/// The analysis of every point of a set, and per output the maximum over it.
struct PointSetResult {
  /// Per point, in the order given, the analysis of that point (mode "point").
  std::vector<ModelResult> points;
  /// Per graph output.
  std::vector<PointSetOutput> outputs;
};

/// Loads a point set: per graph input named, its .pb files (the same count
/// for every input named); point k takes the k-th file of each input.
/// @throws InputError naming the file and the tensor: a file that cannot be
/// read or parsed, a tensor that is not FLOAT, a shape other than the graph
/// input's, an input the graph does not have, unequal counts, no files.
std::vector<InputPoint> load_point_set(const Graph& g,
                                       const std::map<std::string, std::vector<std::filesystem::path>>& files);

/// analyse_model() at every point (the options' own `points` apply to every
/// point; an input may not be in both), witnesses saved under
/// witness_dir/point_K; per output the maximum bound over the set and the ε
/// verdict over the set.
/// @throws InputError as analyse_model(), or for an input both in opt.points and in the set.
PointSetResult analyse_point_set(const Graph& g, const ModelOptions& opt, const std::vector<InputPoint>& points);

/// The point-set result as JSON: the set's summary per output, and per point its files and full model report.
std::string point_set_json(const Graph& g, const ModelOptions& opt, const std::vector<InputPoint>& points,
                           const PointSetResult& r);
/// The point-set result as Markdown: hypotheses, the maximum per output, the bounds per point.
std::string point_set_markdown(const Graph& g, const ModelOptions& opt, const std::vector<InputPoint>& points,
                               const PointSetResult& r);

/// The FP32 reference runner on graph inputs by name; the graph outputs by name.
/// @throws InputError for a missing input or a wrong shape.
std::map<std::string, Tensor<float>> run_fp32(const Graph& g, const std::map<std::string, Tensor<float>>& inputs);
/// The exact runner (MPFR, 256 bits) on graph inputs by name; the graph outputs rounded to double.
std::map<std::string, Tensor<double>> run_exact_to_double(const Graph& g,
                                                          const std::map<std::string, Tensor<double>>& inputs);

/// Replays a saved witness: the FP32 runner on the computed inputs and the
/// exact runner on the real ones (`real` empty: the same tensors); returns
/// per graph output the largest |computed − exact|.
std::map<std::string, double> replay_error(const Graph& g, const std::map<std::string, Tensor<float>>& computed,
                                           const std::map<std::string, Tensor<double>>& real);

}  // namespace symerr::onnx
