// Compiled by the install/fast-math-refused test with -ffast-math: must not compile.
#include <symerr/format.hpp>
int main() { return 0; }
