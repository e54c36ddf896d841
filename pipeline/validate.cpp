// Load-time validation of the analysis sections and `where` filters (see validate.hpp).
#include "pipeline/validate.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "pipeline/fit.hpp"
#include "pipeline/sweep.hpp"

namespace grainlab::pipeline {

std::string at(const std::string& file, const toml::node& n) {
  const auto& s = n.source();
  return s.begin ? fmt::format("{}:{}", file, s.begin.line) : file;
}

void fail(const std::string& where, const std::string& key, const std::string& msg) {
  throw StudyError(fmt::format("{}: {}: {}", where, key, msg));
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t(0));
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  // A near miss: at most a third of the word changed (2 edits for short words), so unrelated names stay quiet.
  const std::size_t limit = std::max<std::size_t>(2, word.size() / 3);
  std::string best;
  std::size_t best_d = limit + 1;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_d && c != word) best = c, best_d = d;
  }
  return best.empty() ? "" : fmt::format("; did you mean '{}'?", best);
}

bool plain_identifier(const std::string& s) {
  if (s.empty() || s.size() > 128) return false;
  auto ok = [](char c, bool first) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           (!first && (c == '-' || c == '.'));
  };
  for (std::size_t i = 0; i < s.size(); ++i)
    if (!ok(s[i], i == 0)) return false;
  return true;
}

namespace {

KeySpec req(KeyType t) { return {t, true}; }
KeySpec opt(KeyType t) { return {t, false}; }
KeySpec one_of(std::vector<std::string> choices, bool required = false) { return {KeyType::choice, required, std::move(choices)}; }
KeySpec integer_from(long long min) { return {KeyType::integer, false, {}, min}; }

Schema with(Schema base, const Schema& more) {
  base.insert(more.begin(), more.end());
  return base;
}

std::vector<std::string> keys_of(const std::map<std::string, Schema>& m) {
  std::vector<std::string> out;
  for (const auto& [k, v] : m) out.push_back(k);
  return out;
}

}  // namespace

const std::map<std::string, Schema>& derived_schemas() {
  static const std::map<std::string, Schema> m = [] {
    const Schema common = {{"name", req(KeyType::text)}, {"kind", req(KeyType::text)}, {"description", opt(KeyType::text)}};
    const Schema where = {{"where", opt(KeyType::where)}};
    std::map<std::string, Schema> out = {
        {"ratio", with(common, {{"numerator", req(KeyType::column)}, {"denominator", req(KeyType::column)}})},
        {"time_average", with(common, {{"series", req(KeyType::text)}, {"column", req(KeyType::text)}, {"time", opt(KeyType::text)},
                                       {"from", opt(KeyType::number)}, {"to", opt(KeyType::number)}})},
        {"value_at", with(with(common, where), {{"y", req(KeyType::column)}})},
        {"mean", with(with(common, where), {{"y", req(KeyType::column)}, {"skip_nonfinite", opt(KeyType::boolean)}})},
        {"min_reaching", with(with(common, where), {{"x", req(KeyType::column)}, {"y", req(KeyType::column)},
                                                    {"threshold", req(KeyType::number)}, {"direction", one_of({"below", "above"})},
                                                    {"stays", opt(KeyType::boolean)}, {"group_by", opt(KeyType::texts)}})},
        {"coalesce", with(common, {{"of", req(KeyType::texts)}})},
        {"relative_deviation", with(with(common, where), {{"y", req(KeyType::column)}, {"reference", req(KeyType::text)}})},
        {"series_distance", with(with(common, where), {{"series", req(KeyType::text)}, {"column", req(KeyType::text)}})},
        {"scalar_mean", with(common, {{"of", req(KeyType::terms)}, {"per", opt(KeyType::texts)},
                                      {"mean", one_of({"geometric", "arithmetic", "harmonic"})}})},
        {"fit", with(with(common, where), {{"model", one_of(model_names(), true)}, {"x", req(KeyType::texts)}, {"y", req(KeyType::column)},
                                           {"guess", opt(KeyType::numbers)}, {"tolerance", opt(KeyType::number)},
                                           {"narrow_width", opt(KeyType::number)}, {"one_per", opt(KeyType::texts)},
                                           {"keep_largest", opt(KeyType::column)}})},
        {"model", with(with(common, where), {{"model", one_of(model_names(), true)}, {"x", req(KeyType::texts)},
                                             {"parameters", req(KeyType::terms)}, {"tolerance", opt(KeyType::number)},
                                             {"narrow_width", opt(KeyType::number)}, {"at", opt(KeyType::numbers)},
                                             {"one_per", opt(KeyType::texts)}, {"keep_largest", opt(KeyType::column)}})},
    };
    for (auto& [kind, schema] : out) schema["kind"] = one_of(keys_of(out), true);
    return out;
  }();
  return m;
}

