#pragma once
#include <symerr/config.hpp>

namespace symerr {
const char* version() noexcept;     // "MAJOR.MINOR.PATCH"
const char* git_commit() noexcept;  // short commit hash of the build, or "unknown"
}  // namespace symerr
