// Kernel names, signatures and loading from shared libraries.
#include <symerr/verify/kernel/kernel.hpp>

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <sys/stat.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>

namespace symerr::verify {

namespace {
std::string lower(std::string_view s) {
  std::string r(s);
  for (auto& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}
constexpr ElementType kAllTypes[] = {
    ElementType::FP16,  ElementType::BF16,   ElementType::FP32,  ElementType::FP64,
    ElementType::INT8,  ElementType::UINT8,  ElementType::INT16, ElementType::UINT16,
    ElementType::INT32, ElementType::UINT32, ElementType::INT64, ElementType::UINT64};
}  // namespace

bool binary_kernel_operator(OpId op) noexcept {
  return op == OpId::Add || op == OpId::Sub || op == OpId::Mul || op == OpId::Div;
}

std::string operator_names(bool (*accepts)(OpId) noexcept) {
  std::string names;
  for (const OpInfo& info : operator_table())
    if (accepts(info.id)) names += (names.empty() ? "" : ", ") + std::string(info.name);
  return names;
}

OpId parse_binary_operator(std::string_view name) {
  const OpInfo* info = find_operator(name);
  if (!info || !binary_kernel_operator(info->id))
    throw std::invalid_argument("operator '" + std::string(name) + "'" +
                                (info ? " has no two-input concrete check" : " is unknown") + " (expected one of " +
                                operator_names(binary_kernel_operator) + ")");
  return info->id;
}

const char* to_string(ElementType t) noexcept {
  switch (t) {
    case ElementType::FP16: return "FP16";
    case ElementType::BF16: return "BF16";
    case ElementType::FP32: return "FP32";
    case ElementType::FP64: return "FP64";
    case ElementType::INT8: return "INT8";
    case ElementType::UINT8: return "UINT8";
    case ElementType::INT16: return "INT16";
    case ElementType::UINT16: return "UINT16";
    case ElementType::INT32: return "INT32";
    case ElementType::UINT32: return "UINT32";
    case ElementType::INT64: return "INT64";
    case ElementType::UINT64: return "UINT64";
  }
  return "?";
}

std::optional<ElementType> parse_element_type(std::string_view s) noexcept {
  const auto f = find_format(s);
  if (!f) return std::nullopt;
  const std::string name = format_name(*f);
  for (ElementType t : kAllTypes)
    if (name == to_string(t)) return t;
  return std::nullopt;
}

Format format_of(ElementType t) noexcept {
  switch (t) {
    case ElementType::FP16: return FP16;
    case ElementType::BF16: return BF16;
    case ElementType::FP32: return FP32;
    case ElementType::FP64: return FP64;
    case ElementType::INT8: return INT8;
    case ElementType::UINT8: return UINT8;
    case ElementType::INT16: return INT16;
    case ElementType::UINT16: return UINT16;
    case ElementType::INT32: return INT32;
    case ElementType::UINT32: return UINT32;
    case ElementType::INT64: return INT64;
    case ElementType::UINT64: return UINT64;
  }
  return std::monostate{};
}

bool is_float(ElementType t) noexcept {
  return t == ElementType::FP16 || t == ElementType::BF16 || t == ElementType::FP32 ||
         t == ElementType::FP64;
}

std::size_t storage_size(ElementType t) noexcept {
  switch (t) {
    case ElementType::INT8:
    case ElementType::UINT8: return 1;
    case ElementType::FP16:
    case ElementType::BF16:
    case ElementType::INT16:
    case ElementType::UINT16: return 2;
    case ElementType::FP32:
    case ElementType::INT32:
    case ElementType::UINT32: return 4;
    default: return 8;
  }
}

const char* to_string(KernelForm f) noexcept {
  return f == KernelForm::Elementwise ? "elementwise" : "tensor";
}

KernelSignature parse_signature(std::string_view text) {
  std::vector<std::string> words;
  std::string cur;
  for (char c : text) {
    if (c == ' ' || c == ':' || c == ',' || c == '\t') {
      if (!cur.empty()) words.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) words.push_back(cur);
  const std::string where = "kernel signature \"" + std::string(text) + "\"";
  if (words.size() < 2 || words.size() > 3)
    throw std::invalid_argument(where + ": expected \"<Operator> <type> [elementwise|tensor]\"");
  KernelSignature sig;
  try {
    sig.op = parse_binary_operator(words[0]);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(where + ": " + e.what());
  }
  const auto type = parse_element_type(words[1]);
  if (!type) throw std::invalid_argument(where + ": unknown element type \"" + words[1] + "\"");
  sig.type = *type;
  if (words.size() == 3) {
    const std::string f = lower(words[2]);
    if (f == "elementwise") sig.form = KernelForm::Elementwise;
    else if (f == "tensor") sig.form = KernelForm::Tensor;
    else throw std::invalid_argument(where + ": unknown form \"" + words[2] + "\" (elementwise, tensor)");
  }
  return sig;
}

namespace {

template <class T>
Kernel wrap_symbol(std::string name, const KernelSignature& sig, void* sym,
                   std::shared_ptr<void> library) {
  Kernel k;
  if (sig.form == KernelForm::Elementwise)
    k = make_kernel<T>(std::move(name), sig.op, sig.type, reinterpret_cast<ElementwiseFn<T>>(sym));
  else
    k = make_tensor_kernel<T>(std::move(name), sig.op, sig.type, reinterpret_cast<TensorFn<T>>(sym));
  // keep the library loaded for as long as the kernel can be called
  k.run = [run = std::move(k.run), library](const void* a, const void* b, void* y, std::size_t n) {
    run(a, b, y, n);
  };
  return k;
}

}  // namespace

namespace {

void exit_at_once(int status, void*) { ::_exit(status); }

// dlopen + dlsym in a child process (its own process group), so that a
// library's constructors run there first. Returns normally when the child
// loaded it, or could not (the parent's dlopen then names the reason).
void probe_load(const std::string& open_path, const std::string& symbol, const std::string& what,
                double seconds) {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) throw KernelLoadError(what + ": cannot create a pipe to load it in a child process");
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(p[0]);
    ::close(p[1]);
    throw KernelLoadError(what + ": cannot fork a child process to load it in");
  }
  if (pid == 0) {
    ::on_exit(exit_at_once, nullptr);  // exit() in a constructor: none of the harness's atexit handlers
    ::setpgid(0, 0);
    // the constructors' own faults kill the child with their signal (as in
    // the sandbox's children), not a handler inherited from the harness
    for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGPIPE}) ::signal(s, SIG_DFL);
    void* h = ::dlopen(open_path.c_str(), RTLD_NOW | RTLD_LOCAL);
    const char ok = h != nullptr && ::dlsym(h, symbol.c_str()) != nullptr ? 'y' : 'n';
    if (::write(p[1], &ok, 1) != 1) ::_exit(3);
    ::_exit(0);
  }
  ::setpgid(pid, pid);
  ::close(p[1]);
  pollfd pf{p[0], POLLIN, 0};
  const int ready = ::poll(&pf, 1, static_cast<int>(seconds * 1000));
  char ok = 0;
  const bool answered = ready > 0 && ::read(p[0], &ok, 1) == 1;
  ::close(p[0]);
  if (!answered) ::kill(-pid, SIGKILL);
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  ::kill(-pid, SIGKILL);  // whatever a constructor forked
  if (answered) return;
  const std::string where = " (the library's constructors run in a child process first: symerr is untouched)";
  if (ready == 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", seconds);
    throw KernelLoadError(what + ": loading the library did not finish within " + buf + " s" + where);
  }
  if (WIFSIGNALED(st)) {
    const char* abbrev = ::sigabbrev_np(WTERMSIG(st));
    throw KernelLoadError(what + ": loading the library killed the process with signal " +
                          std::to_string(WTERMSIG(st)) + " (SIG" + (abbrev ? abbrev : "?") + ")" + where);
  }
  throw KernelLoadError(what + ": loading the library ended the process with exit status " +
                        std::to_string(WIFEXITED(st) ? WEXITSTATUS(st) : -1) + " (exit() called)" + where);
}

}  // namespace

