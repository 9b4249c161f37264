// The driver's explorer, base layer: the state of one exploration (one box)
// and the quantities a run's values stand for — the inputs by their tags, the
// computed values named at their first comparison — as linear functions of
// symbols (Lin), for the path conditions and the unstable-pair bounds.
#pragma once

#include <algorithm>
#include <cmath>
#include <span>

#include <symerr/domains/affine.hpp>

#include "state.hpp"

namespace symerr::verify::driver_impl {

template <class D>
class ExplorerBase {
 protected:
  using S = SymbolicDomainError<D>;
  using Lane = LaneState<D>;
  using Group = GroupState<D>;

 public:
  ExplorerBase(const DriverOptions& o, bool use_lanes, DriverReport& rep, std::span<const S> inputs,
               const Deadline& deadline)
      : opt_(o), single_(!use_lanes), report_(rep), inputs_(inputs), deadline_(deadline) {
    for (const S& x : inputs) {
      input_err_lo_ = std::min(input_err_lo_, x.err.lower());
      input_err_hi_ = std::max(input_err_hi_, x.err.upper());
    }
  }

  bool violated() const { return violated_; }

  // Whether the call's wall-clock safety limit (max_seconds) has run out
  // (then the report says so).
  bool out_of_time() const {
    if (!timed_out_ && deadline_.passed()) timed_out_ = report_.time_exhausted = true;
    return timed_out_;
  }

  std::int32_t generation() const { return generation_; }
  // The current run's recipes (QuantityNumbering::recipes), by number.
  std::vector<symerr::detail::QuantityRecipe>* recipe_table() { return &recipes_; }
  // The tag of input i in this exploration's runs (also in the Affine
  // domain, whose conditions are also stated by tags: see tag_conditions).
  std::int32_t tag(std::size_t i) const {
    if (i >= kTaggedInputs) return -1;
    return static_cast<std::int32_t>((static_cast<std::uint32_t>(generation_) << 16) | static_cast<std::uint32_t>(i));
  }

 protected:
  // The quantity x is a copy of, if it is one of both runs of group g: an
  // input, or a computed value numbered before the divergence (Named).
  std::optional<std::size_t> shared_quantity(const S& x, const Group& g) const {
    const std::optional<std::size_t> q = quantity_of(x.source);
    if (!q || (*q >= inputs_.size() && *q >= g.shared)) return std::nullopt;
    return q;
  }

  // A recorded condition as a Lin (nullopt: an operand has none).
  std::optional<Lin> condition_lin(const Cond& cond, const Names& names) const {
    std::optional<Lin> d;
    if (std::is_same_v<D, Affine> && !cond.by_input) {
      d = lin_of(cond.form);
    } else {
      std::optional<Lin> v[2];
      for (int o = 0; o < 2; ++o) {
        if (cond.input[o] < 0) v[o] = Lin{mpq_class(cond.value[o]), {}};
        else v[o] = quantity_lin(static_cast<std::size_t>(cond.input[o]), cond.computed, names);
      }
      if (!v[0] || !v[1]) return std::nullopt;
      d = difference(*v[0], *v[1]);
    }
    if (d && cond.flip) {
      d->c0 = -d->c0;
      for (auto& t : d->terms) t.second = -t.second;
    }
    return d;
  }

  // Interval domains: the input a value is a copy of (its tag, of this
  // exploration), or nullopt.
  std::optional<std::size_t> input_of(const S& x) const { return input_of(x.source); }
  // … of a tag (a comparison's copy of an operand's: ComparisonInfo::source)
  std::optional<std::size_t> input_of(std::int32_t source) const {
    const std::optional<std::size_t> i = quantity_of(source);
    if (!i || *i >= inputs_.size()) return std::nullopt;
    return i;
  }
  // … or the named computed value (an index >= inputs_.size(): see Named)
  std::optional<std::size_t> quantity_of(std::int32_t source) const {
    if (source < 0 || (source >> 16) != generation_) return std::nullopt;
    return static_cast<std::size_t>(source & 0xFFFF);
  }

