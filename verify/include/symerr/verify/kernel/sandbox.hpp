// The harness owns the floating-point environment of every kernel call and
// survives kernels that crash, hang or call exit().
//
// FP environment. Before every kernel call the harness sets the documented
// state: round to nearest even, FTZ and DAZ off, all exception flags clear,
// all exceptions masked (no traps); after the call it reads the state back.
// What the kernel left changed is recorded in an FpStateLog and reported with
// the check ("leaves DAZ set"); in the sandbox the state is additionally
// sampled during long calls (a profiling timer reads the interrupted
// context's MXCSR), so that "sets FTZ+DAZ during the call and restores it"
// is seen when a call runs long enough to be sampled.
//
// Isolation. A sandboxed kernel runs in a child process forked from the
// harness (one per calling thread, kept for the following calls); operands
// and outputs travel through shared memory, a socket carries "run n" and
// "done". A call that does not answer within the time limit is killed; a
// child that dies (signal, exit() of any status) or whose kernel throws ends
// the call with a KernelFault. The harness's own state (FP environment,
// memory, file descriptors) is never touched by the kernel.
//
// Each child leads its own process group: whatever the kernel forks is killed
// with it (SIGKILL to the group) when the child is retired or the call fails;
// a process the kernel forks that returns from the kernel ends at once, so
// that only the child answers. The child's address space is limited
// (RLIMIT_AS: its size at the fork plus SandboxOptions::memory_limit_bytes),
// so that a kernel allocating without bound fails inside the child (a crash
// or exception verdict) instead of exhausting the machine.
//
// The child's stdout and stderr go to a memory file read after every call
// (Sandbox::output(), in the report); a child writing more than 16 MiB there
// is killed (SIGXFSZ).
//
// Guarded buffers. Every buffer the child shares (inputs a, b and output y)
// is followed by a canary zone of kCanaryBytes (the unused capacity past
// element n counts as canary too) and the mapping ends in a PROT_NONE page;
// after every call the harness checks the canaries and compares the inputs
// with what it sent. A write past the end of a buffer, or into an input, is
// a KernelFault (FaultKind::Memory: a crashed verdict with the batch that did it).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

namespace symerr::verify {

// ---- FP environment -------------------------------------------------------------------

// x86-64 MXCSR bits (on other targets the state is the fenv rounding mode
// and flags encoded in the same positions).
namespace mxcsr {
inline constexpr std::uint32_t kFlags = 0x003F;      ///< IE DE ZE OE UE PE (sticky exception flags)
inline constexpr std::uint32_t kDAZ = 0x0040;        ///< denormals are zero
inline constexpr std::uint32_t kMasks = 0x1F80;      ///< exception masks (set: no trap)
inline constexpr std::uint32_t kRounding = 0x6000;   ///< 00 RNE, 01 down, 10 up, 11 toward zero
inline constexpr std::uint32_t kFTZ = 0x8000;        ///< flush to zero
inline constexpr std::uint32_t kDocumented = 0x1F80; ///< RNE, no FTZ/DAZ, flags clear, all masked
}  // namespace mxcsr

/// The FP control and status state of this thread (MXCSR on x86-64).
std::uint32_t read_fp_state() noexcept;
/// Sets this thread's FP state.
void write_fp_state(std::uint32_t state) noexcept;
/// "RNE, FTZ off, DAZ off, traps off" for a state word.
std::string describe_fp_state(std::uint32_t state);
/// What `after` changed relative to the documented state, ignoring the sticky
/// exception flags: "leaves DAZ set, leaves rounding upward"; "" when nothing.
std::string describe_fp_change(std::uint32_t after);

/// What the harness saw of the FP control state around a kernel's calls.
/// Only control bits (rounding, FTZ, DAZ, masks) count; flags are informational.
struct FpStateLog {
  /// Kernel calls observed.
  std::atomic<std::uint64_t> calls{0};
  /// Calls that left a control bit changed.
  std::atomic<std::uint64_t> calls_leaving_changes{0};
  std::atomic<std::uint32_t> left_set{0};      ///< control bits set after a call, documented clear
  std::atomic<std::uint32_t> left_clear{0};    ///< control bits clear after a call, documented set
  std::atomic<std::uint32_t> during_set{0};    ///< control bits sampled set during a call
  std::atomic<std::uint32_t> during_clear{0};  ///< control bits sampled clear during a call
  std::atomic<std::uint32_t> flags_raised{0};  ///< exception flags raised by the calls
  /// Records the state read after a call.
  void record_after(std::uint32_t after) noexcept;
  /// Records a state sampled during a call.
  void record_during(std::uint32_t sampled) noexcept;
  /// One sentence: "the kernel ran with the documented state", "leaves DAZ set
  /// after a call (5 of 12 calls)", "sets FTZ+DAZ during the call and restores it".
  std::string describe() const;
  /// Whether any call changed a control bit (after or during it).
  bool changed() const noexcept;
};

/// The documented state for the lifetime of the scope, the caller's restored
/// after it: the harness's own arithmetic (references, judging) does not
/// depend on the caller's rounding mode, FTZ/DAZ or traps.
class FpStateScope {
 public:
  FpStateScope() : saved_(read_fp_state()) { write_fp_state(mxcsr::kDocumented); }
  ~FpStateScope() { write_fp_state(saved_); }
  FpStateScope(const FpStateScope&) = delete;
  FpStateScope& operator=(const FpStateScope&) = delete;

