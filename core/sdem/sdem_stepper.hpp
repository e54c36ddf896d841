#pragma once
// Smooth DEM time stepper (000 lines 43-68, 364-383): explicit integration of Newton's equations with
// the contact law of core/sdem/contact_law.hpp.
//
// One step (symplectic Euler):
//   1. world.detect_contacts(false): candidate list (rebuilt when a particle moved half the skin) and
//      this step's wall contacts; the pair geometry is left to stage 2      -> timers.collision
//   2. contact wrenches; each contact writes only its own wrench slot and its own history. A wall
//      contact is computed in its particle's gather (step 3), before the particle moves. A pair
//      candidate computes its geometry and its wrench in one pass (core/sdem/pair_kernels.hpp, four
//      candidates at a time in SIMD lanes, groups fixed by index); its overlap and tangential spring live
//      in World::deferred_contacts() (32 bytes instead of the 112-byte record and the springs' column,
//      written there, with its force, by World::sync_contacts()); its wrench is a 64-byte PairWrench in a
//      slot that the gathers read (assign_wrench_slots: a ring per region for the groups that only that
//      region reads, so that the wrenches stay in the caches). Groups with rolling resistance work on the
//      records. Per-candidate constants (k_n, damping, k_t factors, mu, radii; shared by species pair
//      when there are few species) and particle indices are computed when the candidate list changes
//   3. deterministic gather per particle: pair sides through a CSR adjacency (rebuilt with the
//      candidate list), in contact order, then its wall contacts in list order; no atomics, so the sums
//      do not depend on the thread count. Each particle is integrated (step 5) right after its gather.
//      Stages 2 and 3 run fused, one region of particles per thread, block by block: a block's pair
//      candidates, then its particles' gathers while the wrenches are in cache (build_schedule; the
//      candidates of a particle come no later than its block's, in the detector's key order). A region
//      first computes its candidates that reach into another region, then signals; a particle with such
//      a candidate ("late") is gathered by its own region once the earlier regions have signalled, or
//      after all regions (never a wait). Wall contacts are computed in their particle's gather. Region
//      bounds move half way to the split of the last schedule's measured block times
//      (core/sdem/region_bounds.hpp). The schedule orders the work; it does not change any result
//   4. wall loads: Wall::force/torque = sum of the reactions, in contact order
//   -> timers.forces (stages 2-5; stages 2, 3 and 5 are SdemStepper::ForcePass, core/sdem/force_pass.hpp)
//   5. integrate: v += dt (f/m + g(t)); x += dt v; w += dt tau/I; q <- normalize(q + dt/2 (0,w) q);
//      fixed particles do not move; then rigid bodies (core/sdem/sdem_bodies.hpp) -> timers.integrate
//   6. advance walls, wrap periodic positions, time += dt, step += 1
//   7. every `stability_check_interval` steps: World::check_stability (NaN, overlap beyond a limit)
//      throws InstabilityError naming the step.
// Velocity Verlet instead: half kick with last step's forces, drift, detect, forces, half kick (the
// velocity-dependent parts of the law see the half-step velocity, as in LAMMPS).
//
// Parameter choices (documented in docs/sdem.md):
//   k_n = 4/3 E* sqrt(R*)                                         core/hertz.hpp
//   eta(e) exact (core/sdem/restitution.hpp)
//   k_t = tangential_stiffness_factor * 8 G* sqrt(R* d)           Mindlin, 1/G* = sum (2 - nu)/G
//         (linear law: factor * 2/7 k_n, equal normal and tangential frequencies for a sphere on a wall)
//   gamma_t = 2 zeta_t sqrt(m* k_t), zeta_t defaults to zeta(e) = -ln e / sqrt(pi^2 + ln^2 e)
//   k_r = rolling_stiffness_factor * k_t R*^2, gamma_r = 2 zeta_r sqrt(I_r k_r),
//         I_r = 1 / sum 1/(I + m r^2) (inertia about the contact point), zeta_r default 0.3
//   rolling limit mu_r R* f_n with R* the particle radius against a wall.
//   twisting (when the pair's twisting_factor alpha_rn > 0): k_tw = k_r, gamma_tw = 2 zeta_r sqrt(I_t k_tw),
//         I_t = 1 / sum 1/I, limit alpha_rn mu R* f_n (the limit of NDEM's twisting row, 000 l.1176).
//
// Threading: step() uses TBB; for a given thread count the result is bitwise reproducible (and, since
// every parallel loop writes disjoint slots and every sum has a fixed order, also across thread counts).
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/buffer_growth.hpp"
#include "core/run_warnings.hpp"
#include "core/scheduling_policy.hpp"
#include "core/thread_arena.hpp"
#include "core/world.hpp"

