// Result store and runner: atomic results, resume without recomputation, no silent overwrite, --force,
// failed runs recorded while the others go on.
#include <boost/test/unit_test.hpp>

#include <sstream>

#include "pipeline/runner.hpp"
#include "pipeline/store.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab::pipeline;
namespace fs = std::filesystem;

BOOST_AUTO_TEST_SUITE(store_and_run)

BOOST_AUTO_TEST_CASE(resume_reuse_force_and_failures) {
  auto dir = toy::temp_dir("store");
  const auto file = toy::write(dir / "studies" / "s.toml", R"([study]
name = "s"
experiment = "toy_power"
metrics = ["y"]
[sweep.grid]
x = [1.0, 2.0, 3.0, 4.0]
explode = [false, true]
)");
  const Study s = load_study(file, dir.string());
  std::ostringstream log;
  toy::executions = 0;
  RunOutcome first = run_study(s, "quick", dir / "results", toy::options(2, false, false), log);
  BOOST_TEST(toy::executions == 8);
  BOOST_TEST(first.failed == 4);  // every explode = true run failed, the others went on
  int ok = 0;
  for (const auto& r : first.runs) {
    if (r.status == "ok") {
      ++ok;
      BOOST_TEST(r.metrics.at("y") == 2.0 * std::pow(std::get<double>(r.parameters.at("x")), 1.5), boost::test_tools::tolerance(1e-12));
      BOOST_TEST(r.provenance.wall_s >= 0.0);
      BOOST_TEST(r.provenance.stage_seconds.at("solve") == 0.001);
      BOOST_TEST(!r.provenance.version.empty());
    } else {
      BOOST_TEST(r.message == "toy run exploded as asked");
    }
  }
  BOOST_TEST(ok == 4);

  // Resume: successful runs are reused, failed ones retried.
  toy::executions = 0;
  RunOutcome second = run_study(s, "quick", dir / "results", toy::options(2, false, false), log);
  BOOST_TEST(toy::executions == 4);
  BOOST_TEST(second.reused == 4);

  // An interrupted write leaves only a temporary directory, which is not a result.
  ResultStore store(dir / "results" / "s" / "quick");
  fs::create_directories(store.root() / ".tmp-deadbeef-1");
  BOOST_TEST(!store.has("deadbeef"));

  // No silent overwrite.
  const auto& spec = first.specs[0];
  BOOST_CHECK_THROW(store.save(spec.key, spec.parameters, nullptr, "x", current_provenance("toy_power", 1), false), std::runtime_error);

  // Dry run executes nothing; --force recomputes everything.
  toy::executions = 0;
  run_study(s, "quick", dir / "results", toy::options(1, false, true), log);
  BOOST_TEST(toy::executions == 0);
  run_study(s, "quick", dir / "results", toy::options(1, true, false), log);
  BOOST_TEST(toy::executions == 8);
  BOOST_TEST(store.series(spec.key, "trace").rows.size() == 11u);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(unknown_experiment_runs_nothing) {
  auto dir = toy::temp_dir("noexp");
  const auto file = toy::write(dir / "studies" / "s.toml", "[study]\nname = \"s\"\nexperiment = \"missing_exp\"\n");
  const Study s = load_study(file, dir.string());
  std::ostringstream log;
  RunOutcome o = run_study(s, "quick", dir / "results", RunOptions{}, log);
  BOOST_TEST(log.str().find("not run: experiment 'missing_exp' not available") != std::string::npos, log.str());
  BOOST_TEST(o.runs.size() == 1u);
  BOOST_TEST(o.runs[0].status == "missing");
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