const std::map<std::string, Schema>& check_schemas() {
  static const std::map<std::string, Schema> m = [] {
    // Every check cites its source; any check may name errata rows of a reference file.
    const Schema cite = {{"id", req(KeyType::text)}, {"kind", req(KeyType::text)}, {"claim", opt(KeyType::text)},
                         {"paper", opt(KeyType::text)}, {"source", opt(KeyType::text)}, {"seed", opt(KeyType::label)},
                         {"lines", opt(KeyType::label)}, {"description", opt(KeyType::text)},
                         {"reference_file", opt(KeyType::text)}, {"errata", opt(KeyType::texts)},
                         {"known_disagreement", opt(KeyType::text)}};
    const Schema where = {{"where", opt(KeyType::where)}};
    const Schema xy = {{"x", req(KeyType::column)}, {"y", req(KeyType::column)}};
    std::map<std::string, Schema> out = {
        {"within", with(with(cite, where), {{"quantity", req(KeyType::text)}, {"value", req(KeyType::number)},
                                            {"tolerance", opt(KeyType::nonneg)}, {"rel_tolerance", opt(KeyType::nonneg)},
                                            {"uncertainty", opt(KeyType::nonneg)}, {"unit", opt(KeyType::text)}})},
        {"columns_within", with(with(cite, where), {{"a", req(KeyType::column)}, {"b", req(KeyType::column)},
                                                    {"tolerance", opt(KeyType::nonneg)}, {"rel_tolerance", opt(KeyType::nonneg)}})},
        {"ratio_bounds", with(cite, {{"numerator", req(KeyType::text)}, {"denominator", req(KeyType::text)},
                                     {"min", opt(KeyType::number)}, {"max", opt(KeyType::number)}})},
        {"scalars_within", with(cite, {{"of", req(KeyType::texts)}, {"min", opt(KeyType::number)}, {"max", opt(KeyType::number)}})},
        {"bounds", with(with(cite, where), {{"quantity", req(KeyType::column)}, {"min", opt(KeyType::number)}, {"max", opt(KeyType::number)},
                                            {"count", integer_from(0)}, {"unit", opt(KeyType::text)}})},
        {"monotone", with(with(with(cite, where), xy), {{"direction", one_of({"increasing", "decreasing"})},
                                                        {"strict", opt(KeyType::boolean)}, {"min_points", integer_from(2)}})},
        {"saturating", with(with(with(cite, where), xy), {{"last_fraction", opt(KeyType::nonneg)}})},
        {"scaling", with(with(with(cite, where), xy), {{"min", req(KeyType::number)}, {"max", req(KeyType::number)}})},
        {"reference_table", with(cite, {{"file", req(KeyType::text)}, {"key", req(KeyType::column)}, {"columns", req(KeyType::texts)}})},
        {"not_reproduced", with(cite, {{"reason", req(KeyType::text)}})},
    };
    for (auto& [kind, schema] : out) schema["kind"] = one_of(keys_of(out), true);
    return out;
  }();
  return m;
}

