#pragma once
// Discharge statistics of the G-E8 hopper (Gavrilov 1999, seed 002 l.2794-2852; ledger G-C67-C78) from the
// frames logged every 0.005 s: the trailing moving-average discharge rate, the flowing period, near-jams,
// left/right alternation, and rank / linear correlations of per-frame rates.
#include <vector>

namespace grainlab {

struct DischargeFrames {
  std::vector<double> time;      ///< s, frame ends
  std::vector<double> removed;   ///< cumulative disks removed
  std::vector<double> left;      ///< cumulative removed with x < centre
  std::vector<double> right;     ///< cumulative removed with x >= centre
};

struct DischargeStats {
  double first = 0, last = 0;    ///< times of the first and the last removal, s (NaN if none)
  double mean_rate = 0;          ///< mean of the moving average over the flowing period, disks/s
  double rate_cv = 0;            ///< its coefficient of variation
  int near_jams = 0;             ///< episodes below `near_jam_fraction` of the mean for >= `near_jam_duration`
  int sign_changes = 0;          ///< of the smoothed left - right flux during the flowing period
  std::vector<double> rate;      ///< moving average per frame, disks/s
  std::vector<double> left_minus_right;  ///< smoothed, disks/s
  std::vector<char> flowing;     ///< frame inside the flowing period (after one full window)
};

/// `window` is the moving-average width (0.1 s, 002 l.2794).
DischargeStats discharge_stats(const DischargeFrames& f, double window, double near_jam_fraction,
                               double near_jam_duration);

double pearson(const std::vector<double>& x, const std::vector<double>& y);
/// Spearman rank correlation (average ranks for ties).
double spearman(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace grainlab
