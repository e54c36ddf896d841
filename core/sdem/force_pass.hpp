#pragma once
// The fused force stage of SdemStepper (stages 2-3 and, with a KickDrift, 5 of sdem_stepper.hpp) for one
// normal law: pair wrenches four candidates at a time, the deterministic gather per particle with its
// wall contacts, and the integration right after it, run region by region (run_scheduled) or, on the
// reference path, one stage after another over everything (run_reference). Private to sdem_stepper.cpp.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <limits>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include "core/scalar3.hpp"
#include "core/sdem/contact_law.hpp"
#include "core/sdem/pair_kernels.hpp"
#include "core/sdem/sdem_stepper.hpp"

namespace grainlab {
namespace sdem::detail {

// The wrench of one wall contact (geometry from the detector), computed in its particle's gather. Same
// law; the lever arm is the contact point, and the wall's surface velocity enters the relative velocity.
// `model` keeps the tangential springs (SdemStepper::prepare).
template <SdemNormalLaw law>
void wall_wrench(const ParticleStore& p, const std::vector<Wall>& walls, const SdemPairCoefficients* table,
                 std::size_t n_materials, double dt, Contact& c, ModelHistory* model, std::size_t index, ContactWrench& out) {
  const double d = c.overlap;
  const int a = c.a;
  if (!(d > 0) || p.inv_mass[a] == 0) return no_wrench(c, out);
  const Vec3& n = c.normal;
  const Wall& w = walls[c.wall_index()];
  const Vec3 ra = c.point - p.position[a];
  const Vec3 v_rel = p.velocity[a] + p.angular_velocity[a].cross(ra) - w.velocity_at(c.point);
  const SdemPairCoefficients& coeff = table[p.material[a] * n_materials + w.material];
  const SdemPairConstants k = pair_constants(coeff, law, c.effective_radius, p.mass[a], true, 0);
  const double vn = v_rel.dot(n);
  const NormalTerms<double> t = normal_terms<law>(k, d, -vn);
  const Vec3 force = t.fn * n + tangential_force(model->tangential_springs[index].elongation, n, v_rel - vn * n, t.kt,
                                                 t.gamma_t, k.mu * t.fn, dt);
  const Vec3 tau_roll =
      k.rolling ? rolling_torque_of(p, coeff, c, model->springs[index], p.angular_velocity[a] - w.angular_velocity, t.kt, t.fn, dt)
                : Vec3::Zero();
  c.force = force;
  out.on[0].force = force;
  out.on[0].torque = ra.cross(force) + tau_roll;
  out.on[1].force = -force;
  out.on[1].torque = -tau_roll;
}

// Kick (v += dt (f/m + g), w += dt tau/I) and drift (x += dt v, q <- normalize(q + dt/2 (0,w) q)) of
// particle i; fixed particles do not move.
[[gnu::always_inline]] inline void kick(ParticleStore& p, std::size_t i, double dt, const Vec3& g) {
  p.velocity[i] += dt * (p.inv_mass[i] * p.force[i] + g);
  p.angular_velocity[i] += dt * p.inv_inertia[i] * p.torque[i];
}
[[gnu::always_inline]] inline void drift(ParticleStore& p, std::size_t i, double dt) {
  p.position[i] += dt * p.velocity[i];
  const Vec3& w = p.angular_velocity[i];
  Quat& q = p.orientation[i];
  const Quat dq = Quat(0, w.x(), w.y(), w.z()) * q;
  q.coeffs() += 0.5 * dt * dq.coeffs();
  // Renormalise. The update moves q off the unit sphere by only delta = |q|^2 - 1 ~ (dt |w| / 2)^2, and
  // for small delta 1/sqrt(1 + delta) = 1 - delta/2 + 3/8 delta^2 to within 5/16 |delta|^3 (< 4e-16 for
  // |delta| < 1e-5): no square root and division on the critical path of every particle.
  const double delta = q.coeffs().squaredNorm() - 1;
  q.coeffs() *= std::abs(delta) < 1e-5 ? 1 + delta * (-0.5 + 0.375 * delta) : 1 / std::sqrt(1 + delta);
}

}  // namespace sdem::detail

template <SdemNormalLaw law>
struct SdemStepper::ForcePass {
  using Clock = std::chrono::steady_clock;

