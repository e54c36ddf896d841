#pragma once
// The stall detector of an event-driven run (Gavrilov 002 l.875): the clock "stops advancing" when
// `limit` consecutive events each move it by less than `min_dt`. Used by System and by the linear-spline
// loop scenario of Fig. 3.7 (experiments/edmd_scenarios.hpp).
#include <cstdint>

namespace grainlab::edmd {

class StallGuard {
 public:
  StallGuard(std::uint64_t limit, double min_dt) : limit_(limit), min_dt_(min_dt) {}
  /// Records an event moving the clock from t_old to t_new; true once the clock has stalled.
  bool stalled(double t_old, double t_new) {
    still_ = (t_new - t_old < min_dt_) ? still_ + 1 : 0;
    return still_ >= limit_;
  }
  std::uint64_t count() const { return still_; }

 private:
  std::uint64_t limit_;
  double min_dt_;
  std::uint64_t still_ = 0;
};

}  // namespace grainlab::edmd
