#include "core/world.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>

#include "core/error.hpp"
#include "core/scheduling_policy.hpp"

namespace grainlab {

Vec3 Gravity::at(double t) const {
  if (ramp_duration <= 0 || t >= ramp_duration || g.norm() == 0) return g;
  const double full = g.norm();
  return g * ((ramp_from + (full - ramp_from) * t / ramp_duration) / full);
}

std::uint16_t World::add_material(const Material& m) {
  m.validate();
  materials.push_back(m);
  return std::uint16_t(materials.size() - 1);
}

std::size_t World::add_sphere(const Vec3& x, double radius, std::uint16_t material, const Vec3& v, const Vec3& w) {
  if (material >= materials.size()) throw InputError(fmt::format("particle material index {} does not exist", material));
  detector.invalidate();
  return particles.add(x, radius, materials[material].density, material, v, w);
}

std::size_t World::add_wall(Wall w) {
  if (w.material >= materials.size()) throw InputError(fmt::format("wall '{}': material index {} does not exist", w.name, w.material));
  validate(w);
  walls.push_back(std::move(w));
  return walls.size() - 1;
}

void World::detect_contacts(bool pair_geometry) {
  const auto t0 = std::chrono::steady_clock::now();
  // The detector reads the pair history from the records: at a candidate rebuild (carried by key) and in
  // its narrow phase, which also resets it.
  if (pair_geometry) {
    sync_contacts();
    deferred_.mirrors_records = false;
  }
  // Without pair geometry (SDEM) a rebuild also writes the deferred history, as the new records hold it,
  // and when the deferred history is ahead of the records it carries it from there, not from them.
  const std::uint64_t rebuilds = detector.stats().rebuilds;
  const bool history_ahead = !pair_geometry && deferred_.records_stale && deferred_.history.size() == pair_contact_count();
  detector.update(
      particles, walls, collision, contacts_, model_history_.any_kept() ? &model_history_ : nullptr, pair_geometry,
      [this, history_ahead] {
        if (deferred_.records_stale && !history_ahead) write_deferred(/*history_only=*/true);
        deferred_.mirrors_records = false;
      },
      pair_geometry ? nullptr : &deferred_.history, history_ahead);
  if (!pair_geometry && detector.stats().rebuilds != rebuilds) {
    deferred_.mirrors_records = true;
    deferred_.records_stale = false;  // the new records hold the history; their force is zero until the next force stage
  }
  // Members of one body do not collide with each other (without pair geometry the caller masks them).
  if (pair_geometry && !bodies.empty()) mask_self_contacts(*this);
  timers.collision += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::size_t World::deferred_pairs() const {
  return std::min({deferred_.history.size(), pair_contact_count(), contacts_.size()});
}

void World::apply_deferred(std::size_t k, Contact& c, bool history_only) const {
  if (!history_only) {
    sphere_sphere(particles, collision, c);  // normal and point
    c.force = deferred_.force[k];
  }
  c.overlap = deferred_.history[k].overlap;
}

void World::write_deferred(bool history_only) {
  TangentialSpringHistory* springs =
      model_history_.tangential_springs_kept ? model_history_.tangential_springs.data() : nullptr;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, deferred_pairs(), policy::world_scan_chunk), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t k = r.begin(); k != r.end(); ++k) {
      apply_deferred(k, contacts_[k], history_only);
      if (springs) springs[k].elongation = deferred_.history[k].tangential_spring;
    }
  });
  deferred_.records_stale = false;
}

Vec3 World::tangential_spring(std::size_t k) const {
  if (deferred_.records_stale && k < deferred_pairs()) return deferred_.history[k].tangential_spring;
  return model_history_.tangential_springs_kept ? model_history_.tangential_springs.at(k).elongation : Vec3::Zero();
}

Contact World::contact(std::size_t k) const {
  Contact c = contacts_.at(k);
  if (deferred_.records_stale && k < deferred_pairs()) apply_deferred(k, c, /*history_only=*/false);
  return c;
}

void World::throw_stale_contacts() const {
  throw std::logic_error(fmt::format("step {}: World::contacts() read while the SDEM stepper's pair state is deferred; "
                                     "call World::sync_contacts() after stepping and before reading contacts",
                                     step));
}

void World::advance_walls(double dt) {
  for (Wall& w : walls) advance(w, dt);
}

void World::wrap_periodic() {
  for (int k = 0; k < 3; ++k) {
    if (!collision.periodic[k]) continue;
    const double lo = collision.periodic_lo[k], L = collision.period(k);
    for (Vec3& x : particles.position) x[k] = lo + (x[k] - lo) - L * std::floor((x[k] - lo) / L);
  }
}

void World::check_stability(double max_overlap_ratio) const {
  // In parallel; the error names the first bad particle and then the first bad contact, by index, as a
  // serial scan would.
  auto first_bad = [](std::size_t n, auto bad) {
    return tbb::parallel_reduce(
        tbb::blocked_range<std::size_t>(0, n, policy::world_scan_chunk), n,
        [&](const tbb::blocked_range<std::size_t>& r, std::size_t found) {
          for (std::size_t k = r.begin(); k != r.end() && k < found; ++k)
            if (bad(k)) return k;
          return found;
        },
        [](std::size_t x, std::size_t y) { return std::min(x, y); });
  };
  const std::size_t i = first_bad(particles.size(), [&](std::size_t i) {
    return !particles.position[i].allFinite() || !particles.velocity[i].allFinite() || !particles.angular_velocity[i].allFinite();
  });
  if (i < particles.size())
    throw InstabilityError(fmt::format("step {} (t = {:.6g} s): particle id {} has a non-finite position or velocity; "
                                       "the time step is likely too large for the contact stiffness",
                                       step, time, particles.id[i]),
                           step);
  // The overlaps of the last force evaluation, without a sync.
  auto overlap_of = [&](std::size_t k) {
    return deferred_.records_stale && k < deferred_.history.size() ? deferred_.history[k].overlap : contacts_[k].overlap;
  };
  auto limit_of = [&](const Contact& c) {
    return max_overlap_ratio * (c.is_wall() ? particles.radius[c.a] : std::min(particles.radius[c.a], particles.radius[c.b]));
  };
  const std::size_t k = first_bad(contacts_.size(), [&](std::size_t k) {
    const double overlap = overlap_of(k);
    return overlap > 0 && overlap > limit_of(contacts_[k]);
  });
  if (k < contacts_.size()) {
    const Contact& c = contacts_[k];
    throw InstabilityError(
        fmt::format("step {} (t = {:.6g} s): overlap {:.3g} m between particle id {} and {} exceeds {} of the radius; "
                    "the simulation is unstable (time step too large or stiffness too low for the load)",
                    step, time, overlap_of(k), particles.id[c.a],
                    c.is_wall() ? fmt::format("wall '{}'", walls[c.wall_index()].name) : fmt::format("particle id {}", particles.id[c.b]),
                    max_overlap_ratio),
        step);
  }
}

}  // namespace grainlab