  SdemStepper& s;
  World& world;
  const KickDrift* kd;
  ParticleStore& p = world.particles;
  std::vector<Contact>& contacts = world.contact_records();
  ModelHistory* const model = world.model_history().any_kept() ? &world.model_history() : nullptr;
  std::vector<PairHistory>& history = world.deferred_contacts().history;
  std::vector<Vec3>& force = world.deferred_contacts().force;
  const std::size_t np = p.size();
  const std::size_t pairs = world.pair_contact_count();
  const std::size_t nw = contacts.size() - pairs;
  const std::size_t full_groups_end = pairs / sdem::lane_count * sdem::lane_count;
  const double dt = s.settings_.time_step;
  const SdemPairCoefficients* table = s.pair_table_.data();
  const std::vector<Wall>& walls = world.walls;
  // Prefetching the b sides pays once the particle state no longer fits the caches (scheduling_policy.hpp).
  const bool prefetch_b = np > policy::sdem_prefetch_b_particles;
  const double* pair_side = reinterpret_cast<const double*>(s.wrench_slots_.data());

  // The first entry of particle i in the wall entries sorted by particle (index_wall_contacts).
  std::size_t first_wall_entry(std::size_t i) const {
    return std::size_t(std::lower_bound(s.wall_particle_.begin(), s.wall_particle_.end(), std::uint32_t(i)) -
                       s.wall_particle_.begin());
  }

  // Gather of particle i: its pair sides through the CSR adjacency in increasing contact index, then its
  // wall contacts in list order, each computed here (it reads only particle i, not yet moved) from the
  // cursor `w` into the entries (a fixed order: no atomics, the sums do not depend on the thread count);
  // with `kd` it is integrated right away. Side s of pair candidate k: force (-1)^s f, torque -l_s (n x f)
  // (+- the rolling torque), from the two four-double halves of its PairWrench; the sums run component by
  // component as with three-vectors. The wall's reaction goes to wall_load_, about the wall's centre.
  [[gnu::always_inline]] void gather(std::size_t i, std::size_t& w) {
    const sdem::LaneMask negate{std::numeric_limits<long long>::min(), std::numeric_limits<long long>::min(),
                                std::numeric_limits<long long>::min(), 0};
    sdem::Lanes f_sum{}, t_sum{};  // x y z and one unused lane
    for (std::uint32_t e = s.offset_[i]; e < s.offset_[i + 1]; ++e) {
      const std::size_t k = s.gather_slot_[e] >> 1, side = s.gather_slot_[e] & 1;  // k: the slot (the candidate with rolling)
      sdem::Lanes f, nf;
      std::memcpy(&f, pair_side + 8 * k, sizeof f);
      std::memcpy(&nf, pair_side + 8 * k + 4, sizeof nf);
      const double l = pair_side[8 * k + 3 + 4 * side];
      if (side) f = sdem::Lanes(sdem::LaneMask(f) ^ negate);  // exact negation
      sdem::Lanes t = sdem::splat(-l) * nf;
      if (s.any_rolling_) {
        const Vec3& roll = s.rolling_torque_[k];
        t += side ? sdem::Lanes{-roll.x(), -roll.y(), -roll.z(), 0} : sdem::Lanes{roll.x(), roll.y(), roll.z(), 0};
      }
      f_sum += f;
      t_sum += t;
    }
    while (w < nw && s.wall_particle_[w] < i) ++w;
    for (; w < nw && s.wall_particle_[w] == i; ++w) {
      // The records were written by the detector at the start of the step and have left the caches by
      // now, and only walls read the particle's material and mass: ask for them a few entries ahead.
      if (w + 4 < nw) {
        const char* ahead = reinterpret_cast<const char*>(&contacts[pairs + s.wall_entry_[w + 4]]);
        __builtin_prefetch(ahead), __builtin_prefetch(ahead + 64);
        const std::uint32_t a = s.wall_particle_[w + 4];
        __builtin_prefetch(&p.material[a]), __builtin_prefetch(&p.mass[a]);
      }
      const std::size_t e = s.wall_entry_[w];
      Contact& c = contacts[pairs + e];
      ContactWrench cw;
      sdem::detail::wall_wrench<law>(p, walls, table, s.material_count_, dt, c, model, pairs + e, cw);
      const Wall& wall = walls[s.wall_of_[e]];
      s.wall_load_[e] = {cw.on[1].force, (c.point - wall.rotation_center).cross(cw.on[1].force) + cw.on[1].torque};
      f_sum += sdem::Lanes{cw.on[0].force.x(), cw.on[0].force.y(), cw.on[0].force.z(), 0};
      t_sum += sdem::Lanes{cw.on[0].torque.x(), cw.on[0].torque.y(), cw.on[0].torque.z(), 0};
    }
    const S3 f(f_sum[0], f_sum[1], f_sum[2]), t(t_sum[0], t_sum[1], t_sum[2]);
    f.store(p.force[i]);
    t.store(p.torque[i]);
    if (kd && p.inv_mass[i] != 0) {
      sdem::detail::kick(p, i, kd->kick_dt, kd->g);
      if (kd->drift_dt != 0) sdem::detail::drift(p, i, kd->drift_dt);
    }
  }

