// The SDEM law table (core/sdem/law_table.hpp): the one dispatch reaches each normal variant, the
// declared history sizes match the contact record, and each variant's pair coefficients are its own
// formula (Hertz: 4/3 E*, Mindlin 8 G*; linear: k, 2/7 k). Mapping a law to the wrong case in
// with_normal_law, or declaring rolling history 1 instead of 3, turns these red.
#include <boost/test/unit_test.hpp>

#include <algorithm>

#include "core/contacts.hpp"
#include "core/sdem/law_table.hpp"

using namespace grainlab;

BOOST_AUTO_TEST_SUITE(sdem_law_table)

BOOST_AUTO_TEST_CASE(dispatch_reaches_each_variant) {
  for (SdemNormalLaw law : {SdemNormalLaw::hertz, SdemNormalLaw::viscoelastic, SdemNormalLaw::linear})
    BOOST_TEST(int(sdem::with_normal_law(law, [](auto tag) { return decltype(tag)::value; })) == int(law));
}

BOOST_AUTO_TEST_CASE(history_sizes_match_the_contact_record) {
  auto history = [](std::string_view part) {
    const auto& t = sdem::sdem_law_parts;
    return std::find_if(t.begin(), t.end(), [&](const auto& d) { return d.part == part; })->history_doubles;
  };
  BOOST_TEST(history("normal") == 0);
  BOOST_TEST(history("tangential") * sizeof(double) == sizeof(TangentialSpringHistory::elongation));
  BOOST_TEST(history("rolling") * sizeof(double) == sizeof(SpringHistory::rolling_spring));
  BOOST_TEST(history("twisting") * sizeof(double) == sizeof(SpringHistory::twisting_spring));
}

BOOST_AUTO_TEST_CASE(each_variant_sets_its_own_coefficients) {
  Material m;  // E = 5e6, nu = 0.25
  const double e_star = m.youngs_modulus / (2 * (1 - m.poisson_ratio * m.poisson_ratio));
  const double g_star = 1.0 / (2 * (2 - m.poisson_ratio) / (m.youngs_modulus / (2 * (1 + m.poisson_ratio))));
  SdemSettings s;
  const SdemPairCoefficients hertz = sdem_pair_coefficients(m, m, s);
  BOOST_TEST(hertz.kn_factor == 4.0 / 3.0 * e_star, boost::test_tools::tolerance(1e-14));
  BOOST_TEST(hertz.kt_factor == 8 * g_star, boost::test_tools::tolerance(1e-14));
  s.normal_law = SdemNormalLaw::linear;
  s.linear_stiffness = 7e3;
  const SdemPairCoefficients linear = sdem_pair_coefficients(m, m, s);
  BOOST_TEST(linear.kn_factor == 7e3);
  BOOST_TEST(linear.kt_factor == 2e3, boost::test_tools::tolerance(1e-14));
  s.normal_law = SdemNormalLaw::viscoelastic;
  m.poisson_ratio = 0;
  BOOST_CHECK_THROW(sdem_pair_coefficients(m, m, s), InputError);
}

BOOST_AUTO_TEST_SUITE_END()
