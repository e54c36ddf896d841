#include "core/sdem/sdem_stepper.hpp"
#include "core/sdem/sdem_guards.hpp"
#include "core/sdem/sdem_bodies.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "core/collision.hpp"
#include "core/error.hpp"
#include "core/scalar3.hpp"
#include "core/hertz.hpp"
#include "core/sdem/contact_law.hpp"
#include "core/sdem/force_pass.hpp"
#include "core/sdem/law_table.hpp"
#include "core/sdem/pair_kernels.hpp"
#include "core/sdem/region_bounds.hpp"
#include "core/sdem/hertz_theory.hpp"
#include "core/sdem/restitution.hpp"

namespace grainlab {

namespace {

constexpr std::size_t chunk_size = policy::sdem_chunk;

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

double shear_modulus(const Material& m) { return m.youngs_modulus / (2 * (1 + m.poisson_ratio)); }

}  // namespace

void SdemSettings::validate() const {
  auto fail = [](const char* key, double value, const char* rule) {
    throw InputError(fmt::format("SDEM setting {} = {} is invalid ({})", key, value, rule));
  };
  if (!std::isfinite(time_step) || time_step <= 0) fail("time_step", time_step, "must be > 0");
  if (!std::isfinite(linear_stiffness) || linear_stiffness < 0) fail("linear_stiffness", linear_stiffness, "must be >= 0");
  if (normal_law == SdemNormalLaw::linear && linear_stiffness <= 0)
    fail("linear_stiffness", linear_stiffness, "must be > 0 for the linear normal law");
  if (!std::isfinite(viscosity) || viscosity < 0) fail("viscosity", viscosity, "must be >= 0");
  if (!std::isfinite(tangential_stiffness_factor) || tangential_stiffness_factor <= 0)
    fail("tangential_stiffness_factor", tangential_stiffness_factor, "must be > 0");
  if (tangential_damping_ratio && (!std::isfinite(*tangential_damping_ratio) || *tangential_damping_ratio < 0))
    fail("tangential_damping_ratio", *tangential_damping_ratio, "must be >= 0");
  if (!std::isfinite(rolling_stiffness_factor) || rolling_stiffness_factor <= 0)
    fail("rolling_stiffness_factor", rolling_stiffness_factor, "must be > 0");
  if (!std::isfinite(rolling_damping_ratio) || rolling_damping_ratio < 0)
    fail("rolling_damping_ratio", rolling_damping_ratio, "must be >= 0");
  if (stability_check_interval < 0) fail("stability_check_interval", stability_check_interval, "must be >= 0");
  if (!std::isfinite(max_overlap_ratio) || max_overlap_ratio <= 0)
    fail("max_overlap_ratio", max_overlap_ratio, "must be > 0");
}

SdemPairCoefficients sdem_pair_coefficients(const Material& a, const Material& b, const SdemSettings& s,
                                            const PairOverride* override_values) {
  const MaterialPair pair = mix(a, b, override_values);
  const double g_star = 1.0 / ((2 - a.poisson_ratio) / shear_modulus(a) + (2 - b.poisson_ratio) / shear_modulus(b));
  SdemPairCoefficients c;
  c.friction = pair.friction;
  c.rolling_friction = pair.rolling_friction;
  c.twisting_factor = pair.twisting_factor;
  c.tangential_damping = 2 * s.tangential_damping_ratio.value_or(sdem::equivalent_damping_ratio(pair.restitution));
  c.rolling_damping = 2 * s.rolling_damping_ratio;
  c.kr_factor = s.rolling_stiffness_factor;
  sdem::with_normal_law(s.normal_law,
                        [&](auto law) { sdem::NormalPart<decltype(law)::value>::set(c, pair, a, b, g_star, s); });
  return c;
}

double sdem_contact_time(const Material& a, double radius_a, const Material& b, double radius_b, double speed,
                         const SdemSettings& s) {
  if (!std::isfinite(radius_a) || radius_a <= 0) throw InputError(fmt::format("radius = {} is invalid (must be > 0)", radius_a));
  if (!std::isfinite(speed) || speed <= 0) throw InputError(fmt::format("impact speed = {} is invalid (must be > 0)", speed));
  const double ma = a.density * 4.0 / 3.0 * pi * radius_a * radius_a * radius_a;
  double m_eff = ma, r_eff = radius_a;
  if (radius_b > 0) {
    const double mb = b.density * 4.0 / 3.0 * pi * radius_b * radius_b * radius_b;
    m_eff = ma * mb / (ma + mb);
    r_eff = radius_a * radius_b / (radius_a + radius_b);
  }
  const double e_star = mix(a, b).effective_modulus;
  return sdem::with_normal_law(s.normal_law, [&](auto law) {
    return sdem::NormalPart<decltype(law)::value>::contact_time(m_eff, e_star, r_eff, speed, s);
  });
}

SdemStepper::SdemStepper(const SdemSettings& settings) : settings_(settings) { settings_.validate(); }

void SdemStepper::prepare(World& world) {
  const std::size_t n = world.materials.size();
  if (n != material_count_ || pair_table_.size() != n * n || world.pair_overrides.revision() != overrides_revision_) {
    pair_table_.resize(n * n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        pair_table_[i * n + j] = sdem_pair_coefficients(world.materials[i], world.materials[j], settings_,
                                                        world.pair_overrides.find(int(i), int(j)));
    material_count_ = n;
    overrides_revision_ = world.pair_overrides.revision();
    needs_springs_ = std::any_of(pair_table_.begin(), pair_table_.end(), [](const SdemPairCoefficients& c) {
      return c.rolling_friction > 0 || c.twisting_factor > 0;
    });
    adjacency_rebuilds_ = ~std::uint64_t(0);  // per-candidate constants index the table
  }
  world.keep_tangential_springs();
  if (needs_springs_) world.keep_springs();
}

void SdemStepper::build_adjacency(World& world) {
  const std::size_t np = world.particles.size();
  const std::size_t pairs = world.pair_contact_count();
  const std::vector<Contact>& contacts = world.contact_records();
  const std::vector<TangentialSpringHistory>& springs = world.model_history().tangential_springs;  // kept (prepare)
  DeferredContacts& deferred = world.deferred_contacts();
  // The records are current (a rebuild or a caller changed them): take the pair history from them.
  const bool load_history = !deferred.mirrors_records || deferred.history.size() != pairs;
  const bool rebuild =
      world.detector.stats().rebuilds != adjacency_rebuilds_ || pairs != adjacency_pairs_ || np != adjacency_particles_;
  if (!load_history && !rebuild) return;
  if (load_history) resize_with_headroom(deferred.history, pairs);
  // After a rebuild World holds the history (mirrors_records: nobody had the records to change since)
  // and the detector the particle indices; otherwise one pass over the records and the springs' column.
  // Everything after it reads the compact pair_index_.
  const bool indices_current = !load_history && world.detector.pair_particles().size() == 2 * pairs;
  if (rebuild && indices_current) pair_index_ = world.detector.take_pair_particles();
  if (rebuild && !indices_current) resize_with_headroom(pair_index_, 2 * pairs);
  if (load_history || (rebuild && !indices_current))
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pairs, chunk_size), [&](const tbb::blocked_range<std::size_t>& r) {
      for (std::size_t k = r.begin(); k != r.end(); ++k) {
        if (load_history) deferred.history[k] = {contacts[k].overlap, springs[k].elongation};
        if (rebuild && !indices_current) pair_index_[2 * k] = contacts[k].a, pair_index_[2 * k + 1] = contacts[k].b;
      }
    });
  deferred.mirrors_records = true;
  if (!rebuild) return;
  // CSR: entry e = 2k + side of pair candidate k goes to particle pair_index_[e], in increasing e.
  offset_.assign(np + 1, 0);
  for (std::size_t e = 0; e < 2 * pairs; ++e) ++offset_[pair_index_[e] + 1];
  for (std::size_t i = 0; i < np; ++i) offset_[i + 1] += offset_[i];
  resize_with_headroom(adjacency_, offset_[np]);
  adjacency_fill_.assign(offset_.begin(), offset_.end() - 1);
  for (std::size_t e = 0; e < 2 * pairs; ++e) adjacency_[adjacency_fill_[pair_index_[e]]++] = std::uint32_t(e);
  // Per-candidate constants: radii, masses and materials do not change between candidate rebuilds.
  const ParticleStore& p = world.particles;
  auto constants_of = [&](int a, int b) {
    const double inv_m = p.inv_mass[a] + p.inv_mass[b];
    const std::uint32_t t = std::uint32_t(p.material[a] * material_count_ + p.material[b]);
    SdemPairConstants k_ab = sdem::pair_constants(pair_table_[t], settings_.normal_law,
                                                  p.radius[a] * p.radius[b] / (p.radius[a] + p.radius[b]),
                                                  inv_m > 0 ? 1.0 / inv_m : 0.0, inv_m > 0, t);
    k_ab.radius_a = p.radius[a], k_ab.radius_b = p.radius[b];
    return k_ab;
  };
  // Species: particles with equal material, radius and mass have equal constants with any partner.
  std::vector<std::uint32_t> representative;  // a particle of each species
  std::vector<std::uint16_t> species(np);
  for (std::size_t i = 0; i < np && representative.size() <= max_species_; ++i) {
    auto same = [&](std::uint32_t j) {
      return p.material[i] == p.material[j] && p.radius[i] == p.radius[j] && p.inv_mass[i] == p.inv_mass[j];
    };
    std::size_t s = i > 0 && same(representative[species[i - 1]]) ? species[i - 1] : 0;
    while (s < representative.size() && !same(representative[s])) ++s;
    if (s == representative.size()) representative.push_back(std::uint32_t(i));
    species[i] = std::uint16_t(s);
  }
  const std::size_t n_species = representative.size();
  if (n_species <= max_species_ && n_species > 0) {
    // Rows per species pair; a candidate adds only whether its spheres belong to one rigid body.
    constants_.resize_rows(n_species * n_species);
    std::vector<std::uint8_t> row_flags(n_species * n_species);
    for (std::size_t sa = 0; sa < n_species; ++sa)
      for (std::size_t sb = 0; sb < n_species; ++sb) {
        const SdemPairConstants row = constants_of(representative[sa], representative[sb]);
        constants_.set_row(sa * n_species + sb, row);
        row_flags[sa * n_species + sb] = SdemCandidateConstants::flags_of(row);
      }
    resize_with_headroom(constants_.flags, pairs);
    resize_with_headroom(constants_.row_of, pairs);
    constants_.shared_rows = true;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pairs, chunk_size), [&](const tbb::blocked_range<std::size_t>& r) {
      for (std::size_t k = r.begin(); k != r.end(); ++k) {
        const int a = pair_index_[2 * k], b = pair_index_[2 * k + 1];
        const std::size_t row = species[a] * n_species + species[b];
        constants_.row_of[k] = std::uint16_t(row);
        const bool same_body = p.body[a] >= 0 && p.body[a] == p.body[b];
        constants_.flags[k] = std::uint8_t(row_flags[row] | (same_body ? SdemCandidateConstants::same_body : 0));
      }
    });
  } else {
    constants_.resize(pairs);
    constants_.row_of.clear();
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, pairs, chunk_size), [&](const tbb::blocked_range<std::size_t>& r) {
      for (std::size_t k = r.begin(); k != r.end(); ++k) {
        const int a = pair_index_[2 * k], b = pair_index_[2 * k + 1];
        SdemPairConstants k_ab = constants_of(a, b);
        k_ab.same_body = p.body[a] >= 0 && p.body[a] == p.body[b];
        constants_.set(k, k_ab);
      }
    });
  }
  any_rolling_ = std::any_of(constants_.flags.begin(), constants_.flags.end(),
                             [](std::uint8_t f) { return f & SdemCandidateConstants::rolling; });
  adjacency_rebuilds_ = world.detector.stats().rebuilds;
  ++adjacency_version_;
  adjacency_pairs_ = pairs;
  adjacency_particles_ = np;
}

