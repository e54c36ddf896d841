// [scene] parsing, checking and the canonical one-line text; format in scene_spec.hpp and docs/studies.md.
#include "experiments/scene_spec.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace grainlab {

namespace {

int line_of(const toml::node& n) { return n.source().begin ? int(n.source().begin.line) : 0; }

[[noreturn]] void fail(const std::string& key, const toml::node& n, const std::string& msg) { throw SceneError(key, line_of(n), msg); }

void only_keys(const toml::table& t, const std::string& prefix, const std::vector<std::string>& allowed) {
  for (const auto& [k, v] : t) {
    const std::string key(k.str());
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      fail(prefix + key, v, fmt::format("unknown key (allowed here: {})", fmt::join(allowed, ", ")));
  }
}

bool identifier(const std::string& s) {
  static const std::regex re("[A-Za-z_][A-Za-z0-9_]*");
  return std::regex_match(s, re);
}

std::string need_text(const toml::node& n, const std::string& key) {
  if (!n.is_string()) fail(key, n, "must be a string");
  return n.as_string()->get();
}

/// A number, or "[-][factor*]name" naming a parameter of the experiment.
SceneNumber number(const toml::node& n, const std::string& key) {
  SceneNumber out;
  if (auto f = n.as_floating_point()) out.value = f->get();
  else if (auto i = n.as_integer()) out.value = double(i->get());
  else if (auto s = n.as_string()) {
    static const std::regex re(R"(\s*(-)?\s*(?:([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*\*\s*)?([A-Za-z_][A-Za-z0-9_]*)\s*)");
    std::smatch m;
    const std::string text = s->get();
    if (!std::regex_match(text, m, re))
      fail(key, n, fmt::format("'{}' is neither a number nor a parameter reference \"[-][factor*]name\" (e.g. \"-0.5*box_side\")", text));
    out.parameter = m[3];
    out.factor = (m[2].matched ? std::stod(m[2]) : 1.0) * (m[1].matched ? -1.0 : 1.0);
    return out;
  } else {
    fail(key, n, "must be a number or a parameter reference \"[-][factor*]name\"");
  }
  if (std::isnan(out.value)) fail(key, n, "must not be NaN");
  return out;
}

std::array<double, 3> vector3(const toml::node& n, const std::string& key, bool unit) {
  const toml::array* a = n.as_array();
  if (!a || a->size() != 3) fail(key, n, "must be an array of 3 numbers");
  std::array<double, 3> out{};
  for (std::size_t i = 0; i < 3; ++i) {
    const toml::node& x = *a->get(i);
    if (auto f = x.as_floating_point()) out[i] = f->get();
    else if (auto k = x.as_integer()) out[i] = double(k->get());
    else fail(key, x, "must be an array of 3 numbers");
    if (!std::isfinite(out[i])) fail(key, x, "must be finite");
  }
  if (unit) {
    const double len = std::sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
    if (!(len > 0)) fail(key, n, "must not be the zero vector (a direction)");
    for (double& c : out) c /= len;
  }
  return out;
}

std::array<SceneNumber, 3> number3(const toml::node& n, const std::string& key) {
  const toml::array* a = n.as_array();
  if (!a || a->size() != 3) fail(key, n, "must be an array of 3 numbers or parameter references");
  return {number(*a->get(0), key), number(*a->get(1), key), number(*a->get(2), key)};
}

SceneMotor motor(const toml::node& n, const std::string& key) {
  const toml::table* t = n.as_table();
  if (!t) fail(key, n, "must be a table, e.g. { kind = \"velocity\", speed = 0.01 }");
  SceneMotor m;
  const toml::node* kind = t->get("kind");
  if (!kind) fail(key + ".kind", n, "missing (required: none, velocity, force or stress)");
  const std::string k = need_text(*kind, key + ".kind");
  auto need = [&](const char* what) -> const toml::node& {
    const toml::node* v = t->get(what);
    if (!v) fail(key + "." + what, n, fmt::format("missing (required by a {} motor)", k));
    return *v;
  };
  if (k == "none") {
    only_keys(*t, key + ".", {"kind"});
  } else if (k == "velocity") {
    only_keys(*t, key + ".", {"kind", "speed", "max_force"});
    m.kind = SceneMotorKind::velocity;
    m.speed = number(need("speed"), key + ".speed");
    m.max_force.value = std::numeric_limits<double>::infinity();
    if (auto f = t->get("max_force")) m.max_force = number(*f, key + ".max_force");
    if (m.max_force.parameter.empty() && !(m.max_force.value >= 0)) fail(key + ".max_force", *t->get("max_force"), "must be >= 0 (inf: unbounded)");
  } else if (k == "force") {
    only_keys(*t, key + ".", {"kind", "force"});
    m.kind = SceneMotorKind::force;
    m.force = number(need("force"), key + ".force");
  } else if (k == "stress") {
    only_keys(*t, key + ".", {"kind", "stress"});
    m.kind = SceneMotorKind::stress;
    m.stress = number(need("stress"), key + ".stress");
  } else {
    fail(key + ".kind", *kind, fmt::format("unknown motor kind '{}' (none, velocity, force, stress)", k));
  }
  for (const SceneNumber* v : {&m.speed, &m.force, &m.stress})
    if (v->parameter.empty() && !std::isfinite(v->value)) fail(key, n, "motor values must be finite");
  return m;
}

SceneBody body(const toml::table& t, const std::string& prefix) {
  only_keys(t, prefix, {"name", "joint", "axis", "mass", "inertia", "position", "gravity", "wall", "area", "area_between",
                        "motor", "stages", "outputs"});
  SceneBody b;
  const toml::node* name = t.get("name");
  if (!name) fail(prefix + "name", t, "missing (required)");
  b.name = need_text(*name, prefix + "name");
  if (!identifier(b.name)) fail(prefix + "name", *name, fmt::format("'{}' is not an identifier (letters, digits, '_')", b.name));
  if (auto j = t.get("joint")) {
    const std::string s = need_text(*j, prefix + "joint");
    if (s == "fixed") b.joint = SceneJoint::fixed;
    else if (s == "prismatic") b.joint = SceneJoint::prismatic;
    else if (s == "free") b.joint = SceneJoint::free;
    else fail(prefix + "joint", *j, fmt::format("unknown joint '{}' (fixed, prismatic, free)", s));
  }
  if (auto a = t.get("axis")) b.axis = vector3(*a, prefix + "axis", true);
  if (auto m = t.get("mass")) {
    if (b.joint == SceneJoint::fixed) fail(prefix + "mass", *m, "a fixed wall has no mass (joint = \"fixed\")");
    b.mass = number(*m, prefix + "mass");
    if (b.mass.parameter.empty() && !(b.mass.value > 0 && std::isfinite(b.mass.value))) fail(prefix + "mass", *m, "must be > 0 and finite");
  } else if (b.joint != SceneJoint::fixed) {
    fail(prefix + "mass", t, "missing (required for a prismatic or free body, kg)");
  }
  if (auto i = t.get("inertia")) {
    if (b.joint != SceneJoint::free) fail(prefix + "inertia", *i, "only a free body has an inertia (a prismatic body does not rotate)");
    b.inertia = vector3(*i, prefix + "inertia", false);
    if (!(std::min({b.inertia[0], b.inertia[1], b.inertia[2]}) > 0)) fail(prefix + "inertia", *i, "principal moments must be > 0");
  } else if (b.joint == SceneJoint::free) {
    fail(prefix + "inertia", t, "missing (required for a free body: principal moments, kg m^2)");
  }
  if (auto p = t.get("position")) b.position = number3(*p, prefix + "position");
  if (auto g = t.get("gravity")) {
    if (!g->is_boolean()) fail(prefix + "gravity", *g, "must be true or false");
    b.gravity = g->as_boolean()->get();
  }
  const toml::node* wall = t.get("wall");
  if (!wall) fail(prefix + "wall", t, "missing (required: the wall the body carries, e.g. { shape = \"plane\", normal = [0, 0, 1] })");
  if (!wall->is_table()) fail(prefix + "wall", *wall, "must be a table { shape = \"plane\", normal = [x, y, z] }");
  only_keys(*wall->as_table(), prefix + "wall.", {"shape", "normal"});
  if (auto s = wall->as_table()->get("shape")) b.wall_shape = need_text(*s, prefix + "wall.shape");
  if (b.wall_shape != "plane") fail(prefix + "wall.shape", *wall, fmt::format("unknown shape '{}' (plane)", b.wall_shape));
  const toml::node* normal = wall->as_table()->get("normal");
  if (!normal) fail(prefix + "wall.normal", *wall, "missing (required: the side the particles are on)");
  b.wall_normal = vector3(*normal, prefix + "wall.normal", true);
  if (auto a = t.get("area")) {
    b.area = number(*a, prefix + "area");
    if (b.area->parameter.empty() && !(b.area->value > 0 && std::isfinite(b.area->value))) fail(prefix + "area", *a, "must be > 0 and finite (m^2)");
  }
  if (auto ab = t.get("area_between")) {
    if (b.area) fail(prefix + "area_between", *ab, "give area or area_between, not both");
    const toml::array* pairs = ab->as_array();
    if (!pairs || pairs->size() != 2) fail(prefix + "area_between", *ab, "must be two pairs of body names, [[\"a\", \"b\"], [\"c\", \"d\"]]");
    for (const auto& pair : *pairs) {
      const toml::array* p = pair.as_array();
      if (!p || p->size() != 2 || !p->get(0)->is_string() || !p->get(1)->is_string())
        fail(prefix + "area_between", pair, "each pair must be two body names, [\"a\", \"b\"]");
      b.area_between.push_back({p->get(0)->as_string()->get(), p->get(1)->as_string()->get()});
    }
  }
  if (auto m = t.get("motor")) b.motor = motor(*m, prefix + "motor");
  if (auto st = t.get("stages")) {
    if (!st->is_table()) fail(prefix + "stages", *st, "must be a table of stage name -> motor, e.g. { shear = { kind = \"velocity\", speed = 0.01 } }");
    for (const auto& [k, v] : *st->as_table()) {
      const std::string stage(k.str());
      if (!identifier(stage)) fail(prefix + "stages." + stage, v, "a stage name is an identifier");
      b.stages[stage] = motor(v, prefix + "stages." + stage);
    }
  }
  const bool has_motor = b.motor.kind != SceneMotorKind::none ||
                         std::any_of(b.stages.begin(), b.stages.end(), [](const auto& s) { return s.second.kind != SceneMotorKind::none; });
  if (has_motor && b.joint != SceneJoint::prismatic)
    fail(prefix + (t.get("motor") ? "motor" : "stages"), t, "a motor needs joint = \"prismatic\" (it drives the prismatic axis)");
  const bool stress = b.motor.kind == SceneMotorKind::stress ||
                      std::any_of(b.stages.begin(), b.stages.end(), [](const auto& s) { return s.second.kind == SceneMotorKind::stress; });
  if (auto o = t.get("outputs")) {
    const toml::array* a = o->as_array();
    if (!a) fail(prefix + "outputs", *o, "must be an array of output names");
    for (const auto& x : *a) {
      const std::string name = need_text(x, prefix + "outputs");
      if (std::find(scene_outputs().begin(), scene_outputs().end(), name) == scene_outputs().end())
        fail(prefix + "outputs", x, fmt::format("unknown output '{}' (known: {})", name, fmt::join(scene_outputs(), ", ")));
      if (std::find(b.outputs.begin(), b.outputs.end(), name) != b.outputs.end()) fail(prefix + "outputs", x, fmt::format("'{}' listed twice", name));
      if (b.joint == SceneJoint::fixed && name != "contact_force")
        fail(prefix + "outputs", x, "a fixed wall reports only contact_force");
      b.outputs.push_back(name);
    }
  }
  const bool wants_area = stress || std::find(b.outputs.begin(), b.outputs.end(), "stress") != b.outputs.end();
  if (wants_area && !b.area && b.area_between.empty())
    fail(prefix + "area", t, "a stress motor or the stress output needs area (m^2) or area_between (two pairs of bodies)");
  return b;
}

void append_number(std::string& out, const SceneNumber& n) {
  if (!n.parameter.empty()) out += fmt::format("\"{:.17g}*{}\"", n.factor, n.parameter);
  else if (std::isinf(n.value)) out += n.value > 0 ? "inf" : "-inf";
  else out += fmt::format("{:.17g}", n.value);
}

void append_motor(std::string& out, const SceneMotor& m) {
  switch (m.kind) {
    case SceneMotorKind::none: out += "{ kind = \"none\" }"; return;
    case SceneMotorKind::velocity:
      out += "{ kind = \"velocity\", speed = ";
      append_number(out, m.speed);
      out += ", max_force = ";
      append_number(out, m.max_force);
      break;
    case SceneMotorKind::force:
      out += "{ kind = \"force\", force = ";
      append_number(out, m.force);
      break;
    case SceneMotorKind::stress:
      out += "{ kind = \"stress\", stress = ";
      append_number(out, m.stress);
      break;
  }
  out += " }";
}

std::string vec_text(const std::array<double, 3>& v) { return fmt::format("[{:.17g}, {:.17g}, {:.17g}]", v[0], v[1], v[2]); }

}  // namespace

