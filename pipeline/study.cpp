// Study loading: TOML file -> Study, with every check that needs no run (unknown keys, types, ranges via
// the experiment's ParameterSpecs, sweep and plot/check columns). Errors name file, line and key.
// Reads: the study file and the reference files it names (existence only). Single-threaded.
#include "pipeline/study.hpp"

#include "pipeline/analysis.hpp"
#include "pipeline/fit.hpp"
#include "pipeline/units.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace grainlab::pipeline {
namespace fs = std::filesystem;

namespace {

std::string at(const std::string& file, const toml::node& n) {
  const auto& s = n.source();
  return s.begin ? fmt::format("{}:{}", file, s.begin.line) : file;
}

[[noreturn]] void fail(const std::string& where, const std::string& key, const std::string& msg) {
  throw StudyError(fmt::format("{}: {}: {}", where, key, msg));
}

void only_keys(const std::string& file, const std::string& prefix, const toml::table& t,
               const std::set<std::string>& allowed) {
  for (const auto& [k, v] : t) {
    const std::string key(k.str());
    if (!allowed.count(key)) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(at(file, v), prefix + key, fmt::format("unknown key (allowed here: {})", list));
    }
  }
}

const toml::table* sub_table(const std::string& file, const toml::table& t, const std::string& key,
                             const std::string& prefix) {
  const toml::node* n = t.get(key);
  if (!n) return nullptr;
  if (!n->is_table()) fail(at(file, *n), prefix + key, "must be a table");
  return n->as_table();
}

std::string need_string(const std::string& file, const toml::table& t, const std::string& key,
                        const std::string& prefix, bool required = true) {
  const toml::node* n = t.get(key);
  if (!n) {
    if (required) fail(at(file, t), prefix + key, "missing (required)");
    return "";
  }
  if (!n->is_string()) fail(at(file, *n), prefix + key, "must be a string");
  return n->as_string()->get();
}

/// Type and range of one value against the experiment's spec, reported at the value's line.
void check_value(const std::string& file, const toml::node& n, const std::string& key, const Experiment* e,
                 const std::string& param, const ParamValue& v) {
  if (!e) return;
  try {
    e->complete({{param, v}});
  } catch (const std::invalid_argument& ex) {
    fail(at(file, n), key, ex.what());
  }
}

/// A parameter value; a string given to a real parameter is a quantity with a unit (pipeline/units.hpp).
ParamValue param_value(const toml::node& n, const std::string& where, const Experiment* e, const std::string& param) {
  try {
    return units::quantity_value(to_param(n, where), e ? e->find(param) : nullptr, where);
  } catch (const std::invalid_argument& ex) {
    throw StudyError(ex.what());
  }
}

std::map<std::string, ParamValue> read_parameters(const std::string& file, const toml::table& t,
                                                  const std::string& prefix, const Experiment* e) {
  std::map<std::string, ParamValue> out;
  for (const auto& [k, v] : t) {
    const std::string key(k.str());
    if (e && !e->find(key)) fail(at(file, v), prefix + key, fmt::format("experiment '{}' has no parameter '{}'", e->name, key));
    out[key] = param_value(v, at(file, v) + ": " + prefix + key, e, key);
    check_value(file, v, prefix + key, e, key, out[key]);
  }
  return out;
}

std::map<std::string, std::vector<ParamValue>> read_axes(const std::string& file, const toml::table& t,
                                                         const std::string& prefix, const Experiment* e) {
  std::map<std::string, std::vector<ParamValue>> out;
  for (const auto& [k, v] : t) {
    const std::string key(k.str());
    if (e && !e->find(key))
      fail(at(file, v), prefix + key, fmt::format("sweep over unknown parameter: experiment '{}' has no parameter '{}'", e->name, key));
    if (!v.is_array() || v.as_array()->empty()) fail(at(file, v), prefix + key, "must be a non-empty array of values");
    for (const auto& x : *v.as_array()) {
      out[key].push_back(param_value(x, at(file, x) + ": " + prefix + key, e, key));
      check_value(file, x, prefix + key, e, key, out[key].back());
    }
  }
  return out;
}

