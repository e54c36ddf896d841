#pragma once
// Rigid bodies: a general inertia tensor and quaternion orientation. Two uses (issue 8):
//  - aggregates of spheres (Paper V, 000 l.1905-1920): a body formed from existing particles, whose mass,
//    centre of mass and inertia tensor are summed from the member spheres INCLUDING each sphere's own
//    inertia (parallel-axis theorem; the printed Eq. 9 omits it, claims/paper5.md P3). Members keep their
//    slot in ParticleStore (they still collide), ParticleStore::body names their body, and each step they
//    are driven from the body pose: x_i = X + R r_i, v_i = v + w x (R r_i), w_i = w (000 Eq. 11-13, with
//    r_i stored in the body frame).
//  - dynamic walls: a body with an explicit mass and inertia (no members) to which walls are attached;
//    the walls move rigidly with it. A prismatic joint leaves one translation free; a motor drives it with
//    a velocity target and a bounded force |F| <= F_max, or with a constant force (pressure x area).
//
// State: X (centre of mass), q (body -> world), v, w (world frame). The world inertia is
// I = R I_body R^T. Angular momentum L = I w is the conserved quantity of the rotation update
// (integrate_pose): q is advanced with L held constant over the step (RK4 on q' = 1/2 (0, I(q)^-1 L) q),
// then w = I(q_new)^-1 L, so a torque-free body conserves L to rounding and its energy to O(dt^4) per unit
// time (gyroscopic motion included). Both steppers use it: SDEM sums the member/wall wrench and updates
// v, L explicitly (sdem/sdem_bodies.cpp); NDEM solves v, w with the constraint rows (ndem/body_rows.cpp).
//
// Threading: all functions here are serial (bodies are few); they touch only the bodies' members.
#include <cstdint>
#include <limits>
#include <vector>

#include "core/math.hpp"

namespace grainlab {

class World;
struct ParticleStore;
struct Wall;

enum class BodyJoint : std::uint8_t {
  free,       ///< 6 DOF
  prismatic,  ///< translation along `axis` only, no rotation (walls of a triaxial cell, pistons)
};

enum class BodyMotor : std::uint8_t {
  none,
  velocity,  ///< constraint row axis . v = target_speed with |F| <= max_force (prismatic only)
  force,     ///< constant force `force` along the axis (pressure x area; prismatic only)
};

struct BodyMember {
  std::uint32_t id = 0;       ///< stable particle id
  std::int32_t index = -1;    ///< particle index (a hint, re-resolved by id when particles were compacted)
  Vec3 offset = Vec3::Zero(); ///< centre relative to X in the body frame
  Quat relative = Quat::Identity();  ///< particle orientation = q * relative
};

struct RigidBody {
  double mass = 0;
  Mat3 inertia_body = Mat3::Zero();      ///< about the centre of mass, body frame (symmetric positive definite)
  Mat3 inv_inertia_body = Mat3::Zero();
  Vec3 position = Vec3::Zero();          ///< centre of mass X
  Quat orientation = Quat::Identity();   ///< body frame -> world frame
  Vec3 velocity = Vec3::Zero();          ///< of the centre of mass, world frame
  Vec3 angular_velocity = Vec3::Zero();  ///< world frame
  Vec3 force = Vec3::Zero();             ///< total external + contact force of the last step (observers), N
  Vec3 torque = Vec3::Zero();            ///< about X, N m
  Vec3 external_force = Vec3::Zero();    ///< user load applied every step, N
  Vec3 external_torque = Vec3::Zero();
  bool gravity = true;                   ///< gravity acts on the body
  BodyJoint joint = BodyJoint::free;
  Vec3 axis = Vec3::UnitZ();             ///< prismatic axis (unit)
  BodyMotor motor = BodyMotor::none;
  double target_speed = 0;               ///< velocity motor: axis . v target, m/s
  double max_force = std::numeric_limits<double>::infinity();  ///< velocity motor bound F_max >= 0, N
  double motor_force = 0;                ///< force motor: F along axis, N; velocity motor: force it exerted last step
  double motor_lambda = 0;               ///< NDEM: continuous-stage motor multiplier of the last step (warm start)
  std::vector<BodyMember> members;
  std::vector<std::uint32_t> walls;      ///< indices of attached walls (rotation_center kept at X)

