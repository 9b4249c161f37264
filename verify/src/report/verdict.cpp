// Small helpers of the verdict data types: names, histogram buckets, witness
// order, and the merging of evidence from disjoint input sets (shards).
#include <symerr/verify/report/verdict.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

namespace symerr::verify {

const char* to_string(Verdict v) noexcept {
  switch (v) {
    case Verdict::Proven: return "proven";
    case Verdict::PassedOnSamples: return "passed_on_samples";
    case Verdict::Violated: return "violated";
    case Verdict::Inconclusive: return "inconclusive";
    case Verdict::Crashed: return "crashed";
    case Verdict::TimedOut: return "timed_out";
  }
  return "?";
}

std::optional<Verdict> parse_verdict(std::string_view s) noexcept {
  for (Verdict v : kAllVerdicts)
    if (s == to_string(v)) return v;
  return std::nullopt;
}

const char* to_string(Subject s) noexcept {
  return s == Subject::Implementation ? "implementation" : "specification";
}

std::optional<Subject> parse_subject(std::string_view s) noexcept {
  for (Subject x : {Subject::Implementation, Subject::Specification})
    if (s == to_string(x)) return x;
  return std::nullopt;
}

int exit_code(const CampaignResult& r, bool strict) noexcept {
  if (r.checks.empty()) return kExitInputError;
  if (is_failure(r.overall(Subject::Implementation))) return kExitImplementationFailure;
  if (is_failure(r.overall(Subject::Specification))) return kExitSpecificationRefuted;
  if (strict && severity(r.overall()) >= severity(Verdict::Inconclusive)) return kExitInconclusive;
  return kExitOk;
}

const char* to_string(InputClass c) noexcept {
  switch (c) {
    case InputClass::Normal: return "normal";
    case InputClass::Subnormal: return "subnormal";
    case InputClass::Zero: return "zero";
    case InputClass::Inf: return "inf";
    case InputClass::NaN: return "nan";
    case InputClass::Overflow: return "overflow";
    case InputClass::NearZeroDivisor: return "near_zero_divisor";
  }
  return "?";
}

std::optional<InputClass> parse_input_class(std::string_view s) noexcept {
  for (InputClass c : kInputClasses)
    if (s == to_string(c)) return c;
  return std::nullopt;
}

// ---- histogram ----------------------------------------------------------------

std::size_t UlpHistogram::bucket_of(double e) noexcept {
  if (!(e < INFINITY)) return kBuckets - 1;  // +inf or NaN
  if (e <= 0) return 0;
  if (e < std::ldexp(1.0, kMinExp)) return 1;
  if (e >= std::ldexp(1.0, kMaxExp)) return kBuckets - 2;
  int ex = 0;
  std::frexp(e, &ex);  // e in [2^(ex-1), 2^ex)
  return static_cast<std::size_t>(2 + (ex - 1 - kMinExp));
}

double UlpHistogram::lower_edge(std::size_t i) noexcept {
  if (i == 0 || i == 1) return 0;
  if (i >= kBuckets - 1) return INFINITY;
  return std::ldexp(1.0, kMinExp + static_cast<int>(i) - 2);
}

double UlpHistogram::upper_edge(std::size_t i) noexcept {
  if (i == 0) return 0;
  if (i >= kBuckets - 2) return INFINITY;
  return std::ldexp(1.0, kMinExp + static_cast<int>(i) - 1);
}

// ---- witnesses ------------------------------------------------------------------

namespace {
auto witness_key(const Witness& w) {
  double largest = 0;
  for (const auto& v : w.inputs) largest = std::max(largest, std::fabs(v.value));
  if (std::any_of(w.inputs.begin(), w.inputs.end(), [](const Value& v) { return std::isnan(v.value); }))
    largest = INFINITY;  // NaN operands last
  std::vector<double> mags, signs;
  for (const auto& v : w.inputs) {
    mags.push_back(std::isnan(v.value) ? INFINITY : std::fabs(v.value));
    signs.push_back(std::signbit(v.value) ? 1.0 : 0.0);
  }
  return std::make_tuple(largest, mags, signs);
}

std::string exact_text(const Witness& w) {
  std::string s;
  for (const auto& v : w.inputs) s += v.exact + v.bits + ";";
  return s;
}
}  // namespace

bool smaller_witness(const Witness& a, const Witness& b) noexcept {
  const auto ka = witness_key(a), kb = witness_key(b);
  if (ka != kb) return ka < kb;
  return exact_text(a) < exact_text(b);
}

// ---- merging ----------------------------------------------------------------------

namespace {
void merge_scatter(ScatterSample& into, const ScatterSample& from) {
  into.capacity = std::max(into.capacity, from.capacity);
  std::vector<ScatterPoint> all;
  all.reserve(into.points.size() + from.points.size());
  std::merge(into.points.begin(), into.points.end(), from.points.begin(), from.points.end(),
             std::back_inserter(all),
             [](const ScatterPoint& x, const ScatterPoint& y) { return x.key < y.key; });
  if (all.size() > into.capacity) all.resize(into.capacity);
  into.points = std::move(all);
}
}  // namespace

void merge(Evidence& into, const Evidence& from) {
  into.inputs_checked += from.inputs_checked;
  into.failures += from.failures;
  into.wrong_special += from.wrong_special;
  into.undefined += from.undefined;
  for (std::size_t i = 0; i < kInputClassCount; ++i) {
    into.classes[i].checked += from.classes[i].checked;
    into.classes[i].failed += from.classes[i].failed;
  }
  into.max_abs_error = std::max(into.max_abs_error, from.max_abs_error);
  into.max_rel_error = std::max(into.max_rel_error, from.max_rel_error);
  if (from.worst && (!into.worst || from.worst->ulp_error > into.worst->ulp_error ||
                     (from.worst->ulp_error == into.worst->ulp_error &&
                      smaller_witness(*from.worst, *into.worst))))
    into.worst = from.worst;
  into.max_ulp_error = std::max(into.max_ulp_error, from.max_ulp_error);
  into.special.checked += from.special.checked;
  into.special.matched += from.special.matched;
  for (std::size_t i = 0; i < UlpHistogram::kBuckets; ++i)
    into.histogram.counts[i] += from.histogram.counts[i];
  merge_scatter(into.scatter, from.scatter);
  for (const auto& [k, v] : from.metrics) into.metrics[k] += v;
}

void merge(CheckResult& into, const CheckResult& from, std::size_t max_witnesses) {
  if (into.id != from.id)
    throw std::invalid_argument("merge: checks differ: '" + into.id + "' vs '" + from.id + "'");
  if (into.shard.count != from.shard.count)
    throw std::invalid_argument("merge: shard counts differ for '" + into.id + "': " +
                                std::to_string(into.shard.count) + " vs " +
                                std::to_string(from.shard.count));
  for (auto i : from.shard.indices)
    if (std::find(into.shard.indices.begin(), into.shard.indices.end(), i) !=
        into.shard.indices.end())
      throw std::invalid_argument("merge: shard " + std::to_string(i) + "/" +
                                  std::to_string(into.shard.count) + " of '" + into.id +
                                  "' given twice");
  merge(into.evidence, from.evidence);
  into.shard.indices.insert(into.shard.indices.end(), from.shard.indices.begin(),
                            from.shard.indices.end());
  std::sort(into.shard.indices.begin(), into.shard.indices.end());
  for (const auto& s : from.strategies)
    if (std::find(into.strategies.begin(), into.strategies.end(), s) == into.strategies.end())
      into.strategies.push_back(s);
  into.witnesses.insert(into.witnesses.end(), from.witnesses.begin(), from.witnesses.end());
  std::sort(into.witnesses.begin(), into.witnesses.end(), smaller_witness);
  if (into.witnesses.size() > max_witnesses) into.witnesses.resize(max_witnesses);
  into.duration_seconds += from.duration_seconds;

  const bool violated = into.verdict == Verdict::Violated || from.verdict == Verdict::Violated ||
                        into.evidence.failures > 0;
  const Verdict worst = combine(into.verdict, from.verdict);
  if (worst == Verdict::Crashed || worst == Verdict::TimedOut) {
    into.verdict = worst;
    if (!into.fault) into.fault = from.fault;
    into.reason = (into.verdict == from.verdict ? from.reason : into.reason);
  } else if (violated) {
    into.verdict = Verdict::Violated;
    into.reason = std::to_string(into.evidence.failures) + " of " +
                  std::to_string(into.evidence.inputs_checked) + " inputs violate the property";
  } else if (into.shard.complete() && into.exhaustive && from.exhaustive) {
    into.verdict = Verdict::Proven;
    into.reason = "all " + std::to_string(into.shard.count) + " shards merged (" +
                  std::to_string(into.evidence.inputs_checked) + " inputs); no violation";
  } else {
    into.verdict = into.shard.complete() && !into.exhaustive ? Verdict::PassedOnSamples : Verdict::Inconclusive;
    into.reason = !into.shard.complete()
                      ? "no violation in " + std::to_string(into.shard.indices.size()) + " of " +
                            std::to_string(into.shard.count) +
                            " shards; the others are not merged yet"
                      : "no violation in " + std::to_string(into.evidence.inputs_checked) +
                            " inputs, which do not cover the whole input domain";
  }
  into.exhaustive = into.exhaustive && from.exhaustive;
}

}  // namespace symerr::verify
