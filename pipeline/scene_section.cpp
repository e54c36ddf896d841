// [scene] at study load: parse, check against the experiment, store as the text parameter `scene`.
#include "pipeline/scene_section.hpp"

#include <algorithm>
#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "experiments/scene_spec.hpp"
#include "pipeline/validate.hpp"

namespace grainlab::pipeline {

namespace {
/// The first string in the scene that refers to parameter `name` ("[-][factor*]name"): its key path and node,
/// so that an error names the value's own line.
std::pair<std::string, const toml::node*> find_reference(const toml::node& n, const std::string& path, const std::string& name) {
  if (auto str = n.as_string()) {
    static const std::regex reference(R"(\s*-?\s*(?:[0-9.eE+-]+\s*\*\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*)");
    std::smatch m;
    if (std::regex_match(str->get(), m, reference) && m[1] == name) return {path, &n};
  } else if (auto table = n.as_table()) {
    for (const auto& [k, v] : *table) {
      const std::string key(k.str());
      if (key == "name" || key == "joint" || key == "shape" || key == "kind" || key == "outputs" || key == "area_between") continue;
      if (auto found = find_reference(v, path + "." + key, name); found.second) return found;
    }
  } else if (auto array = n.as_array()) {
    for (std::size_t i = 0; i < array->size(); ++i)
      if (auto found = find_reference(*array->get(i), fmt::format("{}[{}]", path, i), name); found.second) return found;
  }
  return {"", nullptr};
}
}  // namespace

void refuse_as_parameter(const Study& s, const toml::table& root, const std::string& name, const std::string& why) {
  std::vector<std::string> paths;
  for (const char* head : {"parameters.", "sweep.grid.", "sweep.zip."}) paths.push_back(head + name);
  for (const auto& [tier, t] : s.tiers)
    for (const char* tail : {".parameters.", ".sweep.grid.", ".sweep.zip."}) paths.push_back("tiers." + tier + tail + name);
  for (const auto& path : paths)
    if (const toml::node* n = root.at_path(path).node()) fail(at(s.file, *n), path, why);
}

void read_scene_section(Study& s, const toml::table& root, const Experiment* e) {
  refuse_as_parameter(s, root, "scene", "declare the scene in a [scene] section, not as a parameter");
  const toml::node* n = root.get("scene");
  if (!n) return;
  // An implicit [scene] (only [[scene.body]] written) has no line of its own: name its first body's.
  std::string where = at(s.file, *n);
  if (!n->source().begin && n->is_table())
    if (const toml::array* bodies = n->as_table()->get_as<toml::array>("body"); bodies && !bodies->empty())
      where = at(s.file, *bodies->get(0));
  if (!n->is_table()) fail(where, "scene", "must be a table ([scene] with [[scene.body]] entries)");
  if (!s.runs_own()) fail(where, "scene", "needs study.experiment (a study without one has no runs)");
  const ParameterSpec* spec = e ? e->find("scene") : nullptr;
  if (e && (!spec || spec->type != ParamType::text))
    fail(where, "scene", fmt::format("experiment '{}' takes no scene (it declares no text parameter 'scene')", e->name));
  SceneSpec scene;
  try {
    scene = parse_scene(*n->as_table(), "scene");
  } catch (const SceneError& ex) {
    fail(ex.line > 0 ? fmt::format("{}:{}", s.file, ex.line) : where, ex.key, ex.what());
  }
  if (e) {
    std::vector<std::string> names;
    for (const auto& p : e->parameters) names.push_back(p.name);
    for (const auto& ref : scene.parameter_references()) {
      const ParameterSpec* p = e->find(ref);
      if (p && (p->type == ParamType::real || p->type == ParamType::integer)) continue;
      const auto [key, node] = find_reference(*n, "scene", ref);
      const std::string ref_at = node && node->source().begin ? at(s.file, *node) : where;
      const std::string ref_key = node ? key : "scene";
      if (!p)
        fail(ref_at, ref_key, fmt::format("refers to '{}', which is not a parameter of experiment '{}'{}", ref, e->name, did_you_mean(ref, names)));
      fail(ref_at, ref_key, fmt::format("refers to '{}', a {} parameter; a scene number needs a real or integer one", ref, to_string(p->type)));
    }
    for (const auto& stage : scene.stage_names())
      if (std::find(e->scene_stages.begin(), e->scene_stages.end(), stage) == e->scene_stages.end())
        fail(where, "scene", fmt::format("a body gives a motor for stage '{}', which experiment '{}' does not run (its stages: {}){}", stage,
                                         e->name, e->scene_stages.empty() ? "none" : fmt::format("{}", fmt::join(e->scene_stages, ", ")),
                                         did_you_mean(stage, e->scene_stages)));
  }
  s.parameters["scene"] = scene_to_text(scene);
}

}  // namespace grainlab::pipeline
