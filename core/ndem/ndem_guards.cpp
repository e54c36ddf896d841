#include "core/ndem/ndem_guards.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/ndem/row_blocks.hpp"
#include "core/run_guards.hpp"

namespace grainlab {

void NdemRunGuards::observe_setup(const World& world, const NdemRows& R, double dt) {
  if (!enabled_) return;
  RunWarnings& out = *out_;
  ++steps_;
  const std::vector<Contact>& contacts = world.contacts();  // NDEM keeps no deferred state: no sync
  const ParticleStore& P = world.particles;
  keys_.resize(R.size());
  ndem_rows::for_each_in_blocks(R.size(), [&](std::size_t i) { keys_[i] = contacts[R.contact[i]].key; });
  // The rows come in contact order: the pair keys sorted (looked up by one merge walk through last step's
  // sorted keys), the wall contacts' after them (by binary search).
  const auto tail = std::is_sorted_until(keys_.begin(), keys_.end());
  const std::size_t sorted = std::size_t(tail - keys_.begin());
  auto seen = previous_keys_.cbegin();
  first_touch_.clear();
  for (std::size_t i = 0; i < R.size(); ++i) {
    const std::uint64_t key = keys_[i];
    bool known;
    if (i < sorted) {
      while (seen != previous_keys_.cend() && *seen < key) ++seen;
      known = seen != previous_keys_.cend() && *seen == key;
    } else {
      known = std::binary_search(previous_keys_.cbegin(), previous_keys_.cend(), key);
    }
    if (known) continue;
    first_touch_.push_back(std::uint32_t(i));
    const double d = R.b[i] < 0 ? 2.0 * P.radius[R.a[i]] : P.radius[R.a[i]] + P.radius[R.b[i]];
    const double ratio = R.overlap[i] / d;
    if (ratio > guards::first_touch_overlap_limit)
      out.warn("ndem_first_touch_overlap",
               fmt::format("NDEM step {}: a contact was first seen {:.3g} d deep (limit {} d, core/run_guards.hpp): the pair "
                           "closed that far within one step of {} s before any force acted; reduce the time step "
                           "(docs/guards.md)",
                           world.step, ratio, guards::first_touch_overlap_limit, dt));
  }
  std::sort(tail, keys_.end());
  std::inplace_merge(keys_.begin(), tail, keys_.end());
  previous_keys_.swap(keys_);
  const guards::Travel t = guards::max_travel_per_step(P, dt);
  if (t.ratio > guards::ndem_max_travel_per_step)
    out.warn("ndem_travel_per_step",
             fmt::format("NDEM step {}: particle {} (r = {:.3g} m) moves {:.3g} radii per step of {} s at {:.3g} m/s (limit {} "
                         "radius, core/run_guards.hpp): contacts are seen only after deep overlap and oblique impacts "
                         "take the wrong normal; reduce the time step below {:.3g} s (docs/guards.md)",
                         world.step, t.particle, P.radius[t.particle], t.ratio, dt, P.velocity[t.particle].norm(),
                         guards::ndem_max_travel_per_step, dt * guards::ndem_max_travel_per_step / t.ratio));
}

void NdemRunGuards::observe_first_touch_speeds(const NdemRows& R, const NdemBodies& bodies) {
  if (!enabled_) return;
  for (std::uint32_t i : first_touch_) {
    if (!(R.restitution[i] > 0)) continue;
    const double approach = -normal_velocity(R, bodies, i);
    if (!(approach > 0)) continue;
    ++restitution_touches_;
    if (approach > fastest_approach_) {
      fastest_approach_ = approach;
      its_impact_speed_ = R.impact_speed[i];
      restitution_ = R.restitution[i];
    }
  }
}

void NdemRunGuards::report(RunWarnings& out) const {
  if (!impact_stage_ || impacts_ > 0 || restitution_touches_ == 0) return;
  out.warn("ndem_impact_never_fired",
           fmt::format("NDEM: restitution is set (e = {:.3g}) but the impact stage never fired in {} steps: {} contacts formed "
                       "approaching, the fastest at {:.3g} m/s, below its threshold v_imp = {:.3g} m/s (rule v_imp = "
                       "impact_epsilon d / dt unless impact_velocity is set), so no collision got its restitution "
                       "(the continuous stage alone handled them); set impact_velocity or a larger impact_epsilon if e matters "
                       "(docs/guards.md)",
                       restitution_, steps_, restitution_touches_, fastest_approach_, its_impact_speed_));
}

}  // namespace grainlab