void SdemStepper::compute_forces(World& world) { forces_and_integrate(world, nullptr); }

void SdemStepper::build_schedule(std::size_t np, std::size_t pairs, std::size_t regions) {
  // Candidates sorted by their smaller particle index lo (the detector's key order, when indices follow
  // ids) let a region gather a block of its particles right after the candidates of that block: every
  // candidate of particle i has lo <= i, so it lies before the first candidate of the next block.
  auto lo = [&](std::size_t k) { return std::uint32_t(std::min(pair_index_[2 * k], pair_index_[2 * k + 1])); };
  const bool sorted = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(1, std::max<std::size_t>(pairs, 1), chunk_size), true,
      [&](const tbb::blocked_range<std::size_t>& r, bool ok) {
        for (std::size_t k = r.begin(); k != r.end() && ok; ++k) ok = lo(k - 1) <= lo(k);
        return ok;
      },
      [](bool x, bool y) { return x && y; });
  // First candidate with lo >= i (binary search in the sorted order), rounded up to a lane group (groups
  // are fixed by index).
  auto group_end = [&](std::size_t i) {
    std::size_t first = 0, last = pairs;
    while (first < last) {
      const std::size_t mid = (first + last) / 2;
      if (lo(mid) < i) first = mid + 1;
      else last = mid;
    }
    return std::min<std::size_t>(pairs, (first + sdem::lane_count - 1) / sdem::lane_count * sdem::lane_count);
  };
  // Region bounds from the time each block of the last schedule took: they balance the threads whatever
  // makes a part of the bed dearer (more contacts, walls, cache misses).
  const std::vector<std::size_t> bound = sdem::balanced_region_bounds(np, regions, block_particle_, block_seconds_, region_bound_);
  region_bound_ = bound;
  schedule_regions_ = regions;
  region_block_.assign(1, 0);
  block_particle_.assign(1, 0);
  block_contact_.assign(1, 0);
  for (std::size_t r = 0; r < regions; ++r) {
    const std::size_t p_end = bound[r + 1];
    std::size_t i = block_particle_.back();
    do {  // at least one block per region, so that every region owns its candidate range
      i = std::min(p_end, i + chunk_size);
      block_particle_.push_back(std::uint32_t(i));
      const std::size_t k_end = !sorted ? std::min(pairs, (pairs * (r + 1) / regions + sdem::lane_count - 1) /
                                                              sdem::lane_count * sdem::lane_count)
                                : i == np ? pairs : group_end(i);
      block_contact_.push_back(std::uint32_t(std::max<std::size_t>(k_end, block_contact_.back())));
    } while (i < p_end);
    region_block_.push_back(std::uint32_t(block_particle_.size() - 1));
  }
  block_seconds_.assign(block_particle_.size() - 1, 0.0);
  // A candidate of region r that touches a particle of another region (a later one, in the sorted order)
  // is "crossing": region r computes its lane group first, before it moves any particle, and then
  // signals. That other particle is "late": its region gathers it only once the earlier regions have
  // signalled. Without the sorted order every particle is late and gathered after all regions.
  schedule_sorted_ = sorted;
  auto outside = [&](std::size_t r, int i) {
    return std::size_t(i) < block_particle_[region_block_[r]] || std::size_t(i) >= block_particle_[region_block_[r + 1]];
  };
  std::vector<std::vector<std::uint32_t>> crossing(regions);  // lane groups, per region
  tbb::parallel_for(std::size_t(0), sorted ? regions : 0, [&](std::size_t r) {
    for (std::size_t k = block_contact_[region_block_[r]]; k < block_contact_[region_block_[r + 1]]; ++k)
      if (outside(r, pair_index_[2 * k]) || outside(r, pair_index_[2 * k + 1]))
        if (crossing[r].empty() || crossing[r].back() != k / sdem::lane_count) crossing[r].push_back(std::uint32_t(k / sdem::lane_count));
  });
  late_.assign(np, sorted ? 0 : 1);
  early_group_.assign((pairs + sdem::lane_count - 1) / sdem::lane_count, 0);
  region_early_.assign(1, 0);
  early_groups_.clear();
  for (std::size_t r = 0; r < regions; ++r) {
    for (const std::uint32_t g : crossing[r]) {
      early_group_[g] = 1;
      early_groups_.push_back(g);
      for (std::size_t k = g * sdem::lane_count; k < std::min<std::size_t>(pairs, (g + 1) * sdem::lane_count); ++k)
        for (const int i : {pair_index_[2 * k], pair_index_[2 * k + 1]})
          if (outside(r, i)) late_[i] = 1;
    }
    region_early_.push_back(std::uint32_t(early_groups_.size()));
  }
  late_particles_.clear();
  region_late_.assign(1, 0);
  for (std::size_t r = 0; r < regions; ++r) {
    for (std::size_t i = block_particle_[region_block_[r]]; i < block_particle_[region_block_[r + 1]]; ++i)
      if (late_[i]) late_particles_.push_back(std::uint32_t(i));
    region_late_.push_back(std::uint32_t(late_particles_.size()));
  }
  signalled_ = std::make_unique<std::atomic<bool>[]>(regions);
  pending_late_.assign(regions, 0);
  assign_wrench_slots(np, pairs);
}

