# Compiler flags shared by every symerr target (an INTERFACE target, not global flags,
# so that a consumer of the installed package is not forced into them).
add_library(symerr_build_flags INTERFACE)
target_compile_options(symerr_build_flags INTERFACE
  -Wall -Wextra -Wpedantic -Wno-pedantic
  $<$<BOOL:${SYMERR_WERROR}>:-Werror>
  # Soundness rule 4: no contraction of a*b+c into an fma that changes results.
  -ffp-contract=off
  -fno-fast-math)
if(SYMERR_SANITIZE)
  # A target with the property SYMERR_NO_SANITIZE set (Catch2's generated main:
  # third-party code, 9x slower to compile instrumented) is built without
  # instrumentation; it still links the sanitizer runtime.
  set(_instrument "$<NOT:$<BOOL:$<TARGET_PROPERTY:SYMERR_NO_SANITIZE>>>")
  target_compile_options(symerr_build_flags INTERFACE
    $<${_instrument}:-fsanitize=address,undefined> -fno-sanitize-recover=all -fno-omit-frame-pointer
    # GCC 12's flow analysis under the sanitizers reports false
    # maybe-uninitialized warnings inside libstdc++ (<regex> via Catch2)
    -Wno-maybe-uninitialized)
  target_link_options(symerr_build_flags INTERFACE -fsanitize=address,undefined)
endif()
