#include <symerr/version.hpp>

namespace symerr {
const char* version() noexcept { return SYMERR_VERSION_STRING; }
const char* git_commit() noexcept { return SYMERR_GIT_COMMIT; }
}  // namespace symerr