std::size_t SdemStepper::wrench_slot(std::size_t k) const {
  return group_slot_[k / sdem::lane_count] + k % sdem::lane_count;
}

void SdemStepper::assign_wrench_slots(std::size_t np, std::size_t pairs) {
  // A pair wrench is read only by the gathers of its two particles. When both lie in the group's region
  // and are not late, they are gathered in their blocks, and the group's slot can be taken again by the
  // group ring_size later if that one is computed after those blocks: such groups share a ring per
  // region, whose lines stay in the caches (a pairs-long array is written back to memory every step).
  // The others (crossing, late, the last partial group; every group with rolling resistance, whose
  // torque the gather reads by candidate) keep a slot of their own, in group order.
  const std::size_t groups = (pairs + sdem::lane_count - 1) / sdem::lane_count;
  std::vector<std::uint8_t> in_ring(groups, 0);
  std::vector<std::size_t> ring_size(schedule_regions_, 0);  // in groups, per region
  auto first_group = [&](std::size_t r) { return std::size_t(block_contact_[region_block_[r]]) / sdem::lane_count; };
  if (schedule_sorted_ && !any_rolling_ && !reference_path_ && ring_groups_ > 0) {
    std::vector<std::uint32_t> block_of(np);
    for (std::size_t b = 0; b + 1 < block_particle_.size(); ++b)
      std::fill(block_of.begin() + block_particle_[b], block_of.begin() + block_particle_[b + 1], std::uint32_t(b));
    tbb::parallel_for(std::size_t(0), schedule_regions_, [&](std::size_t r) {
      const std::size_t p_begin = block_particle_[region_block_[r]], p_end = block_particle_[region_block_[r + 1]];
      const std::size_t g_begin = first_group(r), g_end = std::min(pairs / sdem::lane_count, first_group(r + 1));
      ring_size[r] = std::min(ring_groups_, g_end - std::min(g_begin, g_end));
      for (std::size_t g = g_begin; g < g_end; ++g) {
        bool ok = !early_group_[g];
        for (std::size_t k = g * sdem::lane_count; ok && k < (g + 1) * sdem::lane_count; ++k)
          for (const int i : {pair_index_[2 * k], pair_index_[2 * k + 1]})
            ok = ok && std::size_t(i) >= p_begin && std::size_t(i) < p_end && !late_[i] &&
                 (g + ring_size[r]) * sdem::lane_count >= block_contact_[block_of[i] + 1];
        in_ring[g] = ok;
      }
    });
  }
  resize_with_headroom(group_slot_, groups);
  std::size_t own = 0;
  for (std::size_t g = 0; g < groups; ++g)
    if (!in_ring[g]) group_slot_[g] = std::uint32_t(own++ * sdem::lane_count);
  ring_groups_used_ = groups - own;
  std::size_t base = own;
  for (std::size_t r = 0; r < schedule_regions_; ++r) {
    for (std::size_t g = first_group(r); g < std::min(groups, first_group(r + 1)); ++g)
      if (in_ring[g]) group_slot_[g] = std::uint32_t((base + g % ring_size[r]) * sdem::lane_count);
    base += ring_size[r];
  }
  resize_with_headroom(wrench_slots_, base * sdem::lane_count);
  resize_with_headroom(gather_slot_, adjacency_.size());
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, adjacency_.size(), chunk_size), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t e = r.begin(); e != r.end(); ++e) {
      const std::size_t k = adjacency_[e] >> 1;
      gather_slot_[e] = std::uint32_t(2 * wrench_slot(k)) | (adjacency_[e] & 1);
    }
  });
}