Sweep read_sweep(const std::string& file, const toml::table& t, const std::string& prefix, const Experiment* e) {
  only_keys(file, prefix, t, {"grid", "zip", "replicates", "seed_parameter", "seed_base"});
  Sweep s;
  if (auto g = sub_table(file, t, "grid", prefix)) s.grid = read_axes(file, *g, prefix + "grid.", e);
  if (auto z = sub_table(file, t, "zip", prefix)) {
    s.zip = read_axes(file, *z, prefix + "zip.", e);
    size_t len = 0;
    for (const auto& [k, v] : s.zip) {
      if (len && v.size() != len)
        fail(at(file, *z), prefix + "zip." + k, fmt::format("zipped lists must have equal lengths ({} vs {})", v.size(), len));
      len = v.size();
    }
  }
  for (const auto& [k, v] : s.zip)
    if (s.grid.count(k)) fail(at(file, t), prefix + k, "parameter is both in grid and zip");
  if (auto r = t.get("replicates")) {
    if (!r->is_integer() || r->as_integer()->get() < 1) fail(at(file, *r), prefix + "replicates", "must be an integer >= 1");
    s.replicates = int(r->as_integer()->get());
  }
  s.seed_parameter = need_string(file, t, "seed_parameter", prefix, false);
  if (auto b = t.get("seed_base")) {
    if (!b->is_integer()) fail(at(file, *b), prefix + "seed_base", "must be an integer");
    s.seed_base = b->as_integer()->get();
  }
  if (!s.seed_parameter.empty() && e) {
    const ParameterSpec* spec = e->find(s.seed_parameter);
    if (!spec) fail(at(file, t), prefix + "seed_parameter", fmt::format("experiment '{}' has no parameter '{}'", e->name, s.seed_parameter));
    if (spec->type != ParamType::integer) fail(at(file, t), prefix + "seed_parameter", "must name an integer parameter");
  }
  return s;
}

// Allowed keys and the keys that name columns, per item kind.
struct KindRule {
  std::set<std::string> allowed;
  std::vector<std::string> required;
  std::vector<std::string> column_keys;  ///< keys whose string value must be a known column
};

const std::set<std::string> kCiteKeys = {"id", "kind", "claim", "paper", "source", "seed", "lines", "description"};
// Any check may list errata recorded in a reference file (validation/*.csv with columns quantity, printed,
// recomputed, ...): `reference_file` and `errata` = the `quantity` cells of those rows.
const std::set<std::string> kErrataKeys = {"reference_file", "errata"};

std::map<std::string, KindRule> derived_rules() {
  return {
      {"ratio", {{"name", "kind", "numerator", "denominator", "description"}, {"numerator", "denominator"}, {}}},
      {"time_average", {{"name", "kind", "series", "column", "time", "from", "to", "description"}, {"series", "column"}, {}}},
      {"value_at", {{"name", "kind", "y", "where", "description"}, {"y"}, {"y"}}},
      {"mean", {{"name", "kind", "y", "where", "description"}, {"y"}, {"y"}}},
      {"min_reaching", {{"name", "kind", "x", "y", "threshold", "direction", "where", "description"}, {"x", "y", "threshold"}, {"x", "y"}}},
      {"fit", {{"name", "kind", "model", "x", "y", "where", "guess", "description"}, {"model", "x", "y"}, {"x", "y"}}},
  };
}

