// Spec audit of the unary SONNX propagation bounds (accuracy digest §1.5:
// Abs, Exp, Log, Sqrt, Sigmoid, Pow, LeakyRelu, Where; the Tanh identity and
// bounds). Each bound speaks about one concrete execution: a real input r,
// an input error e (computed input r + e), and the propagated error
// f(r + e) − f(r). The audit
//  * refutes a bound with an exact witness: r and e are doubles (exact
//    rationals) and MPFR at 256 bits with directed rounding certifies
//    lower(|f(r+e) − f(r)|) > upper(bound);
//  * states the largest input-error range on which the bound holds (a
//    convexity argument, given in `argument`) and checks it on random
//    executions: no violation inside the range, violations outside it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace symerr::verify {

/// The audit of one unary bound of the SONNX accuracy digest: refuted or not, and
/// the input-error range on which it holds, checked on random executions.
struct UnaryAuditEntry {
  std::string id;        ///< "sonnx.exp.propagation"
  std::string op;        ///< ONNX operator
  std::string formula;   ///< the bound as the digest states it
  std::string source;    ///< document
  std::string validity;  ///< the stated validity condition
  bool refuted = false;  ///< a certified witness was found
  std::string witness;   ///< "r = …, e = …: |propagated| >= … > bound <= …"
  std::string holds_on;  ///< the largest input-error range on which the bound holds
  std::string argument;  ///< why it holds there (and fails outside)
  ///@{
  /// Random executions inside holds_on, and how many violated the bound.
  long inside = 0, inside_violations = 0;    // random executions inside holds_on
  ///@}
  ///@{
  /// Random executions outside holds_on, and how many violated the bound.
  long outside = 0, outside_violations = 0;  // … outside it
  ///@}
};

/// Runs the audit of every registered unary bound (`samples` random executions each).
std::vector<UnaryAuditEntry> run_unary_audit(long samples = 20000, std::uint64_t seed = 13);

/// Markdown table of the results (id, verdict, witness, holds on).
std::string unary_audit_markdown(const std::vector<UnaryAuditEntry>& entries);

}  // namespace symerr::verify
