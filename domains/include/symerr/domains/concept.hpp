// The abstract-domain concept lives in lib (the layer SymbolicDomainError is
// in): <symerr/domain/concept.hpp>. Kept so that existing includes work.
#pragma once

#include <symerr/domain/concept.hpp>
