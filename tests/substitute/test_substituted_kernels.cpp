// ONNX-style C reference kernels (kernels/onnx_kernels.c) run through the
// type substitution on SymbolicError (through the branch driver), on inputs
// in [-1, 1] with input error e, and checked against exact concrete
// executions: the same C kernel compiled as C on double (FP64) or substituted
// with float (FP32) gives the computed result, and substituted with mpq_class
// the exact real result (softmax, whose exp is not rational: substituted with
// symref::Enclosure, 256-bit MPFR intervals rounded outward, and the whole
// enclosure must lie inside the bound). Tightness twin: the bound against the
// largest observed error (a table is printed; README "Verify your own kernel").
#include <catch2/catch.hpp>

#include <cstdio>
#include <random>
#include <span>
#include <vector>

#include <symerr/verify/symbolic/driver.hpp>

#include "substitute/kernel_builds.hpp"
#include "test_scale.hpp"

using namespace symerr;
using S = SymbolicError;

namespace {

enum class K { Add, Mul, MatMul, MatMulFma, Conv, Relu, LeakyRelu, Where, Clip, SoftShrink, MaxPool, MaxPoolIf, BatchNorm, Softmax, SoftmaxIf };
bool is_softmax(K k) { return k == K::Softmax || k == K::SoftmaxIf; }

struct Shape {
  int rank;
  int dims[4];
  int size() const {
    int n = 1;
    for (int i = 0; i < rank; ++i) n *= dims[i];
    return n;
  }
};

struct Spec {
  K k;
  const char* name;
  std::vector<Shape> in;
  std::vector<std::vector<double>> constants;  // empty: a symbolic input in [-1, 1]
  Shape out;
  std::vector<double> switches;  // where the kernel's comparisons switch (sampled densely)
  unsigned bisections = 0;       // max_boxes = 2^(bisections x input elements): a k-deep bisection's leaf count
};

constexpr double kAlpha32 = static_cast<double>(0.01f);  // leakyrelu alpha as a value of FP32 (and FP64)
constexpr double kEps = 0x1p-16;                          // batchnorm: var + eps is a perfect square
constexpr double kShrink = 0.2;  // softshrink's lambda: not a value of FP32 (0.2f − 0.2 = 2.98e-9)

// One kernel call on tensors of T (any of the four builds).
#define SYMERR_DISPATCH(NS)                                                                                   \
  template <class Tensor>                                                                                     \
  void dispatch_##NS(const Spec& s, std::vector<Tensor*>& t, Tensor* y) {                                     \
    switch (s.k) {                                                                                            \
      case K::Add: NS::onnx_add(t[0], t[1], y); break;                                                        \
      case K::Mul: NS::onnx_mul(t[0], t[1], y); break;                                                        \
      case K::MatMul: NS::onnx_matmul(t[0], t[1], y); break;                                                  \
      case K::MatMulFma: NS::onnx_matmul_fma(t[0], t[1], y); break;                                           \
      case K::Conv: NS::onnx_conv2d(t[0], t[1], nullptr, 1, 1, 1, y); break;                                  \
      case K::Relu: NS::onnx_relu(t[0], y); break;                                                            \
      case K::LeakyRelu: NS::onnx_leakyrelu(t[0], kAlpha32, y); break;                                        \
      case K::Where: NS::onnx_where(t[0], t[1], t[2], y); break;                                              \
      case K::Clip: NS::onnx_clip(t[0], -0.5, 0.5, y); break;                                                 \
      case K::SoftShrink: NS::onnx_softshrink(t[0], kShrink, y); break;                                       \
      case K::MaxPool: NS::onnx_maxpool(t[0], 2, 2, y); break;                                                \
      case K::MaxPoolIf: NS::onnx_maxpool_if(t[0], 2, 2, y); break;                                           \
      case K::BatchNorm: NS::onnx_batchnorm(t[0], t[1], t[2], t[3], t[4], kEps, y); break;                   \
      case K::Softmax: NS::onnx_softmax(t[0], y); break;                                                      \
      case K::SoftmaxIf: NS::onnx_softmax_if(t[0], y); break;                                                 \
    }                                                                                                         \
  }                                                                                                           \
  template <class T>                                                                                          \
  std::vector<T> run_##NS(const Spec& s, const std::vector<std::vector<T>>& in) {                            \
    using Tensor = std::remove_pointer_t<decltype(NS::tensor_new(0, nullptr))>;                               \
    std::vector<Tensor*> t;                                                                                   \
    for (std::size_t i = 0; i < s.in.size(); ++i) {                                                           \
      t.push_back(NS::tensor_new(s.in[i].rank, s.in[i].dims));                                                \
      std::copy(in[i].begin(), in[i].end(), t.back()->data);                                                  \
    }                                                                                                         \
    Tensor* y = NS::tensor_new(s.out.rank, s.out.dims);                                                       \
    const auto release = [&] {                                                                                \
      for (Tensor* x : t) NS::tensor_free(x);                                                                 \
      NS::tensor_free(y);                                                                                     \
    };                                                                                                        \
    try { /* a kernel may throw (LeanError: UndecidedBranch) */                                               \
      dispatch_##NS(s, t, y);                                                                                 \
    } catch (...) {                                                                                           \
      release();                                                                                              \
      throw;                                                                                                  \
    }                                                                                                         \
    std::vector<T> out(y->data, y->data + s.out.size());                                                      \
    release();                                                                                                \
    return out;                                                                                               \
  }
