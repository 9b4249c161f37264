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

}  // namespace symerr::verify
