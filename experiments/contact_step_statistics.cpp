#include "experiments/contact_step_statistics.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace grainlab {

ContactStepStatistics::ContactStepStatistics(ContactStepThresholds thresholds, io::HistogramAxis overlap_axis,
                                             io::HistogramAxis speed_axis)
    : thresholds_(thresholds), overlap_axis_(overlap_axis), speed_axis_(speed_axis) {
  const auto positive = [](double v, const char* name) {
    if (!(v > 0 && std::isfinite(v)))
      throw InputError(fmt::format("contact statistics: {} = {} must be > 0 and finite", name, v));
  };
  positive(thresholds.reference_speed, "reference_speed");
  positive(thresholds.high_speed, "high_speed");
  positive(thresholds.overlap_error, "overlap_error");
  for (const io::HistogramAxis* a : {&overlap_axis_, &speed_axis_})
    if (a->automatic || !(a->upper > a->lower) || a->bins < 1)
      throw InputError(fmt::format("contact statistics: histogram bins [{}, {}] x {} must be fixed, lower < upper, "
                                   "bins >= 1 (a window adds steps bin by bin)", a->lower, a->upper, a->bins));
  const std::vector<double> none;
  overlap_continuous_ = overlap_impact_ = io::make_histogram(none, overlap_axis_);
  speed_continuous_ = speed_impact_ = io::make_histogram(none, speed_axis_);
}

void ContactStepStatistics::add_step(const std::vector<double>& overlap_over_d, const std::vector<double>& approach_speed,
                                     const std::vector<double>& impact_speed) {
  const std::size_t n = overlap_over_d.size();
  if (approach_speed.size() != n || impact_speed.size() != n)
    throw InputError(fmt::format("contact statistics: {} overlaps, {} approach speeds and {} impact thresholds in one "
                                 "step (one each per contact)", n, approach_speed.size(), impact_speed.size()));
  std::vector<double> overlap[2], speed[2];  // [0] continuous, [1] impacts
  for (std::size_t i = 0; i < n; ++i) {
    const double delta = overlap_over_d[i], v = approach_speed[i];
    const bool impact = v > impact_speed[i];
    impacts_ += impact;
    above_reference_ += v > thresholds_.reference_speed;
    high_speed_ += v > thresholds_.high_speed;
    overlap_errors_ += delta > thresholds_.overlap_error;
    max_overlap_ = std::max(max_overlap_, delta);
    max_speed_ = std::max(max_speed_, v);
    impact_speed_sum_ += impact_speed[i];
    overlap[impact].push_back(delta);
    speed[impact].push_back(v);
  }
  samples_ += n;
  ++steps_;
  io::add_histogram(overlap_continuous_, io::make_histogram(overlap[0], overlap_axis_));
  io::add_histogram(overlap_impact_, io::make_histogram(overlap[1], overlap_axis_));
  io::add_histogram(speed_continuous_, io::make_histogram(speed[0], speed_axis_));
  io::add_histogram(speed_impact_, io::make_histogram(speed[1], speed_axis_));
}

double ContactStepStatistics::overlap_overflow_fraction() const {
  return fraction(overlap_continuous_.overflow + overlap_impact_.overflow);
}
double ContactStepStatistics::speed_overflow_fraction() const {
  return fraction(speed_continuous_.overflow + speed_impact_.overflow);
}

std::vector<std::vector<double>> ContactStepStatistics::rows(const io::Histogram& continuous,
                                                             const io::Histogram& impact) const {
  std::vector<std::vector<double>> out;
  const double w = continuous.bin_width();
  for (std::size_t k = 0; k < continuous.counts.size(); ++k) {
    const double c = fraction(continuous.counts[k]), i = fraction(impact.counts[k]);
    out.push_back({continuous.lower + (double(k) + 0.5) * w, c + i, c, i});
  }
  return out;
}

}  // namespace grainlab