#define NATIVE
SYMERR_DISPATCH(NATIVE)
SYMERR_DISPATCH(k32)
SYMERR_DISPATCH(kq)
SYMERR_DISPATCH(kmp)
SYMERR_DISPATCH(ksym)
SYMERR_DISPATCH(kaff)
SYMERR_DISPATCH(klean)
SYMERR_DISPATCH(klean32)
#undef SYMERR_DISPATCH

// The symbolic kernel for the driver: tensors viewing the driver's buffers
// (so that compared elements are the driver's and can be tightened).
template <class Tensor, class V>
void run_views(const Spec& s, std::span<V> in, std::span<V> out,
               void (*dispatch)(const Spec&, std::vector<Tensor*>&, Tensor*)) {
  std::vector<Tensor> views(s.in.size());
  std::vector<Tensor*> t;
  std::size_t offset = 0;
  for (std::size_t i = 0; i < s.in.size(); ++i) {
    views[i].rank = s.in[i].rank;
    std::copy(s.in[i].dims, s.in[i].dims + 4, views[i].dims);
    views[i].data = in.data() + offset;
    offset += static_cast<std::size_t>(s.in[i].size());
    t.push_back(&views[i]);
  }
  Tensor y{s.out.rank, {s.out.dims[0], s.out.dims[1], s.out.dims[2], s.out.dims[3]}, out.data()};
  dispatch(s, t, &y);
}
void run_symbolic(const Spec& s, std::span<S> in, std::span<S> out) {
  run_views<ksym::tensor>(s, in, out, dispatch_ksym<ksym::tensor>);
}

struct Scenario {
  FloatFormat F;
  double e;
  const char* name;
};
const Scenario kScenarios[] = {{FP64, 0.0, "FP64 e=0"},
                               {FP64, 1e-12, "FP64 e=1e-12"},
                               {FP32, 0.0, "FP32 e=0"},
                               {FP32, 0x1p-20, "FP32 e=2^-20"}};

std::vector<Spec> specs() {
  const Shape v4{1, {4}}, v16{1, {16}}, m4{2, {4, 4}}, m64{2, {64, 64}};
  const Shape x8{4, {1, 1, 8, 8}}, w3{4, {1, 1, 3, 3}}, p4{4, {1, 1, 4, 4}}, p2{4, {1, 1, 2, 2}};
  const Shape b{4, {1, 2, 4, 4}}, c2{1, {2}};
  return {
      {K::Add, "add", {v16, v16}, {{}, {}}, v16, {}},
      {K::Mul, "mul", {v16, v16}, {{}, {}}, v16, {}},
      {K::MatMul, "matmul 4x4", {m4, m4}, {{}, {}}, m4, {}},
      {K::MatMul, "matmul 64x64", {m64, m64}, {{}, {}}, m64, {}},
      {K::MatMulFma, "matmul 4x4 (fma)", {m4, m4}, {{}, {}}, m4, {}},
      {K::Conv, "conv 8x8 k3 p1", {x8, w3}, {{}, {}}, x8, {}},
      {K::BatchNorm,
       "batchnorm",
       {b, c2, c2, c2, c2},
       {{}, {0.5, -1.25}, {0.25, -0.5}, {0.125, -0.25}, {0.25 - kEps, 1 - kEps}},
       b,
       {}},
      {K::Relu, "relu", {v16}, {{}}, v16, {0.0}},
      {K::LeakyRelu, "leakyrelu", {v16}, {{}}, v16, {0.0}},
      {K::Where, "where", {v16, v16, v16}, {{}, {}, {}}, v16, {0.0}},
      {K::Clip, "clip", {v16}, {{}}, v16, {-0.5, 0.5}},
      {K::SoftShrink, "softshrink", {v16}, {{}}, v16, {-kShrink, 0.0, kShrink}},
      {K::MaxPool, "maxpool (fmax)", {p4}, {{}}, p2, {}},
      {K::MaxPoolIf, "maxpool (if)", {p4}, {{}}, p2, {}},
      {K::Softmax, "softmax 4", {v4}, {{}}, v4, {}},
      {K::Softmax, "softmax 4 (k=3)", {v4}, {{}}, v4, {}, 3},
      {K::Softmax, "softmax 16", {v16}, {{}}, v16, {}},
      {K::SoftmaxIf, "softmax (if) 4", {v4}, {{}}, v4, {}},
  };
}

// Lanes: elementwise kernels element by element, the comparison-based
// maxpool window by window; kernels without data-dependent branches: none.
verify::DriverOptions lanes_for(const Spec& s) {
  verify::DriverOptions opt;
  std::vector<std::size_t> sizes;
  for (const Shape& sh : s.in) sizes.push_back(static_cast<std::size_t>(sh.size()));
  const auto n_out = static_cast<std::size_t>(s.out.size());
  if (s.k == K::Relu || s.k == K::LeakyRelu || s.k == K::Clip || s.k == K::Where || s.k == K::SoftShrink)
    verify::elementwise_lanes(opt, sizes, n_out);
  // softshrink: copysign's unstable band (|x| <= e, and −0) is bounded by the
  // two paths' enclosures; subdivision shrinks it to boxes where fdim is 0
  if (s.k == K::SoftShrink) opt.max_boxes = 64;
  // k-deep bisection of every input: as many leaf boxes, chosen by the driver
  if (s.bisections > 0) {
    std::size_t elements = 0;
    for (const Shape& sh : s.in) elements += static_cast<std::size_t>(sh.size());
    opt.max_boxes = std::size_t{1} << (s.bisections * elements);
  }
  if (s.k == K::MaxPoolIf) {
    for (int h = 0; h < 4; ++h)
      for (int w = 0; w < 4; ++w) opt.input_lanes.push_back((h / 2) * 2 + w / 2);
    for (int j = 0; j < 4; ++j) opt.output_lanes.push_back(j);
  }
  return opt;
}

