// Internals of the source kernels' builds (source_build.cpp, source_run.cpp).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <symerr/verify/campaign/source_kernel.hpp>

namespace symerr::verify::source_detail {

/// The flags split at white space (no quoting).
std::vector<std::string> split_flags(const std::string& flags);
/// `name` on PATH (or the path itself when it has a '/'), if executable.
std::optional<std::filesystem::path> find_tool(const std::string& name);

/// What a child command did.
struct Ran {
  int exit_code = -1;      ///< its exit status when it exited
  int signal = 0;          ///< the signal that ended it (not the timeout's kill)
  bool timed_out = false;  ///< killed at the time limit
  bool stopped = false;    ///< killed because `poll` asked
  std::string output;      ///< its stdout and stderr
};
/// Runs argv in a child process (its own process group, stdout and stderr to
/// `log`, address space limited to `memory_limit` bytes if non-zero), killed
/// after `timeout_seconds`; `poll`, if given, is called about every 100 ms
/// while it runs: returning true kills the child (Ran::stopped).
Ran run_command(const std::vector<std::string>& argv, const std::filesystem::path& log, double timeout_seconds,
                std::uint64_t memory_limit, const std::function<bool()>& poll = {});

/// Where symerr's headers and libraries are, and the C++ compiler it was built with.
struct SymerrLayout {
  std::vector<std::filesystem::path> includes, libraries;  ///< -I directories, static libraries in link order
  std::string cxx;                       ///< the C++ compiler
  std::vector<std::string> extra_flags;  ///< flags symerr's libraries need (sanitizers)
  std::string where;                     ///< "the build tree ..." / "the installed prefix ..."
};
/// The layout of the running symerr: its build tree when the executable lies in
/// it, else the installed prefix (the executable's directory's parent).
SymerrLayout symerr_layout();
/// The build cache: $SYMERR_CACHE_DIR, $XDG_CACHE_HOME/symerr or ~/.cache/symerr.
std::filesystem::path cache_root();
/// The content hash of a checker's build: the program, the sources and
/// headers, the compilers and flags, symerr's libraries (size and time).
std::string build_key(const SourceKernelSpec& k, const SymerrLayout& l, const std::string& program);

/// What the plain build's object code shows.
struct ObjectFacts {
  std::size_t fma = 0;          ///< FMA instructions (vfmadd..., vfmsub..., vfnmadd..., vfnmsub...)
  std::set<std::string> calls;  ///< functions called (libm among them)
  std::string method;           ///< how it was read
};
/// Reads the objects with objdump -dr, or the assembly files without objdump.
ObjectFacts object_facts(const std::vector<std::filesystem::path>& objects,
                         const std::vector<std::filesystem::path>& assembly, const std::filesystem::path& dir);

}  // namespace symerr::verify::source_detail
