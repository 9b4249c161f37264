// The FP environment around kernel calls and the child processes that run
// sandboxed kernels (sandbox.hpp).
#include <symerr/verify/kernel/sandbox.hpp>

#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cfenv>
#include <chrono>
#include <cstring>
#include <exception>
#include <mutex>
#include <vector>

#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

namespace symerr::verify {

// ---- FP environment -------------------------------------------------------------------

std::uint32_t read_fp_state() noexcept {
#if defined(__x86_64__)
  return _mm_getcsr();
#else
  std::uint32_t s = mxcsr::kMasks;
  switch (std::fegetround()) {
    case FE_DOWNWARD: s |= 0x2000; break;
    case FE_UPWARD: s |= 0x4000; break;
    case FE_TOWARDZERO: s |= 0x6000; break;
    default: break;
  }
  return s;
#endif
}

void write_fp_state(std::uint32_t state) noexcept {
#if defined(__x86_64__)
  if (state == mxcsr::kDocumented) std::fesetenv(FE_DFL_ENV);  // x87 too: RNE, masked, clear
  _mm_setcsr(state);
#else
  std::feclearexcept(FE_ALL_EXCEPT);
  const std::uint32_t rc = state & mxcsr::kRounding;
  std::fesetround(rc == 0x2000 ? FE_DOWNWARD : rc == 0x4000 ? FE_UPWARD : rc == 0x6000 ? FE_TOWARDZERO : FE_TONEAREST);
#endif
}

namespace {
const char* rounding_name(std::uint32_t s) {
  switch (s & mxcsr::kRounding) {
    case 0x0000: return "RNE";
    case 0x2000: return "downward";
    case 0x4000: return "upward";
    default: return "toward zero";
  }
}
constexpr std::uint32_t kControl = mxcsr::kDAZ | mxcsr::kMasks | mxcsr::kRounding | mxcsr::kFTZ;

std::string bits_named(std::uint32_t bits) {
  std::string s;
  auto add = [&](const char* n) { s += s.empty() ? n : std::string("+") + n; };
  if (bits & mxcsr::kFTZ) add("FTZ");
  if (bits & mxcsr::kDAZ) add("DAZ");
  return s;
}
}  // namespace

std::string describe_fp_state(std::uint32_t s) {
  std::string d = std::string(rounding_name(s)) + ", FTZ " + (s & mxcsr::kFTZ ? "on" : "off") +
                  ", DAZ " + (s & mxcsr::kDAZ ? "on" : "off");
  d += (s & mxcsr::kMasks) == mxcsr::kMasks ? ", traps off" : ", some FP traps enabled";
  return d;
}

std::string describe_fp_change(std::uint32_t after) {
  std::string d;
  auto add = [&](const std::string& x) { d += d.empty() ? x : ", " + x; };
  const std::uint32_t set = after & ~mxcsr::kDocumented & kControl;
  if (const auto n = bits_named(set); !n.empty()) add("leaves " + n + " set");
  if ((after & mxcsr::kRounding) != 0) add(std::string("leaves rounding ") + rounding_name(after));
  if ((after & mxcsr::kMasks) != mxcsr::kMasks) add("leaves FP traps enabled");
  return d;
}

void FpStateLog::record_after(std::uint32_t after) noexcept {
  ++calls;
  flags_raised |= after & mxcsr::kFlags;
  const std::uint32_t set = after & ~mxcsr::kDocumented & kControl;
  const std::uint32_t clear = ~after & mxcsr::kDocumented & kControl;
  if (set | clear) {
    ++calls_leaving_changes;
    left_set |= set;
    left_clear |= clear;
  }
}

void FpStateLog::record_during(std::uint32_t sampled) noexcept {
  during_set |= sampled & ~mxcsr::kDocumented & kControl;
  during_clear |= ~sampled & mxcsr::kDocumented & kControl;
}

bool FpStateLog::changed() const noexcept {
  return (left_set | left_clear | during_set | during_clear) != 0;
}

std::string FpStateLog::describe() const {
  if (!changed()) return "the kernel ran in the documented state (" +
                         describe_fp_state(mxcsr::kDocumented) + ") and left it unchanged";
  std::string d;
  const std::uint32_t left = left_set | left_clear;
  if (left != 0) {
    const std::uint32_t after = (mxcsr::kDocumented | left_set.load()) & ~left_clear.load();
    d = describe_fp_change(after) + " after a call (" + std::to_string(calls_leaving_changes.load()) +
        " of " + std::to_string(calls.load()) + " calls)";
  }
  const std::uint32_t only_during = (during_set | during_clear) & ~left;
  if (only_during != 0) {
    const std::uint32_t s = (mxcsr::kDocumented | (during_set & only_during)) & ~(during_clear & only_during);
    std::string what = bits_named(s & ~mxcsr::kDocumented);
    if ((s & mxcsr::kRounding) != 0) what += (what.empty() ? "" : ", ") + std::string("rounding ") + rounding_name(s);
    if ((s & mxcsr::kMasks) != mxcsr::kMasks) what += (what.empty() ? "" : ", ") + std::string("FP traps");
    d += (d.empty() ? "" : "; ") + std::string("sets ") + what + " during the call and restores it";
  }
  return d;
}

void call_in_documented_state(const std::function<void()>& run, FpStateLog* log) {
  const std::uint32_t caller = read_fp_state();
  write_fp_state(mxcsr::kDocumented);
  std::uint32_t after = mxcsr::kDocumented;
  try {
    run();
    after = read_fp_state();
  } catch (...) {
    write_fp_state(caller);
    throw;
  }
  write_fp_state(caller);
  if (log) log->record_after(after);
}

// ---- the child process ------------------------------------------------------------------

namespace {

// The shared page in front of the buffers.
struct Header {
  std::uint64_t n = 0;
  std::uint32_t state_after = 0;
  std::uint32_t sampled_set = 0, sampled_clear = 0;
  std::int32_t status = 0;  // 0 returned, 1 threw std::exception, 2 threw something else
  char what[512] = {};
};
constexpr std::size_t kHeaderBytes = 4096;

// Fork, socket creation and closing the child's end in the parent happen under
// one lock, so that no other child inherits a child's end: the parent sees EOF
// exactly when its own child dies.
std::mutex& fork_mutex() {
  static std::mutex m;
  return m;
}

Header* g_header = nullptr;            // the child's header (for the sampling handler)
volatile sig_atomic_t g_in_call = 0;   // the kernel is running

void sample_fp_state(int, siginfo_t*, void* context) {
  if (!g_in_call || g_header == nullptr) return;
#if defined(__x86_64__)
  const auto* uc = static_cast<ucontext_t*>(context);
  if (uc->uc_mcontext.fpregs == nullptr) return;
  const std::uint32_t s = uc->uc_mcontext.fpregs->mxcsr;
#else
  (void)context;
  const std::uint32_t s = read_fp_state();
#endif
  g_header->sampled_set |= s & ~mxcsr::kDocumented & kControl;
  g_header->sampled_clear |= ~s & mxcsr::kDocumented & kControl;
}

// A kernel that calls exit(): end the child at once with its status, before
// the atexit handlers inherited from the harness run (they would flush the
// harness's stdio buffers a second time, or run a sanitizer's leak check).
void exit_at_once(int status, void*) { ::_exit(status); }

// The child's address space: its size now plus `extra` bytes.
void limit_address_space(std::uint64_t extra) {
  if (extra == 0) return;
  unsigned long long pages = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%llu", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  const rlim_t limit = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE)) + extra;
  const rlimit as{limit, limit};
  ::setrlimit(RLIMIT_AS, &as);
}

[[noreturn]] void child_main(int fd, Header* h, unsigned char* A, unsigned char* B,
                             unsigned char* Y, const KernelCall& call, std::uint64_t memory_limit, int out_fd) {
  ::on_exit(exit_at_once, nullptr);  // registered last: runs first
  ::setpgid(0, 0);                   // the kernel's own processes die with the group
  const pid_t self = ::getpid();
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  if (out_fd >= 0) {  // the kernel's stdout and stderr: captured, at most 16 MiB
    ::dup2(out_fd, STDOUT_FILENO);
    ::dup2(out_fd, STDERR_FILENO);
    const rlimit fsize{rlim_t{16} << 20, rlim_t{16} << 20};
    ::setrlimit(RLIMIT_FSIZE, &fsize);
  }
  limit_address_space(memory_limit);
  for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGPIPE}) ::signal(s, SIG_DFL);
  g_header = h;
  struct sigaction sa{};
  sa.sa_sigaction = sample_fp_state;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  ::sigaction(SIGPROF, &sa, nullptr);
  const itimerval every_ms{{0, 1000}, {0, 1000}};
  ::setitimer(ITIMER_PROF, &every_ms, nullptr);
  for (;;) {
    std::uint64_t n = 0;
    if (::recv(fd, &n, sizeof n, MSG_WAITALL) != static_cast<ssize_t>(sizeof n)) ::_exit(0);
    h->status = 0;
    h->sampled_set = h->sampled_clear = 0;
    write_fp_state(mxcsr::kDocumented);
    try {
      g_in_call = 1;
      call(A, B, Y, n);
      g_in_call = 0;
    } catch (const std::exception& e) {
      g_in_call = 0;
      h->status = 1;
      std::strncpy(h->what, e.what(), sizeof h->what - 1);
    } catch (...) {
      g_in_call = 0;
      h->status = 2;
    }
    if (::getpid() != self) ::_exit(0);  // a process the kernel forked: only the child answers
    std::fflush(nullptr);                // the kernel's buffered stdio output, into the capture
    h->state_after = read_fp_state();
    write_fp_state(mxcsr::kDocumented);
    const char done = 'k';
    if (::send(fd, &done, 1, MSG_NOSIGNAL) != 1) ::_exit(0);
  }
}

