// Study loading: TOML file -> Study, with every check that needs no run (unknown keys, types, ranges via
// the experiment's ParameterSpecs, sweep and plot/check columns; the analysis sections' schemas and `where`
// filters are in validate.cpp). Errors name file, line and key; the first cause is reported, as the file is
// read top-down and nothing downstream of the experiment is looked at before the experiment is known.
// Reads: the study file and the reference files it names (existence only). Single-threaded.
#include "pipeline/study.hpp"

#include "pipeline/analysis.hpp"
#include "pipeline/fit.hpp"
#include "pipeline/pair_override_section.hpp"
#include "pipeline/scene_section.hpp"
#include "pipeline/sweep.hpp"
#include "pipeline/units.hpp"
#include "pipeline/validate.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace grainlab::pipeline {
namespace fs = std::filesystem;

namespace {

void only_keys(const std::string& file, const std::string& prefix, const toml::table& t,
               const std::vector<std::string>& allowed) {
  for (const auto& [k, v] : t) {
    const std::string key(k.str());
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      fail(at(file, v), prefix + key, fmt::format("unknown key (allowed here: {}){}", fmt::join(allowed, ", "), did_you_mean(key, allowed)));
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

/// `s` with control characters as \xNN, so that a message stays on one line.
std::string printable(const std::string& s) {
  std::string out;
  for (unsigned char c : s) out += c < 0x20 || c == 0x7f ? fmt::format("\\x{:02x}", c) : std::string(1, char(c));
  return out;
}

/// A name used as a path component (results folder, figure or table file, check table): never a path.
void need_identifier(const std::string& file, const toml::table& t, const std::string& key, const std::string& prefix,
                     const std::string& what) {
  const std::string v = need_string(file, t, key, prefix);
  if (!plain_identifier(v))
    fail(at(file, *t.get(key)), prefix + key,
         fmt::format("'{}' is not a plain identifier ({}: letters, digits, '_', '-' and '.', starting with a letter, digit "
                     "or '_'; no '/', no \"..\", not empty)", printable(v), what));
}

/// Type and range of one value against the experiment's spec, reported at the value's line. Without the
/// experiment (pending) there is no spec that could allow NaN or infinity, so they are refused.
void check_value(const std::string& file, const toml::node& n, const std::string& key, const Experiment* e,
                 const std::string& param, const ParamValue& v) {
  if (!e) {
    if (auto d = std::get_if<double>(&v); d && !std::isfinite(*d)) fail(at(file, n), key, fmt::format("must be a finite number, got {}", *d));
    return;
  }
  try {
    e->complete({{param, v}});
  } catch (const std::invalid_argument& ex) {
    fail(at(file, n), key, ex.what());
  }
}

std::vector<std::string> parameter_names(const Experiment& e) {
  std::vector<std::string> out;
  for (const auto& p : e.parameters) out.push_back(p.name);
  return out;
}

void known_parameter(const std::string& file, const toml::node& n, const std::string& key, const Experiment* e,
                     const std::string& name, const std::string& what) {
  if (e && !e->find(name))
    fail(at(file, n), key, fmt::format("{}experiment '{}' has no parameter '{}'{}", what, e->name, name, did_you_mean(name, parameter_names(*e))));
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
    known_parameter(file, v, prefix + key, e, key, "");
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
    known_parameter(file, v, prefix + key, e, key, "sweep over unknown parameter: ");
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
  s.where = at(file, t);
  if (auto g = sub_table(file, t, "grid", prefix)) s.grid = read_axes(file, *g, prefix + "grid.", e);
  if (auto z = sub_table(file, t, "zip", prefix)) {
    s.zip = read_axes(file, *z, prefix + "zip.", e);
    size_t len = 0;
    for (const auto& [k, v] : s.zip) {
      if (len && v.size() != len)
        fail(at(file, *z->get(k)), prefix + "zip." + k, fmt::format("zipped lists must have equal lengths ({} vs {})", v.size(), len));
      len = v.size();
    }
  }
  for (const auto& [k, v] : s.zip)
    if (s.grid.count(k)) fail(at(file, t), prefix + k, "parameter is both in grid and zip");
  if (auto r = t.get("replicates")) {
    if (!r->is_integer() || r->as_integer()->get() < 1) fail(at(file, *r), prefix + "replicates", "must be an integer >= 1");
    if (r->as_integer()->get() > 1000000) fail(at(file, *r), prefix + "replicates", "must be at most 1000000");
    s.replicates = int(r->as_integer()->get());
  }
  s.seed_parameter = need_string(file, t, "seed_parameter", prefix, false);
  if (auto b = t.get("seed_base")) {
    // Bounded so that seed_base + replicate can never overflow.
    if (!b->is_integer() || std::abs(b->as_integer()->get()) > (std::int64_t(1) << 62))
      fail(at(file, *b), prefix + "seed_base", "must be an integer between -2^62 and 2^62");
    s.seed_base = b->as_integer()->get();
  }
  if (!s.seed_parameter.empty() && e) {
    const toml::node& n = *t.get("seed_parameter");
    known_parameter(file, n, prefix + "seed_parameter", e, s.seed_parameter, "");
    if (e->find(s.seed_parameter)->type != ParamType::integer) fail(at(file, n), prefix + "seed_parameter", "must name an integer parameter");
  }
  return s;
}

/// Reads [[section]] items: each key checked against the kind's schema (validate.cpp) at its own line.
std::vector<Item> read_items(const std::string& file, const toml::table& root, const std::string& section,
                             const std::map<std::string, Schema>* kinds, const Schema* plain) {
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
    for (const auto& [k, v] : t) item.key_at[std::string(k.str())] = at(file, v);
    const Schema* schema = plain;
    std::string note;
    if (kinds) {
      item.kind = need_string(file, t, "kind", prefix);
      auto r = kinds->find(item.kind);
      if (r == kinds->end()) {
        std::vector<std::string> known;
        for (const auto& [k, v] : *kinds) known.push_back(k);
        fail(at(file, *t.get("kind")), prefix + "kind",
             fmt::format("unknown kind '{}' (known: {}){}", item.kind, fmt::join(known, ", "), did_you_mean(item.kind, known)));
      }
      schema = &r->second;
      note = fmt::format(" for kind '{}'", item.kind);
    }
    validate_keys(file, prefix, t, *schema, note);
    const std::string name_key = section == "check" ? "id" : "name";
    need_identifier(file, t, name_key, prefix,
                    section == "check" ? "it names check_ID.md" : section == "derived" ? "it names columns and scalars" : "it is a file name");
    item.name = need_string(file, t, name_key, prefix);
    for (const auto& prev : out)
      if (prev.name == item.name)
        fail(item.at_key(name_key), prefix + name_key, fmt::format("duplicate {} '{}' (first at {})", name_key, item.name, prev.at_key(name_key)));
    out.push_back(std::move(item));
  }
  return out;
}

void require_column(const std::set<std::string>& cols, const Item& item, const std::string& section,
                    const std::string& key, const std::string& value, const std::string& pending_note, const std::string& shown_key = "") {
  if (!cols.count(value)) {
    const std::vector<std::string> known(cols.begin(), cols.end());
    fail(item.at_key(key), fmt::format("{} '{}'.{}", section, item.name, shown_key.empty() ? key : shown_key),
         fmt::format("unknown column '{}'{} (known: {}; declare experiment metrics in [study] metrics){}", value, did_you_mean(value, known),
                     fmt::join(known, ", "), pending_note));
  }
}

/// [study] tiers: quick and full always exist; other tiers must be declared before [tiers.NAME] may use them.
std::vector<std::string> read_tier_names(const std::string& file, const toml::table& st) {
  std::vector<std::string> names = {"quick", "full"};
  const toml::node* n = st.get("tiers");
  if (!n) return names;
  if (!n->is_array()) fail(at(file, *n), "study.tiers", "must be an array of tier names");
  for (const auto& x : *n->as_array()) {
    if (!x.is_string() || !plain_identifier(x.as_string()->get()))
      fail(at(file, x), "study.tiers", "each tier must be a plain identifier (a results folder name)");
    const std::string t = x.as_string()->get();
    if (std::find(names.begin(), names.end(), t) == names.end()) names.push_back(t);
  }
  return names;
}

}  // namespace

std::string Item::at_key(const std::string& key) const {
  auto it = key_at.find(key);
  return it == key_at.end() ? where : it->second;
}

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

namespace {
/// Derived quantities that add a column to every run (the others give scalars).
bool per_run_column(const Item& d) {
  return d.kind == "ratio" || d.kind == "time_average" || d.kind == "coalesce" || d.kind == "relative_deviation" ||
         d.kind == "series_distance" ||
         (d.kind == "min_reaching" && d.has("group_by")) ||
         (d.kind == "model" && !d.has("at"));
}

/// Columns every stored run of `s` (or of a study it imports) carries: parameters, metrics, `replicate`,
/// and `study` when it imports. Derived columns are computed by each study's own analysis, not imported.
std::vector<std::string> run_columns(const Study& s) {
  std::vector<std::string> cols;
  if (s.runs_own() && s.experiment_available)
    for (const auto& p : find_experiment(s.experiment).parameters) cols.push_back(p.name);
  // A pending experiment's parameters are known only where the study sets them.
  auto add_sweep = [&](const Sweep& sw) {
    for (const auto& [k, v] : sw.grid) cols.push_back(k);
    for (const auto& [k, v] : sw.zip) cols.push_back(k);
  };
  for (const auto& [k, v] : s.parameters) cols.push_back(k);
  add_sweep(s.sweep);
  for (const auto& [name, t] : s.tiers) {
    for (const auto& [k, v] : t.parameters) cols.push_back(k);
    add_sweep(t.sweep);
  }
  cols.insert(cols.end(), s.metrics.begin(), s.metrics.end());
  cols.push_back("replicate");
  for (const auto& imp : s.imported) {
    const auto more = run_columns(imp);
    for (const auto& c : more)
      if (std::find(cols.begin(), cols.end(), c) == cols.end()) cols.push_back(c);
  }
  if (!s.imported.empty() && std::find(cols.begin(), cols.end(), "study") == cols.end()) cols.push_back("study");
  return cols;
}
}  // namespace

namespace {
/// The scalars one derived quantity defines (none for a per-run column).
std::vector<std::string> derived_scalars(const Item& d) {
  if (per_run_column(d)) return {};
  std::vector<std::string> out = {d.name};
  if (d.kind == "mean") out.push_back(d.name + ".se");
  if (d.kind == "scalar_mean") out.push_back(d.name + ".above_one");
  if (d.kind == "fit") {
    for (const auto& n : model_parameters(d.text("model"))) out.push_back(d.name + "." + n), out.push_back(d.name + "." + n + "_se");
    for (const char* stat : {".r2", ".rss", ".points", ".skipped"}) out.push_back(d.name + stat);
  }
  return out;
}

/// The scalars of the studies `s` imports, each prefixed with the imported study's name.
std::vector<std::string> imported_scalar_names(const Study& s) {
  std::vector<std::string> out;
  for (const auto& imp : s.imported)
    for (const auto& n : imp.scalar_names()) out.push_back(imp.name + "." + n);
  return out;
}
}  // namespace

std::vector<std::string> Study::scalar_names() const {
  std::vector<std::string> out = imported_scalar_names(*this);
  for (const auto& d : derived)
    for (auto& n : derived_scalars(d)) out.push_back(std::move(n));
  return out;
}

std::vector<std::string> Study::known_columns() const {
  std::vector<std::string> cols = run_columns(*this);
  for (const auto& d : derived)
    if (per_run_column(d)) cols.push_back(d.name);
  return cols;
}

std::vector<const Study*> run_sources(const Study& s) {
  std::vector<const Study*> out;
  auto add = [&](auto&& self, const Study& t) -> void {
    if (t.runs_own() && std::none_of(out.begin(), out.end(), [&](const Study* o) { return o->name == t.name; })) out.push_back(&t);
    for (const auto& imp : t.imported) self(self, imp);
  };
  add(add, s);
  return out;
}

namespace {

/// The [study] table: names, experiment (a typo is an error with "did you mean"; a study may name an
/// experiment this build lacks only with `experiment_pending = true`), metrics and tiers.
const Experiment* read_study_table(Study& s, const toml::table& root) {
  const std::string& file = s.file;
  const toml::table* st = sub_table(file, root, "study", "");
  if (!st) fail(file, "study", "missing [study] table");
  only_keys(file, "study.", *st, {"name", "title", "description", "paper", "experiment", "experiment_pending", "metrics", "tiers", "imports"});
  need_identifier(file, *st, "name", "study.", "it names the results folder");
  s.name = need_string(file, *st, "name", "study.");
  s.title = need_string(file, *st, "title", "study.", false);
  s.description = need_string(file, *st, "description", "study.", false);
  s.paper = need_string(file, *st, "paper", "study.", false);
  // A study that imports others may have no experiment of its own: it analyses their runs.
  const bool imports = st->get("imports") != nullptr;
  s.experiment = need_string(file, *st, "experiment", "study.", !imports);
  if (!s.runs_own()) {
    for (const char* key : {"experiment_pending", "metrics"})
      if (st->get(key))
        fail(at(file, *st->get(key)), fmt::format("study.{}", key),
             "needs study.experiment (a study without one analyses the runs of the studies it imports, with their metrics)");
    s.tier_names = read_tier_names(file, *st);
    return nullptr;
  }
  bool pending = false;
  if (auto p = st->get("experiment_pending")) {
    if (!p->is_boolean()) fail(at(file, *p), "study.experiment_pending", "must be true or false");
    pending = p->as_boolean()->get();
  }
  s.experiment_available = experiments().count(s.experiment) > 0;
  if (!s.experiment_available && !pending) {
    std::vector<std::string> known;
    for (const auto& [n, e] : experiments()) known.push_back(n);
    fail(at(file, *st->get("experiment")), "study.experiment",
         fmt::format("unknown experiment '{}'{} (known: {}; a study of an experiment not in this build yet needs "
                     "experiment_pending = true)",
                     s.experiment, did_you_mean(s.experiment, known), fmt::join(known, ", ")));
  }
  if (auto m = st->get("metrics")) {
    if (!m->is_array()) fail(at(file, *m), "study.metrics", "must be an array of strings");
    for (const auto& x : *m->as_array()) {
      if (!x.is_string() || x.as_string()->get().empty()) fail(at(file, x), "study.metrics", "must be an array of non-empty strings");
      const std::string name = x.as_string()->get();
      if (std::find(s.metrics.begin(), s.metrics.end(), name) != s.metrics.end())
        fail(at(file, x), "study.metrics", fmt::format("metric '{}' listed twice", name));
      s.metrics.push_back(name);
    }
  }
  s.tier_names = read_tier_names(file, *st);
  return s.experiment_available ? &find_experiment(s.experiment) : nullptr;
}

/// `replicates > 1` needs a seed parameter in every tier, and every seed must be a valid value of it;
/// reported at the `replicates` that asks for them.
void check_replicates(const Study& s, const toml::table& root, const Experiment* e) {
  for (const auto& tier : s.tier_names) {
    const TierSweep ts = tier_sweep(s, tier);
    if (ts.sweep.replicates <= 1) continue;
    const toml::node* n = root.at_path("tiers." + tier + ".sweep.replicates").node();
    std::string key = "tiers." + tier + ".sweep.replicates";
    if (!n || !s.tiers.count(tier) || !s.tiers.at(tier).replicates) n = root.at_path("sweep.replicates").node(), key = "sweep.replicates";
    const std::string where = n ? at(s.file, *n) : s.file;
    if (ts.sweep.seed_parameter.empty())
      fail(where, key,
           fmt::format("replicates = {} (tier '{}') needs sweep.seed_parameter: an integer parameter that receives seed_base + "
                       "replicate, else every replicate is the same run",
                       ts.sweep.replicates, tier));
    if (!e) continue;
    for (const std::int64_t seed : {ts.sweep.seed_base, ts.sweep.seed_base + ts.sweep.replicates - 1}) {
      try {
        e->complete({{ts.sweep.seed_parameter, seed}});
      } catch (const std::invalid_argument& ex) {
        fail(where, key, fmt::format("seeds {} ... {} of tier '{}': {}", ts.sweep.seed_base, ts.sweep.seed_base + ts.sweep.replicates - 1,
                                     tier, ex.what()));
      }
    }
  }
}

/// The model keys of a fit or model quantity: as many x columns as the model takes, eq41's own settings
/// (tolerance eps > 0, required; narrow_width) only for eq41, and for a model quantity one coefficient per
/// parameter (a number or a scalar of an earlier derived quantity) and `at` (one value per x).
void check_model_keys(const Item& d, const std::set<std::string>& scalars) {
  const std::string model = d.text("model"), at_d = "derived '" + d.name + "'.";
  const auto x = d.texts("x");
  if (x.size() != model_inputs(model))
    fail(d.at_key("x"), at_d + "x", fmt::format("model '{}' takes {} x column{}{}, got {}", model, model_inputs(model),
                                               model_inputs(model) == 1 ? "" : "s", model == "eq41" ? " (l, w, I)" : "", x.size()));
  if (d.has("one_per") != d.has("keep_largest"))
    fail(d.where, at_d + (d.has("one_per") ? "keep_largest" : "one_per"),
         "one_per and keep_largest go together (one run per group of equal one_per columns: the one with the largest keep_largest)");
  for (const char* key : {"tolerance", "narrow_width"})
    if (d.has(key) && model != "eq41") fail(d.at_key(key), at_d + key, fmt::format("only model 'eq41' has a {}", key));
  if (model == "eq41") {
    if (!d.has("tolerance")) fail(d.where, at_d + "tolerance", "missing (required for model 'eq41': the eps of N_it^eps, e.g. 0.05)");
    if (!(d.number("tolerance", 0) > 0)) fail(d.at_key("tolerance"), at_d + "tolerance", "must be > 0");
  }
  if (d.kind != "model") return;
  const auto names = model_parameters(model);
  const toml::array& terms = *d.spec->get("parameters")->as_array();
  if (terms.size() != names.size())
    fail(d.at_key("parameters"), at_d + "parameters",
         fmt::format("model '{}' has {} parameters ({}), got {} values", model, names.size(), fmt::join(names, ", "), terms.size()));
  for (const auto& t : terms)
    if (auto q = t.as_string(); q && !scalars.count(q->get()))
      fail(d.at_key("parameters"), at_d + "parameters",
           fmt::format("'{}' is not a scalar of an earlier derived quantity{}", q->get(), did_you_mean(q->get(), {scalars.begin(), scalars.end()})));
  if (d.has("at") && d.spec->get("at")->as_array()->size() != x.size())
    fail(d.at_key("at"), at_d + "at", fmt::format("{} values for {} x columns (one per x)", d.spec->get("at")->as_array()->size(), x.size()));
}

/// min <= max where a check or derived quantity has both.
void ordered(const Item& it, const std::string& section, const std::string& lo, const std::string& hi) {
  if (it.has(lo) && it.has(hi) && it.number(lo, 0) > it.number(hi, 0))
    fail(it.at_key(lo), fmt::format("{} '{}'.{}", section, it.name, lo), fmt::format("{} = {} is above {} = {}", lo, it.number(lo, 0), hi, it.number(hi, 0)));
}

/// Every `where` of the analysis sections must select runs in every tier (validate_where). A series'
/// filter is the plot's with the series' keys replacing the plot's.
void check_where_filters(const Study& s) {
  for (const auto& [section, items] : {std::pair{"derived", &s.derived}, std::pair{"table", &s.tables}, std::pair{"check", &s.checks}})
    for (const auto& it : *items) validate_where(s, it.where_filter(), it.at_key("where"), fmt::format("{} '{}'.where", section, it.name));
  for (const auto& p : s.plots) {
    const Where plot_where = p.where_filter();
    validate_where(s, plot_where, p.at_key("where"), fmt::format("plot '{}'.where", p.name));
    std::size_t index = 0;
    for (const auto& el : *p.spec->get("series")->as_array()) {
      Item series;
      series.name = p.name;
      series.kind = "series";
      series.spec = std::make_shared<toml::table>(*el.as_table());
      series.where = el.source().begin ? at(s.file, el) : p.at_key("series");
      Where w = plot_where;
      for (const auto& [k, v] : series.where_filter()) w[k] = v;
      validate_where(s, w, series.where, fmt::format("plot '{}'.series[{}].where", p.name, index++));
    }
  }
}

}  // namespace

namespace {
Study load_study_from(const std::string& path, const std::string& source_root, std::vector<std::string>& loading);

/// `[study] imports = ["a", "b"]`: each a study file NAME.toml in this file's folder, loaded (and so
/// validated) recursively; a cycle, an unknown name and a tier of this study that an import lacks are
/// errors at the name's line. `loading` holds the files being loaded, outermost first (for cycles).
void read_imports(Study& s, const toml::table& st, const std::string& source_root, std::vector<std::string>& loading) {
  const std::string& file = s.file;
  const toml::node* n = st.get("imports");
  if (!n) return;
  if (!n->is_array() || n->as_array()->empty()) fail(at(file, *n), "study.imports", "must be a non-empty array of study names");
  const fs::path dir = fs::path(file).parent_path();
  std::set<std::string> seen;
  for (const auto& x : *n->as_array()) {
    const std::string where = at(file, x);
    if (!x.is_string() || !plain_identifier(x.as_string()->get()))
      fail(where, "study.imports", "each import must be a study name (NAME for NAME.toml in the same folder as this file)");
    const std::string name = x.as_string()->get();
    if (!seen.insert(name).second) fail(where, "study.imports", fmt::format("study '{}' imported twice", name));
    const fs::path f = dir / (name + ".toml");
    if (!fs::is_regular_file(f)) {
      std::vector<std::string> known;
      for (const auto& g : study_files(dir.string())) known.push_back(fs::path(g).stem().string());
      fail(where, "study.imports",
           fmt::format("no study '{}' to import ({} not found){} (known: {})", name, f.string(), did_you_mean(name, known),
                       fmt::join(known, ", ")));
    }
    const std::string canonical = fs::weakly_canonical(f).string();
    if (auto it = std::find(loading.begin(), loading.end(), canonical); it != loading.end()) {
      std::vector<std::string> chain;
      for (; it != loading.end(); ++it) chain.push_back(fs::path(*it).stem().string());
      chain.push_back(name);
      fail(where, "study.imports", fmt::format("import cycle: {}", fmt::join(chain, " -> ")));
    }
    Study imported;
    try {
      imported = load_study_from(f.string(), source_root, loading);
    } catch (const StudyError& e) {
      throw StudyError(fmt::format("{} (imported at {}: study.imports)", e.what(), where));
    }
    for (const auto& tier : s.tier_names)
      if (std::find(imported.tier_names.begin(), imported.tier_names.end(), tier) == imported.tier_names.end())
        fail(where, "study.imports",
             fmt::format("imported study '{}' has no tier '{}' (its tiers: {}); a tier of this study analyses the same tier of "
                         "every study it imports",
                         name, tier, fmt::join(imported.tier_names, ", ")));
    s.imported.push_back(std::move(imported));
  }
}
}  // namespace

Study load_study(const std::string& path, const std::string& source_root) {
  std::vector<std::string> loading;
  return load_study_from(path, source_root, loading);
}

namespace {
Study load_study_from(const std::string& path, const std::string& source_root, std::vector<std::string>& loading) {
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
  only_keys(file, "", root, {"study", "parameters", "sweep", "tiers", "scene", "pair_override", "derived", "plot", "table", "check"});
  const Experiment* e = read_study_table(s, root);
  loading.push_back(fs::weakly_canonical(path).string());
  read_imports(s, *root.get("study")->as_table(), source_root, loading);
  loading.pop_back();
  if (!s.runs_own())
    for (const char* key : {"parameters", "sweep", "tiers"})
      if (auto n = root.get(key))
        fail(at(file, *n), key, "needs study.experiment: a study without one has no runs of its own, only those it imports");

  if (auto p = sub_table(file, root, "parameters", "")) s.parameters = read_parameters(file, *p, "parameters.", e);
  if (auto sw = sub_table(file, root, "sweep", "")) s.sweep = read_sweep(file, *sw, "sweep.", e);
  if (auto tiers = sub_table(file, root, "tiers", "")) {
    for (const auto& [k, v] : *tiers) {
      const std::string tier(k.str()), prefix = "tiers." + tier + ".";
      if (std::find(s.tier_names.begin(), s.tier_names.end(), tier) == s.tier_names.end())
        fail(at(file, v), "tiers." + tier,
             fmt::format("unknown tier '{}' (tiers: {}; declare others in [study] tiers = [...]){}", tier,
                         fmt::join(s.tier_names, ", "), did_you_mean(tier, s.tier_names)));
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
  check_replicates(s, root, e);
  read_scene_section(s, root, e);  // [scene]: bodies, motors, outputs (pipeline/scene_section.hpp)
  read_pair_override_section(s, root, e);  // [[pair_override]] (pipeline/pair_override_section.hpp)

  s.derived = read_items(file, root, "derived", &derived_schemas(), nullptr);
  s.plots = read_items(file, root, "plot", nullptr, &plot_schema());
  s.tables = read_items(file, root, "table", nullptr, &table_schema());
  s.checks = read_items(file, root, "check", &check_schemas(), nullptr);
  for (const Item& c : s.checks) {  // a check's `unit` is a unit expression, as in parameter values
    if (!c.has("unit")) continue;
    try {
      units::parse_unit(c.text("unit"));
    } catch (const units::UnitError& ex) {
      fail(c.where, fmt::format("check '{}'.unit", c.name), ex.what());
    }
  }

  // Columns referenced by plots, tables, derived quantities and checks must exist.
  std::set<std::string> cols;
  for (const auto& c : s.known_columns()) cols.insert(c);
  const std::string pending = s.experiment_available
                                  ? ""
                                  : fmt::format(" (experiment '{}' is pending: only the parameters this study sets are known)", s.experiment);
  auto column = [&](const Item& it, const std::string& section, const std::string& key, const std::string& value,
                    const std::string& shown_key = "") { require_column(cols, it, section, key, value, pending, shown_key); };
  std::set<std::string> scalars;
  for (auto& n : imported_scalar_names(s)) scalars.insert(std::move(n));  // usable by this study's derived quantities and checks
  const std::vector<std::string> all_columns = s.known_columns();
  for (const auto& d : s.derived) {
    // A derived column may not shadow a parameter or metric (the frame would silently overwrite it).
    if (per_run_column(d) && std::count(all_columns.begin(), all_columns.end(), d.name) > 1)
      fail(d.at_key("name"), "derived '" + d.name + "'.name", fmt::format("'{}' is already a column (parameter or metric)", d.name));
    ordered(d, "derived", "from", "to");
    if (d.kind == "coalesce")
      for (const auto& c : d.texts("of")) column(d, "derived", "of", c);
    if (d.kind == "ratio" || d.kind == "time_average" || d.kind == "coalesce") {
      if (d.kind == "ratio") {
        column(d, "derived", "numerator", d.text("numerator"));
        column(d, "derived", "denominator", d.text("denominator"));
      }
      continue;
    }
    for (const auto& [key, spec] : derived_schemas().at(d.kind))
      if (spec.type == KeyType::column && d.has(key)) column(d, "derived", key, d.text(key));
    for (const char* key : {"x", "group_by", "one_per"})  // lists of columns
      if (d.has(key) && (d.kind == "fit" || d.kind == "model" || d.kind == "min_reaching"))
        for (const auto& c : d.texts(key)) column(d, "derived", key, c);
    if (d.kind == "fit" || d.kind == "model") check_model_keys(d, scalars);
    if (d.kind == "relative_deviation" && !scalars.count(d.text("reference")))
      fail(d.at_key("reference"), "derived '" + d.name + "'.reference",
           fmt::format("'{}' is not a scalar of an earlier derived quantity{}", d.text("reference"),
                       did_you_mean(d.text("reference"), {scalars.begin(), scalars.end()})));
    if (per_run_column(d)) continue;
    if (scalars.count(d.name)) fail(d.at_key("name"), "derived '" + d.name + "'.name", "duplicate scalar name");
    if (d.kind == "scalar_mean") {
      // Terms are scalars of earlier derived quantities (evaluated in file order).
      // `of`: scalar names or numbers (a constant term, e.g. an assumed factor); `per`: scalar names.
      std::vector<std::string> of;
      std::size_t terms = 0;
      for (const auto& t : *d.spec->get("of")->as_array()) {
        ++terms;
        if (t.is_string()) of.push_back(t.as_string()->get());
      }
      if (d.has("per") && d.texts("per").size() != terms)
        fail(d.at_key("per"), "derived '" + d.name + "'.per", fmt::format("{} names for {} in `of` (one per term)", d.texts("per").size(), terms));
      for (const auto& key : {"of", "per"})
        for (const auto& q : std::string(key) == "of" ? of : d.texts(key))
          if (q == d.name || !scalars.count(q))
            fail(d.at_key(key), "derived '" + d.name + "'." + key,
                 fmt::format("'{}' is not a scalar of an earlier derived quantity{}", q, did_you_mean(q, {scalars.begin(), scalars.end()})));
    }
    if (d.kind == "fit") {
      const auto names = model_parameters(d.text("model"));
      if (auto g = d.spec->get("guess"); g && g->as_array()->size() != names.size())
        fail(d.at_key("guess"), "derived '" + d.name + "'.guess",
             fmt::format("model '{}' has {} parameters ({}), guess has {} values", d.text("model"), names.size(), fmt::join(names, ", "),
                         g->as_array()->size()));
    }
    for (auto& n : derived_scalars(d)) scalars.insert(std::move(n));
  }
  for (const auto& p : s.plots) {
    // A plot of stored run series names the series' own columns: known only once runs exist.
    const bool run_series = p.has("run_series");
    if (!run_series) column(p, "plot", "x", p.text("x"));
    if (p.has("label_by")) column(p, "plot", "label_by", p.text("label_by"));
    const toml::node* series = p.spec->get("series");
    std::size_t index = 0;
    for (const auto& el : *series->as_array()) {
      const std::string series_key = fmt::format("series[{}]", index++), prefix = "plot '" + p.name + "'." + series_key + ".";
      // A series' own line where toml++ kept one, else the line of `series =`.
      const std::string el_at = el.source().begin ? at(file, el) : p.at_key("series");
      validate_keys(file, prefix, *el.as_table(), series_schema(), "", el_at);
      Item si;
      si.name = p.name;
      si.kind = "series";
      si.spec = std::make_shared<toml::table>(*el.as_table());
      si.where = el_at;
      for (const auto& [k, v] : *el.as_table()) si.key_at[std::string(k.str())] = v.source().begin ? at(file, v) : el_at;
      if (!run_series) column(si, "plot", "y", si.text("y"), series_key + ".y");
      // A heat map (style "image") draws column z of a run series over its x-y grid.
      const bool image = si.text("style", "points") == "image";
      if (image && !run_series) fail(si.at_key("style"), prefix + "style", "\"image\" needs the plot's run_series (a stored field on a grid)");
      if (image != si.has("z")) fail(el_at, prefix + "z", "z is required with style = \"image\" and allowed only there");
      if (si.has("error")) column(si, "plot", "error", si.text("error"), series_key + ".error");
    }
    if (auto ref = p.spec->get("reference")) {
      const std::string prefix = "plot '" + p.name + "'.reference.";
      validate_keys(file, prefix, *ref->as_table(), reference_schema(), "", p.at_key("reference"));
      const Item r{p.name, "reference", std::make_shared<toml::table>(*ref->as_table()), p.at_key("reference"), {}};
      const std::string rf = r.text("file");
      if (!fs::exists(fs::path(source_root) / rf)) fail(r.where, prefix + "file", "file not found: " + rf);
      // The reference CSV's header must have the columns the overlay reads and filters on.
      const auto rows = read_csv((fs::path(source_root) / rf).string());
      if (!rows.empty()) {
        std::vector<std::string> wanted = {r.text("x"), r.text("y")};
        if (r.has("error")) wanted.push_back(r.text("error"));
        for (const auto& [k, v] : r.where_filter()) wanted.push_back(k);
        for (const auto& c : wanted)
          if (!rows.front().count(c)) fail(r.where, prefix + "file", fmt::format("{} has no column '{}'", rf, c));
      }
    }
  }
  for (const auto& t : s.tables)
    for (const auto& c : t.texts("columns"))
      if (!cols.count(c) && !scalars.count(c)) column(t, "table", "columns", c);
  for (const auto& c : s.checks) {
    for (const auto& [key, spec] : check_schemas().at(c.kind))
      if (spec.type == KeyType::column && c.has(key)) column(c, "check", key, c.text(key));
    ordered(c, "check", "min", "max");
    if (c.kind == "within") {
      const std::string q = c.text("quantity");
      if (!cols.count(q) && !scalars.count(q)) {
        std::vector<std::string> known(cols.begin(), cols.end());
        known.insert(known.end(), scalars.begin(), scalars.end());
        fail(c.at_key("quantity"), "check '" + c.name + "'.quantity",
             fmt::format("'{}' is neither a column nor a derived quantity{}", q, did_you_mean(q, known)));
      }
    }
    if (c.kind == "scalars_within")
      for (const auto& q : c.texts("of"))
        if (!scalars.count(q))
          fail(c.at_key("of"), "check '" + c.name + "'.of",
               fmt::format("'{}' is not a derived quantity{}", q, did_you_mean(q, {scalars.begin(), scalars.end()})));
    if (c.kind == "ratio_bounds")
      for (const auto& key : {"numerator", "denominator"})
        if (!scalars.count(c.text(key)))
          fail(c.at_key(key), "check '" + c.name + "'." + key,
               fmt::format("'{}' is not a derived quantity{}", c.text(key), did_you_mean(c.text(key), {scalars.begin(), scalars.end()})));
    if ((c.kind == "bounds" || c.kind == "scalars_within") && !c.has("min") && !c.has("max"))
      fail(c.where, "check '" + c.name + "'.min", fmt::format("a {} check needs min, max or both", c.kind));
    if (c.has("errata")) {
      if (!c.has("reference_file")) fail(c.at_key("errata"), "check '" + c.name + "'.reference_file", "required with `errata`");
      const std::string rf = c.text("reference_file");
      if (!fs::exists(fs::path(source_root) / rf)) fail(c.at_key("reference_file"), "check '" + c.name + "'.reference_file", "file not found: " + rf);
      std::set<std::string> quantities;
      for (const auto& row : read_csv((fs::path(source_root) / rf).string()))
        if (auto q = row.find("quantity"); q != row.end()) quantities.insert(q->second);
      for (const auto& q : c.texts("errata"))
        if (!quantities.count(q))
          fail(c.at_key("errata"), "check '" + c.name + "'.errata", fmt::format("no row with quantity '{}' in {}", q, rf));
    }
    if (c.kind == "reference_table") {
      const std::string rf = c.text("file");
      if (!fs::exists(fs::path(source_root) / rf)) fail(c.at_key("file"), "check '" + c.name + "'.file", "file not found: " + rf);
      for (const auto& col : c.texts("columns")) column(c, "check", "columns", col);
    }
  }
  // Filters last: they need the tiers, and a typo'd column above is the earlier cause.
  check_where_filters(s);
  return s;
}

}  // namespace

std::vector<std::string> study_files(const std::string& dir) {
  std::vector<std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".toml") out.push_back(entry.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace grainlab::pipeline