  // A candidate outside the lane kernel (rolling resistance, the last few) works on its record and its
  // deferred spring, with the deferred overlap copied in and out.
  void single_pair(std::size_t k) {
    Contact& c = contacts[k];
    c.overlap = history[k].overlap;
    const Vec3 tau_roll = sdem::pair_wrench<law>(p, world.collision, s.constants_.at(k), table, dt, c, history[k].tangential_spring,
                                                 model, k, s.wrench_slots_[s.wrench_slot(k)]);
    if (s.any_rolling_) s.rolling_torque_[k] = tau_roll;
    history[k].overlap = c.overlap;
    force[k] = c.force;
  }

  // Pair candidates [k0, k0 + 4): in SIMD lanes (groups of four fixed by index, so the result does not
  // depend on the schedule) unless one has rolling resistance or the group is the last, partial one.
  void lane_group(std::size_t k0) {
    if (k0 + sdem::lane_count > full_groups_end) {
      for (std::size_t k = k0; k < pairs; ++k) single_pair(k);
      return;
    }
    const auto& flags = s.constants_.flags;
    const bool rolling = (flags[k0] | flags[k0 + 1] | flags[k0 + 2] | flags[k0 + 3]) & SdemCandidateConstants::rolling;
    if (!rolling)
      sdem::pair_wrench_lanes<law>(p, world.collision, s.constants_, k0, dt, &s.pair_index_[2 * k0], &history[k0],
                                   &s.wrench_slots_[s.wrench_slot(k0)], &force[k0], &contacts[k0], model);
    else
      for (std::size_t k = k0; k < k0 + sdem::lane_count; ++k) single_pair(k);
  }

  // The lane groups of [kb, ke) (ke a group boundary or the end) not computed ahead as crossing.
  void pair_range(std::size_t kb, std::size_t ke) {
    constexpr std::size_t ahead = policy::sdem_prefetch_groups;
    for (std::size_t k0 = kb; k0 < ke; k0 += sdem::lane_count) {
      // The b side of a candidate lies up to a layer of the bed further on and is often not in the
      // caches yet: ask for it `ahead` groups ahead (the a side streams in particle order).
      if (prefetch_b && k0 + (ahead + 1) * sdem::lane_count <= pairs)
        for (std::size_t k = k0 + ahead * sdem::lane_count; k < k0 + (ahead + 1) * sdem::lane_count; ++k) {
          const int b = s.pair_index_[2 * k + 1];
          __builtin_prefetch(&p.position[b]), __builtin_prefetch(&p.velocity[b]), __builtin_prefetch(&p.angular_velocity[b]);
        }
      if (!s.early_group_[k0 / sdem::lane_count]) lane_group(k0);
    }
  }

