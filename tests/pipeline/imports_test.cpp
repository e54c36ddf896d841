// Studies that analyse other studies' runs (`[study] imports`), grouped thresholds (min_reaching group_by),
// model columns and the Eq. (41) fit, end to end on studies/paper1_e4_fit.toml with stand-in E2/E3 studies
// (tests/pipeline/e4_standins/, toy experiments of tests/pipeline/toy_eq41.hpp: Eq. (41) data with the
// paper's c0 = 0.3, c1 = 2.0, c2 = 0.44); the perturbations that turn its checks red; load errors.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

#include <fmt/format.h>

#include "pipeline/analysis.hpp"
#include "pipeline/driver.hpp"
#include "pipeline/study.hpp"
#include "tests/pipeline/report_test_helpers.hpp"
#include "tests/pipeline/toy_eq41.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab::pipeline;
using grainlab::pipeline::test::slurp;
using grainlab::pipeline::test::verdict;
namespace fs = std::filesystem;

namespace {
const fs::path data = GRAINLAB_TEST_DATA_DIR;

/// The study text without its `known_disagreement` lines: those record what our own E2/E3 data give; on the
/// stand-ins (the paper's coefficients) the checks judge the fit itself.
std::string without_known_disagreements(const std::string& text) {
  std::istringstream in(text);
  std::string out, line;
  while (std::getline(in, line))
    if (line.rfind("known_disagreement = ", 0) != 0) out += line + "\n";
  return out;
}

/// A folder with the stand-in E2/E3 studies and studies/paper1_e4_fit.toml, its text edited by `edit`.
fs::path e4_folder(const std::string& name, const std::function<std::string(std::string)>& edit = {}) {
  const fs::path dir = toy::temp_dir(name);
  for (const char* f : {"paper1_e2_cylinder.toml", "paper1_e3_drum.toml"}) fs::copy_file(data / "pipeline/e4_standins" / f, dir / "studies" / f);
  std::string text = without_known_disagreements(slurp(data.parent_path() / "studies/paper1_e4_fit.toml"));
  toy::write(dir / "studies/paper1_e4_fit.toml", edit ? edit(text) : text);
  return dir;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  BOOST_REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

/// Runs the imported studies (as grainlab run does first) and analyses the importing one.
Analysis run_e4(const fs::path& dir, const std::string& tier = "quick") {
  const Study s = load_study((dir / "studies/paper1_e4_fit.toml").string(), dir.string());
  std::ostringstream log;
  for (const auto& imp : s.imported) run_study(imp, tier, dir / "results", toy::options(1, false, false), log);
  const RunOutcome o = run_study(s, tier, dir / "results", toy::options(1, false, false), log);
  return analyse(s, o, dir.string());
}

std::string load_error(const fs::path& dir, const std::string& file) {
  try {
    load_study((dir / "studies" / file).string(), dir.string());
  } catch (const StudyError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

BOOST_AUTO_TEST_SUITE(imports)

BOOST_AUTO_TEST_CASE(e4_fit_recovers_the_coefficients_of_its_standin_data) {
  const Analysis a = run_e4(e4_folder("e4_fit"));
  for (const char* c : {"c0", "c1", "c2"})
    BOOST_TEST_MESSAGE(c << " = " << a.scalars.at(std::string("eq41.") + c) << " +- " << a.scalars.at(std::string("eq41.") + c + "_se"));
  BOOST_TEST_MESSAGE("r2 = " << a.scalars.at("eq41.r2") << ", points " << a.scalars.at("eq41.points"));
  for (const char* id : {"c22_c0", "c23_c1", "c24_c2", "c26_shallow_limit"}) {
    BOOST_TEST_INFO(id << ": " << verdict(a, id).detail);
    BOOST_TEST(verdict(a, id).verdict == "pass");
  }
  // One point per geometry: 3 x 3 quick cold cylinders + 4 x 3 drums (their ladder value), less the two
  // 3d containers whose N_true (623 and 4669 for N_p = 1000 and 7500) lies beyond the grid's 500.
  BOOST_TEST(a.scalars.at("eq41.points") == 19.0);
  BOOST_TEST(a.scalars.at("eq41.skipped") == 2.0);
  // Every run carries its geometry's N_it^0.05: the smallest grid N_it >= N_true (eps_c = 0.05 N_true/N_it).
  int cylinders = 0;
  for (const auto& r : a.rows) {
    BOOST_REQUIRE(r.text.count("study"));
    if (r.text.at("study") == "paper1_e3_drum") {  // the ladder value, on the ladder runs only
      BOOST_TEST((r.num.at("nit_005") == r.num.at("n_it_required") || std::isnan(r.num.at("nit_005"))));
      BOOST_TEST(std::isnan(r.num.at("nit_005")) == (r.num.at("iterations") != 100));
      continue;
    }
    ++cylinders;
    BOOST_TEST(!r.num.count("omega"));  // a parameter of the other study only
    const double w = r.num.at("diameter_ratio"), l = r.num.at("bed_height_d");
    const double truth = grainlab::eq41_iterations(l, w, 0, 0.05, 0.3, 2.0, 0.44);
    if (truth > 500) {  // beyond the grid (the deep 3d containers): never reached, NaN, left out of the fit
      BOOST_TEST(std::isnan(r.num.at("nit_005")));
      continue;
    }
    BOOST_TEST(r.num.at("nit_005") >= truth * (1 - 1e-12));
    BOOST_TEST(r.num.at("nit_005") <= std::max(5.0, truth * 1.15 + 1));  // the grid starts at 5, steps by about 12 %
    // Model columns only on the kept (largest N_it) run of each geometry.
    BOOST_TEST((std::isnan(r.num.at("eq41_paper")) == (r.num.at("iterations") != 500 || r.text.at("warm_start") != "cold")));
  }
  BOOST_TEST(cylinders == 9 * 40 * 2);
}

BOOST_AUTO_TEST_CASE(e4_perturbations_turn_their_checks_red) {
  // The N_it^0.05 data fitted as N_it^0.1: c0 doubles.
  const Analysis eps = run_e4(e4_folder("e4_eps", [](std::string t) { return replaced(t, "y = \"nit_005\"\ntolerance = 0.05", "y = \"nit_005\"\ntolerance = 0.1"); }));
  BOOST_TEST_MESSAGE("tolerance 0.1: c0 = " << eps.scalars.at("eq41.c0"));
  BOOST_TEST(verdict(eps, "c22_c0").verdict == "fail");
  BOOST_TEST(eps.scalars.at("eq41.c0") == 2 * 0.3, boost::test_tools::tolerance(0.05));
  // The narrow branch c2 l switched at the wrong width (w < 10: the 6d and 9d containers on it).
  const Analysis narrow = run_e4(e4_folder("e4_narrow", [](std::string t) {
    return replaced(t, "y = \"nit_005\"\ntolerance = 0.05", "y = \"nit_005\"\ntolerance = 0.05\nnarrow_width = 10.0");
  }));
  BOOST_TEST_MESSAGE("narrow_width 10: c0 = " << narrow.scalars.at("eq41.c0") << ", c1 = " << narrow.scalars.at("eq41.c1")
                                             << ", c2 = " << narrow.scalars.at("eq41.c2"));
  BOOST_TEST(verdict(narrow, "c24_c2").verdict == "fail");
  BOOST_TEST(verdict(narrow, "c22_c0").verdict == "fail");
  BOOST_TEST(verdict(narrow, "c23_c1").verdict == "fail");
  // C26 in the opposite limit (l >> w): far from 1.
  const Analysis deep = run_e4(e4_folder("e4_deep", [](std::string t) {
    for (int i = 0; i < 2; ++i) t = replaced(t, "at = [1.0, 1000.0, 0.0]", "at = [1000.0, 1.0, 0.0]");
    return t;
  }));
  BOOST_TEST_MESSAGE("opposite limit: " << verdict(deep, "c26_shallow_limit").detail);
  BOOST_TEST(verdict(deep, "c26_shallow_limit").verdict == "fail");
}

BOOST_AUTO_TEST_CASE(without_rate_dependence_c1_is_undetermined_and_c23_fails) {
  // Drums at omega = 0 only: every I = 0 (P16), so c1 is NaN with an infinite standard error.
  const fs::path dir = e4_folder("e4_static");
  toy::write(dir / "studies/paper1_e3_drum.toml",
             replaced(slurp(dir / "studies/paper1_e3_drum.toml"), "omega = [0.0, 0.13, 0.34, 0.63]", "omega = [0.0]"));
  const Analysis a = run_e4(dir);
  BOOST_TEST(std::isnan(a.scalars.at("eq41.c1")));
  BOOST_TEST(std::isinf(a.scalars.at("eq41.c1_se")));
  BOOST_TEST(verdict(a, "c23_c1").verdict == "fail");
  BOOST_TEST(verdict(a, "c22_c0").verdict == "pass");
}

BOOST_AUTO_TEST_CASE(missing_imported_runs_are_not_run) {
  const fs::path dir = e4_folder("e4_missing");
  const Study s = load_study((dir / "studies/paper1_e4_fit.toml").string(), dir.string());
  const Analysis a = analyse(s, collect_study(s, "quick", dir / "results"), dir.string());
  BOOST_TEST(a.runs_missing == 9 * 40 * 2 + 12 * 6);
  BOOST_TEST(verdict(a, "c22_c0").verdict == "not run");
}

BOOST_AUTO_TEST_CASE(import_errors_name_file_line_and_key) {
  const fs::path dir = e4_folder("e4_errors");
  // An imported study that does not exist (the E2/E3 studies before the branches merge).
  fs::remove(dir / "studies/paper1_e3_drum.toml");
  std::string e = load_error(dir, "paper1_e4_fit.toml");
  BOOST_TEST_INFO(e);
  BOOST_TEST(e.find("paper1_e4_fit.toml:") != std::string::npos);
  BOOST_TEST(e.find("study.imports: no study 'paper1_e3_drum' to import") != std::string::npos);
  // A cycle.
  toy::write(dir / "studies/a.toml", "[study]\nname = \"a\"\nimports = [\"b\"]\n");
  toy::write(dir / "studies/b.toml", "[study]\nname = \"b\"\nimports = [\"a\"]\n");
  e = load_error(dir, "a.toml");
  BOOST_TEST_INFO(e);
  BOOST_TEST(e.find("b.toml:3: study.imports: import cycle: a -> b -> a") != std::string::npos);
  // A declared tier the import lacks.
  toy::write(dir / "studies/c.toml", "[study]\nname = \"c\"\ntiers = [\"paper\"]\nimports = [\"paper1_e2_cylinder\"]\n");
  e = load_error(dir, "c.toml");
  BOOST_TEST_INFO(e);
  BOOST_TEST(e.find("c.toml:4: study.imports: imported study 'paper1_e2_cylinder' has no tier 'paper'") != std::string::npos);
  // An import-only study has no sweep of its own.
  toy::write(dir / "studies/d.toml", "[study]\nname = \"d\"\nimports = [\"paper1_e2_cylinder\"]\n[sweep.grid]\ncount = [1]\n");
  e = load_error(dir, "d.toml");
  BOOST_TEST_INFO(e);
  BOOST_TEST(e.find("d.toml:4: sweep: needs study.experiment") != std::string::npos);
  // Filters and columns of an importing study: `study` values and the imported parameters.
  const std::string head = "[study]\nname = \"f\"\nimports = [\"paper1_e2_cylinder\"]\n";
  toy::write(dir / "studies/f.toml", head + "[[derived]]\nname = \"m\"\nkind = \"mean\"\ny = \"eps_c\"\nwhere = { study = \"nope\" }\n");
  e = load_error(dir, "f.toml");
  BOOST_TEST_INFO(e);
  BOOST_TEST(e.find("derived 'm'.where.study: no run of study 'paper1_e2_cylinder' has study = \"nope\"") != std::string::npos);
  toy::write(dir / "studies/g.toml", head + "[[derived]]\nname = \"n\"\nkind = \"min_reaching\"\nx = \"iterations\"\ny = \"eps_c\"\n"
                                            "threshold = 0.05\ngroup_by = [\"count\", \"omega\"]\n");
  e = load_error(dir, "g.toml");
  BOOST_TEST_INFO(e);
  BOOST_TEST(e.find("g.toml:10: derived 'n'.group_by: unknown column 'omega'") != std::string::npos);
  toy::write(dir / "studies/h.toml", head + "[[derived]]\nname = \"fit\"\nkind = \"fit\"\nmodel = \"eq41\"\n"
                                            "x = [\"bed_height_d\", \"width_d\"]\ny = \"eps_c\"\ntolerance = 0.05\n");
  e = load_error(dir, "h.toml");
  BOOST_TEST_INFO(e);
  BOOST_TEST(e.find("h.toml:8: derived 'fit'.x: model 'eq41' takes 3 x columns (l, w, I), got 2") != std::string::npos);
  toy::write(dir / "studies/i.toml", head + "[[derived]]\nname = \"fit\"\nkind = \"fit\"\nmodel = \"eq41\"\n"
                                            "x = [\"bed_height_d\", \"width_d\", \"inertial_number\"]\ny = \"eps_c\"\n");
  e = load_error(dir, "i.toml");
  BOOST_TEST_INFO(e);
  BOOST_TEST(e.find("derived 'fit'.tolerance: missing (required for model 'eq41'") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(run_runs_the_imports_first_and_force_recomputes_only_the_named) {
  const fs::path dir = e4_folder("e4_driver");
  Paths paths;
  paths.source_root = dir;
  paths.results_root = dir / "results";
  paths.studies_override = dir / "studies";
  std::ostringstream out, log;
  BOOST_TEST(run_studies({"paper1_e4_fit"}, "quick", toy::options(2, false, false), paths, out, log) == 0);
  BOOST_TEST_INFO(out.str());
  // The imports ran and were reported, then the fit.
  for (const char* s : {"paper1_e2_cylinder", "paper1_e3_drum", "paper1_e4_fit"})
    BOOST_TEST(fs::exists(dir / "results" / s / "quick" / "report.md"));
  BOOST_TEST(slurp(dir / "results/paper1_e4_fit/quick/report.md").find("imports (their runs of this tier): `paper1_e2_cylinder`, `paper1_e3_drum`") !=
             std::string::npos);
  // The coefficient table (scalars only) is one row.
  const std::string coefficients = slurp(dir / "results/paper1_e4_fit/quick/eq41_coefficients.csv");
  BOOST_TEST(std::count(coefficients.begin(), coefficients.end(), '\n') == 2);
  // --force on the importing study does not recompute its imports' runs.
  fs::path one;
  for (const auto& e : fs::directory_iterator(dir / "results/paper1_e3_drum/quick"))
    if (fs::exists(e.path() / "result.toml")) one = e.path() / "result.toml";
  const auto before = fs::last_write_time(one);
  BOOST_TEST(run_studies({"paper1_e4_fit"}, "quick", toy::options(2, true, false), paths, out, log) == 0);
  BOOST_TEST((fs::last_write_time(one) == before));
  // Reports from the store only.
  std::ostringstream rout, rlog;
  BOOST_TEST(report_all({"paper1_e4_fit"}, "quick", paths, rout, rlog) == 0);
  BOOST_TEST(slurp(dir / "results/paper1_e4_fit/quick/verdicts.csv").find("c22_c0") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_study_with_runs_of_its_own_adds_its_imports_rows_once) {
  // own (x = 1, 2) imports a (x = 3) and b; b imports a again: a's run is in the table once.
  const fs::path dir = toy::temp_dir("imports_own");
  const std::string toy_head = "experiment = \"toy_power\"\nmetrics = [\"y\"]\n";
  toy::write(dir / "studies/a.toml", "[study]\nname = \"a\"\n" + toy_head + "[sweep.grid]\nx = [3.0]\n");
  toy::write(dir / "studies/b.toml", "[study]\nname = \"b\"\nimports = [\"a\"]\n");
  toy::write(dir / "studies/own.toml", "[study]\nname = \"own\"\nimports = [\"a\", \"b\"]\n" + toy_head +
                                            "[sweep.grid]\nx = [1.0, 2.0]\n"
                                            "[[derived]]\nname = \"from_a\"\nkind = \"value_at\"\ny = \"y\"\nwhere = { study = \"a\" }\n"
                                            "[[derived]]\nname = \"all\"\nkind = \"mean\"\ny = \"x\"\n");
  const Study s = load_study((dir / "studies/own.toml").string(), dir.string());
  BOOST_TEST(run_sources(s).size() == 2u);
  std::ostringstream log;
  run_study(s.imported[0], "quick", dir / "results", toy::options(1, false, false), log);
  const RunOutcome o = run_study(s, "quick", dir / "results", toy::options(1, false, false), log);
  BOOST_TEST((o.studies == std::vector<std::string>{"own", "own", "a"}));
  const Analysis a = analyse(s, o, dir.string());
  BOOST_TEST(a.scalars.at("from_a") == 2.0 * std::pow(3.0, 1.5), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(a.scalars.at("all") == 2.0);  // (1 + 2 + 3)/3
}

BOOST_AUTO_TEST_CASE(too_few_geometries_fail_the_fit_with_a_reason) {
  // One cylinder and one drum geometry (one N_p and Phi, one N_p and omega): 2 points for 3 coefficients.
  const fs::path dir = e4_folder("e4_few");
  toy::write(dir / "studies/paper1_e2_cylinder.toml",
             replaced(replaced(slurp(dir / "studies/paper1_e2_cylinder.toml"), "diameter_ratio = [3.0, 6.0, 15.0]", "diameter_ratio = [6.0]"),
                      "count = [100, 1000, 7500]", "count = [1000]"));
  toy::write(dir / "studies/paper1_e3_drum.toml",
             replaced(replaced(slurp(dir / "studies/paper1_e3_drum.toml"), "omega = [0.0, 0.13, 0.34, 0.63]", "omega = [0.63]"),
                      "count = [1000, 3000, 7500]", "count = [1000]"));
  const Analysis a = run_e4(dir);
  BOOST_TEST(verdict(a, "derived:eq41").detail.find("2 fit points (0 left out: no finite x and y) cannot determine 3") !=
             std::string::npos);
  BOOST_TEST(std::isnan(a.scalars.at("eq41.c0")));
  BOOST_TEST(verdict(a, "c22_c0").verdict == "fail");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_CASE(imported_scalars_are_prefixed_and_judged_together) {
  // a and b each derive one scalar from their own runs; sum imports both and judges them as a set
  // (scalars_within, a range claim over several systems) and combines them (harmonic scalar_mean).
  const fs::path dir = toy::temp_dir("imports_scalars");
  const std::string toy_head = "experiment = \"toy_power\"\nmetrics = [\"y\"]\n";
  const std::string value = "[[derived]]\nname = \"v\"\nkind = \"value_at\"\ny = \"y\"\n";
  toy::write(dir / "studies/a.toml", "[study]\nname = \"a\"\n" + toy_head + "[sweep.grid]\nx = [1.0]\n" + value);
  toy::write(dir / "studies/b.toml", "[study]\nname = \"b\"\n" + toy_head + "[sweep.grid]\nx = [4.0]\n" + value);
  const auto summary = [&](double lo, double hi) {
    return fmt::format(
        "[study]\nname = \"sum\"\nimports = [\"a\", \"b\"]\n"
        "[[derived]]\nname = \"h\"\nkind = \"scalar_mean\"\nof = [\"a.v\", \"b.v\", 1.0]\nmean = \"harmonic\"\n"
        "[[check]]\nid = \"both\"\nkind = \"scalars_within\"\nof = [\"a.v\", \"b.v\"]\nmin = {}\nmax = {}\n", lo, hi);
  };
  toy::write(dir / "studies/sum.toml", summary(1.5, 20.0));
  Study s = load_study((dir / "studies/sum.toml").string(), dir.string());
  BOOST_TEST((s.scalar_names() == std::vector<std::string>{"a.v", "b.v", "h", "h.above_one"}));
  std::ostringstream log;
  for (const auto& imp : s.imported) run_study(imp, "quick", dir / "results", toy::options(1, false, false), log);
  Analysis an = analyse(s, run_study(s, "quick", dir / "results", toy::options(1, false, false), log), dir.string());
  const double va = 2.0, vb = 2.0 * std::pow(4.0, 1.5);  // toy_power: y = 2 x^1.5
  BOOST_TEST(an.scalars.at("a.v") == va, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(an.scalars.at("b.v") == vb, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(an.scalars.at("h") == 3.0 / (1 / va + 1 / vb + 1), boost::test_tools::tolerance(1e-12));  // 1.0: a constant term
  BOOST_TEST(verdict(an, "both").verdict == "pass");
  // The same set with a band that excludes a's value: red, naming the scalar outside.
  toy::write(dir / "studies/sum.toml", summary(3.0, 20.0));
  s = load_study((dir / "studies/sum.toml").string(), dir.string());
  an = analyse(s, run_study(s, "quick", dir / "results", toy::options(1, false, false), log), dir.string());
  BOOST_TEST(verdict(an, "both").verdict == "fail");
  BOOST_TEST(verdict(an, "both").detail.find("outside: a.v") != std::string::npos);
  // A name the imports do not define is a load error at its line.
  toy::write(dir / "studies/sum.toml", replaced(summary(1.5, 20.0), "of = [\"a.v\", \"b.v\"]\nmin", "of = [\"a.w\", \"b.v\"]\nmin"));
  try {
    load_study((dir / "studies/sum.toml").string(), dir.string());
    BOOST_FAIL("expected a StudyError");
  } catch (const StudyError& e) {
    BOOST_TEST(std::string(e.what()).find("sum.toml:12: check 'both'.of: 'a.w' is not a derived quantity") != std::string::npos,
               e.what());
  }
}
