// The driver's parts as seen from each other: one box's exploration
// (exploration.cpp), the subdivision of the whole box (subdivision.cpp) and
// lane by lane (subdivision_lanes.cpp), called by run_kernel (run_kernel.cpp).
// Each is explicitly instantiated for the four domains in its own file.
#pragma once

#include <optional>
#include <span>

#include "state.hpp"

namespace symerr::verify::driver_impl {

// The domains the driver is instantiated for.
#define SYMERR_DRIVER_FOR_EACH_DOMAIN(M) M(Interval) M(MpfrInterval) M(RationalInterval) M(Affine)

// One box: the kernel's paths on `inputs` within `max_runs` runs and the
// deadline, with the caller's lanes, and again with one lane if they did not hold.
template <class D>
BasicDriverResult<D> explore_box(const BasicKernelFn<D>& kernel, std::span<const SymbolicDomainError<D>> inputs,
                                 std::size_t n_outputs, const DriverOptions& options, std::size_t max_runs,
                                 const Deadline& deadline);

// Adds the work of one exploration (r) to the call's report (t).
void accumulate(DriverReport& t, const DriverReport& r);

// The subdivision of the whole input box (max_boxes > 1).
template <class D>
BasicDriverResult<D> subdivide(const BasicKernelFn<D>& kernel, std::span<const SymbolicDomainError<D>> inputs,
                               std::size_t n_out, const DriverOptions& opt, const Deadline& deadline);

// The subdivision lane by lane (lanes given); nullopt: the lanes statement
// did not hold in some run (the caller subdivides the whole box).
template <class D>
std::optional<BasicDriverResult<D>> subdivide_lanes(const BasicKernelFn<D>& kernel,
                                                    std::span<const SymbolicDomainError<D>> inputs,
                                                    std::size_t n_out, const DriverOptions& opt,
                                                    const Deadline& deadline);

}  // namespace symerr::verify::driver_impl
