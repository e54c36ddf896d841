#pragma once
// A study: experiment + base parameters + sweep + tiers + derived quantities + plots + tables + checks,
// loaded from a TOML file (format: docs/studies.md). Loading validates everything that can be validated
// before a run starts; errors are StudyError with "file:line: key: message".
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "experiments/experiment.hpp"

namespace grainlab::pipeline {

struct StudyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One sweep axis: a parameter and its values (grid axis), or a group of parameters whose lists are
/// zipped element by element.
struct Axis {
  std::vector<std::string> parameters;        ///< one for a grid axis, several for a zipped group
  std::vector<std::vector<ParamValue>> values; ///< values[i] = one point: a value per parameter
};

struct Sweep {
  std::map<std::string, std::vector<ParamValue>> grid;  ///< Cartesian product over these
  std::map<std::string, std::vector<ParamValue>> zip;   ///< zipped element by element (equal lengths)
  int replicates = 1;
  std::string seed_parameter;  ///< receives seed_base + replicate index; required when replicates > 1
  std::int64_t seed_base = 1;
  std::string where;  ///< "file:line" of the [sweep] table (messages); empty if there is none
};

struct Tier {
  std::map<std::string, ParamValue> parameters;  ///< overrides of the base parameters
  Sweep sweep;                                   ///< axes named here replace the study's axes
  std::optional<int> replicates;
};

/// A `where` filter: a run matches when, for every key, its value equals one of the listed values
/// (`where = { row = 3 }` lists one value, `where = { row = [13, 15, 18] }` several: a row filter).
using Where = std::map<std::string, std::vector<ParamValue>>;

/// A derived quantity, plot, table or check: its kind and its TOML table (validated at load time).
struct Item {
  std::string name;  ///< derived: name; plot/table: file stem; check: id
  std::string kind;
  std::shared_ptr<toml::table> spec;
  std::string where;  ///< "file:line" for messages
  std::map<std::string, std::string> key_at = {};  ///< "file:line" of each key (the spec copy keeps no lines)
  std::string at_key(const std::string& key) const;  ///< key_at[key], else `where`
  std::string text(const std::string& key, const std::string& fallback = "") const;
  double number(const std::string& key, double fallback) const;
  bool flag(const std::string& key, bool fallback) const;
  bool has(const std::string& key) const;
  std::vector<std::string> texts(const std::string& key) const;
  Where where_filter() const;  ///< the `where` table, if any (empty: every run)
};

struct Study {
  std::string name, title, description, paper;
  std::string file;        ///< path of the TOML file
  std::string experiment;  ///< registered experiment name; empty for a study that only analyses imported runs
  bool experiment_available = true;  ///< false only with `experiment_pending = true` (not in this build)
  std::vector<std::string> tier_names = {"quick", "full"};  ///< quick, full and the tiers declared in [study]
  std::size_t max_runs = 100000;  ///< expand refuses larger sweeps (`grainlab run --allow-large-sweep` lifts it)
  std::vector<std::string> metrics;  ///< metric columns the study expects from each run
  std::map<std::string, ParamValue> parameters;
  Sweep sweep;
  std::map<std::string, Tier> tiers;
  std::vector<Item> derived, plots, tables, checks;
  /// `[study] imports`: studies (names in this file's folder) whose runs of the same tier join this study's
  /// analysis table, each row tagged with its study in the text column `study`. Loaded and validated here.
  std::vector<Study> imported;

  /// Whether this study has runs of its own (an experiment); an import-only study has none.
  bool runs_own() const { return !experiment.empty(); }
  /// Column names known before running: parameters, declared metrics, derived per-run columns, and the
  /// parameters, metrics and `study` column of the imported studies.
  std::vector<std::string> known_columns() const;
  /// Scalar names the derived quantities define (with their .se, .above_one, fit coefficients...), and
  /// those of every imported study prefixed with its name: `paper4_e2_pile.n_ratio_5pct`.
  std::vector<std::string> scalar_names() const;
};

/// The studies whose own runs make up `s`'s analysis table: `s` itself when it has runs, then every study
/// it imports, recursively, each once (a study imported along two paths contributes its runs once).
std::vector<const Study*> run_sources(const Study& s);

/// Parses and validates a study file. `source_root` resolves relative reference-file paths.
Study load_study(const std::string& path, const std::string& source_root);

/// Studies in a directory (sorted by file name).
std::vector<std::string> study_files(const std::string& dir);

ParamValue to_param(const toml::node& n, const std::string& where);

}  // namespace grainlab::pipeline
