// Where studies and results live (pipeline/locate.hpp, driver default_paths) and how many cores this
// process may use (available_cores, pipeline/runner.hpp).
#include <boost/test/unit_test.hpp>

#include <sched.h>

#include <filesystem>
#include <fstream>

#include "pipeline/runner.hpp"
#include "pipeline/driver.hpp"
#include "pipeline/locate.hpp"
#include "tests/pipeline/toy_experiment.hpp"

using namespace grainlab;
using namespace grainlab::pipeline;
namespace fs = std::filesystem;

namespace {
// Restores the working directory and the global overrides when a test ends.
struct Restore {
  fs::path cwd = fs::current_path();
  PathOverrides overrides = path_overrides();
  ~Restore() {
    fs::current_path(cwd);
    path_overrides() = overrides;
  }
};
}  // namespace

BOOST_AUTO_TEST_SUITE(locate)

BOOST_AUTO_TEST_CASE(walks_up_to_the_project_root) {
  const fs::path root = toy::temp_dir("locate_root");
  fs::create_directories(root / "studies");
  fs::create_directories(root / "validation");
  fs::create_directories(root / "a" / "b");
  BOOST_TEST(!find_project_root(root / "a" / "b").has_value());  // studies/ alone is not a root
  std::ofstream(root / "validation" / "claims.csv") << "id\n";
  BOOST_TEST(find_project_root(root / "a" / "b").value() == fs::weakly_canonical(root));
  BOOST_TEST(find_project_root(root).value() == fs::weakly_canonical(root));
  // A marker file makes a root without the rest.
  std::ofstream(root / "a" / ".grainlab-root");
  BOOST_TEST(find_project_root(root / "a" / "b").value() == fs::weakly_canonical(root / "a"));
}

BOOST_AUTO_TEST_CASE(default_paths_follow_the_working_directory_and_overrides) {
  Restore restore;
  const fs::path root = toy::temp_dir("locate_paths");
  fs::create_directories(root / "sub");
  std::ofstream(root / ".grainlab-root");
  fs::current_path(root / "sub");
  Paths p = default_paths();
  BOOST_TEST(p.source_root == fs::weakly_canonical(root));
  BOOST_TEST(p.studies_dir() == fs::weakly_canonical(root) / "studies");
  BOOST_TEST(p.results_root == fs::weakly_canonical(root) / "results");
  path_overrides() = {root / "my_studies", root / "my_results"};
  p = default_paths();
  BOOST_TEST(p.studies_dir() == root / "my_studies");
  BOOST_TEST(p.results_root == root / "my_results");
  BOOST_TEST(p.claims_csv() == fs::weakly_canonical(root) / "validation" / "claims.csv");
}

BOOST_AUTO_TEST_CASE(resolve_study_never_doubles_the_extension) {
  Paths p;
  p.source_root = toy::temp_dir("locate_resolve");
  fs::create_directories(p.studies_dir());
  toy::write(p.studies_dir() / "s.toml", "[study]\n");
  BOOST_TEST(resolve_study(p, "s") == (p.studies_dir() / "s.toml").string());
  BOOST_TEST(resolve_study(p, "s.toml") == (p.studies_dir() / "s.toml").string());
  try {
    resolve_study(p, "nosuch.toml");
    BOOST_FAIL("no error");
  } catch (const StudyError& e) {
    const std::string m = e.what();
    BOOST_TEST(m.find("toml.toml") == std::string::npos, m);
    BOOST_TEST(m.find("no study 'nosuch.toml'") != std::string::npos, m);
    BOOST_TEST(m.find("known: s") != std::string::npos, m);
  }
}

BOOST_AUTO_TEST_CASE(available_cores_is_the_affinity_mask) {
  cpu_set_t all;
  CPU_ZERO(&all);
  BOOST_REQUIRE(sched_getaffinity(0, sizeof all, &all) == 0);
  BOOST_TEST(available_cores() == CPU_COUNT(&all));
  // Restricted to one CPU (as under `taskset -c N`), this process may use one core.
  int first = 0;
  while (!CPU_ISSET(first, &all)) ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  BOOST_REQUIRE(sched_setaffinity(0, sizeof one, &one) == 0);
  const int restricted = available_cores();
  sched_setaffinity(0, sizeof all, &all);
  BOOST_TEST(restricted == 1);
}

BOOST_AUTO_TEST_SUITE_END()