  // The late particles of region r from index j of late_particles_ on that lie below particle `end`.
  void gather_late(std::size_t r, std::size_t& j, std::size_t end) {
    if (j == s.region_late_[r + 1] || s.late_particles_[j] >= end) return;
    std::size_t w = first_wall_entry(s.late_particles_[j]);
    for (; j < s.region_late_[r + 1] && s.late_particles_[j] < end; ++j) gather(s.late_particles_[j], w);
  }

  // set_reference_path: pair wrenches, then the gather, in index order.
  void run_reference() {
    for (std::size_t k0 = 0; k0 < pairs; k0 += sdem::lane_count) lane_group(k0);
    std::size_t w = 0;
    for (std::size_t i = 0; i < np; ++i) gather(i, w);
  }

  // One region of particles: its crossing candidates first (then it signals), then block by block the
  // block's candidates and the gather (and integration) of the block's particles while their wrenches
  // are still in cache. Late particles join the gathers once every earlier region has signalled; those
  // of blocks before that wait, and at the region's end they are gathered if the signals have come,
  // otherwise after all regions (no waiting: a region may run before an earlier one on the same thread).
  void run_region(std::size_t r) {
    auto t_block = Clock::now();  // the time of each block (the crossing groups count with the first)
    auto time_block = [&](std::size_t b) {
      const auto now = Clock::now();
      s.block_seconds_[b] += std::chrono::duration<double>(now - t_block).count();
      t_block = now;
    };
    for (std::size_t g = s.region_early_[r]; g < s.region_early_[r + 1]; ++g) lane_group(s.early_groups_[g] * sdem::lane_count);
    s.signalled_[r].store(true, std::memory_order_release);
    auto earlier_signalled = [&] {
      for (std::size_t q = 0; q < r; ++q)
        if (!s.signalled_[q].load(std::memory_order_acquire)) return false;
      return s.schedule_sorted_;
    };
    bool ready = false;
    std::size_t pending = s.region_late_[r];  // first late particle not gathered
    std::size_t w = first_wall_entry(s.block_particle_[s.region_block_[r]]);
    for (std::size_t b = s.region_block_[r]; b < s.region_block_[r + 1]; ++b) {
      pair_range(s.block_contact_[b], s.block_contact_[b + 1]);
      if (!ready && earlier_signalled()) {
        ready = true;
        gather_late(r, pending, s.block_particle_[b]);
        pending = s.region_late_[r + 1];  // the others come in their blocks
      }
      for (std::size_t i = s.block_particle_[b]; i < s.block_particle_[b + 1]; ++i)
        if (ready || !s.late_[i]) gather(i, w);
      time_block(b);
    }
    if (!ready && earlier_signalled()) gather_late(r, pending, np);
    s.pending_late_[r] = std::uint32_t(pending);
    time_block(s.region_block_[r + 1] - 1);
  }

  // Stages 2 and 3, one region per thread, then the late particles left behind once every wrench is final.
  void run_scheduled() {
    const std::size_t regions = s.schedule_regions_;
    for (std::size_t r = 0; r < regions; ++r) s.signalled_[r].store(false, std::memory_order_relaxed);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, regions, 1), [&](const tbb::blocked_range<std::size_t>& rr) {
      for (std::size_t i = rr.begin(); i != rr.end(); ++i) run_region(s.reverse_regions_ ? regions - 1 - i : i);
    }, tbb::simple_partitioner());
    std::size_t left_behind = 0;
    for (std::size_t r = 0; r < regions; ++r) left_behind += s.pending_late_[r] < s.region_late_[r + 1];
    if (left_behind == 0) return;
    s.deferred_regions_ += left_behind;
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, regions, 1), [&](const tbb::blocked_range<std::size_t>& rr) {
      for (std::size_t r = rr.begin(); r != rr.end(); ++r) {
        std::size_t j = s.pending_late_[r];
        gather_late(r, j, np);
      }
    });
  }

  void run() { s.reference_path_ ? run_reference() : run_scheduled(); }
};

}  // namespace grainlab