const Schema& plot_schema() {
  static const Schema s = {{"name", req(KeyType::text)},   {"title", opt(KeyType::text)},   {"x", req(KeyType::column)},
                           {"xlabel", opt(KeyType::text)}, {"ylabel", opt(KeyType::text)},  {"logx", opt(KeyType::boolean)},
                           {"logy", opt(KeyType::boolean)}, {"series", req(KeyType::tables)}, {"where", opt(KeyType::where)},
                           {"reference", opt(KeyType::table)}, {"run_series", opt(KeyType::text)},
                           {"label_by", opt(KeyType::column)}};
  return s;
}
const Schema& series_schema() {
  static const Schema s = {{"y", req(KeyType::column)},   {"label", opt(KeyType::text)},          {"style", one_of({"points", "lines", "linespoints", "image"})},
                           {"error", opt(KeyType::column)}, {"aggregate", opt(KeyType::boolean)}, {"where", opt(KeyType::where)},
                           {"z", opt(KeyType::column)}};
  return s;
}
const Schema& reference_schema() {
  static const Schema s = {{"file", req(KeyType::text)},  {"x", req(KeyType::text)},     {"y", req(KeyType::text)},
                           {"error", opt(KeyType::text)}, {"label", opt(KeyType::text)}, {"where", opt(KeyType::where)}};
  return s;
}
const Schema& table_schema() {
  static const Schema s = {{"name", req(KeyType::text)}, {"title", opt(KeyType::text)}, {"columns", req(KeyType::texts)},
                           {"where", opt(KeyType::where)}};
  return s;
}

namespace {

std::optional<double> number_of(const toml::node& n) {
  if (auto f = n.as_floating_point()) return f->get();
  if (auto i = n.as_integer()) return double(i->get());
  return std::nullopt;
}

std::string type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::string: return fmt::format("the string \"{}\"", n.as_string()->get());
    case toml::node_type::integer: return fmt::format("the integer {}", n.as_integer()->get());
    case toml::node_type::floating_point: return fmt::format("the number {}", n.as_floating_point()->get());
    case toml::node_type::boolean: return n.as_boolean()->get() ? "true" : "false";
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    default: return "a date or time";
  }
}

/// Where a node is: its line, or (values inside inline tables in arrays carry none) the enclosing item's.
struct Loc {
  const std::string& file;
  std::string fallback;
  std::string operator()(const toml::node& n) const { return n.source().begin ? at(file, n) : fallback; }
};

void finite(const Loc& loc, const std::string& key, const toml::node& n, double x) {
  if (!std::isfinite(x)) fail(loc(n), key, fmt::format("must be a finite number, got {}", x));
}

void check_where_table(const Loc& loc, const std::string& key, const toml::node& n) {
  if (!n.is_table()) fail(loc(n), key, "must be a table { parameter = value or [values], ... }, got " + type_name(n));
  for (const auto& [k, v] : *n.as_table()) {
    const std::string sub = key + "." + std::string(k.str());
    auto scalar = [&](const toml::node& x) {
      if (!(x.is_string() || x.is_number() || x.is_boolean()))
        fail(loc(x), sub, "must be a value or a non-empty list of values, got " + type_name(x));
      if (auto d = x.as_floating_point()) finite(loc, sub, x, d->get());
    };
    if (auto list = v.as_array()) {
      if (list->empty()) fail(loc(v), sub, "must be a value or a non-empty list of values");
      for (const auto& x : *list) scalar(x);
    } else {
      scalar(v);
    }
  }
}