std::map<std::string, KindRule> check_rules() {
  auto with_cite = [](std::set<std::string> s) {
    s.insert(kCiteKeys.begin(), kCiteKeys.end());
    s.insert(kErrataKeys.begin(), kErrataKeys.end());
    return s;
  };
  return {
      {"within", {with_cite({"quantity", "where", "value", "tolerance", "rel_tolerance", "uncertainty", "unit"}), {"quantity", "value"}, {}}},
      {"columns_within", {with_cite({"a", "b", "where", "tolerance", "rel_tolerance"}), {"a", "b"}, {"a", "b"}}},
      {"ratio_bounds", {with_cite({"numerator", "denominator", "min", "max"}), {"numerator", "denominator"}, {}}},
      {"bounds", {with_cite({"quantity", "where", "min", "max", "count", "unit"}), {"quantity"}, {"quantity"}}},
      {"monotone", {with_cite({"x", "y", "where", "direction", "strict", "min_points"}), {"x", "y"}, {"x", "y"}}},
      {"saturating", {with_cite({"x", "y", "where", "last_fraction"}), {"x", "y"}, {"x", "y"}}},
      {"scaling", {with_cite({"x", "y", "where", "min", "max"}), {"x", "y", "min", "max"}, {"x", "y"}}},
      {"reference_table", {with_cite({"file", "key", "columns"}), {"file", "key", "columns"}, {"key"}}},
      {"not_reproduced", {with_cite({"reason"}), {"reason"}, {}}},
  };
}

std::vector<Item> read_items(const std::string& file, const toml::table& root, const std::string& section,
                             const std::map<std::string, KindRule>* rules, const std::set<std::string>& plain_allowed) {
  std::vector<Item> out;
  const toml::node* n = root.get(section);
  if (!n) return out;
  if (!n->is_array_of_tables()) fail(at(file, *n), section, fmt::format("must be an array of tables ([[{}]])", section));
  size_t i = 0;
  for (const auto& el : *n->as_array()) {
    const auto& t = *el.as_table();
    const std::string prefix = fmt::format("{}[{}].", section, i++);
    Item item;
    item.where = at(file, t);
    item.spec = std::make_shared<toml::table>(t);
    if (rules) {
      item.kind = need_string(file, t, "kind", prefix);
      auto r = rules->find(item.kind);
      if (r == rules->end()) {
        std::string list;
        for (const auto& [k, v] : *rules) list += (list.empty() ? "" : ", ") + k;
        fail(at(file, *t.get("kind")), prefix + "kind", fmt::format("unknown kind '{}' (known: {})", item.kind, list));
      }
      only_keys(file, prefix, t, r->second.allowed);
      for (const auto& req : r->second.required)
        if (!t.get(req)) fail(item.where, prefix + req, fmt::format("missing (required for kind '{}')", item.kind));
    } else {
      only_keys(file, prefix, t, plain_allowed);
    }
    item.name = need_string(file, t, section == "check" ? "id" : "name", prefix);
    out.push_back(std::move(item));
  }
  return out;
}

void require_column(const Study& s, const std::set<std::string>& cols, const Item& item, const std::string& section,
                    const std::string& key, const std::string& value) {
  if (!cols.count(value)) {
    std::string list;
    for (const auto& c : cols) list += (list.empty() ? "" : ", ") + c;
    const toml::node* n = item.spec->get(key);
    std::string where = item.where;
    if (n && n->source().begin) where = fmt::format("{}:{}", s.file, n->source().begin.line);
    fail(where, fmt::format("{} '{}'.{}", section, item.name, key),
         fmt::format("unknown column '{}' (known: {}; declare experiment metrics in [study] metrics)", value, list));
  }
}

}  // namespace

ParamValue to_param(const toml::node& n, const std::string& where) {
  if (auto v = n.as_floating_point()) return v->get();
  if (auto v = n.as_integer()) return std::int64_t(v->get());
  if (auto v = n.as_boolean()) return v->get();
  if (auto v = n.as_string()) return v->get();
  throw StudyError(fmt::format("{}: must be a number, boolean or string", where));
}

