#pragma once
// Rigid bodies in the smooth DEM stepper (symplectic Euler): after the force stage has filled the member
// particles' force/torque and the wall loads, each body gets the wrench
//   F = sum f_i + sum F_wall + m g (if enabled) + F_ext (+ motor),   tau = sum (tau_i + (x_i - X) x f_i) + sum tau_wall + tau_ext
// (attached walls' torque is about rotation_center = X), then v += dt M^-1 F and L = I w + dt tau,
// x += dt v, q advanced with L constant (integrate_pose: Euler's equations for the full tensor, torque-free
// part integrated with RK4); members are driven from the new pose and attached walls prepared for advance.
// Prismatic joints project on the axis and lock rotation. Velocity motor: the axial force needed to
// reach the target speed this step, clamped to |F| <= F_max (the SDEM form of the NDEM motor row);
// force motor: a constant axial force.
// Threading: serial over bodies (members of one body summed in member order: deterministic).
#include "core/world.hpp"

namespace grainlab {

/// Call after the particles were integrated and before world.advance_walls(dt); `g` is the gravity of
/// the force evaluation. No-op without bodies.
void sdem_integrate_bodies(World& world, double dt, const Vec3& g);

}  // namespace grainlab
