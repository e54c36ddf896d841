// Scenes built from TOML (experiments/scene.hpp): a stress-controlled lid on a pellet test bed settles with
// its load = stress x area, for a fixed area and for the area spanned by four held walls; stage motors switch.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "core/ndem/ndem_stepper.hpp"
#include "experiments/scene.hpp"

using namespace grainlab;

namespace {
constexpr double radius = 0.00635, g = 9.82;

Material pellet() {
  Material m;  // iron-ore pellet, Paper III / IV Table 1
  m.density = 3700;
  m.youngs_modulus = 6e6;
  m.poisson_ratio = 0.25;
  m.restitution = 0.18;
  m.friction = 0.91;
  m.rolling_friction = 0.32;
  return m;
}

SceneSpec spec_of(const std::string& toml_text) { return parse_scene(*toml::parse(toml_text)["scene"].as_table()); }

// Four side walls held in place (velocity motors at 0), 0.10 m apart in x and 0.08 m in y, around a 2 x 2
// column pair of pellets on a static floor; a lid pressing down with `stress` over `area`.
const std::string bed = R"(
[[scene.body]]
name = "floor"
joint = "fixed"
wall = { normal = [0, 0, 1] }
outputs = ["contact_force"]
[[scene.body]]
name = "x0"
mass = 1.0
axis = [1, 0, 0]
position = [-0.05, 0, 0]
wall = { normal = [1, 0, 0] }
motor = { kind = "velocity", speed = 0.0 }
[[scene.body]]
name = "x1"
mass = 1.0
axis = [-1, 0, 0]
position = [0.05, 0, 0]
wall = { normal = [-1, 0, 0] }
motor = { kind = "velocity", speed = 0.0 }
[[scene.body]]
name = "y0"
mass = 1.0
axis = [0, 1, 0]
position = [0, -0.04, 0]
wall = { normal = [0, 1, 0] }
motor = { kind = "velocity", speed = 0.0 }
[[scene.body]]
name = "y1"
mass = 1.0
axis = [0, -1, 0]
position = [0, 0.04, 0]
wall = { normal = [0, -1, 0] }
motor = { kind = "velocity", speed = 0.0 }
[[scene.body]]
name = "lid"
mass = 0.05
gravity = false
axis = [0, 0, -1]
position = [0, 0, 0.0254]
wall = { normal = [0, 0, -1] }
motor = { kind = "stress", stress = "sigma" }
stages.lift = { kind = "velocity", speed = -0.01 }
outputs = ["motor_force", "contact_force", "stress", "position"]
)";

void add_pellets(World& w, double* weight) {
  double m = 0;
  for (int i = 0; i < 4; ++i) {
    const double x = (i % 2 ? 1 : -1) * 1.01 * radius, y = (i / 2 ? 1 : -1) * 1.01 * radius;
    for (int k = 0; k < 2; ++k) m += w.particles.mass[w.add_sphere(Vec3(x, y, radius + 2 * radius * k), radius, 0)];
  }
  *weight = m * g;
}

// Settles the bed (300 NDEM steps of 5 ms, 300 iterations) calling the scene as an experiment does.
void settle(World& w, Scene& scene, int steps = 300) {
  NdemSettings s;
  s.iterations = 300;
  s.warm_start = NdemWarmStart::history;
  NdemStepper stepper(s);
  for (int n = 0; n < steps; ++n) {
    scene.before_step(w);
    stepper.step(w);
    scene.record(w);
  }
}
}  // namespace

BOOST_AUTO_TEST_SUITE(scenes)

// Area from the four held walls: 0.10 x 0.08 m = 0.008 m^2; sigma = 1000 Pa -> 8 N on the lid, which
// the pellets carry: lid contact force = sigma A, floor = sigma A + weight, to the PGS residual (1e-3).
BOOST_AUTO_TEST_CASE(stress_wall_reaches_sigma_times_spanned_area) {
  std::string text = bed;
  text.replace(text.find("motor = { kind = \"stress\""), 0, "area_between = [[\"x0\", \"x1\"], [\"y0\", \"y1\"]]\n");
  World w;
  w.gravity.g = Vec3(0, 0, -g);
  w.add_material(pellet());
  Parameters p;
  p.values["sigma"] = 1000.0;
  Scene scene(w, spec_of(text), p);
  double weight = 0;
  add_pellets(w, &weight);
  settle(w, scene);
  const double area = scene.area(w, "lid"), load = -w.walls[scene.wall_index("lid")].force.dot(Vec3(0, 0, -1));
  const double floor = w.walls[scene.wall_index("floor")].force.z() * -1.0;
  BOOST_TEST_MESSAGE("area " << area << " lid load " << load << " (sigma A " << 1000 * area << "), floor " << floor
                             << " (sigma A + W " << 1000 * area + weight << "), lid motor force " << scene.motor_force(w, "lid"));
  BOOST_TEST(std::abs(area - 0.008) < 1e-12);
  BOOST_TEST(std::abs(scene.motor_force(w, "lid") - 1000 * area) < 1e-12);
  BOOST_TEST(std::abs(scene.stress(w, "lid") - 1000) < 1e-9);
  BOOST_TEST(std::abs(load / (1000 * area) - 1) < 1e-3);
  BOOST_TEST(std::abs(floor / (1000 * area + weight) - 1) < 1e-3);
  BOOST_TEST(std::abs(w.bodies[scene.body_index("lid")].velocity.z()) < 1e-4);
  // The recorded series: time, stage, floor.contact_force, lid.{motor_force, contact_force, stress, position}.
  const TimeSeries& s = scene.series();
  BOOST_TEST(s.columns.size() == 7u);
  BOOST_TEST(s.rows.size() == 300u);
  BOOST_TEST(std::abs(s.rows.back()[5] - 1000) < 1e-9);
}

// A fixed area, and a stage that switches the lid to a velocity motor lifting it off the pellets.
BOOST_AUTO_TEST_CASE(fixed_area_and_stage_switch) {
  std::string text = bed;
  text.replace(text.find("motor = { kind = \"stress\""), 0, "area = 0.004\n");
  World w;
  w.gravity.g = Vec3(0, 0, -g);
  w.add_material(pellet());
  Parameters p;
  p.values["sigma"] = 500.0;
  Scene scene(w, spec_of(text), p);
  double weight = 0;
  add_pellets(w, &weight);
  settle(w, scene);
  const double load = -w.walls[scene.wall_index("lid")].force.dot(Vec3(0, 0, -1));
  BOOST_TEST(std::abs(load / 2.0 - 1) < 1e-3);  // 500 Pa x 0.004 m^2
  scene.enter_stage(w, "lift");
  settle(w, scene, 20);
  BOOST_TEST(std::abs(w.bodies[scene.body_index("lid")].velocity.z() - 0.01) < 1e-9);  // -0.01 along axis -z
  BOOST_TEST(w.walls[scene.wall_index("lid")].force.norm() == 0.0);  // off the pellets
}

BOOST_AUTO_TEST_SUITE_END()
