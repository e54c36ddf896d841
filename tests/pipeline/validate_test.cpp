// The helpers behind the load-time messages: edit distance, "did you mean", plain identifiers, and a
// parameter that explicitly allows infinity.
#include <boost/test/unit_test.hpp>

#include "pipeline/study.hpp"
#include "pipeline/validate.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab::pipeline;

BOOST_AUTO_TEST_SUITE(load_validation_helpers)

BOOST_AUTO_TEST_CASE(edit_distance_and_suggestions) {
  BOOST_TEST(edit_distance("", "abc") == 3u);
  BOOST_TEST(edit_distance("quick", "qiuck") == 2u);
  BOOST_TEST(edit_distance("sdem_impact", "sdem_impcat") == 2u);
  BOOST_TEST(edit_distance("kitten", "sitting") == 3u);
  BOOST_TEST(did_you_mean("qiuck", {"quick", "full"}) == "; did you mean 'quick'?");
  BOOST_TEST(did_you_mean("lattice_boltzmann", {"sdem_impact", "ndem_column"}) == "");  // nothing near: no guess
  BOOST_TEST(did_you_mean("full", {"full"}) == "");  // an exact name is not a suggestion
}

BOOST_AUTO_TEST_CASE(plain_identifiers) {
  for (const char* ok : {"a", "sdem_incline", "run-2.v3", "_x", "9lives"}) BOOST_TEST(plain_identifier(ok), ok);
  for (const char* bad : {"", ".", "..", "../x", "/abs", "a/b", "a\\b", ".hidden", "-flag", "a b", "a\nb"})
    BOOST_TEST(!plain_identifier(bad), bad);
  BOOST_TEST(plain_identifier(std::string(128, 'n')));
  BOOST_TEST(!plain_identifier(std::string(129, 'n')));
}

BOOST_AUTO_TEST_CASE(a_parameter_may_allow_infinity_but_not_a_where_value) {
  auto dir = toy::temp_dir("nonfinite");
  const std::string head = "[study]\nname = \"t\"\nexperiment = \"toy_power\"\n";
  const Study s = load_study(toy::write(dir / "s.toml", head + "[sweep.grid]\ncap = [1.0, inf]\n"), dir.string());
  BOOST_TEST(s.sweep.grid.at("cap").size() == 2u);
  try {
    load_study(toy::write(dir / "w.toml", head + "[[table]]\nname = \"t\"\ncolumns = [\"cap\"]\nwhere = { cap = inf }\n"), dir.string());
    BOOST_TEST(false);
  } catch (const StudyError& e) {
    BOOST_TEST(std::string(e.what()).find("w.toml:7: table[0].where.cap: must be a finite number") != std::string::npos, e.what());
  }
}

BOOST_AUTO_TEST_SUITE_END()
