// Identity of an item under test: the SHA-256 of a file and the Debian
// package that owns it.
//
// SHA-256 is implemented here from FIPS 180-4 (about 80 lines) rather than
// taken from a library: no Debian library that symerr already depends on
// (Boost, GMP, MPFR) offers it, and a new dependency (libssl-dev, nettle) for
// one hash of a few files per run is not worth it. It is tested against the
// FIPS 180-4 example vectors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <symerr/verify/report/verdict.hpp>

namespace symerr::verify {

/// Lower-case hex SHA-256 of the bytes.
std::string sha256_hex(std::string_view bytes);
/// Of a file's content; throws std::runtime_error naming the file when it
/// cannot be read.
std::string sha256_file(const std::filesystem::path& file);

/// "name version" of the Debian package that owns `file` (dpkg -S and
/// dpkg-query at run time); "" when dpkg is missing or no package owns it.
std::string debian_package_of(const std::filesystem::path& file);

/// The shared libraries `library` loads, resolved as the dynamic loader
/// resolves them (`ldd`, which lists them without running the library's
/// code), with their SHA-256 and Debian package; sorted by path, memoized per
/// path. Empty when ldd is missing or fails.
std::vector<LinkedLibrary> library_closure(const std::filesystem::path& library);

}  // namespace symerr::verify
