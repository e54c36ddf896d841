// Run guard warnings in the pipeline (issue 27 item 6): a warning raised while a run executes goes to the
// log, into the run's provenance (not its results) and into the study report; --threads gives each run
// an arena of its own with that many threads.
#include <boost/test/unit_test.hpp>

#include <sstream>

#include <tbb/task_arena.h>

#include "core/run_warnings.hpp"
#include "pipeline/analysis.hpp"
#include "pipeline/report.hpp"
#include "pipeline/runner.hpp"
#include "tests/pipeline/report_test_helpers.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab;
using namespace grainlab::pipeline;

namespace {
// Warns when x > 1; reports the threads its arena allows.
RunResult warned_run(const Parameters& p, RunContext&) {
  if (p.real("x") > 1) current_run_warnings().warn("toy_guard", "x is above 1");
  RunResult r;
  r.metrics["y"] = p.real("x");
  r.metrics["concurrency"] = tbb::this_task_arena::max_concurrency();
  return r;
}
const ExperimentRegistration reg{Experiment{.name = "toy_warned",
                                            .description = "warns when x > 1 (pipeline tests)",
                                            .parameters = {{"x", ParamType::real, "-", 1.0, 0.0, 100.0, "abscissa"}},
                                            .run = warned_run}};
}  // namespace

BOOST_AUTO_TEST_SUITE(run_warnings)

BOOST_AUTO_TEST_CASE(warnings_reach_log_provenance_and_report) {
  auto dir = toy::temp_dir("warnings");
  const auto file = toy::write(dir / "studies" / "w.toml", R"([study]
name = "w"
experiment = "toy_warned"
metrics = ["y", "concurrency"]
[sweep.grid]
x = [1.0, 2.0]
)");
  const Study s = load_study(file, dir.string());
  std::ostringstream log;
  auto options = toy::options(2, false, false);
  options.threads = 3;
  RunOutcome o = run_study(s, "quick", dir / "results", options, log);
  BOOST_TEST_REQUIRE(o.runs.size() == 2u);
  for (const auto& r : o.runs) {
    const bool warned = std::get<double>(r.parameters.at("x")) > 1;
    BOOST_TEST(r.provenance.warnings.size() == (warned ? 1u : 0u));
    if (warned) BOOST_TEST(r.provenance.warnings[0] == "toy_guard: x is above 1");
    BOOST_TEST(r.provenance.threads == 3);
    BOOST_TEST(r.metrics.at("concurrency") == 3.0);  // the run's own arena
    BOOST_TEST(!r.metrics.count("warnings"));          // not a result
  }
  BOOST_TEST(log.str().find("warning: toy_guard: x is above 1") != std::string::npos);
  Analysis a = analyse(s, o, dir.string());
  std::ostringstream report_log;
  write_study_report(s, "quick", o, a, dir / "results", dir.string(), report_log);
  const std::string md = test::slurp(dir / "results" / "w" / "quick" / "report.md");
  BOOST_TEST(md.find("## Run warnings") != std::string::npos);
  BOOST_TEST(md.find("- toy_guard: x is above 1 (run `") != std::string::npos);
  BOOST_TEST(report_log.str().find("1 run warning") != std::string::npos);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
