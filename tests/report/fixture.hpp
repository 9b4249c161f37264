// The fixed verdict dataset of the renderer golden tests: a violated concrete
// check with witnesses, a proven symbolic check, an audit finding, and a fixed
// Environment (no date, CPU or commit of the machine running the test).
#pragma once

#include <cmath>

#include <symerr/verify/report/verdict.hpp>

namespace symerr::verify::test {

inline Value val(double v, const char* exact, const char* bits) { return Value{v, exact, bits}; }

inline CheckResult concrete_violation() {
  CheckResult c;
  c.id = "concrete/Div/FP32/recip_div";
  c.kind = "concrete";
  c.kernel = "recip_div";
  c.operator_name = "Div";
  c.format = "FP32";
  c.semantics = {{"rounding", "RNE"}, {"broadcast", "sonnx"}};
  c.bound = {"correctly rounded", "Y == RNE(A / B)", "IEEE 754-2019 §4.3"};
  c.requirements = {"[R2]", "[C4]"};
  c.strategies = {"special_grid", "random"};
  c.seed = 7;
  c.verdict = Verdict::Violated;
  Evidence& e = c.evidence;
  e.inputs_checked = 1000;
  e.failures = 120;
  e[InputClass::Normal] = {980, 120};
  e[InputClass::Zero] = {12, 0};
  e[InputClass::Inf] = {8, 0};
  e.max_abs_error = 2.98023223876953125e-08;
  e.max_rel_error = 1.1920928955078125e-07;
  e.max_ulp_error = 1.0;
  for (int i = 0; i < 880; ++i) e.histogram.add(0.25);
  for (int i = 0; i < 120; ++i) e.histogram.add(1.0);
  e.metrics["bound_ulp"] = 0.5;
  for (int i = 0; i < 16; ++i) {
    ScatterPoint p;
    p.inputs = {1.0 + i, 3.0};
    p.magnitude = std::ldexp(1.0 + i / 16.0, i - 8);
    p.ulp_error = i % 4 == 0 ? 1.0 : 0.125 * (i % 4);
    p.key = static_cast<std::uint64_t>(i);
    e.scatter.points.push_back(p);
  }
  Witness w;
  w.inputs = {val(3.0, "3", "0x40400000"), val(3.0, "3", "0x40400000")};
  w.output = val(0.99999994039535522, "0.999999940395355224609375", "0x3f7fffff");
  w.reference = val(1.0, "1", "0x3f800000");
  w.exact_result = "1";
  w.abs_error = 5.9604644775390625e-08;
  w.rel_error = 5.9604644775390625e-08;
  w.ulp_error = 1.0;
  w.bound = 0.0;
  w.classes = mask_of(InputClass::Normal);
  w.message = "output <0x3f7fffff> is not the correctly rounded quotient & differs by 1 ulp";
  c.witnesses = {w};
  e.worst = w;
  c.reason = "120 of 1000 inputs violate the property";
  c.duration_seconds = 0.25;
  c.item = {"/usr/lib/x86_64-linux-gnu/librecip.so.1", std::string(64, 'a'), "recip_div", "elementwise",
            "librecip1 1.2-3", {{"compiler", "gcc 12"}, {"flags", "-O2"}},
            {{"/usr/lib/x86_64-linux-gnu/libm.so.6", std::string(64, 'c'), "libc6 2.36-9"}}};
  c.fp_environment = "every call started in RNE, FTZ off, DAZ off, traps off (in a child process); "
                     "leaves DAZ set after a call (3 of 3 calls)";
  e.wrong_special = 2;
  return c;
}

// A kernel that died on a batch: the smallest reproducing batch is one input.
inline CheckResult crashed_kernel() {
  CheckResult c;
  c.id = "concrete/Div/FP32/segv_div";
  c.kind = "concrete";
  c.kernel = "segv_div";
  c.operator_name = "Div";
  c.format = "FP32";
  c.bound = {"correctly rounded", "Y == RNE(A / B)", "IEEE 754-2019 §4.3"};
  c.requirements = {"Div/float/[C3]"};
  c.strategies = {"special_grid"};
  c.verdict = Verdict::Crashed;
  c.item = {"/tmp/libk.so", std::string(64, 'b'), "segv_div", "elementwise", "", {}, {}};
  FaultInfo f;
  f.kind = "signal";
  f.message = "the kernel was killed by signal 11 (SIGSEGV, Segmentation fault)";
  f.batch_size = 361;
  f.reproducer_size = 1;
  f.reproduced = true;
  f.reproducer = {{val(NAN, "nan", "0x7fc00000"), val(0.0, "0", "0x00000000")}};
  c.fault = f;
  c.reason = f.message + " on a batch of 361 inputs";
  return c;
}

inline CheckResult symbolic_proven() {
  CheckResult c;
  c.id = "symbolic/Add/FP16/seed-001-introduction";
  c.kind = "symbolic";
  c.kernel = "symerr::Add";
  c.operator_name = "Add";
  c.format = "FP16";
  c.bound = {"SONNX Add intro: u|Y|", "|err_intro| <= u * |Y|", "seed 001 Add, Error Introduction"};
  c.requirements = {"[R5]"};
  c.exhaustive = true;
  c.verdict = Verdict::Proven;
  c.evidence.inputs_checked = 4;
  c.evidence[InputClass::Normal] = {4, 0};
  c.evidence.max_ulp_error = 0.5;
  c.evidence.histogram.add(0.5);
  c.evidence.metrics["boxes_split"] = 3;
  c.reason = "proven on the whole input box";
  c.duration_seconds = 1.5;
  return c;
}

inline CheckResult audit_finding() {
  CheckResult c;
  c.id = "audit/Div/INT8/seed-000-example-3";
  c.kind = "audit";
  c.operator_name = "Div";
  c.format = "INT8";
  c.semantics = {{"integer_division", "floor"}};
  c.bound = {"example 3", "Div(-7, 2) = -3", "seed 000 Div, Examples"};
  c.requirements = {"[R3]"};
  c.subject = Subject::Specification;
  c.verdict = Verdict::Violated;
  c.evidence.inputs_checked = 1;
  c.evidence.failures = 1;
  c.evidence[InputClass::Normal] = {1, 1};
  Witness w;
  w.inputs = {val(-7, "-7", "0xf9"), val(2, "2", "0x02")};
  w.output = val(-3, "-3", "0xfd");
  w.reference = val(-4, "-4", "0xfc");
  w.exact_result = "-7/2";
  w.abs_error = 0.5;
  w.rel_error = 1.0 / 7;
  w.ulp_error = 0.5;
  w.classes = mask_of(InputClass::Normal);
  w.message = "the example truncates but the spec floors ([R3])";
  c.witnesses = {w};
  c.reason = "the spec's example disagrees with its floor semantics";
  return c;
}

inline CampaignResult golden_campaign() {
  CampaignResult r;
  r.name = "golden <fixture>";
  Environment& env = r.environment;
  env.symerr_version = "0.1.0";
  env.git_commit = "abcdef0";
  env.compiler = "GCC 12.2.0";
  env.flags = "optimized -DNDEBUG sse2 -ffp-contract=off";
  env.cpu_model = "Test CPU @ 1.00GHz";
  env.hardware_threads = 2;
  env.os = "Linux 6.1.0 x86_64";
  env.rounding_mode = "RNE";
  env.cpu_features = {"sse2", "avx2", "fma", "f16c"};
  env.kernel_fp_state = "RNE, FTZ off, DAZ off, traps off, exception flags clear";
  env.seed = 7;
  env.date = "2024-05-01T12:00:00Z";
  env.code_path_variables = {{"ONEDNN_MAX_CPU_ISA", "AVX512_CORE"}};
  r.checks = {concrete_violation(), symbolic_proven(), audit_finding(), crashed_kernel()};
  r.source = {"campaign.json", std::string(64, 'c'), "{\"kernels\": []}", "symerr run campaign.json"};
  return r;
}

}  // namespace symerr::verify::test
