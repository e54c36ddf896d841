// Rigid bodies: inertia, validation, forming/dissolving aggregates, pose integration and member drive.
// Equations and conventions: core/bodies.hpp and docs/bodies.md. Serial throughout.
#include "core/bodies.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <Eigen/Eigenvalues>
#include <fmt/format.h>

#include "core/error.hpp"
#include "core/world.hpp"

namespace grainlab {

namespace {

Mat3 outer_projector(const Vec3& a) { return a * a.transpose(); }

// 1/2 (0, w) q as a 4-vector of coefficients (x, y, z, w order of Eigen).
Eigen::Vector4d quat_rate(const Quat& q, const Vec3& w) {
  return 0.5 * (Quat(0, w.x(), w.y(), w.z()) * q).coeffs();
}

Vec3 omega_from(const Quat& q, const Mat3& inv_body, const Vec3& L) {
  const Mat3 R = q.normalized().toRotationMatrix();
  return R * (inv_body * (R.transpose() * L));
}

[[noreturn]] void fail(std::size_t index, const char* param, const std::string& why) {
  throw InputError(fmt::format("rigid body {}: {} {}", index, param, why));
}

}  // namespace

Mat3 RigidBody::inertia_world() const {
  const Mat3 R = rotation();
  return R * inertia_body * R.transpose();
}

Mat3 RigidBody::inv_inertia_world() const {
  if (joint == BodyJoint::prismatic) return Mat3::Zero();
  const Mat3 R = rotation();
  return R * inv_inertia_body * R.transpose();
}

Mat3 RigidBody::inv_mass_matrix() const {
  if (joint == BodyJoint::prismatic) return outer_projector(axis) / mass;
  return Mat3::Identity() / mass;
}

double RigidBody::kinetic_energy() const {
  return 0.5 * mass * velocity.squaredNorm() + 0.5 * angular_velocity.dot(inertia_world() * angular_velocity);
}

void validate(const RigidBody& b, std::size_t index) {
  if (!(std::isfinite(b.mass) && b.mass > 0)) fail(index, "mass", fmt::format("= {} is invalid (must be > 0)", b.mass));
  if (!b.inertia_body.allFinite()) fail(index, "inertia", "is not finite");
  if ((b.inertia_body - b.inertia_body.transpose()).norm() > 1e-12 * b.inertia_body.norm())
    fail(index, "inertia", "is not symmetric");
  const Eigen::SelfAdjointEigenSolver<Mat3> eig(b.inertia_body);
  const Vec3 ev = eig.eigenvalues();
  if (!(ev.minCoeff() > 0)) fail(index, "inertia", fmt::format("is not positive definite (smallest principal moment {:.3g})", ev.minCoeff()));
  if (!b.position.allFinite() || !b.velocity.allFinite() || !b.angular_velocity.allFinite() ||
      !b.orientation.coeffs().allFinite() || b.orientation.norm() == 0)
    fail(index, "state", "(position, orientation, velocity, angular_velocity) is not finite");
  if (!b.external_force.allFinite() || !b.external_torque.allFinite()) fail(index, "external_force/torque", "is not finite");
  if (b.joint == BodyJoint::prismatic && !(b.axis.allFinite() && std::abs(b.axis.norm() - 1.0) < 1e-9))
    fail(index, "axis", "must be a unit vector for a prismatic joint");
  if (b.motor != BodyMotor::none && b.joint != BodyJoint::prismatic)
    fail(index, "motor", "needs joint = prismatic (the motor drives the prismatic axis)");
  if (b.motor == BodyMotor::velocity) {
    if (!(b.max_force >= 0)) fail(index, "max_force", fmt::format("= {} is invalid (must be >= 0, may be infinite)", b.max_force));
    if (!std::isfinite(b.target_speed)) fail(index, "target_speed", "is not finite");
  }
  if (b.motor == BodyMotor::force && !std::isfinite(b.motor_force)) fail(index, "motor_force", "is not finite");
}

std::size_t add_body(World& world, RigidBody body) {
  const std::size_t index = world.bodies.size();
  if (!body.members.empty()) fail(index, "members", "must be empty in add_body (use form_body for aggregates)");
  if (body.joint == BodyJoint::prismatic && body.axis.norm() > 0) body.axis.normalize();
  body.orientation.normalize();
  validate(body, index);
  body.inv_inertia_body = body.inertia_body.inverse();
  world.bodies.push_back(std::move(body));
  return index;
}

void attach_wall(World& world, std::size_t body, std::size_t wall) {
  if (body >= world.bodies.size()) throw InputError(fmt::format("attach_wall: body index {} does not exist", body));
  if (wall >= world.walls.size()) throw InputError(fmt::format("attach_wall: wall index {} does not exist", wall));
  for (const RigidBody& b : world.bodies)
    if (std::find(b.walls.begin(), b.walls.end(), std::uint32_t(wall)) != b.walls.end())
      throw InputError(fmt::format("attach_wall: wall '{}' is attached to a body already", world.walls[wall].name));
  RigidBody& b = world.bodies[body];
  Wall& w = world.walls[wall];
  w.rotation_center = b.position;
  w.velocity = b.velocity;
  w.angular_velocity = b.angular_velocity;
  b.walls.push_back(std::uint32_t(wall));
}

std::size_t form_body(World& world, const std::vector<std::size_t>& idx) {
  ParticleStore& P = world.particles;
  const std::size_t index = world.bodies.size();
  if (idx.empty()) fail(index, "particles", "list is empty");
  if (world.collision.any_periodic()) fail(index, "particles", "cannot form a body in a periodic domain (not supported)");
  std::vector<std::size_t> sorted = idx;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) fail(index, "particles", "lists a particle twice");
  for (std::size_t i : idx) {
    if (i >= P.size()) fail(index, "particles", fmt::format("index {} does not exist", i));
    if (P.body[i] >= 0) fail(index, "particles", fmt::format("id {} is already in body {} (a particle can be in one body only)", P.id[i], P.body[i]));
    if (P.inv_mass[i] == 0) fail(index, "particles", fmt::format("id {} is fixed", P.id[i]));
  }
  RigidBody b;
  Vec3 xm = Vec3::Zero(), p = Vec3::Zero();
  for (std::size_t i : idx) {
    b.mass += P.mass[i];
    xm += P.mass[i] * P.position[i];
    p += P.mass[i] * P.velocity[i];
  }
  b.position = xm / b.mass;
  b.velocity = p / b.mass;
  Mat3 I = Mat3::Zero();
  Vec3 L = Vec3::Zero();
  for (std::size_t i : idx) {
    const Vec3 r = P.position[i] - b.position;
    I += P.inertia[i] * Mat3::Identity() + P.mass[i] * (r.squaredNorm() * Mat3::Identity() - r * r.transpose());
    L += P.mass[i] * r.cross(P.velocity[i] - b.velocity) + P.inertia[i] * P.angular_velocity[i];
  }
  b.inertia_body = 0.5 * (I + I.transpose());
  validate(b, index);
  b.inv_inertia_body = b.inertia_body.inverse();
  b.angular_velocity = b.inv_inertia_body * L;  // orientation identity: body frame = world frame now
  for (std::size_t i : idx) {
    BodyMember m;
    m.id = P.id[i];
    m.index = std::int32_t(i);
    m.offset = P.position[i] - b.position;
    m.relative = P.orientation[i];
    b.members.push_back(m);
    P.body[i] = std::int32_t(index);
  }
  world.bodies.push_back(std::move(b));
  drive_members(world.bodies.back(), P);
  world.detector.invalidate();
  return index;
}

