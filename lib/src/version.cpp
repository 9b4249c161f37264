#include <symerr/version.hpp>

#include "symerr_git_commit.hpp"  // generated at build time: SYMERR_GIT_COMMIT

namespace symerr {
const char* version() noexcept { return SYMERR_VERSION_STRING; }
const char* git_commit() noexcept { return SYMERR_GIT_COMMIT; }
}  // namespace symerr