double SceneNumber::resolve(const Parameters& p) const { return parameter.empty() ? value : factor * p.real(parameter); }

const std::vector<std::string>& scene_outputs() {
  static const std::vector<std::string> names = {"position", "velocity", "motor_force", "contact_force", "stress"};
  return names;
}

std::vector<std::string> SceneSpec::parameter_references() const {
  std::set<std::string> out;
  auto add = [&](const SceneNumber& n) {
    if (!n.parameter.empty()) out.insert(n.parameter);
  };
  auto add_motor = [&](const SceneMotor& m) {
    for (const SceneNumber* v : {&m.speed, &m.max_force, &m.force, &m.stress}) add(*v);
  };
  for (const SceneBody& b : bodies) {
    add(b.mass);
    for (const auto& x : b.position) add(x);
    if (b.area) add(*b.area);
    add_motor(b.motor);
    for (const auto& [s, m] : b.stages) add_motor(m);
  }
  return {out.begin(), out.end()};
}

std::vector<std::string> SceneSpec::stage_names() const {
  std::set<std::string> out;
  for (const SceneBody& b : bodies)
    for (const auto& [s, m] : b.stages) out.insert(s);
  return {out.begin(), out.end()};
}

SceneSpec parse_scene(const toml::table& t, const std::string& prefix) {
  only_keys(t, prefix + ".", {"body", "sample_every"});
  SceneSpec spec;
  if (auto s = t.get("sample_every")) {
    if (!s->is_integer() || s->as_integer()->get() < 1 || s->as_integer()->get() > 1000000000)
      fail(prefix + ".sample_every", *s, "must be an integer >= 1 (steps between output samples)");
    spec.sample_every = int(s->as_integer()->get());
  }
  const toml::node* list = t.get("body");
  if (!list) fail(prefix + ".body", t, "missing: declare bodies with [[scene.body]]");
  if (!list->is_array_of_tables() || list->as_array()->empty()) fail(prefix + ".body", *list, "must be an array of tables ([[scene.body]])");
  std::size_t i = 0;
  for (const auto& el : *list->as_array()) {
    const std::string key = fmt::format("{}.body[{}].", prefix, i++);
    SceneBody b = body(*el.as_table(), key);
    for (const SceneBody& prev : spec.bodies)
      if (prev.name == b.name) fail(key + "name", *el.as_table()->get("name"), fmt::format("duplicate body name '{}'", b.name));
    spec.bodies.push_back(std::move(b));
  }
  // area_between names bodies of this scene, each pair two different bodies.
  i = 0;
  for (const auto& el : *list->as_array()) {
    const SceneBody& b = spec.bodies[i];
    const std::string key = fmt::format("{}.body[{}].area_between", prefix, i++);
    for (const auto& pair : b.area_between) {
      if (pair[0] == pair[1]) fail(key, *el.as_table()->get("area_between"), fmt::format("a pair names body '{}' twice", pair[0]));
      for (const auto& name : pair)
        if (std::none_of(spec.bodies.begin(), spec.bodies.end(), [&](const SceneBody& o) { return o.name == name && o.joint != SceneJoint::fixed; }))
          fail(key, *el.as_table()->get("area_between"), fmt::format("no movable body '{}' in this scene", name));
    }
  }
  return spec;
}

