#pragma once
// Spreading a study's runs over a Slurm cluster: a job array whose task K of N runs
// `grainlab run --shard K/N` into the shared results folder, and a report job that starts after every
// task has ended (afterany: failed tasks too, whose runs the report lists as failed with their logs).
// The results store is the only meeting point (see store.hpp, run_lock.hpp); resubmitting runs only
// what is still missing. Submissions are recorded in <results>/slurm/jobs.csv for `grainlab status`.
#include <filesystem>
#include <string>
#include <vector>

namespace grainlab::pipeline {

struct SubmitOptions {
  std::vector<std::string> study_files;  ///< absolute paths
  std::string tier = "quick";
  int array = 1;     ///< tasks in the array
  int threads = 1;   ///< CPUs per task = each run's engine threads
  std::string partition, time_limit;
  std::vector<std::string> sbatch_args;  ///< extra #SBATCH lines, e.g. "--account=abc"
  std::filesystem::path results_root;    ///< absolute
  std::filesystem::path grainlab;        ///< absolute path of the program the tasks run
  std::filesystem::path workdir;         ///< the tasks' working directory
  std::filesystem::path job_dir;         ///< where scripts and logs go: <results>/slurm/<time>
};

std::string array_script(const SubmitOptions& o);
std::string report_script(const SubmitOptions& o);

struct Submitted {
  std::string array_job, report_job;
};

/// Writes the two scripts into o.job_dir, submits them with sbatch and records the job ids.
Submitted submit_to_slurm(const SubmitOptions& o);

struct JobRecord {
  std::string submitted_utc, array_job, report_job, tier, studies, job_dir;
};
std::vector<JobRecord> read_job_records(const std::filesystem::path& results_root);

/// `squeue` states of the given job ids ("id state reason" lines); empty when none is queued or
/// when squeue is not available.
std::vector<std::string> queue_states(const std::vector<std::string>& job_ids);

/// Runs a command through /bin/sh and returns its standard output; throws on a non-zero exit.
std::string run_command(const std::string& command);

/// Quotes a word for /bin/sh.
std::string shell_quote(const std::string& word);

}  // namespace grainlab::pipeline
