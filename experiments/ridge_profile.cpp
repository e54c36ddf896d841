#include "experiments/ridge_profile.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "experiments/janssen_fit.hpp"
#include "experiments/sample_statistics.hpp"

namespace grainlab {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// Line through the bins from the peak outwards in direction `step` (-1: left, +1: right) whose height
// lies in the flank band; stops at the first bin below the band. NaN fields with fewer than 3 bins.
LineFit flank_line(const std::vector<double>& y, const std::vector<double>& h, std::size_t peak, int step, double lo,
                   double hi, int& bins) {
  std::vector<double> fy, fh;
  for (long k = long(peak); k >= 0 && k < long(h.size()); k += step) {
    const double v = h[std::size_t(k)];
    if (v < lo) break;
    if (v <= hi) {
      fy.push_back(y[std::size_t(k)]);
      fh.push_back(v);
    }
  }
  bins = int(fy.size());
  if (bins < 3) return LineFit{kNan, kNan, kNan};
  return fit_line(fy, fh);
}

// Angle of a flank rising towards the peak, degrees (NaN for no fit).
double rise_deg(const LineFit& f, int step) { return std::atan(-step * f.slope) * 180 / M_PI; }

}  // namespace

FlankAngles fit_flanks(const std::vector<double>& y, const std::vector<double>& h, double flank_low, double flank_high) {
  FlankAngles out;
  if (h.empty() || y.size() != h.size()) {
    out.angle_deg = out.left_deg = out.right_deg = out.peak = out.peak_y = kNan;
    return out;
  }
  std::size_t peak = 0;
  for (std::size_t k = 1; k < h.size(); ++k)
    if (h[k] > h[peak]) peak = k;
  out.peak = h[peak];
  out.peak_y = y[peak];
  if (!(out.peak > 0)) {  // bare ground: no flank
    out.angle_deg = out.left_deg = out.right_deg = kNan;
    out.left_intercept = out.left_slope = out.right_intercept = out.right_slope = kNan;
    return out;
  }
  const double lo = flank_low * out.peak, hi = flank_high * out.peak;
  const LineFit left = flank_line(y, h, peak, -1, lo, hi, out.left_bins);
  const LineFit right = flank_line(y, h, peak, +1, lo, hi, out.right_bins);
  out.left_intercept = left.intercept;
  out.left_slope = left.slope;
  out.right_intercept = right.intercept;
  out.right_slope = right.slope;
  out.left_deg = rise_deg(left, -1);
  out.right_deg = rise_deg(right, +1);
  const bool l = std::isfinite(out.left_deg), r = std::isfinite(out.right_deg);
  out.angle_deg = l && r ? 0.5 * (out.left_deg + out.right_deg) : l ? out.left_deg : r ? out.right_deg : kNan;
  return out;
}

RidgeProfile measure_ridge(const ParticleStore& p, const RidgeProfileSettings& s) {
  if (!(s.segment_length > 0)) throw InputError(fmt::format("ridge profile: segment_length = {} m must be > 0", s.segment_length));
  if (!(s.bin_width > 0)) throw InputError(fmt::format("ridge profile: bin_width = {} m must be > 0", s.bin_width));
  if (!(s.half_width >= s.bin_width)) throw InputError(fmt::format("ridge profile: half_width = {} m must be >= bin_width", s.half_width));
  if (s.segments < 1) throw InputError(fmt::format("ridge profile: segments = {} must be >= 1", s.segments));
  // Bins centred on y = 0: bin k covers [(k - m - 1/2) w, (k - m + 1/2) w).
  const int m = int(std::floor(s.half_width / s.bin_width - 0.5));
  const std::size_t nb = std::size_t(2 * m + 1);
  std::vector<std::vector<double>> slices(std::size_t(s.segments), std::vector<double>(nb, 0.0));
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (!((p.velocity[i] - s.ground_velocity).norm() < s.surface_speed) || !(p.position[i].z() <= s.max_height)) continue;
    if (p.position[i].z() < s.min_height) continue;  // the bottom layer on the ground (Paper V E1 recipe)
    const double u = (p.position[i].x() - s.x_lo) / s.segment_length;
    if (!(u >= 0 && u < s.segments)) continue;
    const long k = std::lround(p.position[i].y() / s.bin_width) + m;
    if (k < 0 || k >= long(nb)) continue;
    double& top = slices[std::size_t(u)][std::size_t(k)];
    top = std::max(top, p.position[i].z() + p.radius[i]);
  }
  RidgeProfile out;
  out.y.resize(nb);
  out.surface.assign(nb, 0.0);
  for (std::size_t k = 0; k < nb; ++k) out.y[k] = (double(k) - m) * s.bin_width;
  std::vector<double> angles;
  for (const auto& slice : slices) {
    for (std::size_t k = 0; k < nb; ++k) out.surface[k] += slice[k] / s.segments;
    const double a = fit_flanks(out.y, slice, s.flank_low, s.flank_high).angle_deg;
    if (std::isfinite(a)) angles.push_back(a);
  }
  out.fit = fit_flanks(out.y, out.surface, s.flank_low, s.flank_high);
  out.slice_angles = int(angles.size());
  out.angle_sd_deg = sd_of(angles);
  return out;
}

}  // namespace grainlab