std::string Item::text(const std::string& key, const std::string& fallback) const {
  if (auto n = spec->get(key)) {
    if (auto s = n->as_string()) return s->get();
    if (auto i = n->as_integer()) return std::to_string(i->get());
    if (auto f = n->as_floating_point()) return fmt::format("{}", f->get());
  }
  return fallback;
}
double Item::number(const std::string& key, double fallback) const {
  if (auto n = spec->get(key)) {
    if (auto f = n->as_floating_point()) return f->get();
    if (auto i = n->as_integer()) return double(i->get());
    throw StudyError(fmt::format("{}: {} '{}'.{}: must be a number", where, kind, name, key));
  }
  return fallback;
}
bool Item::flag(const std::string& key, bool fallback) const {
  if (auto n = spec->get(key)) {
    if (auto b = n->as_boolean()) return b->get();
    throw StudyError(fmt::format("{}: '{}'.{}: must be true or false", where, name, key));
  }
  return fallback;
}
bool Item::has(const std::string& key) const { return spec->get(key) != nullptr; }
std::vector<std::string> Item::texts(const std::string& key) const {
  std::vector<std::string> out;
  if (auto n = spec->get(key)) {
    if (auto s = n->as_string()) return {s->get()};
    if (auto a = n->as_array())
      for (const auto& x : *a) {
        if (!x.is_string()) throw StudyError(fmt::format("{}: '{}'.{}: must be a list of strings", where, name, key));
        out.push_back(x.as_string()->get());
      }
  }
  return out;
}
Where Item::where_filter() const {
  Where out;
  if (auto n = spec->get("where")) {
    if (!n->is_table()) throw StudyError(fmt::format("{}: '{}'.where: must be a table", where, name));
    for (const auto& [k, v] : *n->as_table()) {
      const std::string key(k.str()), at_key = where + ": where." + key;
      auto& values = out[key];
      if (auto list = v.as_array()) {  // row filter: any of the listed values
        if (list->empty()) throw StudyError(fmt::format("{}: must be a value or a non-empty list of values", at_key));
        for (const auto& x : *list) values.push_back(to_param(x, at_key));
      } else {
        values.push_back(to_param(v, at_key));
      }
    }
  }
  return out;
}

std::vector<std::string> Study::known_columns() const {
  std::vector<std::string> cols;
  if (experiment_available)
    for (const auto& p : find_experiment(experiment).parameters) cols.push_back(p.name);
  for (const auto& [k, v] : parameters) cols.push_back(k);
  cols.insert(cols.end(), metrics.begin(), metrics.end());
  for (const auto& d : derived)
    if (d.kind == "ratio" || d.kind == "time_average") cols.push_back(d.name);
  cols.push_back("replicate");
  return cols;
}