namespace grainlab {

enum class SdemNormalLaw {
  hertz,          ///< k_n d^{3/2} + eta(e) sqrt(m* k_n) d^{1/4} d'  (e from the material pair)
  viscoelastic,   ///< 000 Eq. (2): k_n (d^{3/2} + c d^{1/2} d'), c from `viscosity`
  linear,         ///< k d + eta(e) sqrt(m* k) d' with k = `linear_stiffness`
};

enum class SdemIntegrator { symplectic_euler, velocity_verlet };

struct SdemSettings {
  double time_step = 1e-5;  ///< s
  SdemIntegrator integrator = SdemIntegrator::symplectic_euler;
  SdemNormalLaw normal_law = SdemNormalLaw::hertz;
  double linear_stiffness = 0.0;  ///< N/m, linear law only
  /// Material viscosity constant eta of 000 line 68, Pa s (viscoelastic law only); the dissipation
  /// coefficient is c = 2 (1 - 2 nu) eta / (15 nu^2 E*) with nu the mean Poisson ratio of the pair, which
  /// for equal materials is exactly c = 4 (1 - nu^2)(1 - 2 nu) eta / (15 E nu^2) of line 68.
  double viscosity = 0.0;
  double tangential_stiffness_factor = 1.0;        ///< multiplies Mindlin k_t
  std::optional<double> tangential_damping_ratio;  ///< zeta_t; unset: zeta(e) of the pair
  double rolling_stiffness_factor = 1.0;           ///< k_r = factor * k_t R*^2
  double rolling_damping_ratio = 0.3;              ///< zeta_r
  int stability_check_interval = 100;              ///< steps between checks; 0 = never
  double max_overlap_ratio = 0.5;                  ///< overlap / smaller radius that counts as unstable

  /// Throws InputError naming the parameter when a value is invalid.
  void validate() const;
};

/// Coefficients of one material pair, precomputed once (mixing rules of core/material.hpp).
struct SdemPairCoefficients {
  double kn_factor = 0;       ///< hertz/viscoelastic: 4/3 E* (k_n = kn_factor sqrt(R*)); linear: k_n
  double normal_damping = 0;  ///< hertz/linear: eta; viscoelastic: c (s)
  double kt_factor = 0;       ///< hertz/viscoelastic: factor 8 G* (k_t = kt_factor sqrt(R* d)); linear: k_t
  double tangential_damping = 0;  ///< 2 zeta_t
  double friction = 0, rolling_friction = 0;
  double twisting_factor = 0;     ///< alpha_rn: twisting limit alpha_rn mu R* f_n (0: no twisting resistance)
  double rolling_damping = 0;     ///< 2 zeta_r (rolling and twisting)
  double kr_factor = 1;           ///< k_r = k_tw = kr_factor k_t R*^2
};

/// The pair coefficients for two materials under `settings`, with the pair's override if any.
SdemPairCoefficients sdem_pair_coefficients(const Material& a, const Material& b, const SdemSettings& settings,
                                            const PairOverride* override_values = nullptr);

/// Elastic Hertz contact time of two bodies (or a body against a wall: pass a wall material and
/// radius_b <= 0) at approach speed v; choose dt as a small fraction of it (<= t_c/50 for 1 % accuracy).
double sdem_contact_time(const Material& a, double radius_a, const Material& b, double radius_b, double speed,
                         const SdemSettings& settings = {});

/// Constants of one contact between candidate-list rebuilds (from SdemPairCoefficients, R* and m*),
/// so the per-step kernel needs no table lookup, division or square root of them.
struct SdemPairConstants {
  double kn = 0;      ///< k_n (N/m^{3/2} Hertz and viscoelastic, N/m linear)
  double damp_n = 0;  ///< hertz/linear: eta sqrt(m* k_n); viscoelastic: c (s)
  double kt0 = 0;     ///< hertz/viscoelastic: k_t / sqrt(d); linear: k_t
  double damp_t = 0;  ///< hertz/viscoelastic: gamma_t / d^{1/4}; linear: gamma_t
  double mu = 0;
  double radius_a = 0, radius_b = 0;  ///< of the two spheres (constant between rebuilds)
  std::uint32_t table = 0;  ///< index of the pair's SdemPairCoefficients (rolling resistance)
  bool movable = false;     ///< at least one body can move
  bool same_body = false;   ///< both spheres belong to one rigid body: never in contact
  bool rolling = false;     ///< the pair has rolling resistance
};

/// The constants of every pair candidate, as arrays (the lane kernel of core/sdem/pair_kernels.hpp loads
/// four candidates' values at once). The value arrays have one row per candidate, or, when the particles
/// fall into a few species (material, radius, mass), one row per ordered pair of species and `row_of`
/// maps each candidate to its row: 2 bytes per candidate instead of 60 streamed every step. `flags` is
/// always per candidate.
struct SdemCandidateConstants {
  enum Flag : std::uint8_t { movable = 1, same_body = 2, rolling = 4 };
  std::vector<double> kn, damp_n, kt0, damp_t, mu, radius_a, radius_b;  ///< per row
  std::vector<std::uint32_t> table;                                     ///< per row
  std::vector<std::uint8_t> flags;                                      ///< per candidate
  std::vector<std::uint16_t> row_of;  ///< per candidate when `shared_rows`
  bool shared_rows = false;