verify::DriverResult symbolic_run(const Spec& s, const Scenario& sc) {
  std::vector<S> in;
  for (std::size_t i = 0; i < s.in.size(); ++i) {
    if (s.constants[i].empty())
      in.insert(in.end(), static_cast<std::size_t>(s.in[i].size()), S::input(-1, 1, -sc.e, sc.e, sc.F));
    else
      for (double c : s.constants[i]) in.push_back(S::constant(c, sc.F));
  }
  return verify::run_kernel([&s](std::span<S> x, std::span<S> y) { run_symbolic(s, x, y); }, in,
                            static_cast<std::size_t>(s.out.size()), lanes_for(s));
}

// A concrete input: the computed value f (a value of the format, |f| <= 1)
// and the error as e·k/1024 (the real value is f − e·k/1024, also in [-1, 1]).
struct Input {
  double f;
  int k;
};

class Sampler {
 public:
  Sampler(std::uint64_t seed, const Scenario& sc, const std::vector<double>& switches)
      : rng_(seed), sc_(sc), switches_(switches) {}
  Input next() {
    const int shape = pick(0, 9);
    double f;
    const double band = 4 * (sc_.e > 0 ? sc_.e : 0x1p-30);
    if (shape <= 2 && !switches_.empty())
      f = switches_[static_cast<std::size_t>(pick(0, static_cast<int>(switches_.size()) - 1))] +
          band * (2 * unit() - 1);
    else if (shape == 3) f = pick(0, 1) ? 1.0 : -1.0;
    else if (shape == 4) f = 0.0;
    else f = 2 * unit() - 1;
    if (sc_.F.precision == 24) f = static_cast<float>(f);
    f = std::max(-1.0, std::min(1.0, f));
    int k = 0;
    if (sc_.e > 0) {
      const int m = pick(0, 3);
      k = m == 0 ? 1024 : m == 1 ? -1024 : pick(-1024, 1024);
      if (std::fabs(f) > 1 - 2 * sc_.e) k = (f > 0 ? 1 : -1) * std::abs(k);  // keep the real value in [-1, 1]
    }
    return {f, k};
  }
  mpq_class real(const Input& x) const {
    return exact_value(x.f) - exact_value(sc_.e) * mpq_class(x.k, 1024);
  }

 private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double unit() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
  std::mt19937_64 rng_;
  Scenario sc_;
  std::vector<double> switches_;
};

struct Outcome {
  std::size_t executions = 0, checks = 0, violations = 0;
  double max_err = 0;
  std::string first;
};

template <class B>
void check_element(const B& s, const mpq_class& real, double fp, Outcome& o) {
  ++o.checks;
  const mpq_class err = exact_value(fp) - real;
  o.max_err = std::max(o.max_err, std::fabs(err.get_d()));
  if (contains(s.real, real) && contains(s.fp, exact_value(fp)) && contains(s.err, err)) return;
  if (o.violations++ == 0) {
    std::ostringstream os;
    os << "real " << real.get_d() << " fp " << fp << " err " << err.get_d() << " not in " << s;
    o.first = os.str();
  }
}

// The same against a reference enclosure [lo, hi] of the real result: the
// whole enclosure must lie in s.real and fp − [lo, hi] in s.err (MPFR,
// directed roundings: the check holds for the real value whatever it is).
template <class B>  // SymbolicError, or SymbolicDomainError<Affine> (softmax on the affine domain)
void check_element(const B& s, const symref::Enclosure& real, double fp, Outcome& o) {
  ++o.checks;
  symerr::detail::MpfrStateGuard guard;
  mpfr_t elo, ehi;
  mpfr_inits2(2 * symref::kBits, elo, ehi, static_cast<mpfr_ptr>(nullptr));
  mpfr_d_sub(elo, fp, real.upper(), MPFR_RNDD);
  mpfr_d_sub(ehi, fp, real.lower(), MPFR_RNDU);
  const double big = std::max(std::fabs(mpfr_get_d(elo, MPFR_RNDD)), std::fabs(mpfr_get_d(ehi, MPFR_RNDU)));
  o.max_err = std::max(o.max_err, big);
  const bool ok = mpfr_cmp_d(real.lower(), s.real.lower()) >= 0 && mpfr_cmp_d(real.upper(), s.real.upper()) <= 0 &&
                  contains(s.fp, exact_value(fp)) && mpfr_cmp_d(elo, s.err.lower()) >= 0 &&
                  mpfr_cmp_d(ehi, s.err.upper()) <= 0;
  if (!ok && o.violations++ == 0) {
    std::ostringstream os;
    os << "real in " << real.interval() << " fp " << fp << " err in [" << mpfr_get_d(elo, MPFR_RNDD) << ", "
       << mpfr_get_d(ehi, MPFR_RNDU) << "] not in " << s;
    o.first = os.str();
  }
  mpfr_clears(elo, ehi, static_cast<mpfr_ptr>(nullptr));
}

