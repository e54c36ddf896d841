#include "experiments/experiment.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace grainlab {

namespace {
std::map<std::string, Experiment>& registry() {
  static std::map<std::string, Experiment> r;
  return r;
}

bool matches(ParamType t, const ParamValue& v) {
  switch (t) {
    case ParamType::real: return std::holds_alternative<double>(v) || std::holds_alternative<std::int64_t>(v);
    case ParamType::integer: return std::holds_alternative<std::int64_t>(v);
    case ParamType::boolean: return std::holds_alternative<bool>(v);
    case ParamType::text: return std::holds_alternative<std::string>(v);
  }
  return false;
}

template <class T>
const T& get(const std::map<std::string, ParamValue>& values, const std::string& name) {
  auto it = values.find(name);
  if (it == values.end()) throw std::invalid_argument(fmt::format("parameter '{}' is not defined", name));
  if (auto p = std::get_if<T>(&it->second)) return *p;
  throw std::invalid_argument(fmt::format("parameter '{}' has the wrong type", name));
}
}  // namespace

double Parameters::real(const std::string& name) const {
  auto it = values.find(name);
  if (it != values.end())
    if (auto p = std::get_if<std::int64_t>(&it->second)) return double(*p);
  return get<double>(values, name);
}
std::int64_t Parameters::integer(const std::string& name) const { return get<std::int64_t>(values, name); }
bool Parameters::boolean(const std::string& name) const { return get<bool>(values, name); }
const std::string& Parameters::text(const std::string& name) const { return get<std::string>(values, name); }

const ParameterSpec* Experiment::find(const std::string& parameter) const {
  for (const auto& s : parameters)
    if (s.name == parameter) return &s;
  return nullptr;
}

Parameters Experiment::complete(const std::map<std::string, ParamValue>& given) const {
  Parameters out;
  for (const auto& [key, value] : given) {
    const ParameterSpec* spec = find(key);
    if (!spec) throw std::invalid_argument(fmt::format("experiment '{}' has no parameter '{}'", name, key));
    if (!matches(spec->type, value))
      throw std::invalid_argument(fmt::format("parameter '{}' of experiment '{}' must be of type {}, got {}", key, name,
                                              to_string(spec->type), to_string(value)));
    ParamValue v = value;
    if (spec->type == ParamType::real)
      if (auto i = std::get_if<std::int64_t>(&value)) v = double(*i);
    if (spec->type == ParamType::real && !std::isfinite(std::get<double>(v)) && !spec->allow_nonfinite)
      throw std::invalid_argument(fmt::format("parameter '{}' of experiment '{}' = {} must be a finite number", key, name,
                                              std::get<double>(v)));
    if (spec->type == ParamType::text && !spec->choices.empty() &&
        std::find(spec->choices.begin(), spec->choices.end(), std::get<std::string>(v)) == spec->choices.end())
      throw std::invalid_argument(fmt::format("parameter '{}' of experiment '{}' = \"{}\" is not one of: {}", key, name,
                                              std::get<std::string>(v), fmt::join(spec->choices, ", ")));
    if (spec->type == ParamType::real || spec->type == ParamType::integer) {
      const double x = spec->type == ParamType::real ? std::get<double>(v) : double(std::get<std::int64_t>(v));
      if ((spec->min && x < *spec->min) || (spec->max && x > *spec->max))
        throw std::invalid_argument(fmt::format("parameter '{}' of experiment '{}' = {} is outside [{}, {}]", key, name, x,
                                                spec->min ? fmt::format("{}", *spec->min) : "-inf",
                                                spec->max ? fmt::format("{}", *spec->max) : "inf"));
    }
    out.values[key] = v;
  }
  for (const auto& s : parameters)
    if (!out.values.count(s.name)) out.values[s.name] = s.default_value;
  return out;
}

const std::map<std::string, Experiment>& experiments() { return registry(); }

const Experiment& find_experiment(const std::string& name) {
  auto it = registry().find(name);
  if (it != registry().end()) return it->second;
  std::string known;
  for (const auto& [n, e] : registry()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument(fmt::format("unknown experiment '{}' (known: {})", name, known));
}

ExperimentRegistration::ExperimentRegistration(Experiment e) {
  for (const auto& s : e.parameters) {
    if (!matches(s.type, s.default_value))
      throw std::logic_error(fmt::format("experiment '{}': default of '{}' has the wrong type", e.name, s.name));
    if (!s.choices.empty() && std::find(s.choices.begin(), s.choices.end(), std::get<std::string>(s.default_value)) == s.choices.end())
      throw std::logic_error(fmt::format("experiment '{}': default of '{}' is not one of its choices", e.name, s.name));
  }
  const std::string name = e.name;
  if (!registry().emplace(name, std::move(e)).second)
    throw std::logic_error(fmt::format("experiment '{}' registered twice", name));
}

std::string to_string(ParamType t) {
  switch (t) {
    case ParamType::real: return "real";
    case ParamType::integer: return "integer";
    case ParamType::boolean: return "boolean";
    case ParamType::text: return "text";
  }
  return "?";
}

std::string to_string(const ParamValue& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, bool>) return x ? "true" : "false";
        else if constexpr (std::is_same_v<T, std::string>) return "\"" + x + "\"";
        else return fmt::format("{}", x);
      },
      v);
}

}  // namespace grainlab