std::string signal_text(int sig) {
  const char* abbrev = sigabbrev_np(sig);
  const char* desc = sigdescr_np(sig);
  return "signal " + std::to_string(sig) + " (SIG" + (abbrev ? abbrev : "?") + ", " +
         (desc ? desc : "unknown") + ")";
}

}  // namespace

constexpr std::size_t kPage = 4096;
constexpr unsigned char kCanary = 0xA5;

// [first, last) holds only the canary byte.
bool canary_intact(const unsigned char* first, const unsigned char* last, std::size_t& bad) {
  for (const unsigned char* p = first; p < last; ++p)
    if (*p != kCanary) {
      bad = static_cast<std::size_t>(p - first);
      return false;
    }
  return true;
}

struct Sandbox::Worker {
  pid_t pid = -1;
  int fd = -1;
  int out_fd = -1;  // the child's stdout and stderr (a memory file)
  void* shm = MAP_FAILED;
  std::size_t shm_bytes = 0, capacity = 0, element_size = 0, region = 0;

  Header* header() const { return static_cast<Header*>(shm); }
  // buffers a, b, y: each followed by its canary zone, the last by a PROT_NONE page
  unsigned char* buffer(int i) const {
    return static_cast<unsigned char*>(shm) + kHeaderBytes + static_cast<std::size_t>(i) * region;
  }