  std::size_t row(std::size_t k) const { return shared_rows ? row_of[k] : k; }
  void resize_rows(std::size_t n) {
    for (auto* v : {&kn, &damp_n, &kt0, &damp_t, &mu, &radius_a, &radius_b}) resize_with_headroom(*v, n);
    resize_with_headroom(table, n);
  }
  /// One row per candidate (the flags follow `c`).
  void resize(std::size_t n) {
    resize_rows(n);
    resize_with_headroom(flags, n);
    shared_rows = false;
  }
  void set_row(std::size_t r, const SdemPairConstants& c) {
    kn[r] = c.kn, damp_n[r] = c.damp_n, kt0[r] = c.kt0, damp_t[r] = c.damp_t, mu[r] = c.mu, table[r] = c.table;
    radius_a[r] = c.radius_a, radius_b[r] = c.radius_b;
  }
  static std::uint8_t flags_of(const SdemPairConstants& c) {
    return std::uint8_t((c.movable ? movable : 0) | (c.same_body ? same_body : 0) | (c.rolling ? rolling : 0));
  }
  void set(std::size_t k, const SdemPairConstants& c) {
    set_row(k, c);
    flags[k] = flags_of(c);
  }
  SdemPairConstants at(std::size_t k) const {
    const std::size_t r = row(k);
    SdemPairConstants c;
    c.kn = kn[r], c.damp_n = damp_n[r], c.kt0 = kt0[r], c.damp_t = damp_t[r], c.mu = mu[r], c.table = table[r];
    c.radius_a = radius_a[r], c.radius_b = radius_b[r];
    c.movable = flags[k] & movable, c.same_body = flags[k] & same_body, c.rolling = flags[k] & rolling;
    return c;
  }
  std::size_t memory_bytes() const {
    return kn.capacity() * 7 * sizeof(double) + table.capacity() * sizeof(std::uint32_t) + flags.capacity() +
           row_of.capacity() * sizeof(std::uint16_t);
  }
};

class SdemStepper : public Stepper {
 public:
  explicit SdemStepper(const SdemSettings& settings);
  const char* name() const override { return "sdem"; }
  double time_step() const override { return settings_.time_step; }
  void step(World& world) override;
  const SdemSettings& settings() const { return settings_; }
  /// Re-reads the materials, masses and radii at the next step (the pair table is otherwise built once,
  /// and again only when the number of materials or the pair overrides change; the per-candidate constants
  /// at each candidate-list rebuild).
  void refresh_materials() {
    material_count_ = 0;
    pair_table_.clear();
    adjacency_rebuilds_ = ~std::uint64_t(0);
  }
  /// Velocity Verlet only: declares that particles.force/torque already hold the contact forces of the
  /// current state (e.g. restored from a checkpoint), so the first step does not recompute them. Without
  /// it the first step of a new stepper recomputes them, which also advances the springs once more;
  /// symplectic Euler keeps no such state and restarts bit for bit from positions, velocities and
  /// contact history alone.
  void assume_forces_current(const World& world) {
    forces_current_ = true;
    forces_step_ = world.step;
    forces_particles_ = world.particles.size();
  }

  /// Runs the force stage alone (contacts must be current): fills particle force/torque (contacts only,
  /// no gravity), Contact::force and wall loads. Exposed for tests and benchmarks.
  void compute_forces(World& world);

