// The symbolic run of a graph on SymbolicError (interval enclosures).
#include "model_runs.hpp"

namespace symerr::onnx {

Values<SymbolicError> run_symbolic(const Graph& g, Values<SymbolicError> inputs,
                                   const NodeVisitor<SymbolicError>& visit, bool keep_all) {
  return evaluate<SymbolicError>(g, std::move(inputs), visit, keep_all);
}

}  // namespace symerr::onnx
