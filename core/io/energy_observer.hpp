#pragma once
// Energy/contact sampler: one row of global quantities per sample, for CSV time series and for
// conservation checks.
//
//   kinetic_translational = sum 1/2 m |v|^2            kinetic_rotational = sum 1/2 I |w|^2
//   potential_gravity     = - sum m g(t) . (x - x_ref)   (free particles only; g(t) includes the ramp;
//                                                         zero at the reference point x_ref)
//   elastic_hertz         = sum over touching contacts of 2/5 k_n delta^{5/2}, k_n = 4/3 E* sqrt(R*)
//                           (the work stored by the Hertz force f = k_n delta^{3/2}, core/hertz.hpp;
//                           meaningless for a run that uses the linear spring law)
//   momentum              = sum m v (vector)
//   contacts_touching     = contacts with overlap > 0 (pairs and walls); overlap_max / overlap_mean
//                           over those (0 when there are none)
//
// Reads World (particles, materials, walls, contacts, gravity, time, step); writes nothing in it.
// Threading: serial loops in index order, so a sample is deterministic.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/io/csv_writer.hpp"
#include "core/world.hpp"

namespace grainlab::io {

struct EnergySample {
  double time = 0;
  std::uint64_t step = 0;
  double kinetic_translational = 0, kinetic_rotational = 0;
  double potential_gravity = 0, elastic_hertz = 0;
  Vec3 momentum = Vec3::Zero();
  std::size_t contacts_touching = 0;
  double overlap_max = 0, overlap_mean = 0;

  double total_energy() const { return kinetic_translational + kinetic_rotational + potential_gravity + elastic_hertz; }
  /// Column names of row(), in order.
  static std::vector<std::string> columns();
  std::vector<double> row() const;
};

/// Gravitational potential energy of the free particles at the gravity of world.time, J; zero at `reference`.
double gravitational_energy(const World& world, const Vec3& reference = Vec3::Zero());

/// Samples the world now; gravitational potential energy is zero at `reference`. Reads the contact
/// records: after an SDEM step, call World::sync_contacts() first.
EnergySample sample_energy(const World& world, const Vec3& reference = Vec3::Zero());

/// Writes an EnergySample row to a CSV file every `every` steps (when world.step % every == 0).
class EnergyObserver {
 public:
  EnergyObserver(const std::filesystem::path& path, std::uint64_t every = 1, Vec3 reference = Vec3::Zero());
  /// Samples and writes a row if this step is due (syncing the contact records first); returns true
  /// when it did.
  bool observe(World& world);
  const EnergySample& last() const { return last_; }

 private:
  std::uint64_t every_;  // declared before csv_: validated before the file is created
  Vec3 reference_;
  CsvWriter csv_;
  EnergySample last_;
};

}  // namespace grainlab::io
