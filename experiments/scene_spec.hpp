#pragma once
// The `[scene]` section of a study: rigid walls/bodies, their motors per stage and their measured outputs,
// declared without C++ (docs/studies.md "[scene]", docs/bodies.md "Scenes from TOML").
//
// Flow: the pipeline parses the study's [scene] table with parse_scene (errors carry the TOML key and line
// for "file:line: key: message"), checks the parameter references and stage names against the experiment,
// and passes scene_to_text(spec) as the experiment's text parameter `scene`, so the scene is part of the run
// key (a changed body is a new run) and of the stored parameters. The experiment reads it back with
// scene_from_text and builds it with build_scene (experiments/scene.hpp).
//
// A number in the scene may be a literal or a reference to a real/integer parameter of the experiment,
// written "[-][factor*]name" (e.g. "-0.5*box_side"): sweeps and tiers then change the scene through the
// parameter. Pure functions; thread-safe.
#include <array>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "experiments/experiment.hpp"

namespace grainlab {

/// A scene error: the TOML key path (e.g. "scene.body[2].motor.kind"), its line in the parsed text (0 when
/// unknown) and what is wrong.
struct SceneError : std::runtime_error {
  SceneError(std::string key_, int line_, const std::string& message)
      : std::runtime_error(message), key(std::move(key_)), line(line_) {}
  std::string key;
  int line = 0;
};

/// A literal number, or factor * (value of parameter `parameter`).
struct SceneNumber {
  double value = 0;
  std::string parameter;  ///< empty: the literal `value`
  double factor = 1;
  double resolve(const Parameters& p) const;
  bool operator==(const SceneNumber&) const = default;
};

enum class SceneMotorKind { none, velocity, force, stress };

struct SceneMotor {
  SceneMotorKind kind = SceneMotorKind::none;
  SceneNumber speed;      ///< velocity: target axis . v, m/s
  SceneNumber max_force;  ///< velocity: force bound, N (default infinite)
  SceneNumber force;      ///< force: constant force along the axis, N
  SceneNumber stress;     ///< stress: force = stress x current area along the axis, Pa
  bool operator==(const SceneMotor&) const = default;
};

enum class SceneJoint { fixed, prismatic, free };

struct SceneBody {
  std::string name;
  SceneJoint joint = SceneJoint::prismatic;
  std::array<double, 3> axis{0, 0, 1};        ///< prismatic axis (unit after parsing); motors push along it
  SceneNumber mass;                           ///< kg (not for fixed)
  std::array<double, 3> inertia{0, 0, 0};     ///< principal moments, kg m^2 (free joint only; required there)
  std::array<SceneNumber, 3> position;        ///< centre of mass = a point of the wall
  bool gravity = true;
  std::string wall_shape = "plane";           ///< the attached wall: "plane" through `position`
  std::array<double, 3> wall_normal{0, 0, 1}; ///< unit; particles live on the side it points to
  std::optional<SceneNumber> area;            ///< fixed area for stress (m^2)
  std::vector<std::array<std::string, 2>> area_between;  ///< two pairs of bodies: area = |X_a - X_b| |X_c - X_d|
  SceneMotor motor;                           ///< from the start
  std::map<std::string, SceneMotor> stages;   ///< motor from the start of a named stage on
  std::vector<std::string> outputs;           ///< position, velocity, motor_force, contact_force, stress
  bool operator==(const SceneBody&) const = default;
};

struct SceneSpec {
  std::vector<SceneBody> bodies;
  int sample_every = 1;  ///< steps between output samples
  bool operator==(const SceneSpec&) const = default;
  /// Names of the parameters the scene refers to (sorted, unique).
  std::vector<std::string> parameter_references() const;
  /// Names of the stages the scene gives motors for (sorted, unique).
  std::vector<std::string> stage_names() const;
};

/// The outputs a body may declare.
const std::vector<std::string>& scene_outputs();

/// Parses a [scene] table. `prefix` is the key path of the table ("scene"). Throws SceneError.
SceneSpec parse_scene(const toml::table& scene, const std::string& prefix = "scene");
/// One-line canonical text (a TOML inline table) that scene_from_text reads back to an equal spec.
std::string scene_to_text(const SceneSpec& spec);
/// Reads scene_to_text's form; throws SceneError (without line numbers of the study file).
SceneSpec scene_from_text(const std::string& text);

}  // namespace grainlab
