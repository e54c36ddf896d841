#pragma once
// The 2-D hopper of Gavrilov 1999 G-E8 (seed 002 l.2760-2777; Fig. 5.42 lost, ledger G-E8 defaults): a
// vertical bin of width W above a symmetric funnel whose walls make the angle alpha with the horizontal
// (or the vertical), down to a centred slot W1 in the plane y = 0; the total height H is measured from that
// plane. A temporary segment closes the slot during the fill and is removed at t = 0; a disk is deleted
// when its top point is below the slot plane (002 l.2769).
#include <cstdint>
#include <vector>

#include "core/mbd/system.hpp"

namespace grainlab::mbd {

struct HopperGeometry {
  double width = 0.3;          ///< W, m (002 l.2773)
  double height = 0.8;         ///< H, m
  double orifice = 0.08;       ///< W1, m
  double angle_deg = 60;       ///< alpha
  bool angle_from_horizontal = true;  ///< ledger default (P2)
  double funnel_height() const;
  double orifice_left() const { return 0.5 * (width - orifice); }
  double orifice_right() const { return 0.5 * (width + orifice); }
  double centre() const { return 0.5 * width; }
};

struct HopperFill {
  int disks = 500;
  double radius_mean = 0.01;          ///< m
  double radius_sd_fraction = 0;      ///< polysized: normal, sd / mean ("variance 5 %" = 0.05), cut at 3 sd
  double areal_density = 1190;        ///< kg/m^2 (002 l.2773)
  double spacing = 1.05;              ///< lattice pitch / largest diameter before settling
  double settle_time_max = 1.0;       ///< s
  double settle_speed = 1e-3;         ///< m/s: the fill has settled when every disk is slower
  std::uint64_t seed = 1;
};

struct HopperSegments {
  std::vector<int> walls;  ///< left bin, right bin, left funnel, right funnel
  int closure = -1;        ///< the temporary segment across the slot
};

/// Adds the boundary segments of `g` to `system`.
HopperSegments add_hopper_walls(MbdSystem& system, const HopperGeometry& g);

/// Places the disks on a jittered triangular lattice inside the closed hopper (the lowest rows first) and
/// lets them settle under gravity with the MBD links until every disk is slower than settle_speed.
/// The lattice may reach up to 2 H (the disks fall into the bin). Returns the settling time used;
/// throws InputError when the disks do not fit. The fill must end below H (checked by the caller).
double fill_hopper(MbdSystem& system, const HopperGeometry& g, const HopperFill& f);

}  // namespace grainlab::mbd
