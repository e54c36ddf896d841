#pragma once
// A declared scene (experiments/scene_spec.hpp) built into a World: one plane wall per body, attached to a
// rigid body (prismatic or free; core/bodies.hpp) or static (joint = fixed), with the motors of the current
// stage and the measured outputs.
//
// Motors map onto core's: velocity -> BodyMotor::velocity (target speed, |F| <= max_force), force ->
// BodyMotor::force, stress -> BodyMotor::force with F = stress x A set by before_step() from the area at
// the start of the step (A fixed, or |X_a - X_b| |X_c - X_d| of two pairs of bodies: the current
// cross-section of a box whose faces are those bodies; Paper IV sigma_i = f_i / A_i, 000 l.1721). The
// force is held over the step, as a pressure on a face whose area changes by O(v dt / L) per step.
//
// Use: build_scene once; before every stepper.step(world), scene.before_step(world); enter_stage(world,
// name) when the experiment's stage logic starts a stage; sample(world) records the outputs (every
// sample_every steps through record()). Serial; it touches only the scene's bodies and walls.
#include <string>
#include <vector>

#include "core/world.hpp"
#include "experiments/experiment.hpp"
#include "experiments/scene_spec.hpp"

namespace grainlab {

class Scene {
 public:
  /// Adds the bodies and walls of `spec` to `world` with parameter references resolved from `p`.
  /// Throws InputError naming the body and key on a bad resolved value (mass <= 0, area <= 0, ...).
  Scene(World& world, const SceneSpec& spec, const Parameters& p);

  /// Applies the motors a stage declares (bodies without an entry for it keep their motor).
  void enter_stage(World& world, const std::string& stage);
  /// Stress motors: F = stress x current area. Call before every step.
  void before_step(World& world) const;
  /// Every sample_every steps (counted by calls): appends a row of outputs to series().
  void record(const World& world);

  std::size_t body_index(const std::string& name) const;  ///< index in world.bodies; InputError if none
  std::size_t wall_index(const std::string& name) const;  ///< index in world.walls
  /// Current area of a body (area or area_between), m^2; NaN when the body declares none.
  double area(const World& world, const std::string& name) const;
  /// Position along the axis X . a of a movable body, m.
  double position(const World& world, const std::string& name) const;
  /// The motor force along the axis (applied or exerted in the last step), N.
  double motor_force(const World& world, const std::string& name) const;
  /// motor_force / area, Pa.
  double stress(const World& world, const std::string& name) const;

  const std::string& stage() const { return stage_; }
  const TimeSeries& series() const { return series_; }

 private:
  struct Built {
    SceneBody spec;
    std::int32_t body = -1;  ///< -1 for a fixed wall
    std::size_t wall = 0;
    double area = 0;                 ///< resolved fixed area (0: from area_between or none)
    std::array<std::size_t, 4> area_bodies{};  ///< body indices of area_between
    SceneMotor active;               ///< motor of the current stage
    double stress = 0;               ///< resolved stress of an active stress motor
  };
  void apply(World& world, Built& b, const SceneMotor& m);
  const Built& find(const std::string& name) const;

  std::vector<Built> built_;
  Parameters params_;
  std::string stage_;
  int stage_number_ = 0;
  int sample_every_ = 1;
  long calls_ = 0;
  TimeSeries series_;
};

}  // namespace grainlab