void SdemStepper::forces_and_integrate(World& world, const KickDrift* kd) {
  const auto t0 = Clock::now();
  prepare(world);
  build_adjacency(world);
  const std::size_t pairs = world.pair_contact_count();
  DeferredContacts& deferred = world.deferred_contacts();
  if (deferred.force.size() < pairs) resize_with_headroom(deferred.force, pairs);
  if (any_rolling_) resize_with_headroom(rolling_torque_, pairs);
  schedule_for(world.particles.size(), pairs);
  index_wall_contacts(world);
  sdem::with_normal_law(settings_.normal_law, [&](auto law_tag) { ForcePass<decltype(law_tag)::value>{*this, world, kd}.run(); });
  deferred.records_stale = pairs > 0;
  sum_wall_loads(world);
  world.timers.forces += seconds_since(t0);
}

void SdemStepper::schedule_for(std::size_t np, std::size_t pairs) {
  // One region per thread that can run (the schedule changes the order of work, never the results).
  const std::size_t regions =
      forced_regions_ > 0 ? forced_regions_
                          : std::max<std::size_t>(1, std::min<std::size_t>(std::size_t(tbb::this_task_arena::max_concurrency()),
                                                                           tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism)));
  if (schedule_regions_ != regions || schedule_version_ != adjacency_version_) {
    build_schedule(np, pairs, regions);
    schedule_version_ = adjacency_version_;
  }
}