std::vector<double> computed_run(const Spec& s, const Scenario& sc, const std::vector<std::vector<double>>& f) {
  if (sc.F.precision == 24) {
    std::vector<std::vector<float>> v;
    for (const auto& x : f) v.emplace_back(x.begin(), x.end());
    const std::vector<float> y = run_k32(s, v);
    return {y.begin(), y.end()};
  }
  return run_NATIVE(s, f);
}

template <class B>
Outcome sample(const Spec& s, const Scenario& sc, const std::vector<B>& bound, std::size_t executions,
               std::uint64_t seed) {
  Sampler gen(seed, sc, s.switches);
  Outcome o;
  std::mt19937_64 pick_out(seed + 1);
  const bool big = s.k == K::MatMul && s.in[0].dims[0] == 64;
  // 64x64: the inputs persist between executions and each execution draws
  // afresh the rows of A and columns of B of the 4 output elements it checks
  // (all other elements keep earlier draws, also concrete executions).
  std::vector<std::vector<Input>> x(s.in.size());
  std::vector<std::vector<double>> f(s.in.size());
  int checked[4][2] = {};
  for (std::size_t t = 0; t < executions; ++t) {
    // every fourth execution: the drawn inputs at the same corner s·c (c = 1
    // or just below: 1 − 2^-21 makes FP32 sums of products round the same
    // way) with the error s·e (real s·(c − e)), where the errors of a sum of
    // products align
    const bool corner = t % 4 == 3;
    const double corners[] = {1.0, 1 - 0x1p-21, 1 - 0x1p-20, 1 - 0x1p-22};
    const double sign = ((pick_out() & 1) ? 1.0 : -1.0) * corners[pick_out() % 4];
    auto draw = [&]() { return corner ? Input{sign, sc.e > 0 ? (sign > 0 ? 1024 : -1024) : 0} : gen.next(); };
    for (std::size_t i = 0; i < s.in.size(); ++i) {
      const auto n = static_cast<std::size_t>(s.in[i].size());
      if (x[i].size() != n) {  // first execution: every element
        x[i].clear();
        if (!s.constants[i].empty())
          for (double c : s.constants[i]) x[i].push_back({c, 0});
        else
          for (std::size_t j = 0; j < n; ++j) x[i].push_back(draw());
        f[i].resize(n);
      } else if (s.constants[i].empty() && !big) {
        for (std::size_t j = 0; j < n; ++j) x[i][j] = draw();
      }
    }
    if (big && t > 0)
      for (auto& c : checked) {
        c[0] = static_cast<int>(pick_out() % 64), c[1] = static_cast<int>(pick_out() % 64);
        for (int k = 0; k < 64; ++k) x[0][c[0] * 64 + k] = draw(), x[1][k * 64 + c[1]] = draw();
      }
    for (std::size_t i = 0; i < s.in.size(); ++i)
      for (std::size_t j = 0; j < x[i].size(); ++j) f[i][j] = x[i][j].f;
    const std::vector<double> fp = computed_run(s, sc, f);
    ++o.executions;
    if (big) {  // 64x64: the exact reference of the 4 drawn output elements (a dot product of 64)
      for (const auto& c : checked) {
        const int i = c[0], j = c[1];
        mpq_class acc = 0;
        for (int k = 0; k < 64; ++k) acc += gen.real(x[0][i * 64 + k]) * gen.real(x[1][k * 64 + j]);
        check_element(bound[i * 64 + j], acc, fp[i * 64 + j], o);
      }
      continue;
    }
    if (is_softmax(s.k)) {  // exp: the MPFR enclosure reference
      std::vector<std::vector<symref::Enclosure>> r(s.in.size());
      for (std::size_t i = 0; i < s.in.size(); ++i)
        for (const Input& v : x[i]) r[i].emplace_back(gen.real(v));
      const std::vector<symref::Enclosure> real = run_kmp(s, r);
      for (std::size_t j = 0; j < real.size(); ++j) check_element(bound[j], real[j], fp[j], o);
      continue;
    }
    std::vector<std::vector<mpq_class>> r(s.in.size());
    for (std::size_t i = 0; i < s.in.size(); ++i)
      for (const Input& v : x[i]) r[i].push_back(gen.real(v));
    const std::vector<mpq_class> real = run_kq(s, r);
    for (std::size_t j = 0; j < real.size(); ++j) check_element(bound[j], real[j], fp[j], o);
  }
  return o;
}

std::size_t executions(double factor = 1) {
  return std::max<std::size_t>(10, static_cast<std::size_t>(1e4 * factor * symerr::test::test_scale()));
}

}  // namespace

