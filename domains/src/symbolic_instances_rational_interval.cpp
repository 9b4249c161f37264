// SymbolicDomainError<RationalInterval>: the explicit instantiations declared in
// <symerr/domains/symbolic_instances.hpp>, compiled once here.
#define SYMERR_SYMBOLIC_INSTANCES_DEFINE
#include <symerr/domains/symbolic_instances.hpp>

SYMERR_SYMBOLIC_INSTANCES(template, ::symerr::RationalInterval)
