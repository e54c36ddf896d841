// Scene construction and its per-step services; see scene.hpp.
#include "experiments/scene.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "core/error.hpp"

namespace grainlab {

namespace {
Vec3 vec(const std::array<double, 3>& a) { return Vec3(a[0], a[1], a[2]); }
}  // namespace

Scene::Scene(World& world, const SceneSpec& spec, const Parameters& p) : params_(p), sample_every_(spec.sample_every) {
  series_.columns = {"time", "stage"};
  for (const SceneBody& sb : spec.bodies) {
    Built b;
    b.spec = sb;
    const Vec3 x(sb.position[0].resolve(p), sb.position[1].resolve(p), sb.position[2].resolve(p));
    if (!x.allFinite()) throw InputError(fmt::format("scene body '{}': position is not finite", sb.name));
    Wall w;
    w.name = sb.name;
    w.shape = PlaneShape{x, vec(sb.wall_normal)};
    b.wall = world.add_wall(w);
    if (sb.joint != SceneJoint::fixed) {
      RigidBody r;
      r.mass = sb.mass.resolve(p);
      if (!(r.mass > 0 && std::isfinite(r.mass)))
        throw InputError(fmt::format("scene body '{}': mass = {} kg is invalid (must be > 0)", sb.name, r.mass));
      // A prismatic body does not rotate (inverse inertia 0); core still wants an SPD tensor: a unit cube's.
      r.inertia_body = sb.joint == SceneJoint::free ? Mat3(vec(sb.inertia).asDiagonal()) : Mat3(Mat3::Identity() * r.mass / 6.0);
      r.position = x;
      r.gravity = sb.gravity;
      r.joint = sb.joint == SceneJoint::free ? BodyJoint::free : BodyJoint::prismatic;
      r.axis = vec(sb.axis);
      b.body = std::int32_t(add_body(world, r));
      attach_wall(world, std::size_t(b.body), b.wall);
    }
    if (sb.area) {
      b.area = sb.area->resolve(p);
      if (!(b.area > 0 && std::isfinite(b.area)))
        throw InputError(fmt::format("scene body '{}': area = {} m^2 is invalid (must be > 0)", sb.name, b.area));
    }
    built_.push_back(std::move(b));
    for (const std::string& o : sb.outputs) series_.columns.push_back(sb.name + "." + o);
  }
  for (Built& b : built_)
    for (std::size_t k = 0; k < b.spec.area_between.size(); ++k)
      for (std::size_t j = 0; j < 2; ++j) b.area_bodies[2 * k + j] = body_index(b.spec.area_between[k][j]);
  for (Built& b : built_)
    if (b.body >= 0) apply(world, b, b.spec.motor);
  before_step(world);
}

void Scene::apply(World& world, Built& b, const SceneMotor& m) {
  RigidBody& r = world.bodies[std::size_t(b.body)];
  b.active = m;
  r.motor_lambda = 0;  // a new motor row starts cold
  switch (m.kind) {
    case SceneMotorKind::none: r.motor = BodyMotor::none; break;
    case SceneMotorKind::velocity:
      r.motor = BodyMotor::velocity;
      r.target_speed = m.speed.resolve(params_);
      r.max_force = m.max_force.resolve(params_);
      break;
    case SceneMotorKind::force:
      r.motor = BodyMotor::force;
      r.motor_force = m.force.resolve(params_);
      break;
    case SceneMotorKind::stress:
      r.motor = BodyMotor::force;
      b.stress = m.stress.resolve(params_);
      break;
  }
  validate(r, std::size_t(b.body));
}

void Scene::enter_stage(World& world, const std::string& stage) {
  stage_ = stage;
  ++stage_number_;
  for (Built& b : built_)
    if (auto it = b.spec.stages.find(stage); it != b.spec.stages.end()) apply(world, b, it->second);
  before_step(world);
}

void Scene::before_step(World& world) const {
  for (const Built& b : built_)
    if (b.active.kind == SceneMotorKind::stress) world.bodies[std::size_t(b.body)].motor_force = b.stress * area(world, b.spec.name);
}

void Scene::record(const World& world) {
  if (calls_++ % sample_every_ != 0) return;
  std::vector<double> row = {world.time, double(stage_number_)};
  for (const Built& b : built_)
    for (const std::string& o : b.spec.outputs) {
      if (o == "contact_force") {
        // Force the particles exert on the wall along its normal, pushing it back (N, >= 0 when pressed).
        row.push_back(-world.walls[b.wall].force.dot(vec(b.spec.wall_normal)));
        continue;
      }
      const RigidBody& r = world.bodies[std::size_t(b.body)];
      if (o == "position") row.push_back(r.position.dot(r.axis));
      else if (o == "velocity") row.push_back(r.velocity.dot(r.axis));
      else if (o == "motor_force") row.push_back(motor_force(world, b.spec.name));
      else if (o == "stress") row.push_back(stress(world, b.spec.name));
    }
  series_.rows.push_back(std::move(row));
}

const Scene::Built& Scene::find(const std::string& name) const {
  for (const Built& b : built_)
    if (b.spec.name == name) return b;
  throw InputError(fmt::format("scene: no body '{}'", name));
}

std::size_t Scene::body_index(const std::string& name) const {
  const Built& b = find(name);
  if (b.body < 0) throw InputError(fmt::format("scene: '{}' is a fixed wall, not a body", name));
  return std::size_t(b.body);
}

std::size_t Scene::wall_index(const std::string& name) const { return find(name).wall; }

double Scene::area(const World& world, const std::string& name) const {
  const Built& b = find(name);
  if (b.area > 0) return b.area;
  if (b.spec.area_between.empty()) return std::numeric_limits<double>::quiet_NaN();
  auto span = [&](std::size_t i, std::size_t j) {
    return (world.bodies[b.area_bodies[i]].position - world.bodies[b.area_bodies[j]].position).norm();
  };
  return span(0, 1) * span(2, 3);
}

double Scene::position(const World& world, const std::string& name) const {
  const RigidBody& r = world.bodies[body_index(name)];
  return r.position.dot(r.axis);
}

double Scene::motor_force(const World& world, const std::string& name) const {
  const RigidBody& r = world.bodies[body_index(name)];
  return r.motor == BodyMotor::none ? 0.0 : r.motor_force;
}

double Scene::stress(const World& world, const std::string& name) const { return motor_force(world, name) / area(world, name); }

}  // namespace grainlab
