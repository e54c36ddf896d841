// Result store (see store.hpp). Files: result.toml via TOML++ (round-trip doubles), series as CSV,
// `complete` = FNV-1a over every file's name and bytes.
#include "pipeline/store.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>
#include <vector>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "core/fnv1a.hpp"
#include "pipeline/files.hpp"
#include "pipeline/run_lock.hpp"
#include "pipeline/version.hpp"

namespace grainlab::pipeline {
namespace fs = std::filesystem;

ResultStore::ResultStore(fs::path root) : root_(std::move(root)) {}

bool ResultStore::has(const std::string& key) const { return fs::exists(dir(key) / "result.toml"); }

namespace {
void insert_param(toml::table& t, const std::string& k, const ParamValue& v) {
  std::visit([&](const auto& x) { t.insert_or_assign(k, x); }, v);
}

std::string series_csv(const TimeSeries& s) {
  std::string out;
  for (size_t i = 0; i < s.columns.size(); ++i) out += (i ? "," : "") + s.columns[i];
  out += "\n";
  for (const auto& row : s.rows) {
    for (size_t i = 0; i < row.size(); ++i) out += fmt::format("{}{}", i ? "," : "", row[i]);
    out += "\n";
  }
  return out;
}

/// The completion checksum over the run folder's data files (everything but `complete` itself).
std::string checksum(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().filename() != "complete") names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  std::string all;
  for (const auto& n : names) all += n + "\n" + read_file(dir / n) + "\n";
  return fmt::format("fnv1a64 {:016x} files {}\n", fnv1a64(all), names.size());
}
}  // namespace

void ResultStore::save(const std::string& key, const Parameters& p, const RunResult* result, const std::string& error,
                       const Provenance& prov, bool replace) {
  const fs::path final_dir = dir(key);
  if (fs::exists(final_dir) && !replace)
    throw std::runtime_error(fmt::format("result {} exists; refusing to overwrite (use --force)", final_dir.string()));
  fs::create_directories(root_);
  const fs::path tmp = root_ / fmt::format(".tmp-{}-{}-{}", key, host_name(), ::getpid());
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  toml::table t;
  t.insert("status", result ? "ok" : "failed");
  t.insert("message", error);
  toml::table params, metrics, pv, stages;
  for (const auto& [k, v] : p.values) insert_param(params, k, v);
  if (result)
    for (const auto& [k, v] : result->metrics) metrics.insert(k, v);
  pv.insert("experiment", prov.experiment);
  pv.insert("version", prov.version);
  pv.insert("dirty", prov.dirty);
  pv.insert("build_type", prov.build_type);
  pv.insert("host", prov.host);
  pv.insert("threads", prov.threads);
  pv.insert("started_utc", prov.started_utc);
  pv.insert("wall_s", prov.wall_s);
  if (!prov.slurm_job.empty()) pv.insert("slurm_job", prov.slurm_job);
  for (const auto& [k, v] : prov.stage_seconds) stages.insert(k, v);
  pv.insert("stage_seconds", std::move(stages));
  if (!prov.warnings.empty()) {
    toml::array warnings;
    for (const auto& w : prov.warnings) warnings.push_back(w);
    pv.insert("warnings", std::move(warnings));
  }
  t.insert("parameters", std::move(params));
  t.insert("metrics", std::move(metrics));
  t.insert("provenance", std::move(pv));
  try {
    std::ostringstream toml_text;
    toml_text << t << "\n";
    write_file(tmp / "result.toml", toml_text.str());
    if (result)
      for (const auto& [name, s] : result->series) write_file(tmp / ("series_" + name + ".csv"), series_csv(s));
    write_file(tmp / "complete", checksum(tmp));
  } catch (...) {
    std::error_code ignored;
    fs::remove_all(tmp, ignored);
    throw;
  }
  if (fs::exists(final_dir)) {  // replace: move the old one aside first, then drop it
    const fs::path old = root_ / fmt::format(".old-{}-{}-{}", key, host_name(), ::getpid());
    fs::rename(final_dir, old);
    fs::rename(tmp, final_dir);
    fs::remove_all(old);
  } else {
    fs::rename(tmp, final_dir);
  }
}