void dissolve_body(World& world, std::size_t index) {
  if (index >= world.bodies.size()) throw InputError(fmt::format("dissolve_body: body index {} does not exist", index));
  resolve_members(world);
  ParticleStore& P = world.particles;
  RigidBody& b = world.bodies[index];
  drive_members(b, P);  // v_i = v + w x r_i, w_i = w
  for (const BodyMember& m : b.members) P.body[std::size_t(m.index)] = -1;
  for (std::uint32_t w : b.walls) {
    world.walls[w].velocity = b.velocity;
    world.walls[w].angular_velocity = b.angular_velocity;
  }
  world.bodies.erase(world.bodies.begin() + std::ptrdiff_t(index));
  for (std::size_t i = 0; i < P.size(); ++i)
    if (P.body[i] > std::int32_t(index)) --P.body[i];
  world.detector.invalidate();
}

void resolve_members(World& world) {
  ParticleStore& P = world.particles;
  bool ok = true;
  for (const RigidBody& b : world.bodies)
    for (const BodyMember& m : b.members)
      if (m.index < 0 || std::size_t(m.index) >= P.size() || P.id[std::size_t(m.index)] != m.id) ok = false;
  if (ok) return;
  std::unordered_map<std::uint32_t, std::int32_t> where;
  for (std::size_t i = 0; i < P.size(); ++i) where[P.id[i]] = std::int32_t(i);
  for (std::size_t k = 0; k < world.bodies.size(); ++k)
    for (BodyMember& m : world.bodies[k].members) {
      const auto it = where.find(m.id);
      if (it == where.end()) fail(k, "members", fmt::format("particle id {} no longer exists (removed while in a body)", m.id));
      m.index = it->second;
    }
}

