// The study's [scene] section (pipeline/scene_section.hpp, experiments/scene_spec.hpp): a good scene becomes
// the experiment's `scene` parameter and part of the run key; bad input is an error naming file:line: key.
#include <boost/test/unit_test.hpp>

#include <regex>

#include "experiments/scene_spec.hpp"
#include "pipeline/sweep.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab;
using namespace grainlab::pipeline;

namespace {
const std::string head = R"([study]
name = "cell"
experiment = "ndem_triaxial"
[parameters]
box_side = 0.1
)";
// Lines 6-: two walls, the second stress-controlled with a shear-stage velocity motor.
const std::string two_walls = R"([[scene.body]]
name = "bottom"
mass = 100.0
axis = [0, 0, 1]
position = [0, 0, "-0.5*box_side"]
wall = { shape = "plane", normal = [0, 0, 1] }
[[scene.body]]
name = "top"
mass = 100
axis = [0, 0, -2]
position = [0, 0, "0.5*box_side"]
wall = { shape = "plane", normal = [0, 0, -1] }
area = 0.01
motor = { kind = "stress", stress = "confining_stress" }
stages.shear = { kind = "velocity", speed = "axial_speed", max_force = 50.0 }
outputs = ["position", "stress"]
)";

Study load(const std::string& name, const std::string& text) {
  const auto dir = toy::temp_dir("scene_" + name);
  return load_study(toy::write(dir / "studies" / (name + ".toml"), text), dir.string());
}

// The error message of loading `text`, which must fail.
std::string error_of(const std::string& name, const std::string& text) {
  try {
    load(name, text);
  } catch (const StudyError& e) {
    return e.what();
  }
  BOOST_FAIL("study " << name << " loaded, expected an error");
  return "";
}

void expect_error(const std::string& name, const std::string& text, const std::string& pattern) {
  const std::string msg = error_of(name, text);
  BOOST_TEST_MESSAGE(name << ": " << msg);
  BOOST_TEST(std::regex_search(msg, std::regex(pattern)), name << ": '" << msg << "' does not match '" << pattern << "'");
}
}  // namespace

BOOST_AUTO_TEST_SUITE(scene_section)

BOOST_AUTO_TEST_CASE(good_scene_becomes_the_scene_parameter) {
  const Study s = load("good", head + two_walls);
  const auto& text = std::get<std::string>(s.parameters.at("scene"));
  const SceneSpec spec = scene_from_text(text);
  BOOST_TEST(spec.bodies.size() == 2u);
  const SceneBody& top = spec.bodies[1];
  BOOST_TEST(top.name == "top");
  BOOST_TEST(top.axis[2] == -1.0);  // normalised
  BOOST_TEST(top.position[2].parameter == "box_side");
  BOOST_TEST(top.position[2].factor == 0.5);
  BOOST_TEST(spec.bodies[0].position[2].factor == -0.5);
  BOOST_TEST((top.motor.kind == SceneMotorKind::stress));
  BOOST_TEST((top.stages.at("shear").kind == SceneMotorKind::velocity));
  BOOST_TEST(top.stages.at("shear").max_force.value == 50.0);
  BOOST_TEST(spec.bodies[0].motor.max_force.value == 0.0);  // no motor
  // The canonical text reads back to the same scene, and writes to the same text.
  BOOST_TEST((scene_from_text(scene_to_text(spec)) == spec));
  BOOST_TEST(scene_to_text(spec) == text);
  BOOST_TEST(spec.parameter_references() == (std::vector<std::string>{"axial_speed", "box_side", "confining_stress"}));
}

BOOST_AUTO_TEST_CASE(scene_is_part_of_the_run_key) {
  const auto key = [](const Study& s) { return expand(s, "quick").at(0).key; };
  const std::string base = head + two_walls;
  std::string heavier = base;
  heavier.replace(heavier.find("mass = 100\n"), 11, "mass = 101\n");
  BOOST_TEST(key(load("k1", base)) == key(load("k1b", base)));
  BOOST_TEST(key(load("k1", base)) != key(load("k2", heavier)));
}

BOOST_AUTO_TEST_CASE(errors_name_file_line_and_key) {
  const std::string f = R"(\.toml:)";
  std::string typo = head + two_walls;
  typo.replace(typo.find("area = 0.01"), 11, "aera = 0.01");
  expect_error("typo", typo, f + R"(18: scene\.body\[1\]\.aera: unknown key)");
  std::string kind = head + two_walls;
  kind.replace(kind.find("kind = \"stress\""), 15, "kind = \"stres\"");
  expect_error("kind", kind, f + R"(19: scene\.body\[1\]\.motor\.kind: unknown motor kind 'stres')");
  std::string ref = head + two_walls;
  ref.replace(ref.find("\"0.5*box_side\""), 14, "\"0.5*box_sid\"");
  expect_error("ref", ref, f + R"(16: scene\.body\[1\]\.position\[2\]: refers to 'box_sid', which is not a parameter .*did you mean 'box_side')");
  std::string stage = head + two_walls;
  stage.replace(stage.find("stages.shear"), 12, "stages.sheer");
  expect_error("stage", stage, f + R"(\d+: scene: a body gives a motor for stage 'sheer'.*did you mean 'shear')");
  std::string area = head + two_walls;
  area.replace(area.find("area = 0.01"), 11, "area_between = [[\"top\", \"bottom\"], [\"top\", \"side\"]]");
  expect_error("area", area, f + R"(18: scene\.body\[1\]\.area_between: no movable body 'side')");
  std::string mass = head + two_walls;
  mass.replace(mass.find("mass = 100.0"), 12, "mass = -1.0");
  expect_error("mass", mass, f + R"(8: scene\.body\[0\]\.mass: must be > 0)");
  std::string axis = head + two_walls;
  axis.replace(axis.find("axis = [0, 0, 1]"), 16, "axis = [0, 0]");
  expect_error("axis", axis, f + R"(9: scene\.body\[0\]\.axis: must be an array of 3 numbers)");
  std::string no_area = head + two_walls;
  no_area.replace(no_area.find("area = 0.01\n"), 12, "");
  expect_error("no_area", no_area, f + R"(\d+: scene\.body\[1\]\.area: a stress motor or the stress output needs area)");
  expect_error("param", head + "scene = \"{}\"\n" + two_walls, f + R"(6: parameters\.scene: declare the scene in a \[scene\] section)");
  expect_error("toy", "[study]\nname = \"t\"\nexperiment = \"toy_power\"\n" + two_walls,
               f + R"(4: scene: experiment 'toy_power' takes no scene)");
  std::string dup = head + two_walls;
  dup.replace(dup.find("name = \"top\""), 12, "name = \"bottom\"");
  expect_error("dup", dup, f + R"(13: scene\.body\[1\]\.name: duplicate body name 'bottom')");
}

BOOST_AUTO_TEST_SUITE_END()
