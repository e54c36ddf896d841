// The study's [[pair_override]] sections (pipeline/pair_override_section.hpp, experiments/pair_override_parameters.hpp):
// good overrides become the experiment's `pair_overrides` parameter and part of the run key, and reach
// World::pair_overrides by material name; bad input is an error naming file:line: key.
#include <boost/test/unit_test.hpp>

#include <regex>

#include "core/error.hpp"
#include "experiments/pair_override_parameters.hpp"
#include "pipeline/sweep.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab;
using namespace grainlab::pipeline;

namespace {
const std::string head = R"([study]
name = "drum"
experiment = "paper1_drum"
[parameters]
protocol = "kinematics"
)";
// Lines 6-13.
const std::string two = R"([[pair_override]]
materials = ["paper1", "drum"]
restitution = 0.3
friction = 0.9
[[pair_override]]
materials = ["paper1", "paper1"]
rolling_friction = 0.05
twisting_factor = 1
)";

Study load(const std::string& name, const std::string& text) {
  const auto dir = toy::temp_dir("pair_override_" + name);
  return load_study(toy::write(dir / "studies" / (name + ".toml"), text), dir.string());
}

void expect_error(const std::string& name, const std::string& text, const std::string& pattern) {
  std::string msg;
  try {
    load(name, text);
  } catch (const StudyError& e) {
    msg = e.what();
  }
  BOOST_TEST_MESSAGE(name << ": " << msg);
  BOOST_TEST(std::regex_search(msg, std::regex(pattern)), name << ": '" << msg << "' does not match '" << pattern << "'");
}
}  // namespace

BOOST_AUTO_TEST_SUITE(pair_override_section)

BOOST_AUTO_TEST_CASE(overrides_become_the_parameter_and_reach_the_world) {
  const Study s = load("good", head + two);
  const std::string& text = std::get<std::string>(s.parameters.at("pair_overrides"));
  BOOST_TEST(text == "paper1|drum:restitution=0.3,friction=0.9;paper1|paper1:rolling_friction=0.05,twisting_factor=1");
  BOOST_TEST(pair_overrides_to_text(pair_overrides_from_text(text)) == text);

  World w;
  Material grain, drum;
  grain.name = "paper1";
  drum.name = "drum";
  w.add_material(grain);
  w.add_material(drum);
  Parameters p;
  p.values["pair_overrides"] = text;
  apply_pair_overrides(w, p);
  const PairOverride* o = w.pair_overrides.find(1, 0);
  BOOST_REQUIRE(o);
  BOOST_TEST(*o->restitution == 0.3);
  BOOST_TEST(*o->friction == 0.9);
  BOOST_TEST(!o->rolling_friction);
  BOOST_TEST(*w.pair_overrides.find(0, 0)->twisting_factor == 1.0);
  BOOST_TEST(mix(grain, drum, o).friction == 0.9);  // above min(0.5, 0.5): what the override is for

  // A name the experiment's world does not have: the error lists the ones it has.
  p.values["pair_overrides"] = std::string("paper1|steel:friction=0.2");
  try {
    apply_pair_overrides(w, p);
    BOOST_FAIL("unknown material accepted");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("no material 'steel' (its materials: paper1, drum)") != std::string::npos, e.what());
  }
}

BOOST_AUTO_TEST_CASE(overrides_are_part_of_the_run_key) {
  const auto key = [](const Study& s) { return expand(s, "quick").at(0).key; };
  std::string other = head + two;
  other.replace(other.find("friction = 0.9"), 14, "friction = 0.8");
  BOOST_TEST(key(load("k1", head + two)) == key(load("k1b", head + two)));
  BOOST_TEST(key(load("k1", head + two)) != key(load("k2", other)));
  BOOST_TEST(key(load("k1", head + two)) != key(load("k3", head)));
}

BOOST_AUTO_TEST_CASE(errors_name_file_line_and_key) {
  const std::string f = R"(\.toml:)";
  std::string typo = head + two;
  typo.replace(typo.find("friction = 0.9"), 14, "frcition = 0.9");
  expect_error("typo", typo, f + R"(9: pair_override\[0\]\.frcition: unknown key; did you mean 'friction')");
  std::string range = head + two;
  range.replace(range.find("restitution = 0.3"), 17, "restitution = 1.5");
  expect_error("range", range, f + R"(8: pair_override\[0\]\.restitution: restitution = 1.5 is invalid \(must be in \[0, 1\]\))");
  std::string text = head + two;
  text.replace(text.find("friction = 0.9"), 14, "friction = \"high\"");
  expect_error("text", text, f + R"(9: pair_override\[0\]\.friction: must be a number)");
  std::string one = head + two;
  one.replace(one.find("[\"paper1\", \"drum\"]"), 18, "[\"paper1\"]");
  expect_error("one", one, f + R"(7: pair_override\[0\]\.materials: must be two material names)");
  const std::string empty = head + "[[pair_override]]\nmaterials = [\"paper1\", \"drum\"]\n";
  expect_error("empty", empty, f + R"(6: pair_override\[0\]\.materials: sets no value)");
  std::string twice = head + two;
  twice.replace(twice.find("[\"paper1\", \"paper1\"]"), 20, "[\"drum\", \"paper1\"]");
  expect_error("twice", twice, f + R"(10: pair_override\[1\]\.materials: the pair drum \| paper1 is overridden twice)");
  std::string no_param = head + two;
  no_param.replace(no_param.find("paper1_drum"), 11, "ndem_pile");
  no_param.replace(no_param.find("protocol = \"kinematics\"\n"), 24, "");
  expect_error("no_param", no_param, f + R"(5: pair_override: experiment 'ndem_pile' takes no pair overrides)");
  const std::string by_hand = head + "pair_overrides = \"paper1|drum:friction=0.2\"\n";
  expect_error("by_hand", by_hand, f + R"(6: parameters\.pair_overrides: set pair overrides with \[\[pair_override\]\])");
}

BOOST_AUTO_TEST_SUITE_END()
