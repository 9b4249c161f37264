// The symbolic run of a graph on SymbolicDomainError<Affine> (correlations kept).
#include "model_runs.hpp"

namespace symerr::onnx {

Values<SymbolicDomainError<Affine>> run_symbolic(const Graph& g, Values<SymbolicDomainError<Affine>> inputs,
                                                 const NodeVisitor<SymbolicDomainError<Affine>>& visit,
                                                 bool keep_all) {
  return evaluate<SymbolicDomainError<Affine>>(g, std::move(inputs), visit, keep_all);
}

}  // namespace symerr::onnx
