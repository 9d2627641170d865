// Run-time precision of the MPFR scalar, of the interval scalar's endpoints and of the ball
// scalar's midpoints (one setting for all three: set_mpfr_precision sets the two Boost defaults
// to the same decimal digits, so an interval_real carries exactly the bits an mpfr_real does,
// and the balls' working precision to those bits, core/ball.hpp).
//
// Boost.Multiprecision 1.74 keeps the default precision of mpfr_float_backend<0> in decimal
// digits, as ONE process-wide, unsynchronised setting; a value keeps the precision it was
// made with. So iclproof sets it once per run (set_mpfr_precision) before any value exists,
// never changes it while worker threads run, and reports the bit count values really carry.
// Requested bits map to the fewest decimal digits giving at least that many bits:
// 256 -> 77 digits -> 257 bits, 53 -> 16 digits -> 55 bits.
#pragma once

#include <string>

namespace iclproof {

inline constexpr int min_precision_bits = 53;
inline constexpr int max_precision_bits = 100000;
inline constexpr int default_precision_bits = 256;

struct precision_setting {
  int requested_bits = 0;
  unsigned digits10 = 0;
  int actual_bits = 0;  // mpfr_get_prec of a value made under this setting
};

// Throws std::invalid_argument (one-line message) outside [min, max]; never clamps.
precision_setting set_mpfr_precision(int requested_bits);

// The setting in force now.
precision_setting current_mpfr_precision();

// Restores the previous setting when it goes out of scope (tests that switch precision).
class scoped_mpfr_precision {
 public:
  explicit scoped_mpfr_precision(int bits);
  ~scoped_mpfr_precision();
  scoped_mpfr_precision(const scoped_mpfr_precision&) = delete;
  scoped_mpfr_precision& operator=(const scoped_mpfr_precision&) = delete;
  const precision_setting& setting() const { return now_; }

 private:
  unsigned previous_digits10_;
  long previous_ball_bits_;
  precision_setting now_;
};

}  // namespace iclproof
