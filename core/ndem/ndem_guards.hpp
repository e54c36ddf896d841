#pragma once
// Run guards of the NDEM stepper (issue 27 item 6; limits in core/run_guards.hpp, docs/guards.md):
//  - ndem_impact_never_fired: restitution > 0 on contacts that formed approaching, but the impact stage
//    never fired in the run (at small Δt the rule v_imp = 0.02 d / Δt puts the threshold above every
//    approach speed, so e is silently ignored); reported when the stepper ends (report()).
//  - ndem_first_touch_overlap: a contact's overlap when it is first seen exceeds
//    guards::first_touch_overlap_limit of d.
//  - ndem_travel_per_step: a particle moves more than guards::ndem_max_travel_per_step radii per step.
// Reads rows, contacts and velocities only; never changes a result.
#include <cstdint>
#include <vector>

#include "core/ndem/pgs.hpp"
#include "core/run_warnings.hpp"
#include "core/world.hpp"

namespace grainlab {

class NdemRunGuards {
 public:
  /// Reports to the collector of the run on the constructing thread (current_run_warnings()).
  NdemRunGuards() : out_(&current_run_warnings()) {}
  NdemRunGuards(const NdemRunGuards&) = default;
  NdemRunGuards& operator=(const NdemRunGuards&) = default;
  /// A moved-from guard reports nothing (its run continues in the new one).
  NdemRunGuards(NdemRunGuards&& o) noexcept : NdemRunGuards(static_cast<const NdemRunGuards&>(o)) { o.enabled_ = false; }
  NdemRunGuards& operator=(NdemRunGuards&& o) noexcept {
    *this = static_cast<const NdemRunGuards&>(o);
    o.enabled_ = false;
    return *this;
  }
  /// The stepper's end is the run's end: report() the whole-run warnings.
  ~NdemRunGuards() {
    if (enabled_ && steps_ > 0) report(*out_);
  }
  /// Off: observes nothing and reports nothing (the trial stepper of model reduction).
  void set_enabled(bool on) { enabled_ = on; }
  bool enabled() const { return enabled_; }
  /// Whether the impact stage is on (ndem_impact_never_fired only then).
  void set_impact_stage(bool on) { impact_stage_ = on; }
  RunWarnings& out() { return *out_; }

  /// After the rows are set up: first touches (keys not active last step) and the step's travel.
  void observe_setup(const World& world, const NdemRows& rows, double dt);
  /// Before the impact stage (velocities v_i): approach speeds of this step's first touches.
  void observe_first_touch_speeds(const NdemRows& rows, const NdemBodies& bodies);
  /// After the impact stage: how many contacts (sphere rows and body rows) it handled this step.
  void observe_impacts(std::size_t impacting) { impacts_ += impacting; }
  /// End of the run: the warnings that need the whole run (ndem_impact_never_fired).
  void report(RunWarnings& out) const;

  std::uint64_t impacts() const { return impacts_; }
  std::uint64_t restitution_first_touches() const { return restitution_touches_; }

 private:
  RunWarnings* out_;
  bool enabled_ = true, impact_stage_ = true;
  std::vector<std::uint64_t> previous_keys_, keys_;  ///< active contact keys of the last / this step, sorted
  std::vector<std::uint32_t> first_touch_;           ///< rows of this step's first touches
  std::uint64_t impacts_ = 0;
  std::uint64_t restitution_touches_ = 0;  ///< first touches with e > 0 that were approaching
  double fastest_approach_ = 0;            ///< m/s, among them
  double its_impact_speed_ = 0;            ///< v_imp of that contact
  double restitution_ = 0;                 ///< e of that contact
  std::uint64_t steps_ = 0;
};

}  // namespace grainlab
