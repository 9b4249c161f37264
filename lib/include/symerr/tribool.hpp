// Three-valued answers for comparisons of enclosures (DESIGN §1 "Comparisons").
#pragma once

namespace symerr {

// The answer to "does the property hold for every element of the enclosed set?"
//   True    — it holds for every element (certainly),
//   False   — it holds for none (certainly not),
//   Unknown — it holds for some and not for others, or the domain cannot tell.
enum class Tri : unsigned char { False = 0, True = 1, Unknown = 2 };

constexpr Tri tri(bool b) noexcept { return b ? Tri::True : Tri::False; }
constexpr bool certainly(Tri t) noexcept { return t == Tri::True; }
constexpr bool certainly_not(Tri t) noexcept { return t == Tri::False; }
constexpr bool possibly(Tri t) noexcept { return t != Tri::False; }
constexpr bool possibly_not(Tri t) noexcept { return t != Tri::True; }
constexpr bool unknown(Tri t) noexcept { return t == Tri::Unknown; }

constexpr Tri operator!(Tri a) noexcept {
  return a == Tri::Unknown ? Tri::Unknown : tri(a == Tri::False);
}
constexpr Tri operator&&(Tri a, Tri b) noexcept {
  if (a == Tri::False || b == Tri::False) return Tri::False;
  if (a == Tri::True && b == Tri::True) return Tri::True;
  return Tri::Unknown;
}
constexpr Tri operator||(Tri a, Tri b) noexcept {
  if (a == Tri::True || b == Tri::True) return Tri::True;
  if (a == Tri::False && b == Tri::False) return Tri::False;
  return Tri::Unknown;
}

constexpr const char* to_string(Tri t) noexcept {
  switch (t) {
    case Tri::False: return "certainly-not";
    case Tri::True: return "certainly";
    default: return "unknown";
  }
}

}  // namespace symerr
