// Experiment paper1_cylinder (Paper I E2) on a small container: the preparation gives exactly N_p spheres
// inside the container that settle into a bed of the expected height; the bed's weight is carried by
// the floor and the walls; the run is deterministic; bad input names the parameter.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <map>
#include <string>

#include "core/error.hpp"
#include "experiments/experiment.hpp"

using namespace grainlab;

namespace {

bool names(const InputError& e, const char* parameter) { return std::string(e.what()).find(parameter) != std::string::npos; }

RunResult run(std::map<std::string, ParamValue> given) {
  const Experiment& e = find_experiment("paper1_cylinder");
  RunContext ctx;
  return e.run(e.complete(given), ctx);
}

std::map<std::string, ParamValue> small() {
  return {{"diameter_ratio", 6.0}, {"count", std::int64_t(120)}, {"iterations", std::int64_t(100)},
          {"gravity_ramp_time", 1.0}, {"measure_time", 0.5}};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(paper1_cylinder)

BOOST_AUTO_TEST_CASE(small_bed_settles_and_carries_its_weight) {
  const RunResult r = run(small());
  const auto& m = r.metrics;
  BOOST_TEST(m.at("particles") == 120.0);
  BOOST_TEST(m.at("width_d") == 6.0);
  BOOST_TEST(m.at("stable") == 1.0);
  BOOST_TEST(m.at("eps_c") < 0.05);
  // 120 spheres of volume pi/6 d^3 in a 20-gon of apothem 3 d (area 28.5 d^2) at a packing fraction
  // 0.5-0.65: 3.4-4.4 d; the bed height counts the top layer's full spheres, so allow 3-5.5 d.
  BOOST_TEST(m.at("bed_height_d") > 3.0);
  BOOST_TEST(m.at("bed_height_d") < 5.5);
  BOOST_TEST(m.at("coordination") > 3.0);
  BOOST_TEST(m.at("coordination") < 12.0);
  // The floor carries at most the weight (the walls take the rest through friction), and most of it
  // in a bed this shallow (1.2 container diameters).
  BOOST_TEST(m.at("p_floor") <= 1.02 * m.at("p_hydrostatic"));
  BOOST_TEST(m.at("p_floor") > 0.5 * m.at("p_hydrostatic"));
  // Eq. 41 saturation level at w = 6, eps = 0.05: c0 w / eps = 36 (000 l.677).
  BOOST_TEST(m.at("eq41_nit_saturated") == 36.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(m.at("contact_iterations") > 0.0);
  BOOST_TEST(r.series.count("pressure_profile") == 1u);
  // Deterministic: the same inputs give the same numbers.
  const RunResult again = run(small());
  BOOST_TEST(again.metrics.at("eps_c") == m.at("eps_c"));
  BOOST_TEST(again.metrics.at("bed_height_d") == m.at("bed_height_d"));
}

BOOST_AUTO_TEST_CASE(bad_input_names_the_parameter) {
  auto p = small();
  p["lattice_jitter"] = 0.1;  // > (1.05 - 1)/2: spheres could overlap
  BOOST_CHECK_EXCEPTION(run(p), InputError, [](const InputError& e) { return names(e, "lattice_jitter"); });
  p = small();
  p["diameter_ratio"] = 1.5;  // apothem 0.75 d: no lattice site fits a sphere
  BOOST_CHECK_EXCEPTION(run(p), InputError, [](const InputError& e) { return names(e, "diameter_ratio"); });
}

BOOST_AUTO_TEST_SUITE_END()
