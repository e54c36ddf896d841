#pragma once
// Result store: results/<study>/<tier>/<key>/ holds result.toml (status, message, parameters, metrics,
// provenance) and series_<name>.csv per time series. A run directory is written under a temporary name
// and renamed into place, so a directory that exists is complete; an interrupted study resumes by
// skipping keys whose directory exists. Existing results are never overwritten unless asked (force).
// Thread-safe for distinct keys (one writer per key).
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "experiments/experiment.hpp"

namespace grainlab::pipeline {

struct Provenance {
  std::string experiment, version, build_type, host, started_utc;
  bool dirty = false;
  int threads = 1;
  double wall_s = 0;
  std::map<std::string, double> stage_seconds;  ///< from metrics named time_<stage> (s)
};

struct StoredRun {
  std::string key;
  std::string status;  ///< "ok" or "failed"
  std::string message;
  std::map<std::string, ParamValue> parameters;
  std::map<std::string, double> metrics;
  Provenance provenance;
  std::filesystem::path dir;
};

class ResultStore {
 public:
  explicit ResultStore(std::filesystem::path root);  ///< e.g. results/<study>/<tier>
  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path dir(const std::string& key) const { return root_ / key; }
  bool has(const std::string& key) const;
  std::optional<StoredRun> load(const std::string& key) const;
  /// Writes atomically. If the key exists: replaced only when `replace`, else std::runtime_error.
  void save(const std::string& key, const Parameters& p, const RunResult* result, const std::string& error,
            const Provenance& prov, bool replace);
  /// Reads series_<name>.csv of a stored run (throws when absent).
  TimeSeries series(const std::string& key, const std::string& name) const;

 private:
  std::filesystem::path root_;
};

Provenance current_provenance(const std::string& experiment, int threads);

}  // namespace grainlab::pipeline
