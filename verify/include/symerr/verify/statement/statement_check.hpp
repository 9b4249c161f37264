// A kernel judged against an accuracy statement of the statement language
// (statement.hpp) instead of a constant bound: elementwise statements (one
// output index) for a kernel of one output, whose inputs are the statement's
// tensors by name (docs/statements.md "Checking a kernel").
//
// Proof: the input box is cut into a grid of at most `grid` sub-boxes (as
// the witness search's aiming grid); on each, the driver encloses the output
// (`options.driver`) and the statement is evaluated over the sub-box at 64
// bits (the inputs' ranges and errors, Y the output's real enclosure, Y_err
// its error enclosure): the sub-box is proven when the condition is false
// there, or when sup |part| is at most the bound's smallest value. Proven
// when every sub-box is.
// Witnesses (options.compiled, kinds err and introduced with error-free
// inputs): the compiled kernel against the exact execution, the statement
// evaluated at the point at 256 bits (Y the exact result's enclosure; where
// its condition is not certainly true, the point is not judged); violated
// when the error exceeds the bound's largest value there, re-checked.
#pragma once

#include <span>
#include <string>
#include <vector>

#include <symerr/verify/statement/statement.hpp>
#include <symerr/verify/symbolic/symbolic_check.hpp>

namespace symerr::verify {

/// Checks `kernel` on the input boxes `inputs` against `statement` (proof on a
/// grid of at most `grid` sub-boxes, witnesses; see above); `name` names the
/// kernel in the result.
/// Throws StatementError before anything runs when the statement is not
/// elementwise, names a tensor that is neither an input (input_names[i] is
/// the statement's name of input i) nor the output, or bounds rel_err or ulp
/// (not supported yet); std::invalid_argument for a format that is not a
/// float format.
KernelCheckResult check_statement(const SymbolicKernel& kernel, std::span<const InputBox> inputs,
                                  const std::vector<std::string>& input_names, const Format& format,
                                  const Statement& statement, const KernelCheckOptions& options = {},
                                  const std::string& name = "kernel", std::size_t grid = 64);

/// A tensor of a kernel checked against a statement: its name in the
/// statement and its shape (row-major).
struct StatementTensor {
  std::string name;                ///< the statement's name of the tensor
  std::vector<std::size_t> shape;  ///< its dimension sizes
};

/// The tensor form: the kernel's inputs are the elements of `input_tensors`,
/// concatenated in order (row-major), `inputs` their boxes; the kernel returns
/// element `element` (row-major) of tensor `output`, the statement's output
/// element at the index `element` unravels to. The same proof and witnesses
/// as above; the output's other elements are unknown to the statement (a
/// bound naming them is unbounded: not proven). The driver's budget stops,
/// if any, are named in `check.semantics["budget_stopped_by"]`.
/// Throws StatementError when the shapes do not match the statement's ranks,
/// the sizes do not add up to inputs.size(), or a tensor of the statement is
/// neither an input nor the output.
KernelCheckResult check_statement(const SymbolicKernel& kernel, std::span<const InputBox> inputs,
                                  const std::vector<StatementTensor>& input_tensors, const StatementTensor& output,
                                  std::size_t element, const Format& format, const Statement& statement,
                                  const KernelCheckOptions& options = {}, const std::string& name = "kernel",
                                  std::size_t grid = 64);

}  // namespace symerr::verify
