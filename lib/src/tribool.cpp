// The message of an undecided branch: the relation, both operands' real and
// computed enclosures, and the input element (lane) they depend on.
#include <symerr/tribool.hpp>

#include <cstdio>
#include <string>
#include <string_view>

namespace symerr {

namespace {
std::string interval_text(const double (&b)[2]) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "[%.17g, %.17g]", b[0], b[1]);
  return buf;
}
}  // namespace

std::string describe_undecided(const char* relation, const ComparisonInfo* info) {
  std::string m = std::string("branch on an undecided ") + relation +
                  ": it holds for part of the enclosed set only";
  if (!info) return m;
  if (std::string_view(relation).starts_with("is_"))  // a classification (isnan, ...): one operand
    m += " (x: real " + interval_text(info->real[0]) + " fp " + interval_text(info->fp[0]) +
         "; it may or may not be of that class)";
  else
    m += " (a: real " + interval_text(info->real[0]) + " fp " + interval_text(info->fp[0]) +
         "; b: real " + interval_text(info->real[1]) + " fp " + interval_text(info->fp[1]) +
         "; ideal " + to_string(info->ideal) + ", computed " + to_string(info->computed) + ")";
  if (info->lane >= 0) m += " at element " + std::to_string(info->lane);
  else if (info->lane == -2) m += " (the operands depend on several elements)";
  m += "; run the kernel under symerr::verify::run_kernel to analyse the branch";
  return m;
}

}  // namespace symerr
