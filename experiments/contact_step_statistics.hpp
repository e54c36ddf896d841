#pragma once
// Contact statistics of an NDEM run over a window of steps (Paper III Sec. 6.4, Figs. 19-20, 000 l.1418-1426;
// ledger paper3.md E8): every active contact of every step is one sample ("contact-step"). Per sample the
// overlap delta / d as detected, the approach speed v_n = -G_n v at the start of the step (> 0 approaching)
// and the impact threshold v_imp of the engine that step (NdemStepStats::contact_*, record_contact_statistics).
//
//   impact          v_n > v_imp (the engine's own classification: Newton restitution, 000 l.1134)
//   above_reference v_n > reference_speed (the paper's "v_n > v_imp = 0.05 m/s" of the 5 ms run, fixed
//                   whatever the run's own v_imp, so that runs at other dt count the same contacts)
//   high_speed      v_n > high_speed (1 m/s, 000 l.1424)
//   overlap_error   delta / d > overlap_error (the error tolerance epsilon = 0.02, 000 l.1424)
// Fractions are of all contact-steps. Histograms (fixed bins, core/io/contact_histogram.hpp) of delta / d
// and of v_n, each split into continuous contacts and impacts as the paper's red/blue.
// Serial, pure: the same samples give the same statistics.
#include <cstdint>
#include <vector>

#include "core/io/contact_histogram.hpp"

namespace grainlab {

struct ContactStepThresholds {
  double reference_speed = 0.05;  ///< m/s
  double high_speed = 1.0;        ///< m/s
  double overlap_error = 0.02;    ///< in d
};

class ContactStepStatistics {
 public:
  /// InputError naming the parameter for non-positive thresholds or bad histogram axes.
  ContactStepStatistics(ContactStepThresholds thresholds, io::HistogramAxis overlap_axis, io::HistogramAxis speed_axis);

  /// One step: the three vectors are per contact, of equal length (InputError otherwise).
  void add_step(const std::vector<double>& overlap_over_d, const std::vector<double>& approach_speed,
                const std::vector<double>& impact_speed);

  std::uint64_t samples() const { return samples_; }
  std::uint64_t steps() const { return steps_; }
  double impact_fraction() const { return fraction(impacts_); }
  double above_reference_fraction() const { return fraction(above_reference_); }
  double high_speed_fraction() const { return fraction(high_speed_); }
  double overlap_error_fraction() const { return fraction(overlap_errors_); }
  double max_overlap_over_d() const { return max_overlap_; }
  double max_approach_speed() const { return max_speed_; }
  double mean_impact_speed_threshold() const { return samples_ ? impact_speed_sum_ / double(samples_) : 0.0; }

  /// Rows (bin centre, fraction of all samples in the bin: all, continuous, impacts; per unit of the axis
  /// a density would divide by the bin width, which the plots do not need) of the overlap or speed
  /// histogram; underflow and overflow are left out (their counts: the fractions below).
  std::vector<std::vector<double>> overlap_rows() const { return rows(overlap_continuous_, overlap_impact_); }
  std::vector<std::vector<double>> speed_rows() const { return rows(speed_continuous_, speed_impact_); }
  /// Fraction of samples above the last overlap / speed bin.
  double overlap_overflow_fraction() const;
  double speed_overflow_fraction() const;

 private:
  double fraction(std::uint64_t n) const { return samples_ ? double(n) / double(samples_) : 0.0; }
  std::vector<std::vector<double>> rows(const io::Histogram& continuous, const io::Histogram& impact) const;

  ContactStepThresholds thresholds_;
  io::HistogramAxis overlap_axis_, speed_axis_;
  std::uint64_t samples_ = 0, steps_ = 0, impacts_ = 0, above_reference_ = 0, high_speed_ = 0, overlap_errors_ = 0;
  double max_overlap_ = 0, max_speed_ = 0, impact_speed_sum_ = 0;
  io::Histogram overlap_continuous_, overlap_impact_, speed_continuous_, speed_impact_;
};

}  // namespace grainlab
