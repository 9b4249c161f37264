// Umbrella header of the element types that are not C++ built-ins:
// Half (FP16), BFloat16 (BF16), Int4 / UInt4, and the element-type traits.
#pragma once

#include <symerr/bfloat16.hpp>
#include <symerr/element_type.hpp>
#include <symerr/half.hpp>
#include <symerr/int4.hpp>