namespace {

// Softmax: no tightness target on the interval domain (the affine domain's
// target); the twin is a ceiling 2.5x above the measured ratios (53-119 on
// the full box with the relative identities, 1500-3200 before them; README
// table), so that a bound grown 3x fails.
constexpr double kSoftmaxCeiling = 300;

// Target ratios bound / largest observed error (issue 12), where one is set.
double target_ratio(const Spec& s, const Scenario& sc) {
  switch (s.k) {
    case K::Relu:
    case K::LeakyRelu:
    case K::Where:
    case K::Clip:
    case K::SoftShrink:
    case K::MaxPool: return 2.0;
    case K::MatMul:  // e = 0: the worst-case rounding is not met by sampling; see a_priori_bound
    case K::MatMulFma:
    case K::Conv: return sc.e > 0 ? 1.5 : 0;
    case K::MaxPoolIf: return 2.0;  // a running max over locals: outputs are copies of inputs (driver tags)
    case K::Softmax:  // tightness is the affine domain's target: a ceiling only (bisected: measured 5.7-5.9)
      return s.bisections > 0 ? 15 : kSoftmaxCeiling;
    case K::SoftmaxIf: return sc.e > 0 ? 0 : kSoftmaxCeiling;  // e > 0: unstable running max, as maxpool (if)
    default: return sc.e > 0 ? 2.0 : 4.0;
  }
}

// The tightness twins: the target ratio bound / observed where one is set,
// and for sums of K products of |x| <= 1 + e the a-priori bound
// K·(2e + e^2) + gamma_K·K·(1 + e)^2, gamma_K = K·u / (1 − K·u) (it also
// bounds the fused loop, which rounds once per step instead of twice).
void check_tightness(const Spec& s, const Scenario& sc, double bound, double ratio) {
  const double target = target_ratio(s, sc);
  if (target > 0) CHECK(ratio <= target);
  if (s.k == K::MatMul || s.k == K::MatMulFma || s.k == K::Conv) {
    const double K = s.k == K::Conv ? 9 : s.in[0].dims[1];
    const double u = std::ldexp(1.0, -sc.F.precision);
    const double a_priori = K * (2 * sc.e + sc.e * sc.e) + K * u / (1 - K * u) * K * (1 + sc.e) * (1 + sc.e);
    CHECK(bound <= a_priori * 1.0001);
  }
}

void run_spec(const Spec& s, double factor) {
  for (const Scenario& sc : kScenarios) {
    verify::DriverResult res;
    REQUIRE_NOTHROW(res = symbolic_run(s, sc));
    INFO(s.name << " " << sc.name << ": " << res.report.summary());
    CHECK_FALSE(res.report.budget_exhausted);
    double bound = 0;
    for (const S& y : res.outputs) bound = std::max(bound, mag(y.err));
    const Outcome o = sample(s, sc, res.outputs, executions(factor), 1234);
    const double ratio = o.max_err > 0 ? bound / o.max_err : (bound == 0 ? 1.0 : INFINITY);
    std::printf("| %-15s | %-13s | %6zu | %6zu | %10.3g | %10.3g | %6.3g | %s\n", s.name, sc.name, o.executions,
                o.checks, bound, o.max_err, ratio, res.report.summary().c_str());
    INFO(o.first);
    CHECK(o.violations == 0);
    CHECK(o.executions >= executions(factor));
    check_tightness(s, sc, bound, ratio);
  }
}

}  // namespace

TEST_CASE("substitution: the C kernels compile as C++ on SymbolicError, malloc'd tensors and all", "[substitute]") {
  int dims[1] = {4};
  ksym::tensor* t = ksym::tensor_new(1, dims);
  CHECK(ksym::tensor_size(t) == 4);
  for (int i = 0; i < 4; ++i) {  // memset(…, 0, …) / calloc'd symbolic values are the exact zero
    CHECK(t->data[i].specials.may_be_finite);
    CHECK(is_point(t->data[i].fp));
    CHECK(t->data[i].fp.lower() == 0.0);
  }
  for (int i = 0; i < 4; ++i) t->data[i] = S::input(-1, 1, FP64);
  ksym::tensor* y = ksym::tensor_new(1, dims);
  ksym::onnx_add(t, t, y);
  CHECK(y->data[0].real.upper() == 2.0);
  CHECK_THROWS_AS(ksym::onnx_relu(t, y), UndecidedBranch);  // outside the driver
  ksym::tensor_free(t);
  ksym::tensor_free(y);
}

