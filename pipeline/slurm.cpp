// Slurm submission (see slurm.hpp).
#include "pipeline/slurm.hpp"

#include <array>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <sys/wait.h>

#include <fmt/format.h>

#include "pipeline/analysis.hpp"
#include "pipeline/files.hpp"
#include "pipeline/version.hpp"

namespace grainlab::pipeline {
namespace fs = std::filesystem;

std::string shell_quote(const std::string& w) {
  if (!w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") == std::string::npos)
    return w;
  std::string q = "'";
  for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

namespace {
std::string header(const SubmitOptions& o, const std::string& name, const std::string& output) {
  std::string h = "#!/bin/bash\n";
  h += fmt::format("#SBATCH --job-name={}\n#SBATCH --output={}\n#SBATCH --chdir={}\n", name, (o.job_dir / output).string(),
                   o.workdir.string());
  if (!o.partition.empty()) h += fmt::format("#SBATCH --partition={}\n", o.partition);
  if (!o.time_limit.empty()) h += fmt::format("#SBATCH --time={}\n", o.time_limit);
  for (const auto& a : o.sbatch_args) h += fmt::format("#SBATCH {}\n", a);
  return h;
}

std::string studies_words(const SubmitOptions& o) {
  std::string w;
  for (const auto& f : o.study_files) w.append(" ").append(shell_quote(f));
  return w;
}
}  // namespace

std::string array_script(const SubmitOptions& o) {
  std::string s = header(o, "grainlab-runs", "task-%A_%a.out");
  s += fmt::format("#SBATCH --array=1-{}\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task={}\n", o.array, o.threads);
  s += "# Task K computes slice K of the pending runs; a run's slice comes from its parameter hash.\n";
  s += "set -euo pipefail\n";
  s += fmt::format("export GRAINLAB_LOG={}/task-${{SLURM_ARRAY_JOB_ID}}_${{SLURM_ARRAY_TASK_ID}}.out\n", shell_quote(o.job_dir.string()));
  s += fmt::format("exec {} run{} --tier {} --results {} --jobs 1 --shard \"${{SLURM_ARRAY_TASK_ID}}/{}\"\n", shell_quote(o.grainlab.string()),
                   studies_words(o), shell_quote(o.tier), shell_quote(o.results_root.string()), o.array);
  return s;
}

std::string report_script(const SubmitOptions& o) {
  std::string s = header(o, "grainlab-report", "report-%j.out");
  s += "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
  s += "# Submitted with --dependency=afterany:<array job>: runs once every task has ended, failed ones too.\n";
  s += "set -euo pipefail\n";
  s += fmt::format("exec {} report{} --tier {} --results {}\n", shell_quote(o.grainlab.string()), studies_words(o), shell_quote(o.tier),
                   shell_quote(o.results_root.string()));
  return s;
}

std::string run_command(const std::string& command) {
  FILE* p = ::popen(command.c_str(), "r");
  if (!p) throw std::runtime_error("cannot run: " + command);
  std::string out;
  std::array<char, 512> buf;
  size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  const int status = ::pclose(p);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(fmt::format("'{}' failed (exit {}){}", command, WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                                         out.empty() ? "" : ": " + out));
  return out;
}

namespace {
/// `sbatch --parsable` prints "id" or "id;cluster".
std::string job_id(const std::string& parsable) {
  const std::string id = parsable.substr(0, parsable.find_first_of(";\n"));
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw std::runtime_error(fmt::format("sbatch printed no job id: '{}'", parsable));
  return id;
}
}  // namespace

Submitted submit_to_slurm(const SubmitOptions& o) {
  fs::create_directories(o.job_dir);
  const fs::path array_file = o.job_dir / "array.sbatch", report_file = o.job_dir / "report.sbatch";
  write_file(array_file, array_script(o));
  write_file(report_file, report_script(o));
  Submitted s;
  s.array_job = job_id(run_command("sbatch --parsable " + shell_quote(array_file.string()) + " 2>&1"));
  s.report_job = job_id(run_command(fmt::format("sbatch --parsable --dependency=afterany:{} {} 2>&1", s.array_job,
                                                shell_quote(report_file.string()))));
  const fs::path records = o.results_root / "slurm" / "jobs.csv";
  const bool fresh = !fs::exists(records);
  std::ofstream out(records, std::ios::app);
  if (fresh) out << "submitted_utc,array_job,report_job,tier,studies,job_dir\n";
  std::string studies;
  for (const auto& f : o.study_files) studies.append(studies.empty() ? "" : " ").append(fs::path(f).stem().string());
  out << fmt::format("{},{},{},{},{},{}\n", utc_now(), s.array_job, s.report_job, o.tier, studies, o.job_dir.string());
  out.close();
  if (!out) throw std::runtime_error("cannot write " + records.string());
  return s;
}

std::vector<JobRecord> read_job_records(const fs::path& results_root) {
  std::vector<JobRecord> out;
  const fs::path records = results_root / "slurm" / "jobs.csv";
  if (!fs::exists(records)) return out;
  for (const auto& r : read_csv(records.string()))
    out.push_back({r.at("submitted_utc"), r.at("array_job"), r.at("report_job"), r.at("tier"), r.at("studies"), r.at("job_dir")});
  return out;
}

std::vector<std::string> queue_states(const std::vector<std::string>& ids) {
  std::vector<std::string> lines;
  if (ids.empty() || std::system("command -v squeue >/dev/null 2>&1") != 0) return lines;
  std::string list;
  for (const auto& id : ids) list.append(list.empty() ? "" : ",").append(id);
  std::string text;
  try {
    text = run_command(fmt::format("squeue -h -j {} -o '%i %T %R' 2>/dev/null", shell_quote(list)));
  } catch (const std::exception&) {
    return lines;  // squeue exits non-zero when every listed job has left the queue
  }
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!line.empty()) lines.push_back(line);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return lines;
}

}  // namespace grainlab::pipeline
