#pragma once
// One design's verdict from its belt deposits (Paper II E2, 000 l.932-956): the cellular-automaton surface,
// the time-averaged profile h(y) over the fully covered belt-frame window and the FFT objective f
// (experiments/bed_profile.hpp), plus the heap measures of the Table 1 comments (000 l.976, 987; ledger
// P2-C12..C14). y1, y2: the outlet's projection on the belt (0.15 and 0.9 m, 000 l.987).
#include <span>
#include <vector>

#include "experiments/bed_profile.hpp"

namespace grainlab {

struct BeltEvaluation {
  std::vector<double> h;             ///< m, time-averaged profile per CA cell across the belt
  double cell = 0;                   ///< m
  double f = 0;                      ///< m, Eq. (3), option A (the whole belt width)
  double f_window = 0;               ///< m, option B (only [y1, y2])
  double f_over_mean = 0;            ///< f / mean h (the mean-normalised objective, ledger P3/P4)
  bool termination_criterion = false;  ///< all |a_n| <= a_0 / 10 (000 l.956)
  double argmax_y = 0;               ///< m, centre of the highest cell of h(y)
  double interior_cov = 0;           ///< sd / mean of h over [y1 + 0.1, y2 - 0.1]
  double end_heap_ratio = 0;         ///< max h within 0.1 m of y2 over max h in the interior
  std::size_t dropped = 0;           ///< deposits off the belt
  bool covered = false;              ///< a belt-frame window saw the whole record (else every number is NaN)
  double landing_zone = 0;           ///< m, extent of the landings along x
};

/// Deposits of a record of length `record_time` starting at t = 0; belt-frame window = the fully covered one
/// ([x_max - v T, x_min], docs/bed_profiles.md). Throws InputError when there are no deposits; when the landing
/// zone is longer than the belt travel v T (no fully covered window) `covered` is false and the numbers NaN.
BeltEvaluation evaluate_belt(std::span<const BeltDeposit> deposits, double record_time, const BeltSurfaceSettings& s,
                             double y1 = 0.15, double y2 = 0.9);

}  // namespace grainlab
