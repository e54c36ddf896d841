#pragma once
// Result store: results/<study>/<tier>/<key>/ holds result.toml (status, message, parameters, metrics,
// provenance), series_<name>.csv per time series, and `complete`, a checksum of those files written
// last. A run directory is written under a temporary name and renamed into place; a directory whose
// checksum does not match (truncated, hand-edited, a file missing) is reported as corrupt, never
// reused. Writers of one key are serialised by the run lock (run_lock.hpp, <root>/.locks/); there is
// no index file, so any number of processes on any number of hosts can write distinct keys at once.
// Existing results are never overwritten unless asked (force); a corrupt one is set aside, not deleted.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "experiments/experiment.hpp"

namespace grainlab::pipeline {

struct Provenance {
  std::string experiment, version, build_type, host, started_utc;
  bool dirty = false;
  int threads = 1;
  double wall_s = 0;
  std::string slurm_job;  ///< "<array job>_<task>" when run by a Slurm array task
  std::map<std::string, double> stage_seconds;  ///< from metrics named time_<stage> (s)
  /// Run guard warnings (core/run_warnings.hpp), "code: message (N times)"; provenance because a warning
  /// never changes a result.
  std::vector<std::string> warnings;
};

struct StoredRun {
  std::string key;
  std::string status;  ///< "ok", "failed"; from collect_study also "missing", "running", "corrupt"
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
  std::filesystem::path lock_file(const std::string& key) const { return root_ / ".locks" / (key + ".lock"); }
  bool has(const std::string& key) const;
  /// The stored run; status "corrupt" (with the reason in message) when it cannot be trusted.
  std::optional<StoredRun> load(const std::string& key) const;
  /// Writes atomically, every write checked. If the key exists: replaced only when `replace`, else
  /// std::runtime_error. The caller holds the key's run lock.
  void save(const std::string& key, const Parameters& p, const RunResult* result, const std::string& error,
            const Provenance& prov, bool replace);
  /// Renames a run that cannot be trusted to .corrupt-<key>-<time> and returns the new path.
  std::filesystem::path set_aside(const std::string& key) const;
  /// Removes temporary folders (.tmp-*, .old-*) left by killed writers: those whose key is not locked.
  int remove_orphans() const;
  /// Reads series_<name>.csv of a stored run (throws when absent).
  TimeSeries series(const std::string& key, const std::string& name) const;

 private:
  std::filesystem::path root_;
};

Provenance current_provenance(const std::string& experiment, int threads);

}  // namespace grainlab::pipeline
