#include "core/ndem/reduction_settings.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace grainlab {

namespace {
void check_thresholds(const char* group, const ReductionThresholds& t) {
  auto positive = [group](const char* key, double v) {
    if (!(v > 0)) throw InputError(fmt::format("reduction.{}_{} = {} is invalid (must be > 0; inf = off)", group, key, v));
  };
  positive("incident_normal", t.incident_normal);
  positive("separating_normal", t.separating_normal);
  positive("tangential", t.tangential);
  positive("rolling", t.rolling);
}
}  // namespace

void ReductionSettings::validate() const {
  auto fail = [](const char* key, double value, const char* rule) {
    throw InputError(fmt::format("reduction.{} = {} is invalid ({})", key, value, rule));
  };
  check_thresholds("merge", merge);
  check_thresholds("contact", contact);
  check_thresholds("trial", trial);
  if (!(merge_normal_acceleration > 0)) fail("merge_normal_acceleration", merge_normal_acceleration, "must be > 0");
  if (!(merge_tangential_acceleration > 0)) fail("merge_tangential_acceleration", merge_tangential_acceleration, "must be > 0");
  if (!(merge_force_balance > 0)) fail("merge_force_balance", merge_force_balance, "must be > 0; inf = off");
  if (min_merge_contacts < 1) fail("min_merge_contacts", min_merge_contacts, "must be >= 1");
  if (contact_split_depth < 1) fail("contact_split_depth", contact_split_depth, "N_c-spl must be >= 1");
  if (trial_iterations < 1) fail("trial_iterations", trial_iterations, "N_it^tr must be >= 1");
  if (!(trial_force_balance > 0)) fail("trial_force_balance", trial_force_balance, "must be > 0; inf = off");
  if (!(trial_torque_balance > 0)) fail("trial_torque_balance", trial_torque_balance, "must be > 0; inf = off");
  if (!std::isfinite(start_time)) fail("start_time", start_time, "must be finite");
  if (merge_with_walls)
    throw InputError("reduction.merge_with_walls = true is not implemented (aggregates join particles and aggregates "
                     "only; ledger P11 default)");
  for (std::size_t i = 0; i < sensors.size(); ++i) {
    const auto& s = sensors[i];
    if (!(s.half_extent.minCoeff() > 0) || !s.center.allFinite())
      throw InputError(fmt::format("reduction.sensors[{}]: half extents must be > 0 and the centre finite", i));
    if (!(s.axes * s.axes.transpose() - Mat3::Identity()).isZero(1e-9))
      throw InputError(fmt::format("reduction.sensors[{}]: axes must be orthonormal", i));
  }
}

TrialConditions parse_trial_conditions(const std::string& name) {
  if (name == "f") return TrialConditions::force;
  if (name == "v") return TrialConditions::velocity;
  if (name == "fv") return TrialConditions::force_velocity;
  throw InputError(fmt::format("reduction: trial_conditions = '{}' is invalid (f, v, fv)", name));
}

}  // namespace grainlab