std::string scene_to_text(const SceneSpec& spec) {
  std::string out = fmt::format("{{ sample_every = {}, body = [", spec.sample_every);
  for (std::size_t i = 0; i < spec.bodies.size(); ++i) {
    const SceneBody& b = spec.bodies[i];
    static const char* joints[] = {"fixed", "prismatic", "free"};
    out += fmt::format("{}{{ name = \"{}\", joint = \"{}\", axis = {}, ", i ? ", " : "", b.name, joints[int(b.joint)], vec_text(b.axis));
    if (b.joint != SceneJoint::fixed) {
      out += "mass = ";
      append_number(out, b.mass);
      out += ", ";
    }
    if (b.joint == SceneJoint::free) out += fmt::format("inertia = {}, ", vec_text(b.inertia));
    out += "position = [";
    for (int k = 0; k < 3; ++k) {
      if (k) out += ", ";
      append_number(out, b.position[std::size_t(k)]);
    }
    out += fmt::format("], gravity = {}, wall = {{ shape = \"{}\", normal = {} }}", b.gravity, b.wall_shape, vec_text(b.wall_normal));
    if (b.area) {
      out += ", area = ";
      append_number(out, *b.area);
    }
    if (!b.area_between.empty())
      out += fmt::format(", area_between = [[\"{}\", \"{}\"], [\"{}\", \"{}\"]]", b.area_between[0][0], b.area_between[0][1],
                         b.area_between[1][0], b.area_between[1][1]);
    out += ", motor = ";
    append_motor(out, b.motor);
    if (!b.stages.empty()) {
      out += ", stages = { ";
      bool first = true;
      for (const auto& [s, m] : b.stages) {
        out += fmt::format("{}{} = ", first ? "" : ", ", s);
        append_motor(out, m);
        first = false;
      }
      out += " }";
    }
    std::vector<std::string> quoted;
    for (const auto& o : b.outputs) quoted.push_back("\"" + o + "\"");
    out += fmt::format(", outputs = [{}] }}", fmt::join(quoted, ", "));
  }
  return out + "] }";
}

SceneSpec scene_from_text(const std::string& text) {
  toml::table root;
  try {
    root = toml::parse("scene = " + text);
  } catch (const toml::parse_error& e) {
    throw SceneError("scene", 0, fmt::format("not a scene text: {}", e.description()));
  }
  const toml::table* t = root.get("scene") ? root.get("scene")->as_table() : nullptr;
  if (!t) throw SceneError("scene", 0, "not a scene text (an inline table)");
  return parse_scene(*t, "scene");
}

}  // namespace grainlab
