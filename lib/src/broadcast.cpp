#include <symerr/broadcast.hpp>
#include <symerr/tensor_errors.hpp>

namespace symerr {

namespace {

template <class... F>
struct Overloaded : F... {
  using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

std::string both_shapes(const Shape& a, const Shape& b) {
  return "A has shape " + to_string(a) + ", B has shape " + to_string(b);
}

std::string prefix(const OpConstraints& op, const BroadcastRule& rule) {
  return std::string(op.name) + " (" + to_string(rule) + ")";
}

BroadcastPlan identical(const Shape& a) {
  const Shape st = row_major_strides(a);
  return {a, st, st};
}

BroadcastPlan numpy(const Shape& a, const Shape& b, const OpConstraints& op, const BroadcastRule& rule) {
  const std::size_t r = std::max(a.size(), b.size());
  const Shape sa = row_major_strides(a), sb = row_major_strides(b);
  BroadcastPlan p{Shape(r, 0), Shape(r, 0), Shape(r, 0)};
  for (std::size_t k = 0; k < r; ++k) {
    const bool has_a = k + a.size() >= r, has_b = k + b.size() >= r;
    const std::size_t ka = k + a.size() - r, kb = k + b.size() - r;  // valid when has_*
    const std::size_t da = has_a ? a[ka] : 1, db = has_b ? b[kb] : 1;
    if (da != db && da != 1 && db != 1)
      throw ShapeError(prefix(op, rule) + ": shapes are not broadcastable: " + both_shapes(a, b) +
                       "; output axis " + std::to_string(k) + " has dimension " +
                       std::to_string(da) + " in A and " + std::to_string(db) + " in B");
    p.out[k] = da == 1 ? db : da;
    p.stride_a[k] = has_a && da == p.out[k] && da != 1 ? sa[ka] : 0;
    p.stride_b[k] = has_b && db == p.out[k] && db != 1 ? sb[kb] : 0;
  }
  return p;
}

BroadcastPlan legacy(const Shape& a, const Shape& b, const OnnxLegacy& l, const OpConstraints& op,
                     const BroadcastRule& rule) {
  if (!l.broadcast) {
    if (a != b)
      throw ShapeError(prefix(op, rule) + ": broadcasting is disabled, B must have the shape of A: " +
                       both_shapes(a, b));
    return identical(a);
  }
  if (b.size() > a.size())
    throw ShapeError(prefix(op, rule) + ": B has rank " + std::to_string(b.size()) +
                     " greater than the rank " + std::to_string(a.size()) + " of A: " +
                     both_shapes(a, b));
  BroadcastPlan p{a, row_major_strides(a), Shape(a.size(), 0)};
  if (element_count(b, "B") == 1) return p;  // a scalar or 1-element B, any rank <= rank(A)
  if (l.axis && *l.axis < 0)
    throw ShapeError(prefix(op, rule) + ": negative axis " + std::to_string(*l.axis) +
                     " is not defined by ONNX opset 1/6: " + both_shapes(a, b));
  const std::size_t start = l.axis ? static_cast<std::size_t>(*l.axis) : a.size() - b.size();
  if (start > a.size() - b.size())
    throw ShapeError(prefix(op, rule) + ": axis " + std::to_string(start) +
                     " out of range: B of rank " + std::to_string(b.size()) +
                     " must start at an axis in [0, " + std::to_string(a.size() - b.size()) +
                     "] of A: " + both_shapes(a, b));
  const Shape sb = row_major_strides(b);
  for (std::size_t k = 0; k < b.size(); ++k) {
    if (a[start + k] != b[k])
      throw ShapeError(prefix(op, rule) + ": shape of B is not the contiguous run of A's shape " +
                       "starting at axis " + std::to_string(start) +
                       (l.axis ? "" : " (suffix matching)") + ": " + both_shapes(a, b) +
                       "; B axis " + std::to_string(k) + " is " + std::to_string(b[k]) +
                       ", A axis " + std::to_string(start + k) + " is " +
                       std::to_string(a[start + k]) +
                       (b[k] == 1 ? " (1-dim expansion is not supported in opset 1/6)" : ""));
    p.stride_b[start + k] = sb[k];
  }
  return p;
}

}  // namespace

std::string to_string(const BroadcastRule& rule) {
  return std::visit(
      Overloaded{
          [](const Sonnx&) -> std::string { return "SONNX"; },
          [](const OnnxMultidirectional&) -> std::string {
            return "ONNX multidirectional broadcasting";
          },
          [](const OnnxLegacy& l) -> std::string {
            return std::string("ONNX opset 1/6 broadcast=") + (l.broadcast ? "1" : "0") +
                   (l.axis ? " axis=" + std::to_string(*l.axis) : std::string(" axis unset"));
          },
          [](const OpenVino& o) -> std::string {
            return std::string("OpenVINO auto_broadcast=") +
                   (o.auto_broadcast == AutoBroadcast::None ? "none" : "numpy");
          },
      },
      rule);
}

BroadcastPlan broadcast_plan(const Shape& a, const Shape& b, const BroadcastRule& rule,
                             const OpConstraints& op) {
  element_count(a, std::string(op.name) + " input A");
  element_count(b, std::string(op.name) + " input B");
  BroadcastPlan p = std::visit(
      Overloaded{
          [&](const Sonnx&) {
            if (a != b)
              throw ShapeError(std::string(op.name) + " " + std::string(op.shape_constraint) +
                               " shape consistency violated: " + both_shapes(a, b));
            return identical(a);
          },
          [&](const OnnxMultidirectional&) { return numpy(a, b, op, rule); },
          [&](const OnnxLegacy& l) { return legacy(a, b, l, op, rule); },
          [&](const OpenVino& o) {
            if (o.auto_broadcast == AutoBroadcast::Numpy) return numpy(a, b, op, rule);
            if (a != b)
              throw ShapeError(prefix(op, rule) + ": shapes must be identical: " +
                               both_shapes(a, b));
            return identical(a);
          },
      },
      rule);
  element_count(p.out, std::string(op.name) + " output");
  return p;
}

void check_same_element_type(std::string_view type_a, std::string_view type_b,
                             const BroadcastRule& rule, const OpConstraints& op) {
  if (type_a == type_b) return;
  const std::string types =
      "A has type " + std::string(type_a) + ", B has type " + std::string(type_b);
  if (std::holds_alternative<Sonnx>(rule))
    throw TypeError(std::string(op.name) + " " + std::string(op.type_constraint) +
                    " type consistency violated: " + types);
  throw TypeError(prefix(op, rule) + ": type constraint T violated (A and B must have the same " +
                  "element type): " + types);
}

}  // namespace symerr