  /// Particle species (material, radius, mass) up to which the per-candidate constants are shared by
  /// species pair (SdemCandidateConstants); more species and each candidate has its own. Results are the
  /// same either way. Exposed for tests and benchmarks.
  void set_max_species(std::size_t n) {
    max_species_ = std::min<std::size_t>(n, 255);  // rows are 16-bit
    adjacency_rebuilds_ = ~std::uint64_t(0);
  }

  /// Regions of the fused force stage (see step 3 above); 0 (the default): one per thread that can run.
  /// The results do not depend on it. Exposed for tests and benchmarks.
  /// `reverse_order` starts the regions from the last (tests: on one thread every region but the first
  /// then finds the earlier ones not yet signalled and leaves its late particles for the end).
  void set_regions(std::size_t n, bool reverse_order = false) {
    forced_regions_ = n;
    reverse_regions_ = reverse_order;
  }
  /// Lane groups a region's ring of pair wrenches holds (assign_wrench_slots); 0: every candidate keeps a
  /// wrench slot of its own. The results do not depend on it. Exposed for tests and benchmarks.
  void set_wrench_ring(std::size_t groups) {
    ring_groups_ = groups;
    schedule_regions_ = 0;  // schedule again
  }
  /// Lane groups whose wrenches went to a ring at the last schedule; for tests.
  std::size_t ring_groups_used() const { return ring_groups_used_; }

  /// The plain reference path: the stages one after another, each over all candidates or particles
  /// (pair wrenches, gather, integrate; a wrench slot per candidate), with no regions, blocks, rings or
  /// fusion. Results are bitwise those of the fused path (tests/sdem/robustness_test.cpp), so a change
  /// to the schedule can be checked against it. Serial in the pair and gather stages: for tests.
  void set_reference_path(bool on) {
    reference_path_ = on;
    schedule_regions_ = 0;  // schedule again: the reference path takes no ring (assign_wrench_slots)
  }

  /// Regions so far whose late particles waited for the end of the stage (an earlier region had not
  /// yet computed its crossing candidates); for tests.
  std::uint64_t deferred_regions() const { return deferred_regions_; }

  /// Whether the current candidate constants are shared by species pair.
  bool shares_constants() const { return constants_.shared_rows; }

  /// Heap bytes held by the stepper's per-contact and per-particle buffers (by capacity).
  std::size_t memory_bytes() const {
    return pair_index_.capacity() * sizeof(std::int32_t) + constants_.memory_bytes() +
           rolling_torque_.capacity() * sizeof(Vec3) + wall_load_.capacity() * sizeof(BodyWrench) +
           late_.capacity() + early_group_.capacity() + wrench_slots_.capacity() * sizeof(PairWrench) +
           (group_slot_.capacity() + gather_slot_.capacity()) * sizeof(std::uint32_t) +
           (region_block_.capacity() + block_particle_.capacity() + block_contact_.capacity() + late_particles_.capacity() +
            early_groups_.capacity()) * sizeof(std::uint32_t) +
           (offset_.capacity() + adjacency_.capacity() + adjacency_fill_.capacity() + wall_entry_.capacity() + wall_particle_.capacity() +
            wall_of_.capacity()) * sizeof(std::uint32_t);
  }

 private:
  /// One step (step() runs it in the arena of World::threads, then the run guards).
  void advance(World& world);
  /// The pair table for the world's materials, and the model-history columns the law needs kept (the
  /// tangential springs; the rolling and twisting springs when some pair resists rolling or twisting).
  void prepare(World& world);
  void build_adjacency(World& world);
  void build_schedule(std::size_t np, std::size_t pairs, std::size_t regions);
  void assign_wrench_slots(std::size_t np, std::size_t pairs);
  /// The wrench slot of pair candidate k (its group's first slot + its lane).
  std::size_t wrench_slot(std::size_t k) const;
  /// Kick by kick_dt (v += dt (f/m + g), w += dt tau/I), then drift by drift_dt (0: no drift).
  struct KickDrift {
    double kick_dt, drift_dt;
    Vec3 g;
  };
  /// One pass over the particles.
  void integrate(World& world, const KickDrift& kd);
  /// compute_forces, and with `kd` each particle integrated as soon as its forces are summed.
  void forces_and_integrate(World& world, const KickDrift* kd);
  /// Builds the schedule again when the region count or the adjacency changed.
  void schedule_for(std::size_t np, std::size_t pairs);
  /// This step's wall contacts by particle (wall_entry_, wall_particle_, wall_of_).
  void index_wall_contacts(World& world);
  /// Stage 4: Wall::force/torque from this step's wall reactions.
  void sum_wall_loads(World& world) const;
  /// Stages 2, 3 (and 5) for one normal law (core/sdem/force_pass.hpp).
  template <SdemNormalLaw law>
  struct ForcePass;