  Worker(std::size_t cap, std::size_t esize, const KernelCall& call, std::uint64_t memory_limit)
      : capacity(cap), element_size(esize) {
    region = (cap * esize + kPage - 1) / kPage * kPage + kCanaryBytes;
    shm_bytes = kHeaderBytes + 3 * region + kPage;
    shm = ::mmap(nullptr, shm_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shm == MAP_FAILED) throw std::runtime_error("sandbox: cannot map shared memory: " + std::string(std::strerror(errno)));
    ::mprotect(static_cast<unsigned char*>(shm) + shm_bytes - kPage, kPage, PROT_NONE);
    new (shm) Header();
    std::lock_guard<std::mutex> lock(fork_mutex());
    out_fd = ::memfd_create("symerr-kernel-output", MFD_CLOEXEC);  // -1: not captured
    std::fflush(nullptr);  // no pending output of symerr's inherited by the child
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
      throw std::runtime_error("sandbox: socketpair: " + std::string(std::strerror(errno)));
    pid = ::fork();
    if (pid < 0) {
      ::close(sv[0]);
      ::close(sv[1]);
      throw std::runtime_error("sandbox: fork: " + std::string(std::strerror(errno)));
    }
    if (pid == 0) {
      ::close(sv[0]);
      child_main(sv[1], header(), buffer(0), buffer(1), buffer(2), call, memory_limit, out_fd);
    }
    ::setpgid(pid, pid);  // as the child does: no window where it is in ours
    ::close(sv[1]);
    fd = sv[0];
  }