void SdemStepper::index_wall_contacts(World& world) {
  // Entries sorted by particle index, list order within a particle (the detector's key order already
  // is, when ids increase with the index).
  const std::vector<Contact>& contacts = world.contact_records();
  const std::size_t pairs = world.pair_contact_count(), nw = contacts.size() - pairs;
  wall_entry_.resize(nw);
  wall_particle_.resize(nw);
  wall_of_.resize(nw);
  wall_load_.resize(nw);
  // The detector's compact copy of the records' particle and wall, when it has one.
  const std::vector<std::uint32_t>& wall_particles = world.detector.wall_particles();
  const bool compact = wall_particles.size() == 2 * nw;
  bool walls_by_particle = true;
  for (std::size_t e = 0; e < nw; ++e) {
    wall_entry_[e] = std::uint32_t(e);
    if (compact) {
      wall_particle_[e] = wall_particles[2 * e];
      wall_of_[e] = wall_particles[2 * e + 1];
    } else {
      wall_particle_[e] = std::uint32_t(contacts[pairs + e].a);
      wall_of_[e] = std::uint32_t(contacts[pairs + e].wall_index());
    }
    walls_by_particle = walls_by_particle && (e == 0 || wall_particle_[e - 1] <= wall_particle_[e]);
  }
  if (!walls_by_particle) {
    std::stable_sort(wall_entry_.begin(), wall_entry_.end(),
                     [&](std::uint32_t x, std::uint32_t y) { return contacts[pairs + x].a < contacts[pairs + y].a; });
    for (std::size_t e = 0; e < nw; ++e) wall_particle_[e] = std::uint32_t(contacts[pairs + wall_entry_[e]].a);
  }
}

