#pragma once
// An experiment is a scenario: typed parameters in, named scalar metrics and time series out.
// Each experiment lives in one file of experiments/ and registers itself by name:
//
//   static const grainlab::ExperimentRegistration reg{{
//       .name = "hertz_impact", .description = "...",
//       .parameters = {{"velocity", ParamType::real, "m/s", 1.0, 0.0, 100.0, "impact speed"}, ...},
//       .run = [](const Parameters& p, RunContext& ctx) { ...; return RunResult{...}; }}};
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace grainlab {

enum class ParamType { real, integer, boolean, text };
using ParamValue = std::variant<double, std::int64_t, bool, std::string>;

struct ParameterSpec {
  std::string name;
  ParamType type = ParamType::real;
  std::string unit;          ///< SI unit, "-" for dimensionless, "" for none
  ParamValue default_value;  ///< must match `type`
  std::optional<double> min; ///< allowed range for numbers (inclusive)
  std::optional<double> max;
  std::string description;
  /// Text parameters: the allowed values (empty: any text). Checked when a study loads, so that a typo
  /// fails before any run instead of inside one.
  std::vector<std::string> choices = {};
  /// Real parameters: NaN and infinities are refused unless this is set (a NaN passes every range test).
  bool allow_nonfinite = false;
};

/// Parameter values of one run, complete (defaults filled in) and checked against the specs.
class Parameters {
 public:
  std::map<std::string, ParamValue> values;
  double real(const std::string& name) const;
  std::int64_t integer(const std::string& name) const;
  bool boolean(const std::string& name) const;
  const std::string& text(const std::string& name) const;
};

struct TimeSeries {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
};

struct RunResult {
  std::map<std::string, double> metrics;
  std::map<std::string, TimeSeries> series;
};

struct RunContext {
  std::filesystem::path output_dir;  ///< where the run may write files (snapshots); empty = write nothing
  int threads = 1;                   ///< engine threads available to this run
  std::function<void(double)> progress;  ///< fraction done in [0, 1]; may be empty
};

struct Experiment {
  std::string name;
  std::string description;
  std::vector<ParameterSpec> parameters;
  std::function<RunResult(const Parameters&, RunContext&)> run;
  /// Stages a study's [scene] may give motors for (experiments/scene_spec.hpp); an experiment takes a
  /// scene when it declares the text parameter `scene`.
  std::vector<std::string> scene_stages = {};

  /// Fills defaults and validates: unknown names, wrong types and out-of-range values throw
  /// std::invalid_argument naming the parameter.
  Parameters complete(const std::map<std::string, ParamValue>& given) const;
  const ParameterSpec* find(const std::string& parameter) const;
};

const std::map<std::string, Experiment>& experiments();
const Experiment& find_experiment(const std::string& name);  ///< throws std::invalid_argument listing known names

struct ExperimentRegistration {
  explicit ExperimentRegistration(Experiment e);
};

std::string to_string(ParamType t);
std::string to_string(const ParamValue& v);

}  // namespace grainlab
