// Drum flow measures: see drum_flow_stats.hpp.
#include "experiments/drum_flow_stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace grainlab {
namespace {
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
}  // namespace

double plug_fraction(const DrumProbe& probe, std::span<const Vec3> position, std::span<const Vec3> velocity,
                     double threshold, bool printed_sign) {
  if (position.empty() || probe.omega == 0) return nan;
  const Vec3 omega = (printed_sign ? -probe.omega : probe.omega) * probe.axis;
  const double scale = probe.radius * std::abs(probe.omega);
  std::size_t plug = 0;
  for (std::size_t i = 0; i < position.size(); ++i) {
    const Vec3 rigid = omega.cross(position[i] - probe.centre);
    if ((velocity[i] - rigid).norm() <= threshold * scale) ++plug;
  }
  return double(plug) / double(position.size());
}

double surface_angle(const DrumProbe& probe, const DrumFrame& frame, std::span<const Vec3> position,
                     std::span<const double> radius, double bin_width, double half_width) {
  if (!frame.valid || !(bin_width > 0) || !(half_width > 0)) return nan;
  const Vec3 t = probe.axis.cross(frame.u);
  const std::size_t bins = std::size_t(std::ceil(2 * half_width / bin_width));
  std::vector<double> top(bins, std::numeric_limits<double>::infinity());
  for (std::size_t i = 0; i < position.size(); ++i) {
    const Vec3 d = position[i] - probe.centre;
    const double a = d.dot(t) + half_width;
    if (!(a >= 0) || a >= double(bins) * bin_width) continue;
    const std::size_t k = std::size_t(a / bin_width);
    top[k] = std::min(top[k], d.dot(frame.u) - radius[i]);
  }
  double n = 0, sa = 0, ss = 0, saa = 0, sas = 0;
  for (std::size_t k = 0; k < bins; ++k) {
    if (!std::isfinite(top[k])) continue;
    const double a = (double(k) + 0.5) * bin_width - half_width;
    n += 1;
    sa += a;
    ss += top[k];
    saa += a * a;
    sas += a * top[k];
  }
  const double det = n * saa - sa * sa;
  if (n < 3 || !(det > 0)) return nan;
  const double slope = (n * sas - sa * ss) / det;
  const Vec3 normal = (frame.u - slope * t).normalized();
  return std::acos(std::clamp(normal.dot(probe.down), -1.0, 1.0));
}

}  // namespace grainlab
