// Study loading: every bad input is an error naming file, line and key, raised before any run.
#include <boost/test/unit_test.hpp>

#include <set>

#include "pipeline/study.hpp"
#include "pipeline/sweep.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab::pipeline;

namespace {
const std::string kHeader = "[study]\nname = \"t\"\nexperiment = \"toy_power\"\nmetrics = [\"y\", \"y_ref\"]\n";

std::string load_error(const std::string& body) {
  auto dir = toy::temp_dir("load");
  const auto file = toy::write(dir / "s.toml", body);
  try {
    load_study(file, dir.string());
  } catch (const StudyError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

BOOST_AUTO_TEST_SUITE(study_loading)

BOOST_AUTO_TEST_CASE(syntax_error_names_file_and_line) {
  const auto msg = load_error(kHeader + "[parameters]\nx = = 3\n");
  BOOST_TEST(msg.find("s.toml:6") != std::string::npos, msg);
  BOOST_TEST(msg.find("syntax error") != std::string::npos, msg);
}

BOOST_AUTO_TEST_CASE(unknown_key_names_line_and_key) {
  const auto msg = load_error(kHeader + "titel = \"typo\"\n");
  BOOST_TEST(msg.find("s.toml:5: study.titel: unknown key") != std::string::npos, msg);
  const auto top = load_error(kHeader + "[plots]\n");
  BOOST_TEST(top.find("s.toml:5: plots: unknown key") != std::string::npos, top);
}

BOOST_AUTO_TEST_CASE(unknown_parameter_wrong_type_out_of_range) {
  auto msg = load_error(kHeader + "[parameters]\nvelocity = 1.0\n");
  BOOST_TEST(msg.find("s.toml:6: parameters.velocity") != std::string::npos, msg);
  msg = load_error(kHeader + "[parameters]\nx = \"fast\"\n");
  BOOST_TEST(msg.find("s.toml:6: parameters.x: parameter 'x'") != std::string::npos, msg);
  BOOST_TEST(msg.find("type real") != std::string::npos, msg);
  msg = load_error(kHeader + "[sweep.grid]\nx = [1.0, 500.0]\n");
  BOOST_TEST(msg.find("s.toml:6: sweep.grid.x") != std::string::npos, msg);
  BOOST_TEST(msg.find("outside [0, 100]") != std::string::npos, msg);
}

BOOST_AUTO_TEST_CASE(sweep_over_unknown_parameter) {
  const auto msg = load_error(kHeader + "[sweep.grid]\nvelocity = [1.0, 2.0]\n");
  BOOST_TEST(msg.find("s.toml:6: sweep.grid.velocity: sweep over unknown parameter") != std::string::npos, msg);
}

BOOST_AUTO_TEST_CASE(plot_of_unknown_column) {
  const auto msg = load_error(kHeader + "[[plot]]\nname = \"p\"\nx = \"x\"\nseries = [{ y = \"z\" }]\n");
  BOOST_TEST(msg.find("plot 'p'.y") != std::string::npos, msg);
  BOOST_TEST(msg.find("unknown column 'z'") != std::string::npos, msg);
  BOOST_TEST(msg.find("s.toml:") != std::string::npos, msg);
}

BOOST_AUTO_TEST_CASE(check_kind_and_required_keys) {
  auto msg = load_error(kHeader + "[[check]]\nid = \"c\"\nkind = \"roughly\"\n");
  BOOST_TEST(msg.find("unknown kind 'roughly'") != std::string::npos, msg);
  msg = load_error(kHeader + "[[check]]\nid = \"c\"\nkind = \"monotone\"\nx = \"x\"\n");
  BOOST_TEST(msg.find("check[0].y: missing") != std::string::npos, msg);
}

BOOST_AUTO_TEST_CASE(unknown_experiment_is_not_an_error) {
  auto dir = toy::temp_dir("unknown_exp");
  const auto file = toy::write(dir / "s.toml", "[study]\nname = \"t\"\nexperiment = \"not_landed_yet\"\n[parameters]\nv = 1.0\n");
  const Study s = load_study(file, dir.string());
  BOOST_TEST(!s.experiment_available);
}

BOOST_AUTO_TEST_CASE(grid_zip_replicates_and_tiers) {
  auto dir = toy::temp_dir("sweep");
  const auto file = toy::write(dir / "s.toml", kHeader + R"(
[parameters]
a = 3.0
[sweep]
replicates = 2
seed_parameter = "seed"
[sweep.grid]
x = [1.0, 2.0, 3.0]
mode = ["u", "v"]
[sweep.zip]
a = [1.0, 2.0]
b = [0.5, 1.0]
[tiers.quick.parameters]
a = 7.0
[tiers.quick.sweep.grid]
x = [5.0]
)");
  const Study s = load_study(file, dir.string());
  const auto full = expand(s, "full");
  BOOST_TEST(full.size() == 3u * 2u * 2u * 2u);
  // grid in name order (mode, x; last fastest), then the zipped group, then replicates
  BOOST_TEST(std::get<std::string>(full[0].parameters.values.at("mode")) == "u");
  BOOST_TEST(full[0].parameters.real("x") == 1.0);
  BOOST_TEST(full[0].parameters.real("a") == 1.0);
  BOOST_TEST(full[0].parameters.real("b") == 0.5);
  BOOST_TEST(full[0].parameters.integer("seed") == 1);
  BOOST_TEST(full[1].parameters.integer("seed") == 2);
  BOOST_TEST(full[2].parameters.real("a") == 2.0);
  BOOST_TEST(full[2].parameters.real("b") == 1.0);
  BOOST_TEST(full[4].parameters.real("x") == 2.0);
  BOOST_TEST(std::get<std::string>(full[12].parameters.values.at("mode")) == "v");
  std::set<std::string> keys;
  for (const auto& r : full) keys.insert(r.key);
  BOOST_TEST(keys.size() == full.size());  // distinct parameters -> distinct keys
  const auto quick = expand(s, "quick");
  BOOST_TEST(quick.size() == 1u * 2u * 2u * 2u);
  BOOST_TEST(quick[0].parameters.real("x") == 5.0);
  BOOST_TEST(quick[0].parameters.real("a") == 1.0);  // the zipped a overrides the tier's base a
  BOOST_TEST(expand(s, "full")[3].key == full[3].key);  // keys are stable
  BOOST_CHECK_THROW(expand(s, "huge"), StudyError);
}

BOOST_AUTO_TEST_CASE(zip_lengths_must_match) {
  const auto msg = load_error(kHeader + "[sweep.zip]\na = [1.0, 2.0]\nb = [1.0]\n");
  BOOST_TEST(msg.find("equal lengths") != std::string::npos, msg);
}

BOOST_AUTO_TEST_SUITE_END()
