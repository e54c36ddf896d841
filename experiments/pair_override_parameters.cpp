#include "experiments/pair_override_parameters.hpp"

#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/error.hpp"

namespace grainlab {

namespace {

struct Field {
  const char* name;
  std::optional<double> PairOverride::*value;
};
constexpr Field fields[] = {{"restitution", &PairOverride::restitution},
                            {"friction", &PairOverride::friction},
                            {"rolling_friction", &PairOverride::rolling_friction},
                            {"twisting_factor", &PairOverride::twisting_factor}};

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) out.push_back(part);
  return out;
}

[[noreturn]] void bad(const std::string& text, const std::string& why) {
  throw InputError(fmt::format("parameter pair_overrides '{}': {} (set it with [[pair_override]] in the study)", text, why));
}

}  // namespace

ParameterSpec pair_overrides_parameter() {
  return {"pair_overrides", ParamType::text, "", std::string(""), {}, {},
          "per-material-pair restitution/friction/rolling_friction/twisting_factor: set by the study's "
          "[[pair_override]] sections (never by hand)"};
}

std::string pair_overrides_to_text(const std::vector<NamedPairOverride>& overrides) {
  std::vector<std::string> entries;
  for (const NamedPairOverride& o : overrides) {
    std::vector<std::string> values;
    for (const Field& f : fields)
      if (const auto& v = o.values.*f.value) values.push_back(fmt::format("{}={}", f.name, *v));
    entries.push_back(fmt::format("{}|{}:{}", o.a, o.b, fmt::join(values, ",")));
  }
  return fmt::format("{}", fmt::join(entries, ";"));
}

std::vector<NamedPairOverride> pair_overrides_from_text(const std::string& text) {
  std::vector<NamedPairOverride> out;
  if (text.empty()) return out;
  for (const std::string& entry : split(text, ';')) {
    const auto colon = entry.find(':');
    const auto bar = entry.find('|');
    if (colon == std::string::npos || bar == std::string::npos || bar > colon) bad(text, fmt::format("entry '{}' is not 'a|b:key=value,...'", entry));
    NamedPairOverride o{entry.substr(0, bar), entry.substr(bar + 1, colon - bar - 1), {}};
    if (o.a.empty() || o.b.empty()) bad(text, fmt::format("entry '{}' names no material", entry));
    for (const std::string& kv : split(entry.substr(colon + 1), ',')) {
      const auto eq = kv.find('=');
      const std::string key = kv.substr(0, eq);
      const Field* f = nullptr;
      for (const Field& g : fields)
        if (key == g.name) f = &g;
      if (!f || eq == std::string::npos) bad(text, fmt::format("'{}' is not restitution, friction, rolling_friction or twisting_factor = number", kv));
      try {
        std::size_t used = 0;
        o.values.*f->value = std::stod(kv.substr(eq + 1), &used);
        if (used != kv.size() - eq - 1) throw std::invalid_argument("trailing");
      } catch (const std::exception&) {
        bad(text, fmt::format("'{}' is not a number", kv.substr(eq + 1)));
      }
    }
    out.push_back(std::move(o));
  }
  return out;
}

void apply_pair_overrides(World& world, const Parameters& p) {
  std::vector<std::string> names;
  for (const Material& m : world.materials) names.push_back(m.name);
  auto index_of = [&](const std::string& name) {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return int(i);
    throw InputError(fmt::format("pair_override: this experiment has no material '{}' (its materials: {})", name,
                                 fmt::join(names, ", ")));
  };
  for (const NamedPairOverride& o : pair_overrides_from_text(p.text("pair_overrides")))
    world.pair_overrides.set(index_of(o.a), index_of(o.b), o.values);
}

}  // namespace grainlab
