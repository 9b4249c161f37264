// The layers point one way (README, "Architecture"): lib includes nothing of
// domains, verify or onnx; domains nothing of verify or onnx. A scan of the
// #include lines of the source tree.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

// "file:line: #include <...>" for every include of a header under one of the
// `forbidden` prefixes in the files below `dir`.
std::vector<std::string> upward_includes(const fs::path& dir, const std::vector<std::string>& forbidden) {
  std::vector<std::string> found;
  const std::regex include_line(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])");
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path());
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      std::smatch m;
      if (!std::regex_search(line, m, include_line)) continue;
      for (const auto& prefix : forbidden)
        if (m[1].str().rfind(prefix, 0) == 0) found.push_back(entry.path().string() + ":" + std::to_string(n) + ": " + line);
    }
  }
  return found;
}

const fs::path kSource = SYMERR_SOURCE_DIR;

}  // namespace

TEST_CASE("layers: lib includes no domains, verify or onnx header", "[core][layering]") {
  const auto found = upward_includes(kSource / "lib", {"symerr/domains/", "symerr/verify/", "symerr/onnx/"});
  for (const auto& f : found) INFO(f);
  CHECK(found.empty());
}

TEST_CASE("layers: domains include no verify or onnx header", "[core][layering]") {
  const auto found = upward_includes(kSource / "domains", {"symerr/verify/", "symerr/onnx/"});
  for (const auto& f : found) INFO(f);
  CHECK(found.empty());
}

TEST_CASE("layers: the scan finds an upward include (planted: domains seen from the domains folder)",
          "[core][layering]") {
  CHECK(!upward_includes(kSource / "domains", {"symerr/domains/"}).empty());
}
