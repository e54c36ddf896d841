#pragma once
// Particle snapshots for ParaView: VTK XML PolyData (.vtp) files and a .pvd collection listing them
// with their simulation times.
//
// A .vtp holds one point per particle (position) with one vertex cell each (so every ParaView
// representation shows them; use the "Point Gaussian" representation with `radius` as scale array to
// draw spheres), and point data: radius (m), velocity (m/s, 3 components), angular_velocity (rad/s,
// 3 components), id (UInt32, stable particle id), material (UInt16, material index), body (Int32,
// only when the world has rigid bodies: the body index, -1 for a free sphere; model-reduction aggregates
// are bodies, core/ndem/aggregates.hpp) and, when
// `contact_data` is on, contact_count (Int32, touching contacts with overlap > 0, wall contacts
// included) and contact_force (Float64, sum of |Contact::force| over those contacts, N).
// Encodings: `ascii` (values printed with 17 significant digits, round-trip exact) or `base64`
// (inline binary: per array a base64-encoded UInt64 byte count followed by the base64-encoded
// little-endian raw values, encoded separately as VTK's reader expects).
//
// SnapshotSeries writes <directory>/<base>_<NNNNNN>.vtp on every write() and rewrites <base>.pvd
// atomically after each, so the collection is valid even if the run stops between snapshots.
//
// Threading: none; call from one thread between steps (reads the World only).
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "core/world.hpp"

namespace grainlab::io {

enum class VtkEncoding { ascii, base64 };

struct VtkOptions {
  VtkEncoding encoding = VtkEncoding::base64;
  bool contact_data = true;  ///< add contact_count and contact_force point arrays
};

/// The .vtp document for the world's particles. With contact_data it reads the contact records: after an
/// SDEM step, call World::sync_contacts() first.
std::string vtp_document(const World& world, const VtkOptions& options = {});
/// Writes vtp_document(world) to `path` (atomically).
void write_vtp(const World& world, const std::filesystem::path& path, const VtkOptions& options = {});

struct SnapshotEntry {
  double time;
  std::string file;  ///< relative to the .pvd's directory
};

/// The .pvd document listing `entries`.
std::string pvd_document(const std::vector<SnapshotEntry>& entries);

class SnapshotSeries {
 public:
  /// Creates `directory` if needed. `base_name` must be a non-empty file name without '/' (InputError
  /// naming base_name otherwise). A new series starts at index 0 and replaces files of an earlier
  /// series with the same names.
  SnapshotSeries(std::filesystem::path directory, std::string base_name, VtkOptions options = {});

  /// Writes the next snapshot and updates the .pvd; returns the path of the .vtp written. Times must
  /// not decrease (InputError otherwise: ParaView sorts by time). Syncs the contact records first
  /// when it writes contact data.
  std::filesystem::path write(World& world);

  std::filesystem::path pvd_path() const { return directory_ / (base_name_ + ".pvd"); }
  const std::vector<SnapshotEntry>& entries() const { return entries_; }

 private:
  std::filesystem::path directory_;
  std::string base_name_;
  VtkOptions options_;
  std::vector<SnapshotEntry> entries_;
};

/// Standard base64 (RFC 4648, with '=' padding) of `bytes`.
std::string base64_encode(std::string_view bytes);

}  // namespace grainlab::io
