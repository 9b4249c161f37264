// The subcommands: build or read a CampaignResult, write the three reports,
// print the summary and the report path.
#include "commands.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <thread>

#include <symerr/verify/campaign/campaign.hpp>
#include <symerr/verify/concrete/concrete.hpp>
#include <symerr/verify/report/report.hpp>

namespace symerr::cli {

namespace {

namespace fs = std::filesystem;
using namespace symerr::verify;

fs::path output_dir(const Common& c) {
  if (!c.output.empty()) return c.output;
  return fs::path("report");  // relative to the current directory, never the source tree
}

// The output directory's lock: an exclusive flock(2) on DIR/.symerr-lock,
// held until symerr exits (the kernel's of a run hold it too while they live:
// they are killed with the run). A second run into the same directory is
// refused before it runs anything, so two runs never interleave their reports.
// The file stays (removing it would race with a run taking it); it holds the
// pid of the run that last took the lock.
class OutputLock {
 public:
  explicit OutputLock(const fs::path& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw std::runtime_error(dir.string() + ": cannot create the report directory: " + ec.message());
    const fs::path file = dir / ".symerr-lock";
    fd_ = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0)
      throw std::runtime_error(file.string() + ": cannot create the lock file of the report directory (" +
                               std::strerror(errno) + ")");
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int why = errno;
      char pid[32] = {0};
      const ssize_t n = ::pread(fd_, pid, sizeof pid - 1, 0);
      std::string holder = n > 0 ? std::string(pid, static_cast<std::size_t>(n)) : std::string();
      while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
      ::close(fd_);
      fd_ = -1;
      if (why != EWOULDBLOCK)
        throw std::runtime_error(file.string() + ": cannot lock the report directory (" + std::strerror(why) + ")");
      throw std::runtime_error(dir.string() + ": the report directory is in use by another symerr run" +
                               (holder.empty() ? std::string() : " (process " + holder + ")") +
                               "; wait for it to finish or choose another directory with -o");
    }
    const std::string me = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd_, 0) != 0 || ::pwrite(fd_, me.data(), me.size(), 0) < 0) {
      // the lock is held all the same; the pid is only for the message of a second run
    }
  }
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;
  ~OutputLock() {
    if (fd_ >= 0) ::close(fd_);
  }

 private:
  int fd_ = -1;
};

// The lock of c's output directory, or nullopt after printing why not.
std::unique_ptr<OutputLock> lock_output(const Common& c) {
  try {
    return std::make_unique<OutputLock>(output_dir(c));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "symerr: %s\n", e.what());
    return nullptr;
  }
}

RunOptions run_options(const Common& c) {
  RunOptions o;
  o.jobs = c.jobs ? c.jobs : std::max(1u, std::thread::hardware_concurrency());
  o.seed = c.seed;
  if (!c.quiet) o.progress = [](std::string_view line) { std::cerr << "symerr: " << line << std::endl; };
  return o;
}

int finish(const Common& c, const CampaignResult& r, double seconds) {
  ReportFiles f;
  try {
    f = write_reports(r, output_dir(c));
  } catch (const std::exception& e) {
    std::cout << render_summary(r);
    std::fprintf(stderr, "symerr: %s\n", e.what());
    return kExitInputError;
  }
  std::cout << render_summary(r);
  if (seconds >= 0) std::printf("  ran in %.1f s\n", seconds);
  std::cout << "reports: " << fs::absolute(f.json).string() << "\n"
            << "         " << fs::absolute(f.markdown).string() << "\n"
            << "         " << fs::absolute(f.html).string() << "\n";
  std::cout.flush();
  return exit_code(r, c.strict);
}

// SIGINT / SIGTERM: the first asks the run to stop (a partial report is
// written), a second one ends symerr at once (the default action).
void on_stop_signal(int sig) {
  request_stop(sig);
  ::signal(sig, SIG_DFL);
}

void catch_stop_signals() {
  struct sigaction sa{};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGINT, SIGTERM}) ::sigaction(sig, &sa, nullptr);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int run_command(const Common& c, const std::string& campaign_file, bool exhaustive,
                const std::string& command_line) {
  const auto t0 = std::chrono::steady_clock::now();
  CampaignSpec spec;
  try {
    spec = campaign_file.empty() ? default_campaign() : load_campaign(campaign_file);
  } catch (const CampaignError& e) {
    std::fprintf(stderr, "symerr: campaign error: %s\n", e.what());
    return 2;
  }
  const auto lock = lock_output(c);
  if (!lock) return kExitInputError;
  RunOptions o = run_options(c);
  o.exhaustive = exhaustive;
  o.command_line = command_line;
  catch_stop_signals();
  CampaignResult r;
  try {
    r = run_campaign(spec, o);
  } catch (const KernelLoadError& e) {
    std::fprintf(stderr, "symerr: cannot load a kernel: %s\n", e.what());
    return 2;
  } catch (const CampaignError& e) {
    std::fprintf(stderr, "symerr: campaign error: %s\n", e.what());
    return 2;
  }
  if (r.checks.empty()) {
    std::fprintf(stderr, "symerr: the campaign ran no check: nothing was verified\n");
    return kExitInputError;
  }
  const int rc = finish(c, r, seconds_since(t0));
  if (const int sig = stop_requested()) {
    std::size_t unfinished = 0;
    for (const auto& k : r.checks)
      unfinished += k.reason.rfind("interrupted", 0) == 0 || k.reason.rfind("not run: the run was interrupted", 0) == 0;
    const char* name = sigabbrev_np(sig);
    std::fprintf(stderr, "symerr: interrupted by SIG%s: partial report, %zu of %zu checks did not finish (inconclusive)\n",
                 name ? name : "?", unfinished, r.checks.size());
    return rc == kExitInputError ? rc : 128 + sig;
  }
  return rc;
}

int audit_command(const Common& c, const std::string& command_line) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto lock = lock_output(c);
  if (!lock) return kExitInputError;
  RunOptions o = run_options(c);
  o.command_line = command_line;
  const int rc = finish(c, run_audit(o), seconds_since(t0));
  write_unary_audit(output_dir(c).string());  // the unary SONNX bounds (issue 13)
  return rc;
}

int report_command(const Common& c, const std::string& json_file) {
  CampaignResult r;
  try {
    r = read_report(json_file);
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "symerr: %s\n", e.what());
    return 2;
  }
  const auto lock = lock_output(c);
  if (!lock) return kExitInputError;
  return finish(c, r, -1);
}

}  // namespace symerr::cli
