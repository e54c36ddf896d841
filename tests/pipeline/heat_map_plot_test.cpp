// Heat-map plots (series style = "image" with a z column, drawn from a stored run series): load-time rules.
#include <boost/test/unit_test.hpp>

#include "pipeline/study.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab::pipeline;

namespace {
const std::string kHeader = "[study]\nname = \"t\"\nexperiment = \"toy_power\"\nmetrics = [\"y\", \"y_ref\"]\n";

std::string load_error(const std::string& body) {
  auto dir = toy::temp_dir("heat_map");
  const auto file = toy::write(dir / "s.toml", body);
  try {
    load_study(file, dir.string());
  } catch (const StudyError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

BOOST_AUTO_TEST_SUITE(heat_map_plot)

BOOST_AUTO_TEST_CASE(image_of_a_run_series_loads) {
  const auto msg = load_error(kHeader + "[[plot]]\nname = \"p\"\nrun_series = \"fields\"\nx = \"a\"\n"
                                        "series = [{ y = \"b\", z = \"density\", style = \"image\" }]\n");
  BOOST_TEST(msg.empty(), msg);
}

BOOST_AUTO_TEST_CASE(image_needs_a_run_series_and_a_z_column) {
  auto msg = load_error(kHeader + "[[plot]]\nname = \"p\"\nx = \"x\"\nseries = [{ y = \"y\", z = \"y\", style = \"image\" }]\n");
  BOOST_TEST(msg.find("needs the plot's run_series") != std::string::npos, msg);
  msg = load_error(kHeader + "[[plot]]\nname = \"p\"\nrun_series = \"fields\"\nx = \"a\"\nseries = [{ y = \"b\", style = \"image\" }]\n");
  BOOST_TEST(msg.find("z is required with style = \"image\"") != std::string::npos, msg);
  msg = load_error(kHeader + "[[plot]]\nname = \"p\"\nrun_series = \"fields\"\nx = \"a\"\nseries = [{ y = \"b\", z = \"c\" }]\n");
  BOOST_TEST(msg.find("z is required with style = \"image\" and allowed only there") != std::string::npos, msg);
}

BOOST_AUTO_TEST_SUITE_END()