std::optional<StoredRun> ResultStore::load(const std::string& key) const {
  const fs::path file = dir(key) / "result.toml";
  if (!fs::exists(dir(key))) return std::nullopt;
  StoredRun r;
  r.key = key;
  r.dir = dir(key);
  r.status = "corrupt";
  if (!fs::exists(file)) {
    r.message = "result.toml is missing";
    return r;
  }
  try {
    if (!fs::exists(r.dir / "complete")) {
      r.message = "no completion checksum (written by an older grainlab, or the run was interrupted)";
      return r;
    }
    if (read_file(r.dir / "complete") != checksum(r.dir)) {
      r.message = "checksum mismatch: a file was truncated, edited or removed after the run";
      return r;
    }
  } catch (const std::exception& e) {
    r.message = e.what();
    return r;
  }
  toml::table t;
  try {
    t = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    r.message = fmt::format("{}: does not parse: {}", file.string(), e.description());
    return r;
  }
  r.status = t["status"].value_or(std::string("failed"));
  r.message = t["message"].value_or(std::string());
  if (auto p = t["parameters"].as_table())
    for (const auto& [k, v] : *p) {
      const std::string name(k.str());
      if (auto f = v.as_floating_point()) r.parameters[name] = f->get();
      else if (auto i = v.as_integer()) r.parameters[name] = std::int64_t(i->get());
      else if (auto b = v.as_boolean()) r.parameters[name] = b->get();
      else if (auto s = v.as_string()) r.parameters[name] = s->get();
    }
  if (auto m = t["metrics"].as_table())
    for (const auto& [k, v] : *m) r.metrics[std::string(k.str())] = v.value_or(0.0);
  auto pv = t["provenance"];
  r.provenance.experiment = pv["experiment"].value_or(std::string());
  r.provenance.version = pv["version"].value_or(std::string());
  r.provenance.dirty = pv["dirty"].value_or(false);
  r.provenance.build_type = pv["build_type"].value_or(std::string());
  r.provenance.host = pv["host"].value_or(std::string());
  r.provenance.threads = pv["threads"].value_or(1);
  r.provenance.started_utc = pv["started_utc"].value_or(std::string());
  r.provenance.wall_s = pv["wall_s"].value_or(0.0);
  r.provenance.slurm_job = pv["slurm_job"].value_or(std::string());
  if (auto st = pv["stage_seconds"].as_table())
    for (const auto& [k, v] : *st) r.provenance.stage_seconds[std::string(k.str())] = v.value_or(0.0);
  if (auto w = pv["warnings"].as_array())
    for (const auto& v : *w) r.provenance.warnings.push_back(v.value_or(std::string()));
  return r;
}

fs::path ResultStore::set_aside(const std::string& key) const {
  std::string stamp = utc_now();
  std::replace(stamp.begin(), stamp.end(), ':', '-');
  fs::path to = root_ / fmt::format(".corrupt-{}-{}", key, stamp);
  for (int n = 2; fs::exists(to); ++n) to = root_ / fmt::format(".corrupt-{}-{}-{}", key, stamp, n);
  fs::rename(dir(key), to);
  return to;
}

int ResultStore::remove_orphans() const {
  if (!fs::exists(root_)) return 0;
  std::vector<fs::path> candidates;
  for (const auto& e : fs::directory_iterator(root_)) {
    const std::string n = e.path().filename().string();
    if (n.rfind(".tmp-", 0) == 0 || n.rfind(".old-", 0) == 0) candidates.push_back(e.path());
  }
  int removed = 0;
  for (const auto& path : candidates) {
    const std::string n = path.filename().string();
    if (n.size() < 21) continue;
    const std::string key = n.substr(5, 16);  // .tmp-<16 hex key>-<host>-<pid>
    if (auto lock = RunLock::try_acquire(lock_file(key))) {
      std::error_code ec;
      if (fs::exists(path) && fs::remove_all(path, ec) > 0 && !ec) ++removed;
    }
  }
  return removed;
}

TimeSeries ResultStore::series(const std::string& key, const std::string& name) const {
  const fs::path file = dir(key) / ("series_" + name + ".csv");
  std::ifstream in(file);
  if (!in) throw std::runtime_error(fmt::format("run {} has no time series '{}' ({})", key, name, file.string()));
  TimeSeries s;
  std::string line;
  if (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string c;
    while (std::getline(ss, c, ',')) s.columns.push_back(c);
  }
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<double> row;
    std::stringstream ss(line);
    std::string c;
    while (std::getline(ss, c, ',')) row.push_back(std::stod(c));
    s.rows.push_back(std::move(row));
  }
  return s;
}

Provenance current_provenance(const std::string& experiment, int threads) {
  Provenance p;
  p.experiment = experiment;
  p.version = version_string();
  p.dirty = p.version.size() >= 6 && p.version.substr(p.version.size() - 6) == "-dirty";
  p.build_type = build_type();
  p.host = host_name();
  p.threads = threads;
  p.started_utc = utc_now();
  const char* job = std::getenv("SLURM_ARRAY_JOB_ID");
  const char* task = std::getenv("SLURM_ARRAY_TASK_ID");
  if (job && task) p.slurm_job = fmt::format("{}_{}", job, task);
  else if (const char* id = std::getenv("SLURM_JOB_ID")) p.slurm_job = id;
  return p;
}

}  // namespace grainlab::pipeline