  SdemSettings settings_;
  std::vector<SdemPairCoefficients> pair_table_;  ///< [material_a * n + material_b]
  std::size_t material_count_ = 0;
  bool needs_springs_ = false;  ///< some pair has rolling or twisting resistance
  std::uint64_t overrides_revision_ = 0;
  SdemCandidateConstants constants_;  ///< per pair candidate, rebuilt with the adjacency
  std::size_t max_species_ = 16;
  std::vector<std::int32_t> pair_index_;  ///< a, b of pair candidate k at 2k, 2k + 1 (rebuilt with the adjacency)
  bool any_rolling_ = false;              ///< some candidate has rolling resistance
  std::vector<Vec3> rolling_torque_;      ///< per pair candidate, on a (only with any_rolling_)
  // This step's wall contacts (list index e = contact index - pair count): the wall of each, and its
  // reaction (force, torque about the wall's rotation centre); entries sorted by particle: wall_entry_
  // holds list indices, wall_particle_ their particles.
  std::vector<std::uint32_t> wall_of_, wall_entry_, wall_particle_;
  std::vector<BodyWrench> wall_load_;
  // Schedule of the fused force stage and gather (build_schedule): regions of particles, one per thread,
  // each cut into blocks; block b covers particles [block_particle_[b], block_particle_[b+1]) and
  // candidates [block_contact_[b], block_contact_[b+1]); region r is blocks [region_block_[r],
  // region_block_[r+1]). Region r first computes its crossing lane groups (those touching a particle of
  // another region: early_groups_[region_early_[r] ..], flagged in early_group_); its late particles
  // (flagged in late_; late_particles_[region_late_[r] ..]) wait for the earlier regions' signals.
  std::size_t forced_regions_ = 0;  ///< set_regions
  bool reverse_regions_ = false;     ///< set_regions
  std::size_t schedule_regions_ = 0;
  std::uint64_t schedule_version_ = ~std::uint64_t(0);  ///< adjacency_version_ it was built for
  bool schedule_sorted_ = true;  ///< candidates follow the particle order (else every particle is late)
  std::vector<std::uint32_t> region_block_, block_particle_{0}, block_contact_;
  std::vector<std::size_t> region_bound_;  ///< first particle of each region, and np
  std::vector<double> block_seconds_;      ///< per block: time taken since the schedule was built
  std::vector<std::uint8_t> late_, early_group_;
  std::vector<std::uint32_t> late_particles_, region_late_, early_groups_, region_early_;
  std::unique_ptr<std::atomic<bool>[]> signalled_;  ///< per region: its crossing groups are done
  std::vector<std::uint32_t> pending_late_;         ///< per region: its late particles from here on wait for the end
  std::uint64_t deferred_regions_ = 0;
  // Pair wrenches (assign_wrench_slots): lane group g writes wrench_slots_[group_slot_[g] ..];
  // gather_slot_[e] is adjacency_[e] with the candidate replaced by its slot. A ring holds up to
  // ring_groups_ groups (2 MB by default); a region's work between writing a wrench and its last read
  // spans about 3 blocks of particles (12k candidates in the 100k bed, 37k at most).
  std::size_t ring_groups_ = policy::sdem_wrench_ring_groups;
  bool reference_path_ = false;  ///< set_reference_path
  std::vector<PairWrench> wrench_slots_;
  std::vector<std::uint32_t> group_slot_, gather_slot_;
  std::size_t ring_groups_used_ = 0;
  // CSR adjacency of pair candidates: entries of particle i are adjacency_[offset_[i] .. offset_[i+1]),
  // each 2k (particle is a of contact k) or 2k+1 (particle is b), in increasing k.
  std::vector<std::uint32_t> offset_, adjacency_, adjacency_fill_;
  std::uint64_t adjacency_rebuilds_ = ~std::uint64_t(0);
  std::uint64_t adjacency_version_ = 0;  ///< counts adjacency builds
  std::size_t adjacency_pairs_ = 0, adjacency_particles_ = 0;
  bool forces_current_ = false;  ///< velocity Verlet: particle.force holds the forces at the current state
  std::uint64_t forces_step_ = 0;
  std::size_t forces_particles_ = 0;
  ThreadArena arena_;  ///< World::threads
  RunWarnings* warnings_ = &current_run_warnings();  ///< where the run guards report (core/sdem/sdem_guards.hpp)
};

}  // namespace grainlab
