#pragma once
// Rotating drum: an inside cylinder (core/geometry/cylinder.hpp, side = inside) whose shell carries a
// texture that turns with the drum. Build one with make_smooth_drum / make_sawtooth_drum /
// make_bumpy_drum (they validate and precompute the texture).
//
// Frame: the texture is fixed in a frame turning about the axis; `reference` (unit, orthogonal to the
// axis) is its angle-0 direction at phase 0 and `phase` (rad) its current rotation (right-handed about
// `axis`). advance() increases the phase when the wall's angular velocity is along the axis and the
// rotation centre lies on it; otherwise it moves the whole frame rigidly.
//
// Features: 0 shell, 1 cap at -axis, 2 cap at +axis, 3 + k tooth or bump k.
//
// Sawtooth (000 lines 600-602: 64 teeth, height 1.2 d, length 4 d, attack angle 50 deg). Each tooth is
// a triangular prism along the axis. In the cross-section, tooth k's base is the chord of the shell
// circle (radius R) from angle k 2pi/N to k 2pi/N + Delta, with chord length L = `length`
// (Delta = 2 asin(L / 2R)); its apex lies `height` h from the chord (measured perpendicular to it,
// towards the axis) such that the steep face ("attack face") makes `attack_angle` alpha with the chord
// and sits at the leading (+angle) end: apex = B0 + (L - h / tan alpha) t + h n. The other face is the
// gentle ramp. With the drum turning with positive angular velocity about +axis the attack face leads.
// Shell arcs between teeth are feature 0; where the radial projection of the centre falls under a tooth
// base, the shell is hidden and gives no contact.
// Narrow phase per tooth: closest point of the centre on the tooth outline (ramp, apex, attack face),
// so one tooth gives one contact whose normal turns continuously as a sphere slides over the tip (the
// apex region); a closest point at a base corner (a concave corner with the shell or the next tooth)
// gives no contact (the adjacent surface has it). A centre inside the tooth triangle (overlap > r) is
// pushed out through the nearer face. Teeth exist over the drum length; their end faces at an open
// drum end are not modelled.
//
// Gaussian bumps (000 lines 1366-1368: width 50 mm, height 30-50 mm, 20 bumps per m^2). Model: each
// bump is a sphere of radius rho_b = (w^2 + h^2) / (4 h) whose centre lies at R - h + rho_b from the
// axis, so it protrudes exactly h into the drum and is w wide at half its height, as the Gaussian
// h exp(-s^2 / 2 sigma^2) with full width at half maximum w. Heights are uniform in
// [height_min, height_max]; count = round(density x 2 pi R x axial length); centres uniform in angle
// and axial position (mt19937_64 with `seed`, converted to doubles portably). Bumps may overlap each
// other. For an infinite drum (periodic slice) the bump field repeats with `axial_period` along the
// axis, starting at the centre's axial position - period/2. Sphere-bump contacts are exact
// sphere-sphere geometry; the shell stays feature 0 everywhere.
//
// Cost: a particle farther than r + margin from the texture band skips it; otherwise only the teeth
// in its angular sector (usually 1-3) or the bumps in the buckets (angle x axial cell) near it are
// tested, so the narrow phase is O(1) per particle.
// collide(): pure, thread-safe.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/geometry/cylinder.hpp"
#include "core/geometry/hit.hpp"

namespace grainlab {

struct SawtoothParams {
  int count = 64;                ///< teeth around the circumference
  double height = 0.012;         ///< m (1.2 d for d = 0.01 m)
  double length = 0.04;          ///< m, chord length of the tooth base (4 d)
  double attack_angle_deg = 50;  ///< angle between the attack face and the base chord, degrees
};

struct BumpParams {
  double density = 20;          ///< bumps per m^2 of shell
  double height_min = 0.03;     ///< m
  double height_max = 0.05;     ///< m
  double width = 0.05;          ///< m, full width at half maximum of the Gaussian profile
  std::uint64_t seed = 1;
  double axial_period = 0;      ///< m, required (> 0) only for an infinite drum
};

/// Sawtooth texture with the tooth-0 outline precomputed (2D coordinates in the turning frame).
struct SawtoothTexture {
  SawtoothParams params;
  double pitch = 0;         ///< 2 pi / count
  double cos_pitch = 1, sin_pitch = 0;
  double base_angle = 0;    ///< Delta: angle subtended by a tooth base
  double min_radius = 0;    ///< smallest distance of the tooth outline from the axis
  double b0[2]{}, apex[2]{}, b1[2]{};  ///< tooth 0 outline: ramp start, apex, attack-face foot
  double n_ramp[2]{}, n_attack[2]{}, n_base[2]{};  ///< outward unit normals of the tooth-0 triangle edges
};

struct Bump {
  double cos_angle, sin_angle;  ///< angular position in the turning frame
  double axial;                 ///< axial coordinate of the sphere centre relative to the drum centre, m
  double height;                ///< m
  double sphere_radius;         ///< m
  double center_radius;         ///< distance of the sphere centre from the axis, m
};

struct BumpTexture {
  BumpParams params;
  std::vector<Bump> bumps;
  double axial_lo = 0, axial_extent = 0;  ///< bump centres lie in [axial_lo, axial_lo + extent)
  bool periodic = false;                  ///< the field repeats with period axial_extent
  double max_sphere_radius = 0, min_apex_radius = 0;
  int cells_angle = 1, cells_axial = 1;   ///< buckets: bumps by (angle cell, axial cell)
  std::vector<std::uint32_t> cell_start;  ///< CSR offsets, size cells_angle * cells_axial + 1
  std::vector<std::uint32_t> cell_items;  ///< bump indices
};

struct DrumShape {
  CylinderShape body;  ///< side must be inside
  Vec3 reference = Vec3::UnitX();  ///< unit, orthogonal to body.axis: angle 0 of the texture at phase 0
  double phase = 0;                ///< rad, current rotation of the texture about body.axis
  std::variant<std::monostate, SawtoothTexture, BumpTexture> texture;

  /// Unit vector at angle `angle` of the turning frame, in world coordinates.
  Vec3 direction_at(double angle) const;
};

DrumShape make_smooth_drum(const CylinderShape& body, const Vec3& reference, const std::string& wall);
DrumShape make_sawtooth_drum(const CylinderShape& body, const Vec3& reference, const SawtoothParams& teeth,
                             const std::string& wall);
DrumShape make_bumpy_drum(const CylinderShape& body, const Vec3& reference, const BumpParams& bumps,
                          const std::string& wall);

void collide(const DrumShape& s, const Vec3& c, double r, double margin, std::vector<WallHit>& hits);
void move(DrumShape& s, const RigidMotion& m);
void validate(const DrumShape& s, const std::string& wall);

/// The 2D closest point of p on tooth 0's outline (b0 -> apex -> b1) as used by the narrow phase:
/// returns false when the closest point is a base corner (no contact); else the point q, the unit
/// normal n from the tooth towards p, and the signed distance (negative inside the tooth).
bool tooth_closest_point(const SawtoothTexture& t, const double p[2], double q[2], double n[2], double& distance);

}  // namespace grainlab
