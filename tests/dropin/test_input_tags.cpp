// The branch driver's input tags (SymbolicDomainError::source) name the input a
// value is a copy of; the driver's relational bound on unstable pairs trusts
// them (driver.hpp, "Unstable pairs"). A tag kept by the result of an
// operation would make the driver treat another quantity (−x, |x|, x + y) as
// the input itself: every operation must return an untagged result, except
// those whose result is the operand itself (a copy, unary +, max(x, x)).
#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <symerr/domains/symbolic_interval.hpp>
#include <symerr/symbolic/c_names.hpp>
#include <symerr/symbolic/dropin.hpp>
#include <symerr/verify/symbolic/driver.hpp>

using namespace symerr;
using S = SymbolicError;

TEST_CASE("input tags: every operation's result is untagged, copies keep the tag", "[dropin][driver][tags]") {
  S x = S::input(0.25, 0.75, -1e-12, 1e-12, FP64);
  S y = S::input(0.5, 0.875, -1e-12, 1e-12, FP64);
  S w = S::input(1.5, 2, -1e-12, 1e-12, FP64);  // in acosh's domain
  x.source = 0x10005, y.source = 0x10006, w.source = 0x10007;
  const std::vector<std::pair<std::string, std::function<S()>>> ops = {
      {"-x", [&] { return -x; }},
      {"x + y", [&] { return x + y; }},
      {"x - y", [&] { return x - y; }},
      {"x * y", [&] { return x * y; }},
      {"x / y", [&] { return x / y; }},
      {"x * 1", [&] { return x * 1; }},
      {"x / 1", [&] { return x / 1.0; }},
      {"x + 0", [&] { return x + 0; }},
      {"2 * x", [&] { return 2.0 * x; }},
      {"x * x", [&] { return x * x; }},
      {"x += y", [&] { S t = x; t += y; return t; }},
      {"sqrt", [&] { return sqrt(x); }},
      {"fabs", [&] { return fabs(x); }},
      {"abs", [&] { return abs(x); }},
      {"exp", [&] { return exp(x); }},
      {"expm1", [&] { return expm1(x); }},
      {"exp2", [&] { return exp2(x); }},
      {"log", [&] { return log(x); }},
      {"log1p", [&] { return log1p(x); }},
      {"log2", [&] { return log2(x); }},
      {"log10", [&] { return log10(x); }},
      {"sin", [&] { return sin(x); }},
      {"cos", [&] { return cos(x); }},
      {"tan", [&] { return tan(x); }},
      {"atan", [&] { return atan(x); }},
      {"asin", [&] { return asin(x); }},
      {"acos", [&] { return acos(x); }},
      {"sinh", [&] { return sinh(x); }},
      {"cosh", [&] { return cosh(x); }},
      {"asinh", [&] { return asinh(x); }},
      {"acosh", [&] { return acosh(w); }},
      {"atanh", [&] { return atanh(x); }},
      {"tanh", [&] { return tanh(x); }},
      {"erf", [&] { return erf(x); }},
      {"floor", [&] { return floor(x); }},
      {"ceil", [&] { return ceil(x); }},
      {"trunc", [&] { return trunc(x); }},
      {"round", [&] { return round(x); }},
      {"rint", [&] { return rint(x); }},
      {"nearbyint", [&] { return nearbyint(x); }},
      {"pow(x, 2)", [&] { return pow(x, 2.0); }},
      {"pow(x, 0.5)", [&] { return pow(x, 0.5); }},
      {"fma(x, y, x)", [&] { return fma(x, y, x); }},
      {"convert FP32", [&] { return convert(x, FP32); }},
      {"fmax(x, y)", [&] { return fmax(x, y); }},
      {"fmin(x, y)", [&] { return fmin(x, y); }},
      {"max(x, y)", [&] { return max(x, y); }},
      {"min(x, y)", [&] { return min(x, y); }},
      {"clamp", [&] { return clamp(x, S(0.3), S(0.6)); }},
      {"select undecided", [&] { return select(x < y, x, y); }},
  };
  for (const auto& [name, op] : ops) {
    INFO(name);
    CHECK(op().source == -1);
  }
  // the same quantity: kept
  const S copy = x;
  CHECK(copy.source == x.source);
  CHECK((+x).source == x.source);
  CHECK(fmax(x, x).source == x.source);
  CHECK(select(x < y, x, x).source == x.source);
  // two copies of one input are one quantity: their product is a square;
  // zeroed tags (memset, calloc: source 0) are no tag
  S u = S::input(-1, 1, FP64), v = S::input(-1, 1, FP64);
  u.source = v.source = 0x10009;
  CHECK((u * v).real.lower() >= 0);
  u.source = v.source = 0;
  CHECK((u * v).real.lower() < 0);
  // the driver's outputs carry no tag (a later run would misread it)
  const std::vector<S> in = {S::input(-1, 1, -1e-12, 1e-12, FP64), S::input(-1, 1, -1e-12, 1e-12, FP64)};
  const auto res = verify::run_kernel(
      [](std::span<S> a, std::span<S> out) {
        CHECK(a[0].source >= 0);  // inside the run the inputs are tagged
        CHECK(a[0].source != a[1].source);
        S m = a[0];
        if (a[1] > m) m = a[1];
        out[0] = m;
      },
      in, 1);
  CHECK(res.outputs[0].source == -1);
  CHECK(res.report.relational_pairs > 0);
  CHECK(mag(res.outputs[0].err) <= 1e-12 * (1 + 1e-9));
}

TEST_CASE("input tags: inside a driver run, results of operations on inputs are numbered when made",
          "[dropin][driver][tags]") {
  const std::vector<S> in = {S::input(-1, 1, -1e-12, 1e-12, FP64), S::input(-1, 1, -1e-12, 1e-12, FP64)};
  std::vector<std::int32_t> seen;
  const auto res = verify::run_kernel(
      [&seen](std::span<S> a, std::span<S> out) {
        const S t = a[0] * 1.5, t2 = a[0] * 1.5, s = a[0] + a[1];
        const S c = S::constant(2.0, FP64) * S::constant(3.0, FP64);  // no driver input: no number
        seen = {a[0].source, a[1].source, t.source, t2.source, s.source, c.source};
        const S u = t;  // a copy: the same quantity, so t * u is a square
        out[0] = t * u;
        out[1] = t * t2;  // two quantities (equal, but made separately): not recognised
      },
      in, 2);
  REQUIRE(seen.size() == 6);
  for (std::size_t i = 0; i < 5; ++i) CHECK(seen[i] >= 0x10000);
  CHECK(seen[5] == -1);
  // one generation, numbers in the order the results were made, after the inputs
  CHECK((seen[2] >> 16) == (seen[0] >> 16));
  CHECK((seen[2] & 0xFFFF) == 2);
  CHECK((seen[3] & 0xFFFF) == 3);
  CHECK((seen[4] & 0xFFFF) == 4);
  CHECK(res.outputs[0].real.lower() >= 0);  // soundness twin: the real square is >= 0 ...
  CHECK(res.outputs[0].real.upper() >= 2.25);  // ... and reaches 2.25
  CHECK(res.outputs[1].real.lower() <= -2.25);  // t * t2 stays the plain product
  CHECK(res.outputs[0].source == -1);  // the numbers stay inside the run
  CHECK(res.outputs[1].source == -1);
  // outside a run, nothing is numbered
  const S z = in[0] * 1.5;
  CHECK(z.source == -1);
}
