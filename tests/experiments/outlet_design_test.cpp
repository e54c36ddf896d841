// Paper II outlet construction (experiments/outlet_design.hpp): three gaps 120 deg apart at eta = 15 deg,
// width beta at the interface, widening by 2 tan(alpha) (half-angle) or tan(alpha) (full angle); the ledger's
// computed widening over the 0.776 m bisector (5.4 mm at 0.2 deg, 16.3 mm at 0.6 deg, half-angle).
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "core/error.hpp"
#include "core/math.hpp"
#include "experiments/outlet_design.hpp"

using namespace grainlab;
namespace tt = boost::test_tools;

BOOST_AUTO_TEST_SUITE(outlet_design)

BOOST_AUTO_TEST_CASE(three_spiral_gaps_from_the_text) {
  OutletDesign d;  // point I: alpha = 0.2 deg, beta = 0.048 m
  const auto slots = outlet_slots(d, 0.375, 0.75);
  BOOST_REQUIRE_EQUAL(slots.size(), 3u);
  BOOST_TEST(slots[1].u_start - slots[0].u_start == 2 * pi * 0.375 / 3, tt::tolerance(1e-12));
  BOOST_TEST(slots[0].bisector == 15 * pi / 180, tt::tolerance(1e-12));
  BOOST_TEST(slots[0].z_start == -0.375);
  BOOST_TEST(slots[0].base_width == 0.048);
  const double run = 0.75 / std::cos(15 * pi / 180);  // 0.776 m (ledger)
  BOOST_TEST(run == 0.7765, tt::tolerance(1e-3));
  BOOST_TEST(gap_width(d, run) - 0.048 == 0.0054, tt::tolerance(0.01));
  d.gap_angle_deg = 0.6;
  BOOST_TEST(gap_width(d, run) - 0.048 == 0.0163, tt::tolerance(0.01));
  d.alpha_convention = "full_angle";
  BOOST_TEST(gap_width(d, run) - 0.048 == 0.00813, tt::tolerance(0.01));
}

BOOST_AUTO_TEST_CASE(bad_designs_are_input_errors) {
  OutletDesign d;
  d.gap_base_width = 0;
  BOOST_CHECK_THROW(outlet_slots(d, 0.375, 0.75), InputError);
  d = OutletDesign{};
  d.gap_base_width = 0.9;  // wider than the spacing between gaps
  BOOST_CHECK_THROW(outlet_slots(d, 0.375, 0.75), InputError);
  d = OutletDesign{};
  d.alpha_convention = "radians";
  BOOST_CHECK_THROW(outlet_slots(d, 0.375, 0.75), InputError);
}

BOOST_AUTO_TEST_SUITE_END()