TEST_CASE("C kernel add, mul: sound against exact executions", "[substitute]") {
  for (const Spec& s : specs())
    if (s.k == K::Add || s.k == K::Mul) run_spec(s, 1);
}
TEST_CASE("C kernel matmul 4x4 and 64x64: sound against exact executions", "[substitute]") {
  // the sanitizer run (scaled down) does the 4x4 only: the same code, 1/4096 of the work
  for (const Spec& s : specs())
    if (s.k == K::MatMul && (s.in[0].dims[0] == 4 || !symerr::test::scaled_down())) run_spec(s, 1);
}
TEST_CASE("C kernel matmul 4x4 with fma (acc = fma(a, b, acc)): sound, below the unfused bound", "[substitute]") {
  for (const Spec& s : specs())
    if (s.k == K::MatMulFma) run_spec(s, 1);
  // twin: one rounding per step instead of two, so a smaller introduced error
  for (const Scenario& sc : kScenarios) {
    double b_fused = 0, b_unfused = 0;
    for (const Spec& s : specs()) {
      if (s.in.empty() || s.in[0].dims[0] != 4) continue;
      if (s.k == K::MatMulFma)
        for (const S& y : symbolic_run(s, sc).outputs) b_fused = std::max(b_fused, mag(y.introduced));
      if (s.k == K::MatMul)
        for (const S& y : symbolic_run(s, sc).outputs) b_unfused = std::max(b_unfused, mag(y.introduced));
    }
    INFO(sc.name << ": introduced bound fused " << b_fused << ", unfused " << b_unfused);
    CHECK(b_fused > 0);
    CHECK(b_fused < b_unfused);
  }
}
TEST_CASE("C kernel conv2d NCHW 1x1x8x8, 3x3, padding 1: sound against exact executions", "[substitute]") {
  for (const Spec& s : specs())
    if (s.k == K::Conv) run_spec(s, 1);
}
TEST_CASE("C kernel batchnorm 1x2x4x4 (sqrt): sound against exact executions", "[substitute]") {
  for (const Spec& s : specs())
    if (s.k == K::BatchNorm) run_spec(s, 1);
}
TEST_CASE("C kernels relu, leakyrelu, where, clip on 16 elements, full box, through the driver", "[substitute]") {
  for (const Spec& s : specs())
    if (s.k == K::Relu || s.k == K::LeakyRelu || s.k == K::Where || s.k == K::Clip) run_spec(s, 1);
}
TEST_CASE("C kernel softshrink (copysign, fdim, fabs) on 16 elements, full box, through the driver",
          "[substitute]") {
  for (const Spec& s : specs())
    if (s.k == K::SoftShrink) run_spec(s, 1);
}
TEST_CASE("C kernel maxpool 2x2 on 4x4 (fmax and if-based): sound against exact executions", "[substitute]") {
  for (const Spec& s : specs())
    if (s.k == K::MaxPool || s.k == K::MaxPoolIf) run_spec(s, 1);
}
TEST_CASE("C kernel softmax on 4 and 16 elements (exp, MPFR enclosure reference), full box", "[substitute]") {
  // the bisected specs (4096 boxes, 32761 runs per scenario) only in the
  // full run: under the sanitizer (scaled down) they took 20 s of this test
  for (const Spec& s : specs())
    if (is_softmax(s.k) && (s.bisections == 0 || !symerr::test::scaled_down())) run_spec(s, 1);
}
// Softmax (fmax running maximum: no branch, no driver needed) substituted on
// SymbolicDomainError<Affine>: the correlations of x_i − m, exp and the sum
// kept. Sound against the same exact executions; reported with its ratio
// (the issue-14 target, <= 2x, is the driver's with subdivision).
TEST_CASE("C kernel softmax on the affine domain: sound, tighter than Interval", "[substitute]") {
  for (const Spec& s : specs()) {
    if (s.k != K::Softmax || s.bisections > 0) continue;
    for (const Scenario& sc : kScenarios) {
      AffineContext ctx;
      AffineScope scope(ctx);
      using SA = SymbolicDomainError<Affine>;
      std::vector<SA> in, out(static_cast<std::size_t>(s.out.size()));
      for (int i = 0; i < s.in[0].size(); ++i) in.push_back(SA::input(-1, 1, -sc.e, sc.e, sc.F));
      kaff::tensor tx{1, {s.in[0].size()}, in.data()}, ty{1, {s.out.size()}, out.data()};
      kaff::onnx_softmax(&tx, &ty);
      double bound = 0, interval = 0;
      for (const SA& y : out) bound = std::max(bound, mag(y.err));
      for (const S& y : symbolic_run(s, sc).outputs) interval = std::max(interval, mag(y.err));
      const Outcome o = sample(s, sc, out, executions(0.3), 1234);
      std::printf("| %-15s | %-13s | Affine %6zu | %10.3g | %10.3g | %6.3g | Interval %10.3g\n", s.name, sc.name,
                  o.executions, bound, o.max_err, bound / o.max_err, interval);
      INFO(s.name << " " << sc.name << ": " << o.first);
      CHECK(o.violations == 0);
      CHECK(bound <= interval);  // never worse than Interval
    }
  }
}
// The kernels whose comparisons are between two computed values (a running
// maximum over locals: maxpool and softmax written with `if`) through the
// driver on SymbolicDomainError<Affine>: an unstable comparison is bounded
// pair by pair under both paths' conditions (driver.hpp), which keeps the
// relation the Interval domain loses (bound 2 for e > 0 there). Target for
// maxpool (issue 12): within 2x of the largest observed error; softmax (if)
// reported. Each input is an independent Affine input (own symbols).
TEST_CASE("C kernels maxpool (if) and softmax (if) on the affine domain through the driver", "[substitute]") {
  using SA = SymbolicDomainError<Affine>;
  for (const Spec& s : specs()) {
    if (s.k != K::MaxPoolIf && s.k != K::SoftmaxIf) continue;
    for (const Scenario& sc : kScenarios) {
      AffineContext ctx;
      AffineScope scope(ctx);
      std::vector<SA> in;
      for (int i = 0; i < s.in[0].size(); ++i) in.push_back(SA::input(-1, 1, -sc.e, sc.e, sc.F));
      const auto res = verify::run_kernel<Affine>(
          [&s](std::span<SA> x, std::span<SA> y) { run_views<kaff::tensor>(s, x, y, dispatch_kaff<kaff::tensor>); },
          in, static_cast<std::size_t>(s.out.size()), lanes_for(s));
      double bound = 0, interval = 0;
      for (const SA& y : res.outputs) bound = std::max(bound, mag(y.err));
      for (const S& y : symbolic_run(s, sc).outputs) interval = std::max(interval, mag(y.err));
      const Outcome o = sample(s, sc, res.outputs, executions(), 1234);
      const double ratio = o.max_err > 0 ? bound / o.max_err : (bound == 0 ? 1.0 : INFINITY);
      std::printf("| %-15s | %-13s | Affine %6zu | %10.3g | %10.3g | %6.3g | Interval %10.3g | %s\n", s.name, sc.name,
                  o.executions, bound, o.max_err, ratio, interval, res.report.summary().c_str());
      INFO(s.name << " " << sc.name << ": " << o.first << " " << res.report.summary());
      CHECK(o.violations == 0);
      CHECK_FALSE(res.report.budget_exhausted);
      CHECK(bound <= interval);
      if (s.k == K::MaxPoolIf) CHECK(ratio <= 2.0);
    }
  }
}

