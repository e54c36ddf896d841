#pragma once
// Measurements of the granular collapse (Paper V E2, 000 l.2124, 2162-2176; ledger ../shared/claims/paper5.md
// E2): the particles that belong to the main contact network, the top surface of the packing, the
// inclination of a least-squares plane through surface particles, and the largest reduction level the
// merge tests (Eq. 26-28, Table 2) would allow on one frame (P5-C36).
// Pure functions of positions, velocities and contacts; serial.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/contacts.hpp"
#include "core/math.hpp"
#include "core/ndem/reduction_settings.hpp"

namespace grainlab {

/// Mask of the particles in the largest connected component of the graph whose edges are the particle
/// pairs with overlap > -gap ("discarding any particles that disconnect from the main contact network",
/// 000 l.2124). Ties between equally large components go to the one holding the lowest particle index.
std::vector<char> main_contact_network(std::size_t particles, std::span<const Contact> contacts, double gap);

/// Indices of the top-surface particles among those with mask[i]: the x-y plane is cut into square
/// columns of side `column`; in each column the particles whose top (z + r) lies within `depth` of the
/// column's highest top (ledger E2 default: depth = 1 d).
std::vector<std::size_t> top_surface(std::span<const Vec3> x, std::span<const double> r, std::span<const char> mask,
                                     double column, double depth);

/// The highest particle per x-y column (side `column`) among those with mask[i], as indices.
std::vector<std::size_t> column_tops(std::span<const Vec3> x, std::span<const double> r, std::span<const char> mask,
                                     double column);

struct PlaneFit {
  double slope_x = 0, slope_y = 0;  ///< z = a + slope_x x + slope_y y
  double angle_deg = 0;             ///< inclination atan(|grad z|), degrees; NaN with < 3 points or a degenerate set
  std::size_t points = 0;
};

/// Least-squares plane z(x, y) through the points.
PlaneFit fit_plane(std::span<const Vec3> points);

/// What the merge tests allow on one frame (P5-C36): particles are joined along every particle-particle
/// contact (overlap > 0) whose contact velocities pass Eq. 26-28 with `merge` thresholds, whose relative
/// normal and tangential accelerations (from the previous frame's velocities, (G v - G v_prev) / dt) pass
/// `acceleration`, and whose two particles pass the force-balance ratio of Eq. 25,
/// |f_ext + f_c| / (|f_ext| + |f_c|) <= force_balance (f_c: the summed contact forces of the particle).
/// Every connected group of >= 2 particles is one aggregate: h = 1 - (free + aggregates) / N.
struct MergePotential {
  double level = 0;               ///< h of the largest possible aggregation
  std::size_t merged_particles = 0;
  std::size_t aggregates = 0;
  std::size_t passing_contacts = 0;
};

struct FrameState {
  std::span<const Vec3> position, velocity, angular_velocity, previous_velocity, previous_angular_velocity;
  std::span<const double> mass;
  std::span<const Contact> contacts;  ///< pair contacts and wall contacts (force = total on a, N)
  Vec3 gravity = Vec3::Zero();
  double dt = 0;
};

MergePotential merge_potential(const FrameState& f, const ReductionThresholds& merge, double acceleration,
                               double force_balance);

/// Velocity of a's material relative to b's at the contact point of a particle pair (c.b >= 0).
Vec3 pair_relative_velocity(const Contact& c, std::span<const Vec3> x, std::span<const Vec3> v,
                            std::span<const Vec3> w);

}  // namespace grainlab