  // Quantity q (an input, or a computed value named in
  // `names` and numbered below names.limit) as a Lin, like input_lin.
  std::optional<Lin> quantity_lin(std::size_t q, bool computed, const Names& names) const {
    if (q < inputs_.size()) return input_lin(q, computed);
    if (!names.table || q >= names.limit) return std::nullopt;
    for (const Named& n : *names.table)
      if (n.quantity == q) return range_lin(n.real_lo, n.real_hi, n.err_lo, n.err_hi, q, computed);
    return std::nullopt;
  }

  // Interval domains: the real (computed = false) or computed value of x as a
  // linear function of the inputs' symbols — input i's real value is
  // m_r + h_r·ε_{2i} over its box's real range [m_r − h_r, m_r + h_r] (m_r
  // exact, h_r rounded up: every real value of the range has its ε), its
  // error m_e + h_e·ε_{2i+1} likewise, its computed value the sum — or an
  // exact constant (real = computed, one point). nullopt otherwise.
  std::optional<Lin> input_lin(std::size_t i, bool computed) const {
    const S& in = inputs_[i];
    if (symerr::detail::maybe_special(in) || !is_bounded(in.real) || !is_bounded(in.err)) return std::nullopt;
    return range_lin(in.real.lower(), in.real.upper(), in.err.lower(), in.err.upper(), i, computed);
  }
  // Quantity q with real value in [rlo, rhi] and error in [elo, ehi] (finite).
  static Lin range_lin(double rlo, double rhi, double elo, double ehi, std::size_t q, bool computed) {
    Lin l;
    auto add = [&l](double range_lo, double range_hi, std::uint32_t symbol) {
      const mpq_class lo(range_lo), hi(range_hi);
      const mpq_class half = (hi - lo) / 2;
      l.c0 += (lo + hi) / 2;
      double h = half.get_d();
      if (mpq_class(h) < half) h = std::nextafter(h, INFINITY);
      if (h != 0) l.terms.emplace_back(symbol, h);
    };
    // (in the Affine domain numbered apart from the context's symbols: the
    // two kinds of conditions meet in outcome_feasible's programs)
    const std::uint32_t first = std::is_same_v<D, Affine> ? 0xC0000000u : 0u;
    add(rlo, rhi, first + static_cast<std::uint32_t>(2 * q));
    if (computed) add(elo, ehi, first + static_cast<std::uint32_t>(2 * q + 1));
    return l;
  }
  std::optional<Lin> value_lin(const S& x, bool computed, const Names& names) const {
    const D& v = computed ? x.fp : x.real;
    if (symerr::detail::maybe_special(x)) return std::nullopt;
    if (const std::optional<std::size_t> q = quantity_of(x.source)) return quantity_lin(*q, computed, names);
    if (x.real.lower() == x.real.upper() && x.fp.lower() == x.fp.upper() && x.real.lower() == x.fp.lower() &&
        std::isfinite(v.lower()))
      return Lin{mpq_class(v.lower()), {}};
    return std::nullopt;
  }

  const DriverOptions& opt_;
  bool single_;
  DriverReport& report_;
  std::vector<Lane> lanes_;
  bool violated_ = false;
  std::span<S> in_, out_;
  std::vector<detail::AdoptedBuffer> adopted_;  // KernelBuffers alive in the current run
  std::vector<symerr::detail::QuantityRecipe> recipes_;  // the current run's, by number
  std::span<const S> inputs_;                        // the box's inputs, as given (for value_lin)
  double input_err_lo_ = 0, input_err_hi_ = 0;       // the hull of their error ranges (and 0)
  const std::int32_t generation_ = next_generation();  // of this exploration's tags
  const Deadline deadline_;
  mutable bool timed_out_ = false;
};

}  // namespace symerr::verify::driver_impl
