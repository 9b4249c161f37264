// symerr quant: exhaustive checks of requantization and QuantizeLinear
// variants against their exact ideal, with a verdict on a claim
// (docs/quantization.md, docs/cli.md).
//
// A claim is proven only when the run covered the whole input space and no
// input broke it; violated with the first witness; inconclusive when a
// partial range found nothing. Exit status: 0 proven or no claim, 1 violated,
// 3 inconclusive, 2 usage or input error.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include <symerr/verify/quant/sweep.hpp>

#include "quant_command.hpp"

namespace symerr::cli {
namespace {

using namespace symerr::verify::quant;
using symerr::quant::RequantVariant;
using symerr::quant::QuantizeVariant;

enum class Verdict { none, proven, violated, inconclusive };

const char* name(Verdict v) {
  switch (v) {
    case Verdict::proven: return "PROVEN";
    case Verdict::violated: return "VIOLATED";
    case Verdict::inconclusive: return "INCONCLUSIVE";
    case Verdict::none: break;
  }
  return "-";
}

int exit_status(const std::vector<Verdict>& vs) {
  int rc = 0;
  for (Verdict v : vs) {
    if (v == Verdict::violated) return 1;
    if (v == Verdict::inconclusive) rc = 3;
  }
  return rc;
}

// The claim's verdict from a sweep's findings.
Verdict judge(const QuantArgs& a, bool whole_space, std::uint64_t differs, double max_lsb) {
  if (a.claim.empty()) return Verdict::none;
  bool broken;
  if (a.claim == "equal") {
    broken = differs != 0;
  } else {
    char* end = nullptr;
    const double k = std::strtod(a.claim.c_str(), &end);
    if (end == a.claim.c_str() || *end != '\0' || !(k >= 0) || !std::isfinite(k))
      throw std::invalid_argument("--claim must be 'equal' or a number of LSB >= 0, got '" + a.claim + "'");
    broken = max_lsb > k;
  }
  if (broken) return Verdict::violated;
  return whole_space ? Verdict::proven : Verdict::inconclusive;
}

std::vector<RequantVariant> requant_variants(const std::string& v) {
  if (v != "all") return {symerr::quant::requant_variant_from_string(v)};
  return {RequantVariant::exact_half_even, RequantVariant::gemmlowp,        RequantVariant::single_half_up,
          RequantVariant::tosa_double_round, RequantVariant::float_lrintf, RequantVariant::float_magic_bias,
          RequantVariant::truncate};
}

std::vector<QuantizeVariant> quantize_variants(const std::string& v) {
  if (v != "all") return {symerr::quant::quantize_variant_from_string(v)};
  return {QuantizeVariant::exact,    QuantizeVariant::onnx_reference,  QuantizeVariant::reciprocal_multiply,
          QuantizeVariant::half_away_from_zero, QuantizeVariant::truncate, QuantizeVariant::symmetric_range,
          QuantizeVariant::wrap};
}

int requantize_command(const QuantArgs& a) {
  RequantSweep s;
  s.multiplier = {a.multiplier, a.shift};
  s.first = a.first.value_or(INT32_MIN);
  s.last = a.last.value_or(INT32_MAX);
  s.threads = a.threads;
  const bool whole = s.first == INT32_MIN && s.last == INT32_MAX;
  // every input error before any output
  symerr::quant::validate(s.multiplier);
  if (s.first > s.last) throw std::invalid_argument("--first is after --last");
  judge(a, false, 0, 0);
  std::printf("requantization by %d * 2^-%d over accumulators [%lld, %lld]%s; claim: %s\n\n", a.multiplier,
              31 + a.shift, static_cast<long long>(s.first), static_cast<long long>(s.last),
              whole ? " (all of int32)" : "", a.claim.empty() ? "none" : a.claim.c_str());
  std::printf("| variant | inputs | differ from ONNX | max error (LSB) | exact | at acc | verdict |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  std::vector<Verdict> verdicts;
  for (RequantVariant v : requant_variants(a.variant)) {
    const auto r = sweep_requantize(s, v);
    const Verdict verdict = judge(a, whole, r.differs_from_onnx, r.max_error_lsb);
    verdicts.push_back(verdict);
    std::printf("| %s | %llu | %llu | %.9g | %s | %d | %s |\n", std::string(to_string(v)).c_str(),
                static_cast<unsigned long long>(r.inputs), static_cast<unsigned long long>(r.differs_from_onnx),
                r.max_error_lsb, r.max_error_exact.c_str(), r.max_error_at, name(verdict));
    for (const auto& d : r.first_differences)
      std::printf("    acc %d: output %lld, ONNX %lld\n", d.acc, static_cast<long long>(d.output),
                  static_cast<long long>(d.onnx));
  }
  return exit_status(verdicts);
}

QuantInput input_of(const std::string& s) {
  if (s == "fp16" || s == "FP16") return QuantInput::fp16;
  if (s == "bf16" || s == "BF16") return QuantInput::bf16;
  if (s == "fp32" || s == "FP32") return QuantInput::fp32;
  throw std::invalid_argument("--input must be fp16, bf16 or fp32, got '" + s + "'");
}

int quantize_command(const QuantArgs& a) {
  QuantizeSweep s;
  s.input = input_of(a.input);
  s.scale = a.scale;
  s.zero_point = a.zero_point;
  s.type = symerr::quant::quant_type_from_string(a.type);
  s.first_bits = a.first ? static_cast<std::uint64_t>(*a.first) : 0;
  s.last_bits = a.last ? static_cast<std::uint64_t>(*a.last) : UINT64_MAX;
  s.threads = a.threads;
  if ((a.first && *a.first < 0) || (a.last && *a.last < 0))
    throw std::invalid_argument("--first and --last are input encodings: they must be >= 0");
  const std::uint64_t space_last = s.input == QuantInput::fp32 ? 0xFFFFFFFFull : 0xFFFFull;
  const bool whole = s.first_bits == 0 && s.last_bits >= space_last;
  symerr::quant::validate_quantize(s.scale, s.zero_point, s.type);
  if (s.first_bits > std::min(s.last_bits, space_last))
    throw std::invalid_argument("--first is after --last (or past the format's last encoding)");
  judge(a, false, 0, 0);
  std::printf("QuantizeLinear %s -> %s, scale %.9g, zero point %lld%s; claim: %s (NaN inputs not judged)\n\n",
              a.input.c_str(), a.type.c_str(), static_cast<double>(a.scale), static_cast<long long>(a.zero_point),
              whole ? ", every input" : ", a range of encodings", a.claim.empty() ? "none" : a.claim.c_str());
  std::printf("| variant | inputs | NaN | differ from ideal | differ from ONNX reference | max error (LSB) | verdict |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  std::vector<Verdict> verdicts;
  for (QuantizeVariant v : quantize_variants(a.variant)) {
    const auto r = sweep_quantize(s, v);
    const Verdict verdict = judge(a, whole, r.differs_from_ideal, r.max_error_lsb);
    verdicts.push_back(verdict);
    std::printf("| %s | %llu | %llu | %llu | %llu | %.9g | %s |\n", std::string(to_string(v)).c_str(),
                static_cast<unsigned long long>(r.inputs), static_cast<unsigned long long>(r.nan_skipped),
                static_cast<unsigned long long>(r.differs_from_ideal),
                static_cast<unsigned long long>(r.differs_from_onnx_reference), r.max_error_lsb, name(verdict));
    for (const auto& d : r.first_differences)
      std::printf("    input %a (0x%08x): output %lld, ideal %lld\n", static_cast<double>(d.input), d.bits,
                  static_cast<long long>(d.output), static_cast<long long>(d.ideal));
  }
  return exit_status(verdicts);
}

}  // namespace

QuantCommand add_quant_command(CLI::App& app) {
  QuantCommand c{app.add_subcommand("quant", "Check requantization or QuantizeLinear variants against their exact "
                                             "ideal over every input (docs/quantization.md)"),
                 std::make_shared<QuantArgs>()};
  QuantArgs& a = *c.args;
  c.app->add_option("check", a.kind, "requantize or quantize")->required();
  c.app->add_option("--variant", a.variant, "A variant's name, or all (default)");
  c.app->add_option("--claim", a.claim, "equal (to ONNX's rule / the ideal) or a number of LSB");
  c.app->add_option("--multiplier", a.multiplier, "requantize: the Q31 multiplier M");
  c.app->add_option("--shift", a.shift, "requantize: the right shift s (multiplier M*2^-(31+s))");
  c.app->add_option("--input", a.input, "quantize: fp16, bf16 or fp32");
  c.app->add_option("--type", a.type, "quantize: int8, uint8, int16, uint16, int4 or uint4");
  c.app->add_option("--scale", a.scale, "quantize: y_scale");
  c.app->add_option("--zero-point", a.zero_point, "quantize: y_zero_point");
  c.app->add_option("--first", a.first, "First accumulator / input encoding (default: the whole space)");
  c.app->add_option("--last", a.last, "Last accumulator / input encoding");
  c.app->add_option("--threads", a.threads, "Threads (results do not depend on them)");
  return c;
}

int quant_command(const QuantArgs& a) {
  if (a.kind == "requantize") return requantize_command(a);
  if (a.kind == "quantize") return quantize_command(a);
  throw std::invalid_argument("symerr quant: the check must be 'requantize' or 'quantize', got '" + a.kind + "'");
}

}  // namespace symerr::cli
