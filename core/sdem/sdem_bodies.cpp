// SDEM rigid-body stage; see sdem_bodies.hpp.
#include "core/sdem/sdem_bodies.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace grainlab {

void sdem_integrate_bodies(World& world, double dt, const Vec3& g) {
  if (world.bodies.empty()) return;
  if (world.collision.any_periodic()) throw InputError("sdem: rigid bodies in a periodic domain are not supported (collision.periodic)");
  resolve_members(world);
  ParticleStore& P = world.particles;
  for (std::size_t k = 0; k < world.bodies.size(); ++k) {
    RigidBody& B = world.bodies[k];
    validate(B, k);
    const Vec3 x_old = B.position;
    // Contact wrench on the body (members, attached walls), about X.
    // Lever arms from the pose of the force evaluation (the stepper has already drifted the members).
    Vec3 F = Vec3::Zero(), T = Vec3::Zero();
    const Mat3 R = B.rotation();
    for (const BodyMember& m : B.members) {
      const std::size_t i = std::size_t(m.index);
      F += P.force[i];
      T += P.torque[i] + (R * m.offset).cross(P.force[i]);
    }
    for (std::uint32_t w : B.walls) {
      F += world.walls[w].force;
      T += world.walls[w].torque;
    }
    B.force = F;
    B.torque = T;
    F += B.external_force;
    if (B.gravity) F += B.mass * g;
    T += B.external_torque;
    const Mat3 inv_m = B.inv_mass_matrix();
    if (B.joint == BodyJoint::prismatic) B.velocity = B.axis.dot(B.velocity) * B.axis;
    if (B.motor == BodyMotor::force) {
      F += B.motor_force * B.axis;
    } else if (B.motor == BodyMotor::velocity) {
      const double free_speed = B.axis.dot(B.velocity + dt * (inv_m * F));
      const double needed = (B.target_speed - free_speed) / (dt * B.axis.dot(inv_m * B.axis));
      B.motor_force = std::clamp(needed, -B.max_force, B.max_force);
      F += B.motor_force * B.axis;
    }
    B.velocity += dt * (inv_m * F);
    if (B.joint == BodyJoint::prismatic) {
      B.angular_velocity.setZero();
    } else {
      const Vec3 L = B.inertia_world() * B.angular_velocity + dt * T;
      B.angular_velocity = B.inv_inertia_world() * L;
    }
    const Quat dq = integrate_pose(B, dt);
    drive_members(B, P);
    prepare_wall_advance(B, x_old, dq, dt, world.walls);
  }
}

}  // namespace grainlab