void check_value(const Loc& loc, const std::string& key, const toml::node& n, const KeySpec& spec) {
  auto wrong = [&](const std::string& want) { fail(loc(n), key, fmt::format("must be {}, got {}", want, type_name(n))); };
  switch (spec.type) {
    case KeyType::text:
    case KeyType::column:
      if (!n.is_string()) wrong("a string");
      break;
    case KeyType::label:
      if (!n.is_string() && !n.is_integer()) wrong("a string or an integer");
      break;
    case KeyType::number:
    case KeyType::nonneg: {
      const auto x = number_of(n);
      if (!x) wrong(spec.type == KeyType::nonneg ? "a number >= 0" : "a number");
      finite(loc, key, n, *x);
      if (spec.type == KeyType::nonneg && *x < 0) fail(loc(n), key, fmt::format("must be >= 0, got {}", *x));
      break;
    }
    case KeyType::integer:
      if (!n.is_integer()) wrong(fmt::format("an integer >= {}", spec.min_int));
      if (n.as_integer()->get() < spec.min_int)
        fail(loc(n), key, fmt::format("must be an integer >= {}, got {}", spec.min_int, n.as_integer()->get()));
      break;
    case KeyType::boolean:
      if (!n.is_boolean()) wrong("true or false");
      break;
    case KeyType::choice: {
      if (!n.is_string()) wrong(fmt::format("one of {}", fmt::join(spec.choices, ", ")));
      const std::string v = n.as_string()->get();
      if (std::find(spec.choices.begin(), spec.choices.end(), v) == spec.choices.end())
        fail(loc(n), key, fmt::format("'{}' is not one of: {}{}", v, fmt::join(spec.choices, ", "), did_you_mean(v, spec.choices)));
      break;
    }
    case KeyType::texts: {
      auto list = n.as_array();
      if (!n.is_string() && !(list && !list->empty())) wrong("a string or a non-empty list of strings");
      if (list)
        for (const auto& x : *list)
          if (!x.is_string()) fail(loc(x), key, "must be a list of strings, got " + type_name(x));
      break;
    }
    case KeyType::numbers: {
      auto list = n.as_array();
      if (!list) wrong("a list of numbers");
      for (const auto& x : *list) {
        const auto v = number_of(x);
        if (!v) fail(loc(x), key, "must be a list of numbers, got " + type_name(x));
        finite(loc, key, x, *v);
      }
      break;
    }
    case KeyType::terms: {
      auto list = n.as_array();
      if (!list || list->empty()) wrong("a non-empty list of numbers or scalar names");
      for (const auto& x : *list) {
        if (x.is_string()) continue;
        const auto v = number_of(x);
        if (!v) fail(loc(x), key, "must be a list of numbers or scalar names, got " + type_name(x));
        finite(loc, key, x, *v);
      }
      break;
    }
    case KeyType::where: check_where_table(loc, key, n); break;
    case KeyType::table:
      if (!n.is_table()) wrong("a table");
      break;
    case KeyType::tables:
      if (!n.is_array_of_tables() || n.as_array()->empty()) wrong("a non-empty array of tables [{ ... }, ...]");
      break;
  }
}

}  // namespace

void validate_keys(const std::string& file, const std::string& prefix, const toml::table& t, const Schema& schema,
                   const std::string& required_note, const std::string& fallback) {
  const Loc loc{file, fallback.empty() ? at(file, t) : fallback};
  std::vector<std::string> allowed;
  for (const auto& [k, v] : schema) allowed.push_back(k);
  for (const auto& [k, v] : t) {
    const std::string key(k.str());
    auto it = schema.find(key);
    if (it == schema.end())
      fail(loc(v), prefix + key, fmt::format("unknown key (allowed here: {}){}", fmt::join(allowed, ", "), did_you_mean(key, allowed)));
    check_value(loc, prefix + key, v, it->second);
  }
  for (const auto& [k, spec] : schema)
    if (spec.required && !t.get(k)) fail(loc(t), prefix + k, "missing (required" + required_note + ")");
}

