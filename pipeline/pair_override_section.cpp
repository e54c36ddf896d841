#include "pipeline/pair_override_section.hpp"

#include <set>

#include <fmt/format.h>

#include "core/error.hpp"
#include "experiments/pair_override_parameters.hpp"
#include "pipeline/scene_section.hpp"
#include "pipeline/validate.hpp"

namespace grainlab::pipeline {

namespace {

const std::vector<std::string> value_keys = {"restitution", "friction", "rolling_friction", "twisting_factor"};

NamedPairOverride read_entry(const std::string& file, const toml::table& t, const std::string& prefix) {
  NamedPairOverride o;
  const std::string where = at(file, t);
  std::vector<std::string> known = value_keys;
  known.push_back("materials");
  for (const auto& [k, v] : t) {
    const std::string key(k.str());
    if (std::find(known.begin(), known.end(), key) == known.end())
      fail(at(file, v), prefix + key, fmt::format("unknown key{}", did_you_mean(key, known)));
  }
  const toml::array* names = t.get_as<toml::array>("materials");
  if (!names || names->size() != 2 || !names->get(0)->is_string() || !names->get(1)->is_string())
    fail(names ? at(file, *names) : where, prefix + "materials", "must be two material names, e.g. [\"grain\", \"drum\"]");
  o.a = names->get(0)->as_string()->get();
  o.b = names->get(1)->as_string()->get();
  for (const std::string& name : {o.a, o.b})
    if (name.empty() || name.find_first_of("|:;,=") != std::string::npos)
      fail(at(file, *names), prefix + "materials", fmt::format("'{}' is not a material name (empty, or one of | : ; , =)", name));
  PairOverride& values = o.values;
  std::optional<double>* slots[] = {&values.restitution, &values.friction, &values.rolling_friction, &values.twisting_factor};
  for (std::size_t i = 0; i < value_keys.size(); ++i) {
    const toml::node* v = t.get(value_keys[i]);
    if (!v) continue;
    const std::optional<double> x = v->value<double>();
    if (!x || !(v->is_floating_point() || v->is_integer())) fail(at(file, *v), prefix + value_keys[i], "must be a number");
    *slots[i] = *x;
    try {
      PairOverrides().set(0, 1, values);  // the engine's ranges
    } catch (const InputError& ex) {  // "pair override of materials 0 and 1: <key> = <value> is invalid (...)"
      const std::string msg = ex.what();
      const auto pos = msg.find(": ");
      fail(at(file, *v), prefix + value_keys[i], pos == std::string::npos ? msg : msg.substr(pos + 2));
    }
  }
  if (!values.restitution && !values.friction && !values.rolling_friction && !values.twisting_factor)
    fail(where, prefix + "materials", "sets no value (restitution, friction, rolling_friction or twisting_factor)");
  return o;
}

}  // namespace

void read_pair_override_section(Study& s, const toml::table& root, const Experiment* e) {
  refuse_as_parameter(s, root, "pair_overrides", "set pair overrides with [[pair_override]] sections, not as a parameter");
  const toml::node* n = root.get("pair_override");
  if (!n) return;
  const std::string where = at(s.file, *n);
  const toml::array* entries = n->as_array();
  if (!entries || !entries->is_array_of_tables())
    fail(where, "pair_override", "must be [[pair_override]] tables (materials = [\"a\", \"b\"], friction = ..., ...)");
  if (!s.runs_own()) fail(where, "pair_override", "needs study.experiment (a study without one has no runs)");
  const ParameterSpec* spec = e ? e->find("pair_overrides") : nullptr;
  if (e && (!spec || spec->type != ParamType::text))
    fail(where, "pair_override", fmt::format("experiment '{}' takes no pair overrides (it declares no text parameter 'pair_overrides')", e->name));
  std::vector<NamedPairOverride> overrides;
  std::set<std::pair<std::string, std::string>> seen;
  for (std::size_t i = 0; i < entries->size(); ++i) {
    const toml::table& t = *entries->get(i)->as_table();
    NamedPairOverride o = read_entry(s.file, t, fmt::format("pair_override[{}].", i));
    if (!seen.insert({std::min(o.a, o.b), std::max(o.a, o.b)}).second)
      fail(at(s.file, t), fmt::format("pair_override[{}].materials", i), fmt::format("the pair {} | {} is overridden twice", o.a, o.b));
    overrides.push_back(std::move(o));
  }
  s.parameters["pair_overrides"] = pair_overrides_to_text(overrides);
}

}  // namespace grainlab::pipeline
