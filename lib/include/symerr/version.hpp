#pragma once
#include <symerr/config.hpp>

namespace symerr {
/// The library version, "MAJOR.MINOR.PATCH".
const char* version() noexcept;     // "MAJOR.MINOR.PATCH"
/// The short commit hash of the build, or "unknown".
const char* git_commit() noexcept;  // short commit hash of the build, or "unknown"
}  // namespace symerr
