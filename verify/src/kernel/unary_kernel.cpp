// Loading unary kernels from shared libraries (unary.hpp).
#include <symerr/verify/concrete/unary.hpp>

namespace symerr::verify {
namespace {

template <class T>
UnaryKernel wrap(std::string name, OpId op, ElementType type, void* sym, std::shared_ptr<void> lib) {
  auto f = reinterpret_cast<UnaryFn<T>>(sym);
  UnaryKernel k{std::move(name), op, type, {}, {}, {}};
  k.run = [f, lib](const void* x, void* y, std::size_t n) { f(static_cast<const T*>(x), static_cast<T*>(y), n); };
  return k;
}

}  // namespace

UnaryKernel harnessed(UnaryKernel k, std::optional<SandboxOptions> isolation) {
  if (k.fp_log) return k;
  k.fp_log = std::make_shared<FpStateLog>();
  if (isolation) {
    KernelCall call = [raw = k.run](const void* a, const void*, void* y, std::size_t n) { raw(a, y, n); };
    k.sandbox = std::make_shared<Sandbox>(std::move(call), storage_size(k.type), *isolation, k.fp_log);
    k.run = [sb = k.sandbox](const void* x, void* y, std::size_t n) { sb->run(x, nullptr, y, n); };
  } else {
    k.run = [raw = std::move(k.run), log = k.fp_log](const void* x, void* y, std::size_t n) {
      call_in_documented_state([&] { raw(x, y, n); }, log.get());
    };
  }
  return k;
}

Kernel as_binary(const UnaryKernel& u) {
  Kernel k;
  k.name = u.name;
  k.op = u.op;
  k.type = u.type;
  k.run = [run = u.run](const void* a, const void*, void* y, std::size_t n) { run(a, y, n); };
  k.fp_log = u.fp_log;
  k.sandbox = u.sandbox;
  return k;
}

// Convert has one operand too, but its target format is a parameter a unary
// kernel does not have.
bool unary_kernel_operator(OpId op) noexcept { return operator_info(op).arity == 1 && op != OpId::Convert; }

OpId parse_unary_operator(std::string_view name) {
  const OpInfo* info = find_operator(name);
  if (!info || !unary_kernel_operator(info->id))
    throw std::invalid_argument("operator '" + std::string(name) + "'" + (info ? " is not unary" : " is unknown") +
                                " (expected one of " + operator_names(unary_kernel_operator) + ")");
  return info->id;
}

UnaryKernel load_unary_kernel(const std::string& path, const std::string& symbol, OpId op,
                              ElementType type, double load_seconds) {
  const std::string what = "load_unary_kernel: symbol '" + symbol + "' from '" + path + "'";
  if (!is_float(type)) throw KernelLoadError(what + ": unary kernels take FP16, BF16, FP32 or FP64, not " + to_string(type));
  const auto [sym, library] = load_symbol(path, symbol, what, load_seconds);
  const std::string name = symbol + "@" + path;
  switch (type) {
    case ElementType::FP32: return wrap<float>(name, op, type, sym, library);
    case ElementType::FP64: return wrap<double>(name, op, type, sym, library);
    default: return wrap<std::uint16_t>(name, op, type, sym, library);
  }
}

}  // namespace symerr::verify