  Mat3 rotation() const { return orientation.toRotationMatrix(); }
  Mat3 inertia_world() const;
  /// Inverse inertia in the world frame, with the joint's locks applied (zero for a prismatic body).
  Mat3 inv_inertia_world() const;
  /// Inverse mass as a 3x3 map (1/m I, or 1/m a a^T for a prismatic body).
  Mat3 inv_mass_matrix() const;
  Vec3 angular_momentum() const { return inertia_world() * angular_velocity; }  ///< about X
  double kinetic_energy() const;
};

/// Throws InputError naming the body and parameter: mass <= 0 or not finite, inertia not symmetric
/// positive definite, a zero prismatic axis, a motor on a free body, max_force < 0 or NaN, a non-finite state.
void validate(const RigidBody& b, std::size_t index);

/// Adds a body with explicit mass and inertia (no members), e.g. a dynamic wall. Validates; the body
/// frame is the world frame at creation (orientation identity unless set). Returns its index.
std::size_t add_body(World& world, RigidBody body);

/// Attaches wall `wall` to body `body`: the wall moves rigidly with it; its rotation_center becomes X.
void attach_wall(World& world, std::size_t body, std::size_t wall);

/// Forms a body from existing free particles (indices): m = sum m_i, X = sum m_i x_i / m,
/// I = sum (I_i 1 + m_i (|r_i|^2 1 - r_i r_i^T)), v = p / m, w = I^-1 L with L = sum (m_i r_i x v_i + I_i w_i).
/// Linear and angular momentum are conserved to rounding; members' velocities are set to v + w x r_i.
/// Throws InputError when a particle is fixed, already in a body, listed twice, or the list is empty.
std::size_t form_body(World& world, const std::vector<std::size_t>& particles);

/// Dissolves body `index`: members become free spheres with v_i = v + w x r_i, w_i = w (momentum
/// conserved); attached walls become kinematic with the body's last velocity. Later bodies shift down.
void dissolve_body(World& world, std::size_t index);

/// Re-resolves member indices by id (after ParticleStore::compact); throws InputError when a member is gone.
void resolve_members(World& world);

/// Marks pair contacts between members of the same body as not touching (overlap = 0): no self-contact.
void mask_self_contacts(World& world);

/// Advances X by dt v and q by the rotation with L = I(q) w held constant (RK4, 4 sub-steps), then
/// w = I(q_new)^-1 L. Returns the rotation dq = q_new q_old^-1 (for attached walls).
Quat integrate_pose(RigidBody& b, double dt);

/// Sets members' position, velocity, orientation and angular velocity from the body pose.
void drive_members(const RigidBody& b, ParticleStore& particles);

/// Before world.advance_walls(dt): sets the attached walls' velocity to v and angular velocity to the
/// rotation vector of dq / dt about rotation_center = X_old, so the wall's advance reproduces the body's
/// motion exactly. `x_old` is X before integrate_pose.
void prepare_wall_advance(const RigidBody& b, const Vec3& x_old, const Quat& dq, double dt, std::vector<Wall>& walls);

/// Wall index -> body index (-1 when the wall is kinematic), sized world.walls.size().
std::vector<std::int32_t> wall_bodies(const World& world);

/// Total linear momentum and angular momentum about `origin` of free particles and bodies (members
/// counted once, through their body), for conservation checks.
Vec3 total_linear_momentum(const World& world);
Vec3 total_angular_momentum(const World& world, const Vec3& origin);

}  // namespace grainlab
