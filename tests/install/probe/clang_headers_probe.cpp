// Compiled by Debian's clang (tests/install/CMakeLists.txt, install/clang-headers):
// the public headers that clang accepts today, so that one that stops
// compiling with it fails a test. <symerr/symerr.hpp> is not here: its C
// types (<symerr/c_types.hpp>) do not compile with clang 14 (docs/limitations.md).
#include <symerr/symbolic.hpp>
#include <symerr/verify/campaign/campaign.hpp>
#include <symerr/verify/concrete/concrete.hpp>
#include <symerr/verify/report/report.hpp>

int main() { return 0; }