LoadedSymbol load_symbol(const std::string& path, const std::string& symbol, const std::string& what,
                         double load_seconds) {
  struct stat st{};
  if (::stat(path.c_str(), &st) != 0)
    throw KernelLoadError(what + ": the file does not exist or cannot be read");
  // a path without '/' would be searched in the system library path: make it explicit
  const std::string open_path = path.find('/') == std::string::npos ? "./" + path : path;
  probe_load(open_path, symbol, what, load_seconds);
  void* handle = ::dlopen(open_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* err = ::dlerror();
    throw KernelLoadError(what + ": cannot load the library: " + (err ? err : "unknown error"));
  }
  std::shared_ptr<void> library(handle, [](void* h) { ::dlclose(h); });
  ::dlerror();
  void* sym = ::dlsym(handle, symbol.c_str());
  if (const char* err = ::dlerror(); err != nullptr || sym == nullptr)
    throw KernelLoadError(what + ": the symbol is not defined in the library" +
                          (err ? std::string(" (") + err + ")" : std::string()));
  return {sym, std::move(library)};
}

Kernel load_kernel(const std::string& path, const std::string& symbol, const KernelSignature& sig,
                   double load_seconds) {
  const std::string what = "load_kernel: symbol '" + symbol + "' from '" + path + "'";
  const auto [sym, library] = load_symbol(path, symbol, what, load_seconds);
  std::string name = symbol + "@" + path;
  Kernel k;
  switch (sig.type) {
    case ElementType::FP16:
    case ElementType::BF16:
    case ElementType::UINT16: k = wrap_symbol<std::uint16_t>(name, sig, sym, library); break;
    case ElementType::FP32: k = wrap_symbol<float>(name, sig, sym, library); break;
    case ElementType::FP64: k = wrap_symbol<double>(name, sig, sym, library); break;
    case ElementType::INT8: k = wrap_symbol<std::int8_t>(name, sig, sym, library); break;
    case ElementType::UINT8: k = wrap_symbol<std::uint8_t>(name, sig, sym, library); break;
    case ElementType::INT16: k = wrap_symbol<std::int16_t>(name, sig, sym, library); break;
    case ElementType::INT32: k = wrap_symbol<std::int32_t>(name, sig, sym, library); break;
    case ElementType::UINT32: k = wrap_symbol<std::uint32_t>(name, sig, sym, library); break;
    case ElementType::INT64: k = wrap_symbol<std::int64_t>(name, sig, sym, library); break;
    case ElementType::UINT64: k = wrap_symbol<std::uint64_t>(name, sig, sym, library); break;
  }
  std::error_code ec;
  const auto abs = std::filesystem::canonical(path, ec);
  k.library = ec ? path : abs.string();
  k.symbol = symbol;
  return k;
}

