#include "core/sdem/sdem_guards.hpp"
#include "core/sdem/law_table.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>


namespace grainlab {

SdemGuardScan sdem_guard_scan(const World& world, const SdemSettings& s, RunWarnings& out) {
  SdemGuardScan r;
  const ParticleStore& p = world.particles;
  const std::size_t nm = world.materials.size();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> r_min(nm, inf);  // smallest radius per particle material (the shortest t_c)
  double d_min = inf;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p.material[i] < nm) r_min[p.material[i]] = std::min(r_min[p.material[i]], p.radius[i]);
    d_min = std::min(d_min, 2 * p.radius[i]);
    if (p.inv_mass[i] > 0) r.max_speed = std::max(r.max_speed, p.velocity[i].norm());
  }
  const double dt = s.time_step, v_rel = 2 * r.max_speed;
  const bool speed_free =  // t_c independent of the speed
      sdem::with_normal_law(s.normal_law, [](auto law) { return sdem::NormalPart<decltype(law)::value>::speed_free; });
  if (speed_free || v_rel > 0) {
    const double v = v_rel > 0 ? v_rel : 1.0;  // unused by the linear law
    double tc = inf;
    for (std::size_t a = 0; a < nm; ++a) {
      if (r_min[a] == inf) continue;
      for (std::size_t b = a; b < nm; ++b)
        if (r_min[b] < inf) tc = std::min(tc, sdem_contact_time(world.materials[a], r_min[a], world.materials[b], r_min[b], v, s));
      for (const Wall& w : world.walls)
        if (w.material < nm) tc = std::min(tc, sdem_contact_time(world.materials[a], r_min[a], world.materials[w.material], 0.0, v, s));
    }
    if (tc < inf) {
      r.contact_time = tc;
      r.steps_per_contact = tc / dt;
    }
  }
  if (d_min < inf) r.first_touch_bound = v_rel * dt / d_min;
  if (r.contact_time > 0 && r.steps_per_contact < guards::sdem_min_steps_per_contact)
    out.warn("sdem_contact_resolution",
               fmt::format("SDEM step {}: the time step {} s resolves the contact time t_c = {:.3g} s (stiffest, lightest pair{}) "
                           "with only {:.3g} steps (limit {}, core/run_guards.hpp): restitution, peak force and contact time "
                           "are off by more than 1 %; use dt <= {:.3g} s (docs/guards.md)",
                           world.step, dt, r.contact_time,
                           speed_free ? "" : fmt::format(" at {:.3g} m/s", v_rel), r.steps_per_contact,
                           guards::sdem_min_steps_per_contact, r.contact_time / guards::sdem_min_steps_per_contact));
  if (r.first_touch_bound > guards::first_touch_overlap_limit)
    out.warn("sdem_first_touch_overlap",
               fmt::format("SDEM step {}: particles approaching at {:.3g} m/s close by {:.3g} d in one step of {} s (limit {} d, "
                           "core/run_guards.hpp): contacts can be first seen that deep; reduce the time step (docs/guards.md)",
                           world.step, v_rel, r.first_touch_bound, dt, guards::first_touch_overlap_limit));
  return r;
}

}  // namespace grainlab
