// Stage timing for Analysis::times (wall clock, milliseconds).
#pragma once

#include <chrono>

namespace msprobe::analysis {

using LapClock = std::chrono::steady_clock;

// Milliseconds since `from`; moves `from` to now.
inline double lap(LapClock::time_point& from) {
  LapClock::time_point now = LapClock::now();
  double ms = std::chrono::duration<double, std::milli>(now - from).count();
  from = now;
  return ms;
}

}  // namespace msprobe::analysis