Kernel harnessed(Kernel k, std::optional<SandboxOptions> isolation) {
  if (k.fp_log) return k;
  k.fp_log = std::make_shared<FpStateLog>();
  if (isolation) {
    k.sandbox = std::make_shared<Sandbox>(k.run, storage_size(k.type), *isolation, k.fp_log);
    k.run = [sb = k.sandbox](const void* a, const void* b, void* y, std::size_t n) { sb->run(a, b, y, n); };
  } else {
    k.run = [raw = std::move(k.run), log = k.fp_log](const void* a, const void* b, void* y, std::size_t n) {
      call_in_documented_state([&] { raw(a, b, y, n); }, log.get());
    };
  }
  return k;
}

}  // namespace symerr::verify

// ---- storage ----------------------------------------------------------------------

namespace symerr::verify {

double decode_float(ElementType t, std::uint64_t bits) {
  switch (t) {
    case ElementType::FP16: return decode_fp16(static_cast<std::uint16_t>(bits));
    case ElementType::BF16: return decode_bf16(static_cast<std::uint16_t>(bits));
    case ElementType::FP32: return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
    case ElementType::FP64: return std::bit_cast<double>(bits);
    default: throw std::invalid_argument(std::string("decode_float: ") + to_string(t) + " is not a float type");
  }
}

std::uint64_t encode_float(ElementType t, double x) {
  switch (t) {
    case ElementType::FP16: return encode_fp16(x);
    case ElementType::BF16: return encode_bf16(x);
    case ElementType::FP32: return std::bit_cast<std::uint32_t>(static_cast<float>(x));
    case ElementType::FP64: return std::bit_cast<std::uint64_t>(x);
    default: throw std::invalid_argument(std::string("encode_float: ") + to_string(t) + " is not a float type");
  }
}

__int128 decode_int(ElementType t, std::uint64_t bits) {
  const Format f = format_of(t);
  const auto* I = std::get_if<IntFormat>(&f);
  if (I == nullptr) throw std::invalid_argument(std::string("decode_int: ") + to_string(t) + " is not an integer type");
  return I->wrap(static_cast<__int128>(bits));
}

std::uint64_t encode_int(ElementType t, __int128 v) {
  const std::size_t bytes = storage_size(t);
  const auto u = static_cast<unsigned __int128>(v);
  return bytes == 8 ? static_cast<std::uint64_t>(u)
                    : static_cast<std::uint64_t>(u) & ((std::uint64_t{1} << (8 * bytes)) - 1);
}

std::uint64_t load_bits(ElementType t, const void* buffer, std::size_t i) noexcept {
  const auto* p = static_cast<const unsigned char*>(buffer);
  switch (storage_size(t)) {
    case 1: return p[i];
    case 2: { std::uint16_t v; std::memcpy(&v, p + 2 * i, 2); return v; }
    case 4: { std::uint32_t v; std::memcpy(&v, p + 4 * i, 4); return v; }
    default: { std::uint64_t v; std::memcpy(&v, p + 8 * i, 8); return v; }
  }
}

void store_bits(ElementType t, void* buffer, std::size_t i, std::uint64_t bits) noexcept {
  auto* p = static_cast<unsigned char*>(buffer);
  switch (storage_size(t)) {
    case 1: p[i] = static_cast<unsigned char>(bits); break;
    case 2: { const auto v = static_cast<std::uint16_t>(bits); std::memcpy(p + 2 * i, &v, 2); break; }
    case 4: { const auto v = static_cast<std::uint32_t>(bits); std::memcpy(p + 4 * i, &v, 4); break; }
    default: std::memcpy(p + 8 * i, &bits, 8); break;
  }
}

std::string bits_text(ElementType t, std::uint64_t bits) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llx", static_cast<int>(2 * storage_size(t)),
                static_cast<unsigned long long>(bits));
  return buf;
}

}  // namespace symerr::verify
