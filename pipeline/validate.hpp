#pragma once
// Load-time validation of a study's analysis sections: the schema of every key of every derived quantity,
// plot, table and check (type, allowed values, finite and non-negative numbers), `where` filters against
// the runs of every tier, and the helpers that word the errors ("file:line: key: message", with "did you
// mean" for a near miss). Pure functions of the parsed TOML and the Study; single-threaded.
#include <map>
#include <string>
#include <vector>

#include <toml++/toml.h>

#include "pipeline/study.hpp"

namespace grainlab::pipeline {

/// "file:line" of a node (just "file" when the node has no source position).
std::string at(const std::string& file, const toml::node& n);
[[noreturn]] void fail(const std::string& where, const std::string& key, const std::string& msg);

/// Levenshtein distance (insertions, deletions, substitutions).
std::size_t edit_distance(const std::string& a, const std::string& b);
/// "; did you mean 'x'?" for the nearest candidate within a small distance of `word`, else "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

/// A name that becomes one path component (study name, plot/table file stem, check id): a letter, digit or
/// '_' first, then letters, digits, '_', '-', '.'; at most 128 characters. Never "", "..", "/x" or "a/b".
bool plain_identifier(const std::string& s);

/// What a key of an item may hold.
enum class KeyType {
  text,      ///< a string
  label,     ///< a string or an integer (seed = "000" or lines = 43)
  number,    ///< a finite number (integer or float)
  nonneg,    ///< a finite number >= 0 (tolerances)
  integer,   ///< an integer >= KeySpec::min_int
  boolean,
  choice,    ///< one of KeySpec::choices
  column,    ///< a string naming a column (existence checked by the loader)
  texts,     ///< a string or a non-empty list of strings
  numbers,   ///< a list of finite numbers
  terms,     ///< a non-empty list of finite numbers or names (of scalars: model coefficients)
  where,     ///< a `where` table: name = value or name = [values]
  table,     ///< a table (validated by its own schema)
  tables,    ///< a non-empty array of tables (plot series)
};

struct KeySpec {
  KeyType type = KeyType::text;
  bool required = false;
  std::vector<std::string> choices = {};
  long long min_int = 0;
};
using Schema = std::map<std::string, KeySpec>;

/// Schemas per kind (derived quantities, checks) and for the plain sections.
const std::map<std::string, Schema>& derived_schemas();
const std::map<std::string, Schema>& check_schemas();
const Schema& plot_schema();
const Schema& series_schema();
const Schema& reference_schema();
const Schema& table_schema();

/// Unknown keys (with the allowed list and "did you mean"), missing required keys, types, enumerations and
/// finiteness of every key of `t`; errors name `prefix + key` at the key's line, or at `fallback` ("file:line")
/// where the node has none (toml++ keeps no position for values inside an inline table in an array).
void validate_keys(const std::string& file, const std::string& prefix, const toml::table& t, const Schema& schema,
                   const std::string& required_note = "", const std::string& fallback = "");

/// A `where` filter must name parameters of the study (or `replicate`; `study` for a study that imports others)
/// and select at least one run in every tier, with every listed value taken by some run of that tier. For a
/// study that imports others, the runs are those of every study in run_sources(s). `key` names the filter.
void validate_where(const Study& s, const Where& filter, const std::string& where, const std::string& key);

}  // namespace grainlab::pipeline
