// The kernel driver: runs a callable on symbolic inputs and returns, per output
// element, a sound enclosure (real, fp, err, rel_err, flags), analysing the
// data-dependent branches itself instead of throwing UndecidedBranch.
//
// Model. An execution of a kernel has a real (ideal) control flow and a
// computed one; at each comparison the ideal outcome is decided by the real
// values and the computed outcome by the computed values. The driver explores
// the outcomes a comparison can have on the current enclosures:
//   * decided comparisons (the same answer for the real and the computed
//     values everywhere) are followed as always;
//   * an undecided one forks the path: each possible pair (ideal, computed) of
//     outcomes is a path of its own, on which the compared operands are
//     tightened to the outcome taken (path condition) when the driver owns
//     them (elements of the input or output buffers it passed) or when they
//     still hold the compared value and the comparison is the thread's latest
//     (`if (v < 0)`, `v < 0 ? 0 : v` on a local v); with lanes, never an
//     operand of no lane (shared by every lane's path in the run);
//   * a pair with ideal != computed is an unstable test: from there on the
//     ideal and the computed executions follow different control flows. The
//     driver runs the real path (the ideal outcomes from there on) and the
//     computed path (the computed outcomes) separately, each again forking on
//     its own undecided comparisons, and bounds such executions by
//       real ⊆ hull of the real-path reals, fp ⊆ hull of the computed-path fps,
//       err ⊆ fp − real,
//     which holds for every execution whose control flows differ there.
//   * a path whose condition, after tightening, holds for no execution (e.g.
//     x < c with x's enclosure tightened to the point c) is discarded, and an
//     unstable outcome of a R b needs err_a − err_b to cross the switch (with
//     exact operands the ideal and computed outcomes never differ).
// Input-box bisection is a fixed, caller-chosen depth (DriverOptions::
// bisections), not adaptive. Not done: relational bounds for unstable pairs (an unstable comparison of two
// intermediate values, e.g. a running maximum over locals, is bounded by the
// difference of the two paths' enclosures only).
// Every execution follows one explored path (or one pair of paths), so the
// hull over paths is sound for all executions, including unstable ones.
//
// Lanes (independent elements). Exploring every combination of the outcomes
// of n independent comparisons (relu on n elements) costs 4^n runs. Given
// lanes — a lane per input and per output, the caller's statement that the
// outputs of lane k depend (by data or control flow) only on the inputs of
// lane k and on inputs of no lane (lane −1, never compared undecidedly) —
// the driver explores every lane's paths in the same runs ("zipped"): run r
// follows the r-th path of every lane, so runs = max over lanes of its paths.
// Each value carries the lane of the inputs it depends on
// (SymbolicDomainError::origin); an undecided comparison whose operands mix
// lanes (or depend on no lane) violates the statement: the driver then starts
// again with one lane and says so in the report.
//
// Budget: at most `max_runs` kernel executions. Lanes still unexplored when it
// runs out get the unbounded enclosure (sound) and the report says so.
#pragma once

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <symerr/domains/symbolic_interval.hpp>

namespace symerr::verify {

struct DriverOptions {
  std::size_t max_runs = 1u << 16;   // kernel executions
  std::size_t max_branches = 4096;   // undecided comparisons on one path of one lane
  // Input-box bisection: the real range of every input of a lane (of every
  // input without lanes) is cut into 2^bisections pieces and every
  // combination of a lane's pieces explored (lanes zipped); the outputs are
  // the hulls. Tightens comparisons of values computed from the inputs,
  // which the path condition cannot tighten. Cost: 2^(bisections · inputs of
  // the largest lane) explorations.
  unsigned bisections = 0;
  // Empty: one lane (every combination of outcomes). Otherwise one entry per
  // input / output element: its lane (>= 0), or -1 for an input of no lane.
  std::vector<int> input_lanes;
  std::vector<int> output_lanes;
};

struct DriverReport {
  std::size_t runs = 0;               // kernel executions
  std::size_t paths = 0;              // explored paths (sub-boxes of the input box), over all lanes
  std::size_t infeasible_paths = 0;   // paths whose condition no execution meets (discarded)
  std::size_t undecided_branches = 0; // undecided comparisons met (forks), over all lanes
  std::size_t unstable_branches = 0;  // forks where the ideal and computed outcomes differ
  std::size_t lanes = 1;
  std::size_t max_path_branches = 0;  // most undecided comparisons on one path
  bool budget_exhausted = false;      // some lane unexplored: its outputs are unbounded
  bool lanes_violated = false;        // the lanes statement was contradicted: ran with one lane
  std::size_t refined_operands = 0;   // operand tightenings applied
  std::size_t input_boxes = 1;        // explorations (sub-boxes of the input box, with bisections)
  std::string summary() const;
};

struct DriverResult {
  std::vector<SymbolicError> outputs;
  DriverReport report;
};

// The kernel reads `in` (the driver's copy of the inputs, fresh for every run;
// it may also write it) and writes every element of `out`. It must be
// deterministic.
using KernelFn = std::function<void(std::span<SymbolicError> in, std::span<SymbolicError> out)>;

DriverResult run_kernel(const KernelFn& kernel, std::span<const SymbolicError> inputs, std::size_t n_outputs,
                        const DriverOptions& options = {});

// Lanes of an elementwise kernel whose inputs are tensors of the given sizes
// (concatenated, in order) and whose output has `n_out` elements: element i of
// every input of n_out elements is in lane i; smaller (broadcast) inputs are
// in no lane.
void elementwise_lanes(DriverOptions& options, std::span<const std::size_t> input_sizes, std::size_t n_out);

}  // namespace symerr::verify
