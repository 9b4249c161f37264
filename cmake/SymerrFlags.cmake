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
  target_compile_options(symerr_build_flags INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
    # GCC 12's flow analysis under the sanitizers reports false
    # maybe-uninitialized warnings inside libstdc++ (<regex> via Catch2)
    -Wno-maybe-uninitialized)
  target_link_options(symerr_build_flags INTERFACE -fsanitize=address,undefined)
endif()