 private:
  std::uint32_t saved_;
};

/// Runs `run` in the documented state and restores the caller's state after it,
/// recording what the kernel left changed (in-process kernels).
void call_in_documented_state(const std::function<void()>& run, FpStateLog* log);

// ---- isolation --------------------------------------------------------------------------

/// How a kernel call failed to return normally: killed by a signal, the process
/// ended (exit() or _exit()), a C++ exception thrown, over the time limit, or a
/// write outside its output's elements (past a buffer, or into an input).
enum class FaultKind : unsigned char { Signal, Exit, Exception, Timeout, Memory };

/// A kernel call that did not return normally. what() is one sentence naming
/// what happened ("the kernel was killed by signal 11 (SIGSEGV, segmentation fault)").
struct KernelFault : std::runtime_error {
  /// A fault of kind k with its code and message.
  KernelFault(FaultKind k, int code, const std::string& what)
      : std::runtime_error(what), kind(k), code(code) {}
  /// The kind of fault.
  FaultKind kind;
  int code;  ///< signal number, exit status, 0
};

/// The options of sandboxed kernel calls.
struct SandboxOptions {
  double time_limit_seconds = 10;  ///< per kernel call
  /// What the kernel may map beyond the child's size at the fork (RLIMIT_AS);
  /// 0: no limit.
  std::uint64_t memory_limit_bytes = std::uint64_t{4} << 30;
};
/// The canary zone after each shared buffer: a kernel writing into it is a
/// FaultKind::Memory fault.
inline constexpr std::size_t kCanaryBytes = 64 * 1024;

/// The elementwise binary kernel call shape; a unary form passes b = nullptr.
using KernelCall = std::function<void(const void* a, const void* b, void* y, std::size_t n)>;

/// A pool of child processes running `call` (one per calling thread at a
/// time). Thread-safe. `element_size` is the storage size of one element.
class Sandbox {
 public:
  /// A pool running `call` on elements of `element_size` bytes, logging the FP state in `log`.
  Sandbox(KernelCall call, std::size_t element_size, SandboxOptions options,
          std::shared_ptr<FpStateLog> log);
  ~Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  /// y[0..n) computed by the kernel in a child; y's incoming contents are what
  /// the kernel sees in its output buffer. Throws KernelFault.
  void run(const void* a, const void* b, void* y, std::size_t n);
  /// The options it was made with.
  const SandboxOptions& options() const noexcept { return options_; }
  /// What the kernel wrote to stdout and stderr in the children (never mixed
  /// into symerr's own): the first kOutputBytes, and the total count when more.
  std::string output() const;
  /// The most bytes of the kernel's output kept (output()).
  static constexpr std::size_t kOutputBytes = 2048;

  struct Worker;

 private:
  std::unique_ptr<Worker> acquire(std::size_t n);
  void release(std::unique_ptr<Worker> w);

  KernelCall call_;
  std::size_t element_size_;
  SandboxOptions options_;
  std::shared_ptr<FpStateLog> log_;
  struct Pool;
  std::unique_ptr<Pool> pool_;
};

}  // namespace symerr::verify