void SdemStepper::sum_wall_loads(World& world) const {
  // Serially in list order.
  for (Wall& wall : world.walls) {
    wall.force.setZero();
    wall.torque.setZero();
  }
  for (std::size_t e = 0; e < wall_load_.size(); ++e) {
    Wall& wall = world.walls[wall_of_[e]];
    wall.force += wall_load_[e].force;
    wall.torque += wall_load_[e].torque;
  }
}

void SdemStepper::integrate(World& world, const KickDrift& kd) {
  ParticleStore& p = world.particles;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, p.size(), chunk_size), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) {
      if (p.inv_mass[i] == 0) continue;  // fixed
      sdem::detail::kick(p, i, kd.kick_dt, kd.g);
      if (kd.drift_dt != 0) sdem::detail::drift(p, i, kd.drift_dt);
    }
  });
}

void SdemStepper::step(World& world) {
  arena_.run(world.threads, [&] { advance(world); });
  if (sdem_guard_scan_due(world.step)) sdem_guard_scan(world, settings_, *warnings_);
}

void SdemStepper::advance(World& world) {
  const double dt = settings_.time_step;
  prepare(world);
  if (settings_.integrator == SdemIntegrator::symplectic_euler) {
    world.detect_contacts(false);  // pair geometry: fused into the force stage
    const KickDrift kd{dt, dt, world.gravity.at(world.time)};
    if (reference_path_) {
      compute_forces(world);
      integrate(world, kd);
    } else {
      forces_and_integrate(world, &kd);  // the integration is fused into the gather (timed as forces)
    }
    const auto t0 = Clock::now();
    sdem_integrate_bodies(world, dt, kd.g);  // rigid bodies (core/sdem/sdem_bodies.hpp)
    world.timers.integrate += seconds_since(t0);
  } else {
    if (!world.bodies.empty()) throw InputError("sdem: rigid bodies need integrator = symplectic_euler");
    // Velocity Verlet: forces at the current state are needed for the first half kick.
    if (!forces_current_ || forces_step_ != world.step || forces_particles_ != world.particles.size()) {
      world.detect_contacts(false);
      compute_forces(world);
    }
    auto t0 = Clock::now();
    integrate(world, {0.5 * dt, dt, world.gravity.at(world.time)});
    world.timers.integrate += seconds_since(t0);
    // Walls move with the positions so that the new forces see the new geometry.
    world.advance_walls(dt);
    world.wrap_periodic();
    world.detect_contacts(false);
    compute_forces(world);
    t0 = Clock::now();
    integrate(world, {0.5 * dt, 0, world.gravity.at(world.time + dt)});
    world.timers.integrate += seconds_since(t0);
  }
  if (settings_.integrator == SdemIntegrator::symplectic_euler) {
    world.advance_walls(dt);
    world.wrap_periodic();
  }
  world.time += dt;
  ++world.step;
  forces_current_ = true;
  forces_step_ = world.step;
  forces_particles_ = world.particles.size();
  if (settings_.stability_check_interval > 0 && world.step % std::uint64_t(settings_.stability_check_interval) == 0)
    world.check_stability(settings_.max_overlap_ratio);
}

}  // namespace grainlab
