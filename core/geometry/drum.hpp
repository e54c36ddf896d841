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
// base, the shell is hidden and gives no contact unless the centre lies beyond the base chord.
// Narrow phase per tooth: closest point of the centre on the tooth outline (ramp, apex, attack face),
// so one tooth gives one contact whose normal turns continuously as a sphere slides over the tip (the
// apex region); a closest point at a base corner (a concave corner with the shell or the next tooth)
// gives no contact (the adjacent surface has it). A centre inside the tooth triangle (overlap > r) is
// pushed out through the nearer face; a centre beyond a tooth's base chord (driven through the tooth
// by a large step) touches the shell there, which otherwise is hidden under the tooth. Teeth exist
// over the drum length; their end faces at an open
// drum end are not modelled.
//
// Gaussian bumps (000 lines 1366-1368: width 50 mm, height 30-50 mm, 20 bumps per m^2). Target
// profile: h exp(-s^2 / 2 sigma^2) with full width at half maximum w = 2 sqrt(2 ln 2) sigma. Model: a
// rounded cone about the shell normal at the bump's foot: the cone tangent to the Gaussian at its
// inflection circle s = sigma (slope m = e^{-1/2} h / sigma, meeting the shell tangent plane at
// a = 2 sigma), capped by the sphere tangent to the cone whose top is at height h. It is convex, never
// overhangs, has a continuous normal, its height is exactly h, and its width at half height is
// 2 (2 - e^{1/2} / 2) sigma = 2.351 sigma, 0.15 % below the Gaussian's 2.355 sigma. Heights are
// uniform in [height_min, height_max]; count = round(density x 2 pi R x axial length); feet uniform
// in angle and axial position (mt19937_64 with `seed`, converted to doubles portably). Bumps may
// overlap each other. The cone base lies on the plane tangent to the shell at the foot (the shell
// curves away from it by a^2 / 2R, 2 mm for the paper's drum). For an infinite drum (periodic slice)
// the field repeats with `axial_period` along the axis, starting at the centre's axial position -
// period/2. The shell stays feature 0 everywhere.
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
#include "core/geometry/shell_slots.hpp"

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

/// One bump: a solid of revolution about the shell normal at its foot (see the file comment).
/// Meridian coordinates: s = distance from the bump axis, y = height above the shell tangent plane.
struct Bump {
  double cos_angle, sin_angle;  ///< angular position of the foot in the turning frame
  double axial;                 ///< axial coordinate of the foot relative to the drum centre, m
  double height;                ///< apex height h, m
  double base_radius;           ///< a = 2 sigma: where the cone meets the tangent plane, m
  double tip_radius;            ///< radius of the apex sphere, m
  double tip_center;            ///< height of the apex sphere centre, m
  double nu_s, nu_y;            ///< outward unit normal of the cone side in the meridian plane
  double tangent_t;             ///< distance from the base edge to the cone/sphere tangent circle along the side, m
  double extent;                ///< every point of the bump lies within this distance of the foot, m
};

/// Appends the contact of a sphere (centre c, radius r) with bump b whose foot (on the shell) is
/// `foot` and whose axis points along the unit `inward` (towards the drum axis). Exact closest point on
/// the bump surface; none where that point is the base edge (the concave junction with the shell).
void collide_bump(const Bump& b, const Vec3& foot, const Vec3& inward, const Vec3& c, double r, double margin,
                  std::uint16_t feature, std::vector<WallHit>& hits);

struct BumpTexture {
  BumpParams params;
  std::vector<Bump> bumps;
  double axial_lo = 0, axial_extent = 0;  ///< bump centres lie in [axial_lo, axial_lo + extent)
  bool periodic = false;                  ///< the field repeats with period axial_extent
  double max_extent = 0, min_apex_radius = 0;  ///< largest Bump::extent; R - height_max
  int cells_angle = 1, cells_axial = 1;   ///< buckets: bumps by (angle cell, axial cell)
  std::vector<std::uint32_t> cell_start;  ///< CSR offsets, size cells_angle * cells_axial + 1
  std::vector<std::uint32_t> cell_items;  ///< bump indices
};

struct DrumShape {
  CylinderShape body;  ///< side must be inside
  Vec3 reference = Vec3::UnitX();  ///< unit, orthogonal to body.axis: angle 0 of the texture at phase 0
  double phase = 0;                ///< rad, current rotation of the texture about body.axis
  std::variant<std::monostate, SawtoothTexture, BumpTexture> texture;
  /// Slots cut through the shell (core/geometry/shell_slots.hpp); smooth drums only. Empty: a closed shell.
  std::vector<ShellSlot> slots;

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
