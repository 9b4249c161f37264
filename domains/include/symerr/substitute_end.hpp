// Ends a region started by <symerr/substitute.hpp> in a C++ caller: the
// replaced type and the C allocation functions get their usual meaning back.
// (No include guard: every region is ended; see "Regions" in substitute.hpp.)
#undef malloc
#undef calloc
#undef realloc
#undef free
#undef memset
#undef memcpy
#undef restrict
#undef double
#undef float