namespace {

// ---- the same C kernels substituted on LeanDouble / LeanFloat ----------------

// A LeanError's enclosures as the domain's intervals (for check_element).
struct LeanView {
  Interval real, fp, err;
};
std::ostream& operator<<(std::ostream& os, const LeanView& v) {
  return os << "{real " << v.real << ", fp " << v.fp << ", err " << v.err << "}";
}
template <class L>
LeanView lean_view(const L& y) {
  return {Interval::between(y.real().lo, y.real().hi), Interval::between(y.fp().lo, y.fp().hi),
          Interval::between(y.err().lo, y.err().hi)};
}
template <class L>
std::vector<LeanView> lean_outputs(const Spec& s, const Scenario& sc) {
  std::vector<std::vector<L>> in;
  for (std::size_t i = 0; i < s.in.size(); ++i) {
    in.emplace_back();
    if (s.constants[i].empty())
      in.back().assign(static_cast<std::size_t>(s.in[i].size()), L::input(-1, 1, -sc.e, sc.e));
    else
      for (double c : s.constants[i]) in.back().push_back(L(c));
  }
  std::vector<L> out;
  if constexpr (std::is_same_v<L, LeanDouble>) out = run_klean(s, in);
  else out = run_klean32(s, in);
  std::vector<LeanView> v;
  for (const L& y : out) v.push_back(lean_view(y));
  return v;
}
std::vector<LeanView> lean_outputs(const Spec& s, const Scenario& sc) {
  return sc.F.precision == 53 ? lean_outputs<LeanDouble>(s, sc) : lean_outputs<LeanFloat>(s, sc);
}
bool lean_kernel(K k) {
  return k == K::Add || k == K::Mul || k == K::MatMul || k == K::MatMulFma || k == K::Conv || k == K::BatchNorm ||
         k == K::MaxPool || k == K::Softmax;
}

}  // namespace

// Softmax on LeanError: exp through SymbolicError on an input holding the
// value (the relative identities of x − m, exp and the sum are lost, and
// the quotient y/sum is bounded without its correlation): measured
// 1480-3180x; the ceiling is 2.5x above, so that a bound grown 3x fails.
constexpr double kLeanSoftmaxCeiling = 8000;

// Soundness against the same exact executions as SymbolicError's; tightness:
// the same targets (matmul, conv: within 1.5x of observed for e > 0, and below
// the a-priori bound), and against SymbolicError's bound on the same kernel.
namespace {

// One C kernel on LeanDouble (FP64 scenarios) / LeanFloat (FP32), every scenario.
void run_lean_spec(const Spec& s) {
  for (const Scenario& sc : kScenarios) {
    std::vector<LeanView> out;
    REQUIRE_NOTHROW(out = lean_outputs(s, sc));
    double bound = 0, symbolic = 0;
    for (const LeanView& y : out) bound = std::max(bound, mag(y.err));
    for (const S& y : symbolic_run(s, sc).outputs) symbolic = std::max(symbolic, mag(y.err));
    const Outcome o = sample(s, sc, out, executions(), 1234);
    const double ratio = o.max_err > 0 ? bound / o.max_err : (bound == 0 ? 1.0 : INFINITY);
    std::printf("| %-15s | %-13s | Lean %6zu | %10.3g | %10.3g | %6.3g | SymbolicError %10.3g\n", s.name, sc.name,
                o.executions, bound, o.max_err, ratio, symbolic);
    INFO(s.name << " " << sc.name << ": " << o.first);
    CHECK(o.violations == 0);
    if (s.k == K::Softmax) {
      CHECK(ratio <= kLeanSoftmaxCeiling);
      continue;
    }
    check_tightness(s, sc, bound, ratio);
    // SymbolicError's bound on the sums, products and fma (measured equal);
    // batchnorm's quotient and square root 1.07x (e > 0) and 1.41x (e = 0)
    const double same = s.k == K::BatchNorm ? (sc.e > 0 ? 1.1 : 1.5) : 1.001;
    CHECK(bound <= symbolic * same);
  }
}

}  // namespace

