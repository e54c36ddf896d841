#include "experiments/reduction_parameters.hpp"

#include <string>

namespace grainlab {

std::vector<ParameterSpec> reduction_parameters() {
  const ReductionSettings d;
  auto inf_real = [](std::string name, std::string unit, double value, std::string description) {
    return ParameterSpec{std::move(name), ParamType::real, std::move(unit), value, 0.0, std::nullopt,
                         std::move(description), {}, true};
  };
  return {
      {"reduction", ParamType::text, "", std::string("none"), std::nullopt, std::nullopt,
       "model reduction family (000 l.2130): none (ref), c (contact split), cs (contact + sensor split), "
       "tr (trial split), ctr (contact + trial split)", {"none", "c", "cs", "tr", "ctr"}},
      inf_real("merge_normal_velocity", "m/s", d.merge.incident_normal, "xi_nv^{i-mrg} = xi_nv^{s-mrg} (Eq. 26)"),
      inf_real("merge_tangential_velocity", "m/s", d.merge.tangential, "xi_tv^mrg (Eq. 27)"),
      inf_real("merge_rolling_velocity", "rad/s", d.merge.rolling, "xi_rv^mrg (Eq. 28)"),
      inf_real("merge_acceleration", "m/s^2", d.merge_normal_acceleration,
               "normal and tangential relative-acceleration bound of the merge test (reconstructed)"),
      inf_real("merge_force_balance", "-", d.merge_force_balance, "xi_f^mrg (Eq. 25; reconstructed); inf = off"),
      {"merge_with_walls", ParamType::boolean, "", false, std::nullopt, std::nullopt,
       "aggregates may merge with walls (P11)"},
      {"merge_placement", ParamType::text, "", std::string("before_position_update"), std::nullopt, std::nullopt,
       "merge test before or after the position update (C54)", {"before_position_update", "after_position_update"}},
      {"split_placement", ParamType::text, "", std::string("before_impact"), std::nullopt, std::nullopt,
       "splits before or after the impact stage (C55)", {"before_impact", "after_impact"}},
      {"contact_split_depth", ParamType::integer, "", std::int64_t(d.contact_split_depth), 1.0, 10.0,
       "N_c-spl (000 l.2048)"},
      inf_real("contact_incident_normal", "m/s", d.contact.incident_normal, "xi_nv^{i-c} (Eq. 29)"),
      inf_real("contact_separating_normal", "m/s", d.contact.separating_normal,
               "xi_nv^{s-c}: separation split (inf = off, as in the paper)"),
      inf_real("contact_tangential", "m/s", d.contact.tangential, "xi_tv^c (Eq. 30)"),
      {"trial_iterations", ParamType::integer, "", std::int64_t(d.trial_iterations), 1.0, 100000.0, "N_it^tr"},
      {"trial_conditions", ParamType::text, "", std::string("f"), std::nullopt, std::nullopt,
       "trial split conditions: f (force balance), v (velocities), fv (both)", {"f", "v", "fv"}},
      inf_real("trial_incident_normal", "m/s", d.trial.incident_normal, "xi_nv^{i-tr} (2.6 printed; P10: 0.26?)"),
      inf_real("trial_separating_normal", "m/s", d.trial.separating_normal, "xi_nv^{s-tr}"),
      inf_real("trial_tangential", "m/s", d.trial.tangential, "xi_tv^tr"),
      inf_real("trial_force_balance", "-", d.trial_force_balance, "xi_f^tr (Eq. 35)"),
      inf_real("trial_torque_balance", "-", d.trial_torque_balance, "xi_tau^tr (Eq. 36); inf = off"),
      {"reduction_start_time", ParamType::real, "s", 0.0, 0.0, std::nullopt, "no merging before this time"},
  };
}

ReductionSettings reduction_settings(const Parameters& p) {
  ReductionSettings s;
  const std::string& mode = p.text("reduction");
  s.enabled = mode != "none";
  s.contact_split = mode == "c" || mode == "cs" || mode == "ctr";
  s.trial_split = mode == "tr" || mode == "ctr";
  s.merge.incident_normal = s.merge.separating_normal = p.real("merge_normal_velocity");
  s.merge.tangential = p.real("merge_tangential_velocity");
  s.merge.rolling = p.real("merge_rolling_velocity");
  s.merge_normal_acceleration = s.merge_tangential_acceleration = p.real("merge_acceleration");
  s.merge_force_balance = p.real("merge_force_balance");
  s.merge_with_walls = p.boolean("merge_with_walls");
  s.merge_placement = p.text("merge_placement") == "after_position_update" ? MergePlacement::after_position_update
                                                                           : MergePlacement::before_position_update;
  s.split_placement = p.text("split_placement") == "after_impact" ? SplitPlacement::after_impact
                                                                  : SplitPlacement::before_impact;
  s.contact_split_depth = int(p.integer("contact_split_depth"));
  s.contact.incident_normal = p.real("contact_incident_normal");
  s.contact.separating_normal = p.real("contact_separating_normal");
  s.contact.tangential = p.real("contact_tangential");
  s.trial_iterations = int(p.integer("trial_iterations"));
  s.trial_conditions = parse_trial_conditions(p.text("trial_conditions"));
  s.trial.incident_normal = p.real("trial_incident_normal");
  s.trial.separating_normal = p.real("trial_separating_normal");
  s.trial.tangential = p.real("trial_tangential");
  s.trial_force_balance = p.real("trial_force_balance");
  s.trial_torque_balance = p.real("trial_torque_balance");
  s.start_time = p.real("reduction_start_time");
  s.validate();
  return s;
}

bool reduction_uses_sensors(const Parameters& p) { return p.text("reduction") == "cs"; }

}  // namespace grainlab
