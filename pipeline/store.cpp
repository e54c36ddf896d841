// Result store (see store.hpp). Files: result.toml via TOML++ (round-trip doubles), series as CSV.
#include "pipeline/store.hpp"

#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "pipeline/version.hpp"

namespace grainlab::pipeline {
namespace fs = std::filesystem;

ResultStore::ResultStore(fs::path root) : root_(std::move(root)) {}

bool ResultStore::has(const std::string& key) const { return fs::exists(dir(key) / "result.toml"); }

namespace {
void insert_param(toml::table& t, const std::string& k, const ParamValue& v) {
  std::visit([&](const auto& x) { t.insert_or_assign(k, x); }, v);
}
}  // namespace

void ResultStore::save(const std::string& key, const Parameters& p, const RunResult* result, const std::string& error,
                       const Provenance& prov, bool replace) {
  const fs::path final_dir = dir(key);
  if (fs::exists(final_dir) && !replace)
    throw std::runtime_error(fmt::format("result {} exists; refusing to overwrite (use --force)", final_dir.string()));
  fs::create_directories(root_);
  const fs::path tmp = root_ / fmt::format(".tmp-{}-{}", key, ::getpid());
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
  for (const auto& [k, v] : prov.stage_seconds) stages.insert(k, v);
  pv.insert("stage_seconds", std::move(stages));
  t.insert("parameters", std::move(params));
  t.insert("metrics", std::move(metrics));
  t.insert("provenance", std::move(pv));
  {
    std::ofstream out(tmp / "result.toml");
    out << t << "\n";
    if (result)
      for (const auto& [name, s] : result->series) {
        std::ofstream cs(tmp / ("series_" + name + ".csv"));
        for (size_t i = 0; i < s.columns.size(); ++i) cs << (i ? "," : "") << s.columns[i];
        cs << "\n";
        for (const auto& row : s.rows) {
          for (size_t i = 0; i < row.size(); ++i) cs << (i ? "," : "") << fmt::format("{}", row[i]);
          cs << "\n";
        }
      }
    if (!out) throw std::runtime_error("cannot write " + (tmp / "result.toml").string());
  }
  if (fs::exists(final_dir)) {  // replace: move the old one aside first, then drop it
    const fs::path old = root_ / fmt::format(".old-{}-{}", key, ::getpid());
    fs::rename(final_dir, old);
    fs::rename(tmp, final_dir);
    fs::remove_all(old);
  } else {
    fs::rename(tmp, final_dir);
  }
}

std::optional<StoredRun> ResultStore::load(const std::string& key) const {
  const fs::path file = dir(key) / "result.toml";
  if (!fs::exists(file)) return std::nullopt;
  toml::table t;
  try {
    t = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    throw std::runtime_error(fmt::format("{}: corrupt result: {}", file.string(), e.description()));
  }
  StoredRun r;
  r.key = key;
  r.dir = dir(key);
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
  if (auto st = pv["stage_seconds"].as_table())
    for (const auto& [k, v] : *st) r.provenance.stage_seconds[std::string(k.str())] = v.value_or(0.0);
  return r;
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
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  p.started_utc = buf;
  return p;
}

}  // namespace grainlab::pipeline
