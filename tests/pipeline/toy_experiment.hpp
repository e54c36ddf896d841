#pragma once
// A toy experiment for the pipeline tests: y = a * x^b (+ seed noise), a counter of executions, and a
// parameter that makes the run throw. Registered once (inline static) for every test file.
#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

#include "experiments/experiment.hpp"
#include "pipeline/runner.hpp"

namespace toy {
inline std::atomic<int> executions{0};

inline grainlab::RunResult run(const grainlab::Parameters& p, grainlab::RunContext&) {
  ++executions;
  if (p.boolean("explode")) throw std::runtime_error("toy run exploded as asked");
  const double x = p.real("x"), a = p.real("a"), b = p.real("b");
  grainlab::RunResult r;
  r.metrics["y"] = a * std::pow(x, b) * (1.0 + 1e-3 * double(p.integer("seed") - 1));
  r.metrics["y_ref"] = a * std::pow(x, b);
  grainlab::TimeSeries s;
  s.columns = {"t", "v"};
  for (int i = 0; i <= 10; ++i) s.rows.push_back({0.1 * i, x * 0.1 * i});  // v = x t: mean over [0,1] = x/2
  r.series["trace"] = s;
  r.metrics["time_solve"] = 0.001;
  return r;
}

inline const grainlab::ExperimentRegistration reg{grainlab::Experiment{
    .name = "toy_power",
    .description = "y = a x^b (pipeline tests)",
    .parameters = {{"x", grainlab::ParamType::real, "-", 1.0, 0.0, 100.0, "abscissa"},
                   {"a", grainlab::ParamType::real, "-", 2.0, {}, {}, "prefactor"},
                   {"b", grainlab::ParamType::real, "-", 1.5, {}, {}, "exponent"},
                   {"seed", grainlab::ParamType::integer, "-", std::int64_t{1}, 0.0, 1e9, "replicate seed"},
                   {"mode", grainlab::ParamType::text, "", std::string("plain"), {}, {}, "a text parameter"},
                   {"explode", grainlab::ParamType::boolean, "", false, {}, {}, "throw instead of running"}},
    .run = run}};

inline grainlab::pipeline::RunOptions options(int jobs, bool force, bool dry_run) {
  grainlab::pipeline::RunOptions o;
  o.jobs = jobs;
  o.force = force;
  o.dry_run = dry_run;
  return o;
}

/// A fresh directory under the system temp dir.
inline std::filesystem::path temp_dir(const std::string& name) {
  auto d = std::filesystem::temp_directory_path() / ("grainlab_test_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d / "studies");
  return d;
}

inline std::string write(const std::filesystem::path& file, const std::string& text) {
  std::ofstream(file) << text;
  return file.string();
}
}  // namespace toy
