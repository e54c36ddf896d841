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
  BOOST_TEST(msg.find("s.toml:8: plot 'p'.series[0].y") != std::string::npos, msg);
  BOOST_TEST(msg.find("unknown column 'z'") != std::string::npos, msg);
  BOOST_TEST(msg.find("s.toml:") != std::string::npos, msg);
}

BOOST_AUTO_TEST_CASE(check_kind_and_required_keys) {
  auto msg = load_error(kHeader + "[[check]]\nid = \"c\"\nkind = \"roughly\"\n");
  BOOST_TEST(msg.find("unknown kind 'roughly'") != std::string::npos, msg);
  msg = load_error(kHeader + "[[check]]\nid = \"c\"\nkind = \"monotone\"\nx = \"x\"\n");
  BOOST_TEST(msg.find("check[0].y: missing") != std::string::npos, msg);
}

BOOST_AUTO_TEST_CASE(pending_experiment_is_not_an_error) {
  auto dir = toy::temp_dir("unknown_exp");
  const auto file = toy::write(dir / "s.toml", "[study]\nname = \"t\"\nexperiment = \"not_landed_yet\"\nexperiment_pending = true\n"
                                               "[parameters]\nv = 1.0\n");
  const Study s = load_study(file, dir.string());
  BOOST_TEST(!s.experiment_available);
}

BOOST_AUTO_TEST_CASE(misspelt_experiment_is_an_error_with_a_suggestion) {
  // The first cause, not a downstream "unknown column" of a plot.
  const auto msg = load_error("[study]\nname = \"t\"\nexperiment = \"toy_powr\"\n[[plot]]\nname = \"p\"\nx = \"x\"\nseries = [{ y = \"y\" }]\n");
  BOOST_TEST(msg.find("s.toml:3: study.experiment: unknown experiment 'toy_powr'; did you mean 'toy_power'?") != std::string::npos, msg);
}

BOOST_AUTO_TEST_CASE(nan_and_wrong_types_are_load_errors) {
  auto msg = load_error(kHeader + "[parameters]\nx = nan\n");
  BOOST_TEST(msg.find("s.toml:6: parameters.x: parameter 'x' of experiment 'toy_power' = nan must be a finite number") != std::string::npos, msg);
  msg = load_error(kHeader + "[sweep.grid]\na = [1.0, -inf]\n");
  BOOST_TEST(msg.find("s.toml:6: sweep.grid.a:") != std::string::npos, msg);
  msg = load_error(kHeader + "[[check]]\nid = \"c\"\nkind = \"columns_within\"\na = \"y\"\nb = \"y_ref\"\ntolerance = \"1e-3\"\n");
  BOOST_TEST(msg.find("s.toml:10: check[0].tolerance: must be a number >= 0, got the string \"1e-3\"") != std::string::npos, msg);
  msg = load_error(kHeader + "[[check]]\nid = \"c\"\nkind = \"monotone\"\nx = \"x\"\ny = \"y\"\ndirection = \"sideways\"\n");
  BOOST_TEST(msg.find("s.toml:10: check[0].direction: 'sideways' is not one of: increasing, decreasing") != std::string::npos, msg);
}

BOOST_AUTO_TEST_CASE(where_must_select_runs_in_every_tier) {
  auto msg = load_error(kHeader + "[sweep.grid]\nx = [1.0, 2.0]\n[tiers.quick.sweep.grid]\nx = [1.0]\n"
                        "[[derived]]\nname = \"d\"\nkind = \"value_at\"\ny = \"y\"\nwhere = { x = 2.0 }\n");
  BOOST_TEST(msg.find("s.toml:13: derived 'd'.where.x: no run of tier 'quick' has x = 2") != std::string::npos, msg);
  msg = load_error(kHeader + "[[derived]]\nname = \"d\"\nkind = \"mean\"\ny = \"y\"\nwhere = { z = 2.0 }\n");
  BOOST_TEST(msg.find("s.toml:9: derived 'd'.where.z: 'z' is not a parameter of this study") != std::string::npos, msg);
}

BOOST_AUTO_TEST_CASE(study_name_is_a_plain_identifier) {
  for (const std::string name : {"../../x", "/tmp/x", "", "a/b", ".hidden"}) {
    const auto msg = load_error("[study]\nname = \"" + name + "\"\nexperiment = \"toy_power\"\n");
    BOOST_TEST(msg.find("s.toml:2: study.name: '" + name + "' is not a plain identifier") != std::string::npos, msg);
  }
}

BOOST_AUTO_TEST_CASE(undeclared_tier_and_cli_tier) {
  auto msg = load_error(kHeader + "[tiers.qiuck.sweep.grid]\nx = [1.0]\n");
  BOOST_TEST(msg.find("s.toml:5: tiers.qiuck: unknown tier 'qiuck'") != std::string::npos, msg);
  BOOST_TEST(msg.find("did you mean 'quick'?") != std::string::npos, msg);
  auto dir = toy::temp_dir("tiers");
  const Study s = load_study(toy::write(dir / "s.toml", kHeader + "tiers = [\"paper\"]\n[tiers.paper.sweep.grid]\nx = [1.0, 2.0]\n"),
                             dir.string());
  BOOST_TEST(expand(s, "paper").size() == 2u);
  try {
    expand(s, "qiuck");
    BOOST_TEST(false);
  } catch (const StudyError& e) {
    BOOST_TEST(std::string(e.what()).find("tier 'qiuck': not a tier of study 't' (its tiers: quick, full, paper); did you mean 'quick'?") !=
                   std::string::npos, e.what());
  }
}

BOOST_AUTO_TEST_CASE(huge_sweep_is_counted_not_expanded) {
  std::string grid = "[sweep.grid]\n";
  for (const char* p : {"x", "a", "b"}) {
    grid += std::string(p) + " = [";
    for (int i = 0; i < 100; ++i) grid += (i ? ", " : "") + std::to_string(1 + i % 50) + ".5";
    grid += "]\n";
  }
  auto dir = toy::temp_dir("huge");
  Study s = load_study(toy::write(dir / "s.toml", kHeader + grid), dir.string());
  BOOST_TEST(sweep_size(s, "full") == 1000000u);
  try {
    expand(s, "full");
    BOOST_TEST(false);
  } catch (const StudyError& e) {
    BOOST_TEST(std::string(e.what()).find("tier 'full' has 1000000 runs, more than the limit of 100000") != std::string::npos, e.what());
  }
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
