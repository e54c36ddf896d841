#include "experiments/outlet_design.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/math.hpp"

namespace grainlab {

namespace {
double widening(const OutletDesign& d) {
  const double t = std::tan(d.gap_angle_deg * pi / 180);
  if (d.alpha_convention == "half_angle") return 2 * t;
  if (d.alpha_convention == "full_angle") return t;
  throw InputError(fmt::format("outlet: alpha_convention = '{}' must be half_angle or full_angle", d.alpha_convention));
}
}  // namespace

double gap_width(const OutletDesign& design, double s) { return design.gap_base_width + widening(design) * s; }

std::vector<ShellSlot> outlet_slots(const OutletDesign& d, double R, double length) {
  if (!(d.gap_angle_deg >= 0 && d.gap_angle_deg < 45))
    throw InputError(fmt::format("outlet: gap_angle_deg = {} must lie in [0, 45)", d.gap_angle_deg));
  if (!(d.gap_base_width > 0)) throw InputError(fmt::format("outlet: gap_base_width = {} m must be > 0", d.gap_base_width));
  if (!(d.bisector_deg >= 0 && d.bisector_deg < 80))
    throw InputError(fmt::format("outlet: gap_bisector_deg = {} must lie in [0, 80)", d.bisector_deg));
  if (d.count < 1) throw InputError(fmt::format("outlet: gap_count = {} must be >= 1", d.count));
  const double eta = d.bisector_deg * pi / 180;
  const double run = length / std::cos(eta);  // bisector length over the whole outlet
  // The gaps must not touch one another anywhere along the outlet (else the shell would fall apart).
  const double spacing = 2 * pi * R / d.count * std::cos(eta);  // perpendicular distance between bisectors
  if (gap_width(d, run) >= spacing)
    throw InputError(fmt::format("outlet: gap width {:.3f} m at the outlet end reaches the gap spacing {:.3f} m "
                                 "(gap_base_width / gap_angle_deg too large)", gap_width(d, run), spacing));
  std::vector<ShellSlot> slots;
  for (int k = 0; k < d.count; ++k) {
    ShellSlot s;
    s.u_start = 2 * pi * R * k / d.count;
    s.z_start = -0.5 * length;
    s.bisector = eta;
    s.base_width = d.gap_base_width;
    s.widening = widening(d);
    s.length = run * 1.05;  // beyond the open end, so the gap opens into it
    slots.push_back(s);
  }
  return slots;
}

}  // namespace grainlab
