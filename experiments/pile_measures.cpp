#include "experiments/pile_measures.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "experiments/janssen_fit.hpp"

namespace grainlab {

PileMeasures measure_pile(const ParticleStore& p, const PileMeasureSettings& s) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  PileMeasures out;
  std::vector<double> tops;                 // z + r of resting particles
  double z_sum = 0;
  std::vector<double> surface;              // highest z + r per radial bin
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (!(p.velocity[i].norm() < s.rest_speed)) continue;
    const double top = p.position[i].z() + p.radius[i];
    tops.push_back(top);
    z_sum += p.position[i].z();
    const double rho = std::hypot(p.position[i].x() - s.axis_x, p.position[i].y() - s.axis_y);
    const auto bin = std::size_t(rho / s.bin_width);
    if (bin >= surface.size()) surface.resize(bin + 1, nan);
    if (!(surface[bin] >= top)) surface[bin] = top;  // NaN (empty bin) or lower
  }
  out.resting = tops.size();
  if (tops.empty()) {
    out.height = out.height_top = out.height_centroid = out.angle_deg = nan;
    return out;
  }
  out.height_centroid = 4 * z_sum / double(tops.size());
  std::sort(tops.begin(), tops.end(), std::greater<>());
  out.height = tops.front();
  if (int(tops.size()) >= s.top) {
    double sum = 0;
    for (int k = 0; k < s.top; ++k) sum += tops[std::size_t(k)];
    out.height_top = sum / s.top;
  } else {
    out.height_top = nan;
  }
  std::vector<double> rho, h;
  for (std::size_t b = 0; b < surface.size(); ++b)
    if (surface[b] >= s.flank_low * out.height && surface[b] <= s.flank_high * out.height) {
      rho.push_back((double(b) + 0.5) * s.bin_width);
      h.push_back(surface[b]);
    }
  out.flank_bins = int(rho.size());
  out.angle_deg = rho.size() >= 3 ? std::atan(-fit_line(rho, h).slope) * 180 / M_PI : nan;
  out.surface = std::move(surface);
  return out;
}

}  // namespace grainlab
