// The error text parse_campaign gives for a campaign file's text, or
// "no error" (the campaign tests of tests/report and tests/unary).
#pragma once

#include <string>

#include <symerr/verify/campaign/campaign.hpp>

namespace symerr::test {

inline std::string campaign_error_of(const std::string& text) {
  try {
    verify::parse_campaign(text, "c.json");
  } catch (const verify::CampaignError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace symerr::test