// Three test cases, so that ctest runs them side by side.
TEST_CASE("C kernels on LeanDouble / LeanFloat: sound against exact executions, SymbolicError's tightness",
          "[substitute][lean]") {
  for (const Spec& s : specs())
    if (lean_kernel(s.k) && s.k != K::Softmax && !(s.k == K::MatMul && s.in[0].dims[0] == 64)) run_lean_spec(s);
}
TEST_CASE("C kernel matmul 64x64 on LeanDouble / LeanFloat: sound against exact executions, tight",
          "[substitute][lean]") {
  // the sanitizer run (scaled down) does the 4x4 only (above)
  for (const Spec& s : specs())
    if (s.k == K::MatMul && s.in[0].dims[0] == 64 && !symerr::test::scaled_down()) run_lean_spec(s);
}
TEST_CASE("C kernel softmax on LeanDouble / LeanFloat (exp through SymbolicError): sound, below its ceiling",
          "[substitute][lean]") {
  for (const Spec& s : specs())
    if (s.k == K::Softmax && s.bisections == 0) run_lean_spec(s);
}

TEST_CASE("planted bug: narrowed LeanFloat enclosures of the C matmul are caught by the exact executions",
          "[substitute][lean]") {
  for (const Spec& s : specs()) {
    if (s.k != K::MatMul || s.in[0].dims[0] != 4) continue;
    std::vector<LeanView> bound = lean_outputs(s, kScenarios[3]);  // FP32, e = 2^-20
    for (LeanView& y : bound) y.err = Interval::between(y.err.lower() * 0.75, y.err.upper() * 0.75);
    CHECK(sample(s, kScenarios[3], bound, executions(0.2), 99).violations > 0);
  }
}

TEST_CASE("C kernels with data-dependent comparisons on LeanDouble: UndecidedBranch naming both operands",
          "[substitute][lean]") {
  for (const Spec& s : specs()) {
    if (lean_kernel(s.k)) continue;
    INFO(s.name);
    CHECK_THROWS_MATCHES(lean_outputs(s, kScenarios[1]), UndecidedBranch,
                         Catch::Matchers::Predicate<UndecidedBranch>([](const UndecidedBranch& e) {
                           const std::string w = e.what();
                           return w.find("LeanError<FP64>") != std::string::npos &&
                                  w.find("fp [") != std::string::npos && w.find("real [") != std::string::npos &&
                                  w.find("run_kernel") != std::string::npos;
                         }));
  }
}

TEST_CASE("[long] every C kernel, 10x the executions", "[.][long][substitute]") {
  for (const Spec& s : specs()) run_spec(s, 10);
}

TEST_CASE("planted bug: narrowed C-kernel enclosures are caught by the exact executions", "[substitute]") {
  for (const Spec& s : specs()) {
    if (s.k != K::Relu && s.k != K::MatMul && s.k != K::Softmax) continue;
    if (s.k == K::MatMul && s.in[0].dims[0] == 64) continue;
    const Scenario& sc = kScenarios[3];  // FP32, e = 2^-20
    std::vector<S> bound = symbolic_run(s, sc).outputs;
    for (S& y : bound)  // softmax is loose (ratio ~10): its planted bug drops the negative errors
      y.err = s.k == K::Softmax ? Interval::between(0, y.err.upper())
                                : Interval::between(y.err.lower() * 0.75, y.err.upper() * 0.75);
    const Outcome o = sample(s, sc, bound, executions(0.2), 99);
    INFO(s.name);
    CHECK(o.violations > 0);
  }
}

TEST_CASE("substitution: memset of a non-zero byte and free of a foreign pointer are refused by name, not aborted",
          "[substitute]") {
  namespace sub = symerr::substitute;
  S* p = sub::allocate(4 * sizeof(S), true);
  CHECK(p[2].fp.lower() == 0.0);
  // memset(p, 0, n) writes exact zeros; any other byte has no meaning for a symbolic value
  p[1] = S::input(-1, 1, FP64);
  sub::set(p, 0, 4 * sizeof(S));
  CHECK(is_point(p[1].fp));
  CHECK_THROWS_WITH(sub::set(p, 0xff, 4 * sizeof(S)),
                    Catch::Contains("memset(p, 255, ") && Catch::Contains("can be set to 0 only"));
  // a pointer into the block (C code freeing an offset pointer) is not a block
  CHECK_THROWS_WITH(sub::release(p + 2), Catch::Contains("free(): the pointer was not returned by the substituted"));
  sub::release(p);
  // integers keep C's memset
  int* q = sub::allocate(4 * sizeof(int), false);
  sub::set(q, 0xff, 4 * sizeof(int));
  CHECK(q[3] == -1);
  sub::release(q);
  CHECK_THROWS_WITH(sub::release(q), Catch::Contains("or a block freed twice"));
}

TEST_CASE("substitution: a block a kernel returns may be released by its caller with the plain free()",
          "[substitute]") {
  // A C kernel returning a malloc'd array, its C++ caller doing what C does:
  // free(result). (A header in front of the block, kept by the substituted
  // malloc, would make glibc abort: "free(): invalid pointer".)
  namespace sub = symerr::substitute;
  for (int round = 0; round < 3; ++round) {
    S* p = sub::allocate(16 * sizeof(S), false);
    REQUIRE(p != nullptr);
    CHECK(p[15].fp.lower() == 0.0);  // constructed: the exact 0
    p[3] = S::input(-1, 1, FP64);
    S* r = sub::reallocate(p, 32 * sizeof(S));  // realloc keeps the elements
    CHECK(r[3].fp.upper() == 1.0);
    std::free(r);  // the caller's plain free: no abort (checked under ASan in the test command)
  }
  // the substituted free of the same kind of block still works
  S* p = sub::allocate(4 * sizeof(S), true);
  sub::release(p);
}
