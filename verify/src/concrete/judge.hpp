// Private to symerr_verify: judging one kernel output against the reference,
// accumulating Evidence, and keeping the smallest failing inputs. Shared by
// the list-driven check (concrete.cpp) and the exhaustive sweep.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include <symerr/verify/concrete/concrete.hpp>

namespace symerr::verify::detail {

// ---- text -------------------------------------------------------------------

std::string exact_decimal(double x);            // exact decimal of a double ("-0", "inf", "nan")
std::string exact_decimal(const mpq_class& q);  // exact if dyadic, else "n/d (~ 0.333...)"
std::string short_text(double x);               // shortest round-trip decimal, "+inf", "NaN"
std::string int_text(__int128 v);
// An element of `t` from its storage bits, with its exact text.
Value storage_value(ElementType t, std::uint64_t bits);

// ---- evidence helpers -------------------------------------------------------------

inline std::uint64_t mix64(std::uint64_t z) noexcept {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
// The scatter-sampling key of an input pair: independent hashes of the two
// operands, xor-ed (so that a sweep can hash each operand once).
inline std::uint64_t key_first(std::uint64_t a_bits) noexcept { return mix64(a_bits * 0x9E3779B97F4A7C15ull); }
inline std::uint64_t key_second(std::uint64_t b_bits) noexcept { return mix64(b_bits + 0x632BE59BD9B4E019ull); }
inline std::uint64_t pair_key(std::uint64_t a_bits, std::uint64_t b_bits) noexcept {
  return key_first(a_bits) ^ key_second(b_bits);
}

// Bottom-k insertion by key.
void scatter_add(ScatterSample& s, ScatterPoint p);
inline bool scatter_wants(const ScatterSample& s, std::uint64_t key) noexcept {
  return s.points.size() < s.capacity || key < s.points.back().key;
}

void count_classes(Evidence& ev, ClassMask m, bool failed);

// ---- witness candidates -------------------------------------------------------------

// A failing input kept cheaply; turned into a Witness (exact text) at the end.
template <class V>
struct Candidate {
  V a{}, b{}, out{};
  ClassMask classes = 0;
};

inline auto order_key(double a, double b) noexcept {
  auto mag = [](double x) { return std::isnan(x) ? INFINITY : std::fabs(x); };
  return std::make_tuple(std::max(mag(a), mag(b)), mag(a), mag(b), std::signbit(a), std::signbit(b),
                         std::bit_cast<std::uint64_t>(a), std::bit_cast<std::uint64_t>(b));
}
inline auto order_key(__int128 a, __int128 b) noexcept {
  auto mag = [](__int128 x) { return x < 0 ? -x : x; };
  return std::make_tuple(std::max(mag(a), mag(b)), mag(a), mag(b), a < 0, b < 0);
}

// The `limit` smallest candidates overall plus the smallest of each input class
// (for Normal: the smallest input whose only class is Normal).
template <class V>
class WitnessSet {
 public:
  explicit WitnessSet(std::size_t limit = 5) : limit_(limit) {}

  void add(const Candidate<V>& c) {
    const auto k = order_key(c.a, c.b);
    if (smallest_.size() < limit_ || k < order_key(smallest_.back().a, smallest_.back().b)) {
      auto it = std::lower_bound(smallest_.begin(), smallest_.end(), k,
                                 [](const Candidate<V>& x, const auto& key) { return order_key(x.a, x.b) < key; });
      if (it == smallest_.end() || order_key(it->a, it->b) != k) {  // not already kept
        smallest_.insert(it, c);
        if (smallest_.size() > limit_) smallest_.pop_back();
      }
    }
    for (std::size_t i = 0; i < kInputClassCount; ++i) {
      if (!has_class(c.classes, kInputClasses[i])) continue;
      // the Normal slot keeps a typical failure: every class of the input is Normal
      if (kInputClasses[i] == InputClass::Normal && c.classes != mask_of(InputClass::Normal)) continue;
      auto& slot = per_class_[i];
      if (!slot.second || k < order_key(slot.first.a, slot.first.b)) slot = {c, true};
    }
  }
  void merge(const WitnessSet& o) {
    for (const auto& c : o.smallest_) add(c);
    for (const auto& [c, present] : o.per_class_)
      if (present) add(c);
  }
  // Distinct candidates, smallest first.
  std::vector<Candidate<V>> all() const {
    std::vector<Candidate<V>> v = smallest_;
    for (const auto& [c, present] : per_class_)
      if (present) v.push_back(c);
    std::sort(v.begin(), v.end(), [](const Candidate<V>& x, const Candidate<V>& y) {
      return order_key(x.a, x.b) < order_key(y.a, y.b);
    });
    v.erase(std::unique(v.begin(), v.end(),
                        [](const Candidate<V>& x, const Candidate<V>& y) {
                          return order_key(x.a, x.b) == order_key(y.a, y.b);
                        }),
            v.end());
    return v;
  }

 private:
  std::size_t limit_;
  std::vector<Candidate<V>> smallest_;
  std::array<std::pair<Candidate<V>, bool>, kInputClassCount> per_class_{};
};

// What both judges accumulate: the evidence, the smallest failing inputs and
// the input of the largest error (ties: the smaller input).
template <class V, class Judge>
struct JudgeState {
  explicit JudgeState(std::size_t max_witnesses) : failing(max_witnesses) {}

  Evidence evidence;
  WitnessSet<V> failing;
  V worst_a{}, worst_b{}, worst_out{};
  bool has_worst = false;

  // Keep (a, b, out) as the worst input when its error `err` beats `kept`, the
  // error of the input kept (the caller passes evidence.max_ulp_error before
  // taking err into it).
  void note_worst(V a, V b, V out, double err, double kept) {
    if (has_worst && !(err > kept || (err == kept && order_key(a, b) < order_key(worst_a, worst_b)))) return;
    worst_a = a;
    worst_b = b;
    worst_out = out;
    has_worst = true;
  }
  // Evidence of a disjoint input set (another thread's, another shard's).
  void merge(const JudgeState& o) {
    const double mine = evidence.max_ulp_error;
    verify::merge(evidence, o.evidence);
    evidence.worst.reset();
    if (o.has_worst) note_worst(o.worst_a, o.worst_b, o.worst_out, o.evidence.max_ulp_error, mine);
    failing.merge(o.failing);
  }
  // The kept failing inputs as witnesses (exact text), smallest first.
  std::vector<Witness> witnesses() const {
    std::vector<Witness> v;
    for (const auto& c : failing.all())
      v.push_back(static_cast<const Judge&>(*this).make_witness(c.a, c.b, c.out, c.classes));
    return v;
  }
};

// ---- float judge ----------------------------------------------------------------------

class FloatJudge : public JudgeState<double, FloatJudge> {
 public:
  FloatJudge(ElementType type, OpId op, const FloatFormat& F, const CheckOptions& o);

  // Classes of the pair from its operands and the reference.
  ClassMask classes(double a, double b, const FloatReference& ref) const noexcept;

  // Judge one output. With count_inputs false the caller counts inputs_checked
  // and the operand classes itself (the exhaustive sweep does it per row); the
  // Overflow class is always counted here.
  bool judge(double a, double b, double out, const FloatReference& ref, bool count_inputs = true);

  // Error statistics of one input with a finite, non-overflowing exact result.
  void record_error(double a, double b, double out, double abs_err, double exact, double ulp_err);

  // Evidence::worst from the recorded worst input (exact text).
  void finish_worst();

  const ElementType type;
  const OpId op;
  const FloatFormat format;
  const Property* property;
  bool strict;

  Witness make_witness(double a, double b, double out, ClassMask classes) const;
  void note_flush_consistency(double a, double b, double out);

 private:
  bool bound_holds(double a, double b, double out, const FloatReference& ref, double err_d) const;
};

// True when out is the same IEEE datum as ref: any NaN matches any NaN; zeros
// must agree in sign.
inline bool same_result(double out, double ref) noexcept {
  if (std::isnan(ref)) return std::isnan(out);
  return out == ref && std::signbit(out) == std::signbit(ref);
}

// ---- integer judge --------------------------------------------------------------------

class IntJudge : public JudgeState<__int128, IntJudge> {
 public:
  IntJudge(ElementType type, OpId op, const IntFormat& I, const CheckOptions& o);
  bool judge(__int128 a, __int128 b, __int128 out, const IntReference& ref, bool count_inputs = true);
  void finish_worst();

  const ElementType type;
  const OpId op;
  const IntFormat format;
  const IntegerDivision division;

  Witness make_witness(__int128 a, __int128 b, __int128 out, ClassMask classes) const;
};

// Verdict and reason from the evidence.
void finish_verdict(CheckResult& r, bool exhaustive);

}  // namespace symerr::verify::detail