namespace {

/// Loose equality of a run's value and a filter value, as Row::matches compares them (numbers within 1e-12
/// relative; booleans as 0/1).
bool same(const ParamValue& a, const ParamValue& b) {
  const bool sa = std::holds_alternative<std::string>(a), sb = std::holds_alternative<std::string>(b);
  if (sa || sb) return sa && sb && std::get<std::string>(a) == std::get<std::string>(b);
  auto num = [](const ParamValue& v) {
    if (auto d = std::get_if<double>(&v)) return *d;
    if (auto i = std::get_if<std::int64_t>(&v)) return double(*i);
    return std::get<bool>(v) ? 1.0 : 0.0;
  };
  const double x = num(a), y = num(b);
  return std::abs(x - y) <= 1e-12 * std::max(1.0, std::abs(y));
}

bool any_same(const std::vector<ParamValue>& runs, const ParamValue& v) {
  return std::any_of(runs.begin(), runs.end(), [&](const ParamValue& r) { return same(r, v); });
}

std::string shown(const std::vector<ParamValue>& values) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < values.size() && i < 12; ++i) out.push_back(to_string(values[i]));
  if (values.size() > 12) out.push_back(fmt::format("... ({} values)", values.size()));
  return fmt::format("{}", fmt::join(out, ", "));
}

}  // namespace

namespace {

/// The parameter names a filter may use on the runs of `s`: its experiment's, or (pending experiment) those
/// the study sets anywhere, and `replicate`.
std::vector<std::string> parameter_names(const Study& s) {
  const Experiment* e = s.experiment_available ? &find_experiment(s.experiment) : nullptr;
  std::vector<std::string> names = {"replicate"};
  if (e)
    for (const auto& p : e->parameters) names.push_back(p.name);
  for (const auto& t : s.tier_names) {
    const TierSweep ts = tier_sweep(s, t);
    for (const auto& [k, v] : ts.base) names.push_back(k);
    for (const auto& [k, v] : ts.sweep.grid) names.push_back(k);
    for (const auto& [k, v] : ts.sweep.zip) names.push_back(k);
  }
  return names;
}

/// Why `filter` selects no run of `s` (a study with runs of its own) in `tier`: {key, message}, or an empty
/// message when it selects one. `tagged`: its runs carry the text column `study` = s.name.
std::pair<std::string, std::string> where_miss(const Study& s, const Where& filter, const std::string& tier, bool tagged,
                                               const std::string& key) {
  const Experiment* e = s.experiment_available ? &find_experiment(s.experiment) : nullptr;
  const std::vector<std::string> names = parameter_names(s);
  const TierSweep ts = tier_sweep(s, tier);
  const Sweep& sw = ts.sweep;
  const std::size_t reps = std::size_t(std::max(1, sw.replicates));
  // The values each filtered parameter takes in this tier (grid axes are independent; the zipped group is
  // checked jointly below).
  auto values_of = [&](const std::string& k) -> std::optional<std::vector<ParamValue>> {
    if (k == "replicate") {
      std::vector<ParamValue> r;
      for (std::size_t i = 0; i < reps; ++i) r.push_back(std::int64_t(i));
      return r;
    }
    if (k == sw.seed_parameter && reps > 1) {
      std::vector<ParamValue> r;
      for (std::size_t i = 0; i < reps; ++i) r.push_back(std::int64_t(sw.seed_base + std::int64_t(i)));
      return r;
    }
    if (auto g = sw.grid.find(k); g != sw.grid.end()) return g->second;
    if (auto z = sw.zip.find(k); z != sw.zip.end()) return z->second;
    if (auto b = ts.base.find(k); b != ts.base.end()) return std::vector<ParamValue>{b->second};
    if (e && e->find(k)) return std::vector<ParamValue>{e->find(k)->default_value};
    return std::nullopt;
  };
  for (const auto& [k, values] : filter) {
    if (tagged && k == "study") {
      if (!any_same(values, s.name)) return {key + ".study", fmt::format("no run of study '{}' has study = {}", s.name, shown(values))};
      continue;
    }
    if (std::find(names.begin(), names.end(), k) == names.end())
      return {key + "." + k, fmt::format("study '{}' has no parameter '{}'", s.name, k)};
    const auto runs = values_of(k);
    if (!runs) continue;
    for (const auto& v : values)
      if (!any_same(*runs, v))
        return {key + "." + k, fmt::format("no run of tier '{}' has {} = {} (its values: {})", tier, k, to_string(v), shown(*runs))};
  }
  // Zipped parameters vary together: some index must match every filtered one.
  bool zipped = false, joint = sw.zip.empty();
  const std::size_t len = sw.zip.empty() ? 0 : sw.zip.begin()->second.size();
  for (std::size_t i = 0; i < len && !joint; ++i) {
    bool all = true;
    for (const auto& [k, values] : filter)
      if (auto z = sw.zip.find(k); z != sw.zip.end() && !(k == sw.seed_parameter && reps > 1)) {
        zipped = true;
        all = all && any_same(values, z->second[i]);
      }
    joint = all;
  }
  // The seed parameter and the replicate index vary together (seed = seed_base + replicate).
  if (reps > 1 && filter.count("replicate") && filter.count(sw.seed_parameter)) {
    bool found = false;
    for (std::size_t r = 0; r < reps && !found; ++r)
      found = any_same(filter.at("replicate"), std::int64_t(r)) &&
              any_same(filter.at(sw.seed_parameter), std::int64_t(sw.seed_base + std::int64_t(r)));
    if (!found)
      return {key, fmt::format("no run of tier '{}' matches both replicate and {} (seed = {} + replicate)", tier, sw.seed_parameter,
                               sw.seed_base)};
  }
  if (zipped && !joint) {
    std::vector<std::string> parts;
    for (const auto& [k, values] : filter) parts.push_back(fmt::format("{} = {}", k, shown(values)));
    return {key, fmt::format("no run of tier '{}' matches {{ {} }} (the zipped values never occur together)", tier, fmt::join(parts, ", "))};
  }
  return {key, ""};
}

}  // namespace

