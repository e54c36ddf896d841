// Result store under faults and many writers: shards partition the pending runs, a truncated or edited
// result is never reused, temporary folders of killed writers are cleaned, a run locked by another
// writer is waited for and reused, and an attempt whose writer died is reported as failed.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <fstream>
#include <future>
#include <set>
#include <sstream>
#include <thread>

#include "pipeline/analysis.hpp"
#include "pipeline/files.hpp"
#include "pipeline/run_lock.hpp"
#include "pipeline/runner.hpp"
#include "pipeline/store.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab::pipeline;
namespace fs = std::filesystem;

namespace {
Study eight_runs(const fs::path& dir) {
  const auto file = toy::write(dir / "studies" / "s.toml", R"([study]
name = "s"
experiment = "toy_power"
metrics = ["y"]
[sweep.grid]
x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]
)");
  return load_study(file, dir.string());
}
}  // namespace

BOOST_AUTO_TEST_SUITE(store_safety)

BOOST_AUTO_TEST_CASE(shard_parse) {
  const Shard s = Shard::parse("3/4");
  BOOST_TEST(s.index == 3);
  BOOST_TEST(s.count == 4);
  for (const char* bad : {"0/4", "5/4", "4", "a/b", "1/0", "-1/2", "1/2x", ""}) BOOST_CHECK_THROW(Shard::parse(bad), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(shards_partition_the_runs) {
  auto dir = toy::temp_dir("shards");
  const Study s = eight_runs(dir);
  std::ostringstream log;
  toy::executions = 0;
  std::set<std::string> keys;
  for (int k = 1; k <= 3; ++k) {
    RunOptions o = toy::options(1, false, false);
    o.shard = Shard::parse(std::to_string(k) + "/3");
    const Plan plan = plan_study(s, "quick", dir / "results", o);
    for (size_t i : plan.todo) BOOST_TEST(keys.insert(plan.specs[i].key).second);  // disjoint
    run_study(s, "quick", dir / "results", o, log);
  }
  BOOST_TEST(keys.size() == 8u);  // complete
  BOOST_TEST(toy::executions == 8);
  BOOST_TEST(collect_study(s, "quick", dir / "results").failed == 0);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(truncated_or_edited_results_are_recomputed) {
  auto dir = toy::temp_dir("corrupt");
  const Study s = eight_runs(dir);
  std::ostringstream log;
  const RunOutcome first = run_study(s, "quick", dir / "results", toy::options(1, false, false), log);
  ResultStore store(dir / "results" / "s" / "quick");
  const std::string truncated = first.specs[0].key, edited = first.specs[1].key, no_series = first.specs[2].key;
  const std::string text = read_file(store.dir(truncated) / "result.toml");
  write_file(store.dir(truncated) / "result.toml", text.substr(0, text.size() / 2));
  std::string e = read_file(store.dir(edited) / "result.toml");
  e.replace(e.find("y = "), 4, "y = 1");
  write_file(store.dir(edited) / "result.toml", e);
  fs::remove(store.dir(no_series) / "series_trace.csv");
  for (const auto& k : {truncated, edited, no_series}) BOOST_TEST(store.load(k)->status == "corrupt");
  BOOST_TEST(collect_study(s, "quick", dir / "results").failed == 3);

  toy::executions = 0;
  const RunOutcome second = run_study(s, "quick", dir / "results", toy::options(1, false, false), log);
  BOOST_TEST(toy::executions == 3);
  BOOST_TEST(second.failed == 0);
  int aside = 0;
  for (const auto& entry : fs::directory_iterator(store.root())) aside += entry.path().filename().string().rfind(".corrupt-", 0) == 0;
  BOOST_TEST(aside == 3);  // kept for the user, not deleted
  BOOST_TEST(log.str().find("not trusted") != std::string::npos);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(orphaned_temporaries_are_removed_unless_locked) {
  auto dir = toy::temp_dir("orphans");
  ResultStore store(dir / "results");
  const std::string dead = "0123456789abcdef", live = "fedcba9876543210";
  fs::create_directories(store.root() / (".tmp-" + dead + "-host-1"));
  fs::create_directories(store.root() / (".tmp-" + live + "-host-2"));
  auto lock = RunLock::try_acquire(store.lock_file(live));
  BOOST_REQUIRE(lock);
  BOOST_TEST(store.remove_orphans() == 1);
  BOOST_TEST(!fs::exists(store.root() / (".tmp-" + dead + "-host-1")));
  BOOST_TEST(fs::exists(store.root() / (".tmp-" + live + "-host-2")));
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(a_run_locked_elsewhere_is_waited_for_and_reused) {
  auto dir = toy::temp_dir("waits");
  const Study s = eight_runs(dir);
  const Plan plan = plan_study(s, "quick", dir / "results", {});
  ResultStore store(dir / "results" / "s" / "quick");
  const RunSpec& held = plan.specs[plan.todo[3]];
  auto lock = RunLock::try_acquire(store.lock_file(held.key));
  BOOST_REQUIRE(lock);
  lock->record_attempt(current_attempt());
  BOOST_TEST(int(probe_lock(store.lock_file(held.key)).state) == int(LockState::held));
  toy::executions = 0;
  std::ostringstream log;
  auto other = std::async(std::launch::async, [&] { return run_study(s, "quick", dir / "results", toy::options(2, false, false), log); });
  for (int i = 0; i < 1000 && toy::executions < 7; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  BOOST_TEST(toy::executions == 7);  // everything but the held run, which it waits for
  grainlab::RunContext ctx;
  const grainlab::RunResult r = toy::run(held.parameters, ctx);  // this "other writer" computes it
  store.save(held.key, held.parameters, &r, "", current_provenance("toy_power", 1), false);
  lock->clear_attempt();
  lock.reset();
  const RunOutcome o = other.get();
  BOOST_TEST(toy::executions == 8);  // 7 by run_study + 1 by the other writer: nothing twice
  BOOST_TEST(o.failed == 0);
  BOOST_TEST(log.str().find("stored by another writer") != std::string::npos, log.str());
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(an_attempt_whose_writer_died_is_a_failed_run_with_its_log) {
  auto dir = toy::temp_dir("died");
  const Study s = eight_runs(dir);
  const Plan plan = plan_study(s, "quick", dir / "results", {});
  ResultStore store(dir / "results" / "s" / "quick");
  {
    auto lock = RunLock::try_acquire(store.lock_file(plan.specs[0].key));
    Attempt a = current_attempt();
    a.log = "/scratch/task-17_3.out";
    lock->record_attempt(a);
  }  // released without clear_attempt(): as if killed
  const RunOutcome o = collect_study(s, "quick", dir / "results");
  BOOST_TEST(o.runs[0].status == "failed");
  BOOST_TEST(o.runs[0].message.find("interrupted") != std::string::npos);
  BOOST_TEST(o.runs[0].message.find("/scratch/task-17_3.out") != std::string::npos, o.runs[0].message);
  // Resubmitting runs it again.
  toy::executions = 0;
  std::ostringstream log;
  BOOST_TEST(run_study(s, "quick", dir / "results", toy::options(1, false, false), log).failed == 0);
  BOOST_TEST(toy::executions == 8);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(a_check_over_a_failed_or_missing_run_fails) {
  auto dir = toy::temp_dir("partial");
  const auto file = toy::write(dir / "studies" / "s.toml", R"([study]
name = "s"
experiment = "toy_power"
metrics = ["y"]
[sweep.grid]
x = [1.0, 2.0, 3.0]
explode = [false, true]
[[check]]
id = "positive"
kind = "bounds"
paper = "I"
source = "toy"
seed = "000"
lines = "1"
quantity = "y"
min = 0.0
[[check]]
id = "positive_where_all_ran"
kind = "bounds"
paper = "I"
source = "toy"
seed = "000"
lines = "1"
quantity = "y"
min = 0.0
where = { explode = false }
)");
  const Study s = load_study(file, dir.string());
  std::ostringstream log;
  const RunOutcome o = run_study(s, "quick", dir / "results", toy::options(1, false, false), log);
  const Analysis a = analyse(s, o, dir.string());
  BOOST_REQUIRE(a.verdicts.size() == 2u);
  BOOST_TEST(a.verdicts[0].verdict == "fail");  // three of its six runs failed
  BOOST_TEST(a.verdicts[0].detail.find("3 of the runs") != std::string::npos, a.verdicts[0].detail);
  BOOST_TEST(a.verdicts[1].verdict == "pass");  // its own runs all ran
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
