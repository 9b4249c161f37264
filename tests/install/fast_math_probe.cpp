// Compiled by the install/fast-math-refused test as a fast-math translation unit (__FAST_MATH__ defined): must not compile.
#include <symerr/format.hpp>
int main() { return 0; }
