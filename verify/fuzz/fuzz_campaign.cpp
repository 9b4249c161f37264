// libFuzzer target: the campaign-file parser. Any input must end in a
// CampaignSpec or a CampaignError — never a crash, a hang, another exception
// type, or unbounded memory (README "Campaign files", fuzzing).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include <symerr/verify/campaign/campaign.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)symerr::verify::parse_campaign(text, "fuzz.json");
  } catch (const symerr::verify::CampaignError&) {
  }
  return 0;
}