Study load_study(const std::string& path, const std::string& source_root) {
  Study s;
  s.file = path;
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    throw StudyError(fmt::format("{}:{}:{}: syntax error: {}", path, e.source().begin.line, e.source().begin.column,
                                 e.description()));
  }
  const std::string file = path;
  only_keys(file, "", root, {"study", "parameters", "sweep", "tiers", "derived", "plot", "table", "check"});
  const toml::table* st = sub_table(file, root, "study", "");
  if (!st) fail(file, "study", "missing [study] table");
  only_keys(file, "study.", *st, {"name", "title", "description", "paper", "experiment", "metrics"});
  s.name = need_string(file, *st, "name", "study.");
  s.title = need_string(file, *st, "title", "study.", false);
  s.description = need_string(file, *st, "description", "study.", false);
  s.paper = need_string(file, *st, "paper", "study.", false);
  s.experiment = need_string(file, *st, "experiment", "study.");
  if (auto m = st->get("metrics")) {
    if (!m->is_array()) fail(at(file, *m), "study.metrics", "must be an array of strings");
    for (const auto& x : *m->as_array()) {
      if (!x.is_string()) fail(at(file, x), "study.metrics", "must be an array of strings");
      s.metrics.push_back(x.as_string()->get());
    }
  }
  s.experiment_available = experiments().count(s.experiment) > 0;
  const Experiment* e = s.experiment_available ? &find_experiment(s.experiment) : nullptr;

  if (auto p = sub_table(file, root, "parameters", "")) s.parameters = read_parameters(file, *p, "parameters.", e);
  if (auto sw = sub_table(file, root, "sweep", "")) s.sweep = read_sweep(file, *sw, "sweep.", e);
  if (auto tiers = sub_table(file, root, "tiers", "")) {
    for (const auto& [k, v] : *tiers) {
      const std::string tier(k.str()), prefix = "tiers." + tier + ".";
      if (!v.is_table()) fail(at(file, v), "tiers." + tier, "must be a table");
      only_keys(file, prefix, *v.as_table(), {"parameters", "sweep"});
      Tier t;
      if (auto p = sub_table(file, *v.as_table(), "parameters", prefix)) t.parameters = read_parameters(file, *p, prefix + "parameters.", e);
      if (auto sw = sub_table(file, *v.as_table(), "sweep", prefix)) {
        t.sweep = read_sweep(file, *sw, prefix + "sweep.", e);
        if (sw->get("replicates")) t.replicates = t.sweep.replicates;
      }
      s.tiers[tier] = std::move(t);
    }
  }
  // Every parameter combination must be valid for the experiment (types and ranges): check each value
  // alone against the specs, which is what Experiment::complete does.
  if (e) {
    auto check = [&](const std::map<std::string, ParamValue>& m, const std::string& where) {
      try {
        e->complete(m);
      } catch (const std::invalid_argument& ex) {
        throw StudyError(fmt::format("{}: {}", where, ex.what()));
      }
    };
    check(s.parameters, file + ": parameters");
    auto check_axes = [&](const std::map<std::string, std::vector<ParamValue>>& axes, const std::string& where) {
      for (const auto& [k, vals] : axes)
        for (const auto& v : vals) check({{k, v}}, where + k);
    };
    check_axes(s.sweep.grid, file + ": sweep.grid.");
    check_axes(s.sweep.zip, file + ": sweep.zip.");
    for (const auto& [name, t] : s.tiers) {
      check(t.parameters, file + ": tiers." + name + ".parameters");
      check_axes(t.sweep.grid, file + ": tiers." + name + ".sweep.grid.");
      check_axes(t.sweep.zip, file + ": tiers." + name + ".sweep.zip.");
    }
  }

  const auto drules = derived_rules();
  const auto crules = check_rules();
  s.derived = read_items(file, root, "derived", &drules, {});
  s.plots = read_items(file, root, "plot", nullptr,
                       {"name", "title", "x", "xlabel", "ylabel", "logx", "logy", "series", "where", "reference"});
  s.tables = read_items(file, root, "table", nullptr, {"name", "title", "columns", "where"});
  s.checks = read_items(file, root, "check", &crules, {});
  for (const Item& c : s.checks) {  // a check's `unit` is a unit expression, as in parameter values
    if (!c.has("unit")) continue;
    try {
      units::parse_unit(c.text("unit"));
    } catch (const units::UnitError& ex) {
      fail(c.where, fmt::format("check '{}'.unit", c.name), ex.what());
    }
  }

  // `where` filters must parse (a value or a non-empty list of values per key).
  for (const auto* items : {&s.derived, &s.plots, &s.tables, &s.checks})
    for (const auto& item : *items) (void)item.where_filter();

  // Columns referenced by plots, tables, derived quantities and checks must exist.
  std::set<std::string> cols;
  for (const auto& c : s.known_columns()) cols.insert(c);
  std::set<std::string> scalars;
  for (const auto& d : s.derived) {
    if (d.kind == "ratio" || d.kind == "time_average") {
      if (d.kind == "ratio") {
        require_column(s, cols, d, "derived", "numerator", d.text("numerator"));
        require_column(s, cols, d, "derived", "denominator", d.text("denominator"));
      }
      continue;
    }
    for (const auto& key : drules.at(d.kind).column_keys) require_column(s, cols, d, "derived", key, d.text(key));
    scalars.insert(d.name);
    if (d.kind == "mean") scalars.insert(d.name + ".se");
    if (d.kind == "fit") {
      const auto names = model_parameters(d.text("model"));
      if (names.empty())
        fail(d.where, "derived '" + d.name + "'.model",
             fmt::format("unknown model '{}' (known: {})", d.text("model"), fmt::join(model_names(), ", ")));
      for (const auto& n : names) scalars.insert(d.name + "." + n), scalars.insert(d.name + "." + n + "_se");
      scalars.insert(d.name + ".r2");
      scalars.insert(d.name + ".rss");
    }
  }
  for (const auto& p : s.plots) {
    require_column(s, cols, p, "plot", "x", p.text("x"));
    const toml::node* series = p.spec->get("series");
    if (!series || !series->is_array() || series->as_array()->empty())
      fail(p.where, "plot '" + p.name + "'.series", "must be a non-empty array of { y = COLUMN, ... }");
    for (const auto& el : *series->as_array()) {
      if (!el.is_table()) fail(at(file, el), "plot '" + p.name + "'.series", "each series must be a table");
      Item si{p.name, "series", std::make_shared<toml::table>(*el.as_table()), at(file, el)};
      only_keys(file, "plot '" + p.name + "'.series.", *el.as_table(), {"y", "label", "style", "error", "aggregate", "where"});
      require_column(s, cols, si, "plot", "y", si.text("y"));
      if (si.has("error")) require_column(s, cols, si, "plot", "error", si.text("error"));
    }
    if (auto ref = p.spec->get("reference")) {
      if (!ref->is_table()) fail(at(file, *ref), "plot '" + p.name + "'.reference", "must be a table");
      only_keys(file, "plot '" + p.name + "'.reference.", *ref->as_table(), {"file", "x", "y", "error", "label", "where"});
      const std::string rf = need_string(file, *ref->as_table(), "file", "plot '" + p.name + "'.reference.");
      if (!fs::exists(fs::path(source_root) / rf)) fail(at(file, *ref), "plot '" + p.name + "'.reference.file", "file not found: " + rf);
    }
  }
  for (const auto& t : s.tables)
    for (const auto& c : t.texts("columns"))
      if (!cols.count(c) && !scalars.count(c)) require_column(s, cols, t, "table", "columns", c);
  for (const auto& c : s.checks) {
    for (const auto& key : crules.at(c.kind).column_keys) require_column(s, cols, c, "check", key, c.text(key));
    if (c.kind == "within") {
      const std::string q = c.text("quantity");
      if (!cols.count(q) && !scalars.count(q))
        fail(c.where, "check '" + c.name + "'.quantity", fmt::format("'{}' is neither a column nor a derived quantity", q));
    }
    if (c.kind == "ratio_bounds")
      for (const auto& key : {"numerator", "denominator"})
        if (!scalars.count(c.text(key)))
          fail(c.where, "check '" + c.name + "'." + key, fmt::format("'{}' is not a derived quantity", c.text(key)));
    if (c.kind == "bounds" && !c.has("min") && !c.has("max"))
      fail(c.where, "check '" + c.name + "'.min", "a bounds check needs min, max or both");
    if (c.kind == "monotone" && c.has("min_points") && c.number("min_points", 3) < 2)
      fail(c.where, "check '" + c.name + "'.min_points", "must be >= 2");
    if (c.has("errata")) {
      if (!c.has("reference_file")) fail(c.where, "check '" + c.name + "'.reference_file", "required with `errata`");
      const std::string rf = c.text("reference_file");
      if (!fs::exists(fs::path(source_root) / rf)) fail(c.where, "check '" + c.name + "'.reference_file", "file not found: " + rf);
      std::set<std::string> quantities;
      for (const auto& row : read_csv((fs::path(source_root) / rf).string()))
        if (auto q = row.find("quantity"); q != row.end()) quantities.insert(q->second);
      for (const auto& q : c.texts("errata"))
        if (!quantities.count(q))
          fail(c.where, "check '" + c.name + "'.errata", fmt::format("no row with quantity '{}' in {}", q, rf));
    }
    if (c.kind == "reference_table") {
      const std::string rf = c.text("file");
      if (!fs::exists(fs::path(source_root) / rf)) fail(c.where, "check '" + c.name + "'.file", "file not found: " + rf);
      for (const auto& col : c.texts("columns")) require_column(s, cols, c, "check", "columns", col);
    }
  }
  return s;
}

std::vector<std::string> study_files(const std::string& dir) {
  std::vector<std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".toml") out.push_back(entry.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace grainlab::pipeline