  ~Worker() {
    if (pid > 0) {
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
      int st = 0;
      while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
      }
    }
    if (fd >= 0) ::close(fd);
    if (out_fd >= 0) ::close(out_fd);
    if (shm != MAP_FAILED) ::munmap(shm, shm_bytes);
  }

  // Moves what the child wrote since the last call into `into` (at most `room`
  // bytes kept); returns the count written.
  std::uint64_t take_output(std::string& into, std::size_t room) {
    if (out_fd < 0) return 0;
    const off_t written = ::lseek(out_fd, 0, SEEK_CUR);  // the offset is shared with the child
    if (written <= 0) return 0;
    std::string buf(std::min<std::size_t>(static_cast<std::size_t>(written), room), '\0');
    const ssize_t got = buf.empty() ? 0 : ::pread(out_fd, buf.data(), buf.size(), 0);
    if (got > 0) into.append(buf.data(), static_cast<std::size_t>(got));
    if (::ftruncate(out_fd, 0) == 0) ::lseek(out_fd, 0, SEEK_SET);
    return static_cast<std::uint64_t>(written);
  }

  // The child is gone (status st, from waitpid): kill what it forked and say how it ended.
  [[noreturn]] void died(int st) {
    ::kill(-pid, SIGKILL);
    pid = -1;
    if (WIFSIGNALED(st))
      throw KernelFault(FaultKind::Signal, WTERMSIG(st), "the kernel was killed by " + signal_text(WTERMSIG(st)));
    const int code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    throw KernelFault(FaultKind::Exit, code,
                      "the kernel ended the process with exit status " + std::to_string(code) +
                          " during the call (exit() or _exit() called)");
  }
  [[noreturn]] void died() {
    int st = 0;
    while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    died(st);
  }

  // Runs n elements already in the buffers; waits at most `limit` seconds.
  // The child's end of the socket may live on in a process the kernel forked:
  // the child's own death is watched with waitpid as well.
  void call(std::size_t n, double limit) {
    const std::uint64_t nn = n;
    if (::send(fd, &nn, sizeof nn, MSG_NOSIGNAL) != static_cast<ssize_t>(sizeof nn)) died();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit);
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      pollfd p{fd, POLLIN, 0};
      const int r = ::poll(&p, 1, static_cast<int>(std::clamp<long long>(left.count(), 0, 50)));
      if (r < 0 && errno == EINTR) continue;
      if (r == 0) {
        int st = 0;
        if (::waitpid(pid, &st, WNOHANG) == pid) died(st);
        if (left.count() > 0) continue;
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g", limit);
        throw KernelFault(FaultKind::Timeout, 0,
                          std::string("the kernel did not return within the time limit of ") + buf +
                              " s per call (killed)");
      }
      char done = 0;
      const ssize_t got = ::recv(fd, &done, 1, 0);
      if (got == 1) break;
      if (got < 0 && errno == EINTR) continue;
      died();
    }
  }

  // Canaries from element n on, in the buffers the call uses (b only for a
  // binary call: a unary kernel's overflow of a meets a's canary zone first).
  void arm(std::size_t n, bool with_b) {
    for (int i = 0; i < 3; ++i)
      if (i != 1 || with_b) std::memset(buffer(i) + n * element_size, kCanary, region - n * element_size);
  }
  // Throws KernelFault(Memory) when the kernel wrote outside its output's n
  // elements: past a buffer, or into the inputs a / b (the bytes sent).
  void check(std::size_t n, const void* a, const void* b) const {
    static const char* names[] = {"input a", "input b", "output y"};
    const std::size_t used = n * element_size;
    for (int i = 0; i < 3; ++i) {
      std::size_t bad = 0;
      if (i == 1 && !b) continue;
      if (!canary_intact(buffer(i) + used, buffer(i) + region, bad))
        throw KernelFault(FaultKind::Memory, 0,
                          std::string("the kernel wrote past the end of its ") + names[i] + " buffer (" +
                              std::to_string(n) + " elements; byte " + std::to_string(bad) + " past them overwritten)");
    }
    for (int i = 0; i < 2; ++i) {
      const void* sent = i == 0 ? a : b;
      if (sent && used && std::memcmp(buffer(i), sent, used) != 0)
        throw KernelFault(FaultKind::Memory, 0, std::string("the kernel wrote into its ") + names[i] + " buffer");
    }
  }
};

