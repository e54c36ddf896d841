// Quantities with units (pipeline/units.hpp) and their use in study files: converted to the parameter's
// declared unit, a wrong dimension is an error naming file, line and key, bare numbers stay SI.
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "pipeline/study.hpp"
#include "pipeline/units.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab;
using namespace grainlab::pipeline;
namespace tt = boost::test_tools;

namespace {
const std::string kImpact = "[study]\nname = \"u\"\nexperiment = \"sdem_impact\"\nmetrics = [\"peak_force\"]\n";

std::string load_error(const std::string& body, Study* out = nullptr) {
  auto dir = toy::temp_dir("units");
  const auto file = toy::write(dir / "s.toml", body);
  try {
    Study s = load_study(file, dir.string());
    if (out) *out = s;
  } catch (const StudyError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

BOOST_AUTO_TEST_SUITE(quantities)

BOOST_AUTO_TEST_CASE(conversions_of_the_issue) {
  BOOST_TEST(units::convert("5 mm", "m") == 0.005, tt::tolerance(1e-12));
  BOOST_TEST(units::convert("2.5 g/cm^3", "kg/m^3") == 2500.0, tt::tolerance(1e-12));
  BOOST_TEST(units::convert("6 MPa", "Pa") == 6e6, tt::tolerance(1e-12));
  BOOST_TEST(units::convert("20 deg", "rad") == 20 * M_PI / 180, tt::tolerance(1e-12));
  BOOST_TEST(units::convert("0.5 rad", "deg") == 0.5 * 180 / M_PI, tt::tolerance(1e-12));
  BOOST_TEST(units::convert("7", "-") == 7.0);
  BOOST_CHECK_THROW(units::convert("7", "m"), units::UnitError);  // a string without its unit is not a length
}

BOOST_AUTO_TEST_CASE(products_quotients_powers_prefixes) {
  BOOST_TEST(units::convert("9.81 m s^-2", "m/s^2") == 9.81, tt::tolerance(1e-12));
  BOOST_TEST(units::convert("1 N*m", "J") == 1.0, tt::tolerance(1e-12));
  BOOST_TEST(units::convert("1 kN/(mm^2)", "GPa") == 1.0, tt::tolerance(1e-12));
  BOOST_TEST(units::convert("3 mm/ms", "m/s") == 3.0, tt::tolerance(1e-12));
  BOOST_TEST(units::convert("1 kg/m/s", "Pa s") == 1.0, tt::tolerance(1e-12));
  BOOST_TEST(units::convert("2 \u00b5m", "m") == 2e-6, tt::tolerance(1e-12));
  BOOST_TEST(units::convert("1 h", "s") == 3600.0);
  BOOST_TEST(units::convert("1 min", "s") == 60.0);
  BOOST_TEST(units::convert("50 %", "-") == 0.5, tt::tolerance(1e-12));
  BOOST_TEST(units::convert("1 1/s", "Hz") == 1.0);
  BOOST_TEST(units::to_string(units::parse_unit("g/cm^3").dim) == "m^-3 kg");
}

BOOST_AUTO_TEST_CASE(dimension_mismatch_and_bad_symbols_throw) {
  BOOST_CHECK_THROW(units::convert("5 s", "m"), units::UnitError);
  BOOST_CHECK_THROW(units::convert("20 deg", "-"), units::UnitError);  // angles are not silently numbers
  BOOST_CHECK_THROW(units::convert("5 furlong", "m"), units::UnitError);
  BOOST_CHECK_THROW(units::convert("5 m^", "m"), units::UnitError);
  BOOST_CHECK_THROW(units::convert("5 m^99999", "m"), units::UnitError);
  BOOST_CHECK_THROW(units::convert("5 (m", "m"), units::UnitError);
  BOOST_CHECK_THROW(units::convert("nan m", "m"), units::UnitError);
  BOOST_CHECK_THROW(units::convert("mm", "m"), units::UnitError);
  BOOST_CHECK_THROW(units::parse_unit("kdeg"), units::UnitError);  // deg takes no prefix
  try {
    units::convert("5 s", "m");
  } catch (const units::UnitError& e) {
    BOOST_TEST(std::string(e.what()).find("'5 s' is a s quantity") != std::string::npos, e.what());
  }
}

BOOST_AUTO_TEST_CASE(every_declared_parameter_unit_parses_or_is_a_scale) {
  // Real parameters declare an SI unit the parser knows; the exceptions are stated scales (diameters) and the
  // Hertz coefficient N/m^1.5, whose half-integer power integer dimensions cannot hold (it takes a bare number).
  for (const auto& [name, e] : experiments())
    for (const auto& p : e.parameters)
      if (p.type == ParamType::real && p.unit.find('d') != 0 && p.unit != "N/m^1.5")
        BOOST_TEST(units::is_known_unit(p.unit), name << "." << p.name << " unit '" << p.unit << "'");
}

BOOST_AUTO_TEST_CASE(study_values_with_units) {
  Study s;
  const auto ok = load_error(kImpact + "[parameters]\nradius = \"5 mm\"\ndensity = \"2.5 g/cm^3\"\n"
                                       "youngs_modulus = \"6 MPa\"\nvelocity = 1.5\n[sweep.grid]\n"
                                       "restitution = [\"50 %\", 0.9]\n",
                             &s);
  BOOST_TEST(ok.empty(), ok);
  BOOST_TEST(std::get<double>(s.parameters.at("radius")) == 0.005, tt::tolerance(1e-12));
  BOOST_TEST(std::get<double>(s.parameters.at("density")) == 2500.0, tt::tolerance(1e-12));
  BOOST_TEST(std::get<double>(s.parameters.at("youngs_modulus")) == 6e6, tt::tolerance(1e-12));
  BOOST_TEST(std::get<double>(s.parameters.at("velocity")) == 1.5);  // bare numbers stay SI
  BOOST_TEST(std::get<double>(s.sweep.grid.at("restitution")[0]) == 0.5, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(wrong_dimension_names_file_line_key) {
  auto msg = load_error(kImpact + "[parameters]\nradius = \"5 s\"\n");
  BOOST_TEST(msg.find("s.toml:6: parameters.radius") != std::string::npos, msg);
  BOOST_TEST(msg.find("'5 s' is a s quantity") != std::string::npos, msg);
  msg = load_error(kImpact + "[sweep.grid]\nvelocity = [1.0,\n  \"3 kg\"]\n");
  BOOST_TEST(msg.find("s.toml:7: sweep.grid.velocity") != std::string::npos, msg);
  // Converted values are range-checked like bare ones: 50 m is outside the radius range.
  msg = load_error(kImpact + "[parameters]\nradius = \"50 m\"\n");
  BOOST_TEST(msg.find("s.toml:6: parameters.radius") != std::string::npos, msg);
  BOOST_TEST(msg.find("outside") != std::string::npos, msg);
}

BOOST_AUTO_TEST_CASE(check_unit_is_validated) {
  const std::string check = "[[check]]\nid = \"c\"\nkind = \"bounds\"\nquantity = \"peak_force\"\nmin = 0.0\n";
  BOOST_TEST(load_error(kImpact + check + "unit = \"N\"\n").empty());
  const auto msg = load_error(kImpact + check + "unit = \"Nwt\"\n");
  BOOST_TEST(msg.find("s.toml:5: check 'c'.unit") != std::string::npos, msg);  // the check's line
  BOOST_TEST(msg.find("unknown unit symbol 'Nwt'") != std::string::npos, msg);
}

BOOST_AUTO_TEST_SUITE_END()
