// Building a source kernel's checker (source_kernel.hpp): the plain build
// with the user's compiler and flags, the checker program on symerr's
// headers and libraries (from the build tree, or from the installed prefix
// next to the running executable), a cache by content hash, and what the
// object code says about the hypotheses (FMA instructions, libm calls).
#include "source_build.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include <symerr/verify/campaign/campaign.hpp>
#include <symerr/verify/report/identity.hpp>

#include "symerr_source_paths.inc"

namespace symerr::verify::source_detail {

namespace fs = std::filesystem;

std::vector<std::string> split_flags(const std::string& flags) {
  std::istringstream in(flags);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::optional<fs::path> find_tool(const std::string& name) {
  if (name.find('/') != std::string::npos) return fs::exists(name) ? std::optional<fs::path>(name) : std::nullopt;
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string d; std::getline(dirs, d, ':');) {
    const fs::path p = fs::path(d.empty() ? "." : d) / name;
    if (::access(p.c_str(), X_OK) == 0) return p;
  }
  return std::nullopt;
}

Ran run_command(const std::vector<std::string>& argv, const fs::path& log, double timeout_seconds,
                std::uint64_t memory_limit, const std::function<bool()>& poll) {
  Ran r;
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::setpgid(0, 0);
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) ::dup2(fd, 1), ::dup2(fd, 2);
    if (memory_limit > 0) {
      rlimit l{memory_limit, memory_limit};
      ::setrlimit(RLIMIT_AS, &l);
    }
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  const auto start = std::chrono::steady_clock::now();
  int status = 0;
  for (unsigned tick = 1;; ++tick) {
    if (poll && tick % 20 == 0 && poll()) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      r.stopped = true;
      break;
    }
    const pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeout_seconds) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::kill(-pid, SIGKILL);  // anything the child left in its group
  if (WIFSIGNALED(status) && !r.timed_out && !r.stopped) r.signal = WTERMSIG(status);
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  std::ifstream in(log, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  r.output = text.str();
  return r;
}

namespace {

std::string file_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> list(const char* semicolons) {
  std::vector<std::string> v;
  std::istringstream in(semicolons);
  for (std::string x; std::getline(in, x, ';');)
    if (!x.empty()) v.push_back(x);
  return v;
}

fs::path self_exe() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : p;
}

}  // namespace

SymerrLayout symerr_layout() {
  SymerrLayout l;
  const fs::path exe = self_exe();
  const std::string build = SYMERR_SOURCE_BUILD_DIR;
  const auto libs = list(SYMERR_SOURCE_BUILD_LIBS);
  bool from_build = exe.string().rfind(build + "/", 0) == 0;
  for (const auto& x : libs) from_build = from_build && fs::exists(x);
  if (from_build) {
    for (const auto& i : list(SYMERR_SOURCE_BUILD_INCLUDES)) l.includes.push_back(i);
    for (const auto& x : libs) l.libraries.push_back(x);
    l.where = "the build tree " + build;
  } else {
    const fs::path prefix = exe.parent_path().parent_path();
    l.includes.push_back(prefix / SYMERR_SOURCE_INSTALL_INCLUDEDIR);
    for (const char* n : {"libsymerr_verify.a", "libsymerr_domains.a", "libsymerr_core.a"})
      l.libraries.push_back(prefix / SYMERR_SOURCE_INSTALL_LIBDIR / n);
    l.where = "the installed prefix " + prefix.string();
    for (const auto& x : l.libraries)
      if (!fs::exists(x))
        throw CampaignError("source kernels need symerr's libraries: " + x.string() +
                            " not found (symerr runs neither from its build tree nor from an installed prefix)");
  }
  l.cxx = SYMERR_SOURCE_CXX;
  if (!fs::exists(l.cxx)) l.cxx = "c++";
  l.extra_flags = split_flags(SYMERR_SOURCE_EXTRA_FLAGS);
  return l;
}

fs::path cache_root() {
  if (const char* d = std::getenv("SYMERR_CACHE_DIR"); d && *d) return d;
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return fs::path(d) / "symerr";
  if (const char* d = std::getenv("HOME"); d && *d) return fs::path(d) / ".cache" / "symerr";
  throw CampaignError("no build cache for source kernels: set SYMERR_CACHE_DIR (or HOME)");
}

std::string build_key(const SourceKernelSpec& k, const SymerrLayout& l, const std::string& program) {
  std::ostringstream key;
  key << "symerr-source-build-1\n" << program << "\n" << k.compiler << "\n" << k.flags << "\n" << l.cxx << "\n";
  for (const auto& f : l.extra_flags) key << f << " ";
  for (const auto& s : k.sources) key << s.string() << "\n" << sha256_hex(file_text(s)) << "\n";
  for (const auto& h : k.headers) key << h.string() << "\n" << sha256_hex(file_text(h)) << "\n";
  for (const auto& x : l.libraries) {
    std::error_code ec;
    key << x.string() << " " << fs::file_size(x, ec) << " "
        << fs::last_write_time(x, ec).time_since_epoch().count() << "\n";
  }
  return sha256_hex(key.str()).substr(0, 24);
}

ObjectFacts object_facts(const std::vector<fs::path>& objects, const std::vector<fs::path>& assembly,
                         const fs::path& dir) {
  ObjectFacts f;
  const auto objdump = find_tool("objdump");
  std::string text;
  if (objdump) {
    f.method = "objdump -dr of the plain build's objects";
    for (const auto& o : objects) {
      const Ran r = run_command({objdump->string(), "-dr", o.string()}, dir / "objdump.txt", 120, 0);
      text += r.output;
    }
  } else {
    f.method = "the plain build's assembly (cc -S with the same flags; objdump not found)";
    for (const auto& a : assembly) text += file_text(a);
  }
  static const std::regex fma("\\bv?f(n?)m(add|sub)[0-9]{3}[sp][sd]\\b");
  f.fma = static_cast<std::size_t>(std::distance(std::sregex_iterator(text.begin(), text.end(), fma),
                                                 std::sregex_iterator()));
  static const std::regex call("(call|jmp)[^\\n]*?[ <\\t]([a-z0-9_]+)(@PLT|>|-0x4|\\n)|R_X86_64_PLT32\\s+([a-z0-9_]+)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), call); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[4].matched ? (*it)[4].str() : (*it)[2].str();
    if (!name.empty()) f.calls.insert(name);
  }
  return f;
}

}  // namespace symerr::verify::source_detail