struct Sandbox::Pool {
  std::mutex m;
  std::vector<std::unique_ptr<Worker>> idle;
  std::string output;              // the kernel's stdout/stderr, first kOutputBytes
  std::uint64_t output_bytes = 0;  // in all

  void collect(Worker& w) {
    std::lock_guard<std::mutex> lock(m);
    output_bytes += w.take_output(output, kOutputBytes - std::min(kOutputBytes, output.size()));
  }
};

std::string Sandbox::output() const {
  std::lock_guard<std::mutex> lock(pool_->m);
  if (pool_->output_bytes <= pool_->output.size()) return pool_->output;
  return pool_->output + " ... (" + std::to_string(pool_->output_bytes) + " bytes in all)";
}

Sandbox::Sandbox(KernelCall call, std::size_t element_size, SandboxOptions options,
                 std::shared_ptr<FpStateLog> log)
    : call_(std::move(call)), element_size_(element_size), options_(options), log_(std::move(log)),
      pool_(std::make_unique<Pool>()) {}

Sandbox::~Sandbox() = default;

std::unique_ptr<Sandbox::Worker> Sandbox::acquire(std::size_t n) {
  {
    std::lock_guard<std::mutex> lock(pool_->m);
    for (auto it = pool_->idle.begin(); it != pool_->idle.end(); ++it)
      if ((*it)->capacity >= n) {
        auto w = std::move(*it);
        pool_->idle.erase(it);
        return w;
      }
  }
  return std::make_unique<Worker>(std::max<std::size_t>(n, 4096), element_size_, call_, options_.memory_limit_bytes);
}

void Sandbox::release(std::unique_ptr<Worker> w) {
  std::lock_guard<std::mutex> lock(pool_->m);
  pool_->idle.push_back(std::move(w));
}

void Sandbox::run(const void* a, const void* b, void* y, std::size_t n) {
  auto w = acquire(n);
  const std::size_t bytes = n * element_size_;
  if (bytes) {
    std::memcpy(w->buffer(0), a, bytes);
    if (b) std::memcpy(w->buffer(1), b, bytes);
    std::memcpy(w->buffer(2), y, bytes);
  }
  w->arm(n, b != nullptr);
  try {
    w->call(n, options_.time_limit_seconds);  // a fault destroys the worker with the exception
  } catch (const KernelFault&) {
    pool_->collect(*w);
    throw;
  }
  pool_->collect(*w);
  w->check(n, a, b);
  Header* h = w->header();
  if (log_) {
    log_->record_after(h->state_after);
    log_->during_set |= h->sampled_set;
    log_->during_clear |= h->sampled_clear;
  }
  if (h->status != 0) {
    const std::string what = h->status == 1 ? std::string("the kernel threw a C++ exception: ") + h->what
                                            : std::string("the kernel threw a non-standard C++ exception");
    release(std::move(w));
    throw KernelFault(FaultKind::Exception, 0, what);
  }
  if (bytes) std::memcpy(y, w->buffer(2), bytes);
  release(std::move(w));
}

}  // namespace symerr::verify
