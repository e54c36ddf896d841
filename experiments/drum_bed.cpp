// Drum bed analysis: see drum_bed.hpp.
#include "experiments/drum_bed.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace grainlab {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

std::size_t bin_count(const DrumProbe& p) { return std::size_t(std::ceil(p.radius / p.bin_width)) + 1; }

/// Bin of s, or -1 outside [0, bins * w).
long bin_of(const DrumProbe& p, double s, std::size_t bins) {
  if (!(s >= 0)) return -1;
  const long k = long(s / p.bin_width);
  return k < long(bins) ? k : -1;
}

}  // namespace

double segment_area(double R, double s) {
  const double c = std::clamp(s / R, -1.0, 1.0);
  return R * R * std::acos(c) - s * std::sqrt(std::max(0.0, R * R - s * s));
}

double segment_chord(double R, double s) { return 2 * std::sqrt(std::max(0.0, R * R - s * s)); }

DrumFrame drum_frame(const DrumProbe& probe, std::span<const Vec3> position, std::span<const double> weight) {
  DrumFrame f;
  if (position.empty()) return f;
  Vec3 sum = Vec3::Zero();
  double total = double(position.size());
  if (weight.empty()) {
    for (const Vec3& x : position) sum += x - probe.centre;
  } else {
    if (weight.size() != position.size())
      throw std::invalid_argument("drum_frame: one weight per particle required");
    total = 0;
    for (std::size_t i = 0; i < position.size(); ++i) {
      sum += weight[i] * (position[i] - probe.centre);
      total += weight[i];
    }
  }
  Vec3 c = sum / total;
  c -= c.dot(probe.axis) * probe.axis;
  const double norm = c.norm();
  if (!(norm > 0)) return f;
  f.u = c / norm;
  f.x = probe.axis.cross(f.u);  // omega_hat x u for omega about +axis
  if (probe.omega < 0) f.x = -f.x;
  f.tilt = std::acos(std::clamp(f.u.dot(probe.down), -1.0, 1.0));
  f.valid = true;
  return f;
}

DrumProfile make_profile(const DrumProbe& probe) {
  const std::size_t n = bin_count(probe);
  DrumProfile p;
  p.volume.assign(n, 0.0);
  p.velocity.assign(n, 0.0);
  p.count.assign(n, 0.0);
  p.virial.assign(n, 0.0);
  return p;
}

void accumulate_profile(const DrumProbe& probe, const DrumFrame& frame, std::span<const Vec3> position,
                        std::span<const Vec3> velocity, std::span<const double> radius,
                        std::span<const Contact> contacts, DrumProfile& profile) {
  if (!frame.valid) return;
  const std::size_t bins = profile.volume.size();
  const Vec3 across = probe.axis.cross(frame.u);
  double outer = 0;
  for (std::size_t i = 0; i < position.size(); ++i) {
    const Vec3 d = position[i] - probe.centre;
    if (std::abs(d.dot(across)) > probe.strip_half_width) continue;
    const double s = d.dot(frame.u);
    outer = std::max(outer, s + radius[i]);
    const long k = bin_of(probe, s, bins);
    if (k < 0) continue;
    profile.volume[k] += pi / 6 * 8 * radius[i] * radius[i] * radius[i];
    profile.velocity[k] += velocity[i].dot(frame.x);
    profile.count[k] += 1;
  }
  for (const Contact& c : contacts) {
    if (c.is_wall() || c.overlap <= 0) continue;
    const Vec3 d = c.point - probe.centre;
    if (std::abs(d.dot(across)) > probe.strip_half_width) continue;
    const long k = bin_of(probe, d.dot(frame.u), bins);
    if (k < 0) continue;
    profile.virial[k] += c.force.dot(position[c.a] - position[c.b]);
  }
  profile.outer_sum += outer;
  profile.tilt_sum += frame.tilt;
  ++profile.samples;
}

DrumBed finish_profile(const DrumProbe& probe, const DrumProfile& profile, double diameter, double density) {
  DrumBed bed;
  const std::size_t n = profile.volume.size();
  const double w = probe.bin_width;
  const double samples = std::max(1, profile.samples);
  const double bin_volume = w * 2 * probe.strip_half_width * probe.length;
  bed.s.resize(n);
  bed.solid_fraction.resize(n);
  bed.velocity.resize(n);
  bed.pressure.resize(n);
  double peak = 0;
  long outermost = -1;
  for (std::size_t k = 0; k < n; ++k) {
    bed.s[k] = (double(k) + 0.5) * w;
    bed.solid_fraction[k] = profile.volume[k] / (bin_volume * samples);
    bed.velocity[k] = profile.count[k] > 0 ? profile.velocity[k] / profile.count[k] : nan;
    bed.pressure[k] = profile.virial[k] / (3 * bin_volume * samples);
    peak = std::max(peak, bed.solid_fraction[k]);
    if (profile.count[k] > 0) outermost = long(k);
  }
  bed.tilt = profile.tilt_sum / samples;
  bed.outer = profile.outer_sum / samples;
  bed.surface = bed.depth = bed.area = bed.chord = bed.thickness = bed.plug = bed.inertial_number = nan;
  if (outermost < 0 || profile.samples == 0) return bed;

  // Free surface: first bin inwards of the dense part below half the peak solid fraction.
  const double half = 0.5 * peak;
  long k = outermost;
  while (k >= 0 && bed.solid_fraction[k] < half) --k;  // the sparse outermost bins between the teeth
  while (k > 0 && bed.solid_fraction[k - 1] >= half) --k;
  if (k <= 0) {
    bed.surface = 0;
  } else {
    const double lo = bed.solid_fraction[k - 1], hi = bed.solid_fraction[k];
    bed.surface = bed.s[k - 1] + (half - lo) / (hi - lo) * w;
  }
  bed.depth = bed.outer - bed.surface;
  bed.area = segment_area(bed.outer, bed.surface);
  bed.chord = segment_chord(bed.outer, bed.surface);
  bed.thickness = bed.chord > 0 ? bed.area / bed.chord : nan;

  // Plug zone: contiguous bins from the wall inwards that co-rotate within the tolerance.
  if (probe.omega != 0) {
    const double om = std::abs(probe.omega);
    long inner = -1;
    for (long j = outermost; j >= 0; --j) {
      if (profile.count[j] == 0) break;
      const double rigid = om * bed.s[j];
      if (!(std::abs(bed.velocity[j] - rigid) <= probe.plug_tolerance * rigid)) break;
      inner = j;
    }
    bed.plug = inner < 0 ? 0.0 : std::max(0.0, bed.outer - double(inner) * w);
  }

  // Inertial number over the bed bins.
  double isum = 0, weight = 0;
  for (long j = 0; j <= outermost; ++j) {
    if (bed.s[j] < bed.surface || bed.s[j] > bed.outer || profile.count[j] == 0 || !(bed.pressure[j] > 0)) continue;
    const long a = (j > 0 && profile.count[j - 1] > 0) ? j - 1 : j;
    const long b = (j < outermost && profile.count[j + 1] > 0) ? j + 1 : j;
    if (a == b) continue;
    const double gamma = std::abs(bed.s[j] * (bed.velocity[b] / bed.s[b] - bed.velocity[a] / bed.s[a]) /
                                  (bed.s[b] - bed.s[a]));
    isum += profile.count[j] * gamma * diameter / std::sqrt(bed.pressure[j] / density);
    weight += profile.count[j];
  }
  if (weight > 0) bed.inertial_number = isum / weight;
  return bed;
}

}  // namespace grainlab