void validate_where(const Study& s, const Where& filter, const std::string& where, const std::string& key) {
  if (filter.empty()) return;
  const std::vector<const Study*> sources = run_sources(s);
  const bool tagged = !s.imported.empty();
  // Names: a parameter of some study whose runs are analysed here (or `study` where runs are tagged).
  std::vector<std::string> names;
  if (tagged) names.push_back("study");
  for (const Study* src : sources)
    for (const auto& n : parameter_names(*src)) names.push_back(n);
  for (const auto& [k, values] : filter) {
    if (std::find(names.begin(), names.end(), k) == names.end())
      fail(where, key + "." + k, fmt::format("'{}' is not a parameter of this study{}", k, did_you_mean(k, names)));
    for (const auto& v : values) {
      if (k == "study" && tagged && !std::holds_alternative<std::string>(v))
        fail(where, key + ".study", fmt::format("study is a text column (the study name), got {}", to_string(v)));
      for (const Study* src : sources) {
        const ParameterSpec* spec = src->experiment_available ? find_experiment(src->experiment).find(k) : nullptr;
        const bool text = std::holds_alternative<std::string>(v);
        if (spec && (spec->type == ParamType::text) != text)
          fail(where, key + "." + k, fmt::format("{} is a {} parameter, got {}", k, to_string(spec->type), to_string(v)));
      }
    }
  }
  for (const auto& tier : s.tier_names) {
    std::vector<std::pair<std::string, std::string>> misses;
    for (const Study* src : sources) {
      auto miss = where_miss(*src, filter, tier, tagged, key);
      if (miss.second.empty()) {
        misses.clear();
        break;
      }
      misses.push_back(std::move(miss));
    }
    if (misses.size() == 1) fail(where, misses[0].first, misses[0].second);
    if (!misses.empty()) {
      std::vector<std::string> why;
      for (std::size_t i = 0; i < misses.size(); ++i) why.push_back(fmt::format("{}: {}", sources[i]->name, misses[i].second));
      fail(where, key, fmt::format("selects no run of tier '{}' in any study it analyses ({})", tier, fmt::join(why, "; ")));
    }
  }
}

}  // namespace grainlab::pipeline
