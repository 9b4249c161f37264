// libFuzzer target: the report reader (symerr report). Any input must end in
// a CampaignResult that renders, or a std::runtime_error naming the problem.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <symerr/verify/report/report.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto r = symerr::verify::parse_report(text, "fuzz.json");
    (void)symerr::verify::render_markdown(r);
    (void)symerr::verify::render_html(r);
    (void)symerr::verify::render_summary(r);
  } catch (const std::runtime_error&) {
  }
  return 0;
}