void mask_self_contacts(World& world) {
  const ParticleStore& P = world.particles;
  const std::size_t n = world.pair_contact_count();
  std::vector<Contact>& contacts = world.contacts();
  for (std::size_t k = 0; k < n; ++k) {
    Contact& c = contacts[k];
    const std::int32_t ba = P.body[std::size_t(c.a)];
    if (ba >= 0 && ba == P.body[std::size_t(c.b)]) c.overlap = std::min(c.overlap, 0.0);
  }
}

Quat integrate_pose(RigidBody& b, double dt) {
  const Quat q0 = b.orientation;
  b.position += dt * b.velocity;
  if (b.joint == BodyJoint::prismatic) {
    b.angular_velocity.setZero();
    return Quat::Identity();
  }
  const Vec3 L = b.inertia_world() * b.angular_velocity;
  if (L.squaredNorm() == 0) {
    b.angular_velocity.setZero();
    return Quat::Identity();
  }
  // Classical RK4 on q' = 1/2 (0, w(q)) q with w(q) = I(q)^-1 L, L constant within the step.
  const Mat3& Ib = b.inv_inertia_body;
  auto rate = [&](const Eigen::Vector4d& c) {
    Quat q(c);
    q.normalize();
    return quat_rate(q, omega_from(q, Ib, L));
  };
  const Eigen::Vector4d y = q0.coeffs();
  const Eigen::Vector4d k1 = rate(y);
  const Eigen::Vector4d k2 = rate(y + 0.5 * dt * k1);
  const Eigen::Vector4d k3 = rate(y + 0.5 * dt * k2);
  const Eigen::Vector4d k4 = rate(y + dt * k3);
  Quat q1(Eigen::Vector4d(y + dt / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)));
  q1.normalize();
  b.orientation = q1;
  b.angular_velocity = omega_from(q1, Ib, L);
  return q1 * q0.conjugate();
}

void drive_members(const RigidBody& b, ParticleStore& P) {
  const Mat3 R = b.rotation();
  for (const BodyMember& m : b.members) {
    const std::size_t i = std::size_t(m.index);
    const Vec3 r = R * m.offset;
    P.position[i] = b.position + r;
    P.velocity[i] = b.velocity + b.angular_velocity.cross(r);
    P.angular_velocity[i] = b.angular_velocity;
    P.orientation[i] = (b.orientation * m.relative).normalized();
  }
}

void prepare_wall_advance(const RigidBody& b, const Vec3& x_old, const Quat& dq, double dt, std::vector<Wall>& walls) {
  const Eigen::AngleAxisd aa(dq);
  const Vec3 rot = aa.angle() * aa.axis();
  for (std::uint32_t k : b.walls) {
    Wall& w = walls[k];
    w.rotation_center = x_old;
    w.velocity = (b.position - x_old) / dt;
    w.angular_velocity = rot / dt;
  }
}

std::vector<std::int32_t> wall_bodies(const World& world) {
  std::vector<std::int32_t> out(world.walls.size(), -1);
  for (std::size_t k = 0; k < world.bodies.size(); ++k)
    for (std::uint32_t w : world.bodies[k].walls) out[w] = std::int32_t(k);
  return out;
}

Vec3 total_linear_momentum(const World& world) {
  const ParticleStore& P = world.particles;
  Vec3 p = Vec3::Zero();
  for (std::size_t i = 0; i < P.size(); ++i)
    if (P.body[i] < 0) p += P.mass[i] * P.velocity[i];
  for (const RigidBody& b : world.bodies) p += b.mass * b.velocity;
  return p;
}

Vec3 total_angular_momentum(const World& world, const Vec3& o) {
  const ParticleStore& P = world.particles;
  Vec3 L = Vec3::Zero();
  for (std::size_t i = 0; i < P.size(); ++i)
    if (P.body[i] < 0) L += P.mass[i] * (P.position[i] - o).cross(P.velocity[i]) + P.inertia[i] * P.angular_velocity[i];
  for (const RigidBody& b : world.bodies) L += b.mass * (b.position - o).cross(b.velocity) + b.angular_momentum();
  return L;
}

}  // namespace grainlab
