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

#include <stdexcept>
#include <string>

namespace symerr {

// Thrown when a program branches (converts a comparison to bool) on an answer
// that is not certain for the whole enclosed set: the caller (the symbolic
// check) splits the input box or reports the branch as unstable.
class UndecidedBranch : public std::runtime_error {
 public:
  explicit UndecidedBranch(const std::string& what) : std::runtime_error(what) {}
};

// The result of comparing enclosures: a Tri that a program can still use in an
// `if`. Conversion to bool is explicit and throws UndecidedBranch on Unknown,
// so control flow never silently follows an unproven branch.
class Truth {
 public:
  constexpr Truth(Tri t, const char* relation = "comparison") noexcept : t_(t), rel_(relation) {}
  constexpr Tri tri() const noexcept { return t_; }
  explicit operator bool() const {
    if (t_ == Tri::Unknown)
      throw UndecidedBranch(std::string("branch on an undecided ") + rel_ +
                            ": it holds for part of the enclosed set only");
    return t_ == Tri::True;
  }
  friend constexpr Truth operator!(Truth a) noexcept { return Truth(!a.t_, a.rel_); }
  friend constexpr Truth operator&&(Truth a, Truth b) noexcept { return Truth(a.t_ && b.t_, a.rel_); }
  friend constexpr Truth operator||(Truth a, Truth b) noexcept { return Truth(a.t_ || b.t_, a.rel_); }

 private:
  Tri t_;
  const char* rel_;
};

constexpr bool certainly(Truth t) noexcept { return certainly(t.tri()); }
constexpr bool certainly_not(Truth t) noexcept { return certainly_not(t.tri()); }
constexpr bool possibly(Truth t) noexcept { return possibly(t.tri()); }
constexpr bool possibly_not(Truth t) noexcept { return possibly_not(t.tri()); }

}  // namespace symerr
