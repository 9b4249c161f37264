// The free-function vocabulary of every domain lives in lib:
// <symerr/domain/mixed_ops.hpp>. Kept so that existing includes work.
#pragma once

#include <symerr/domain/mixed_ops.hpp>
