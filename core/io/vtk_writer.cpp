// VTK XML PolyData writer and .pvd collection (format notes in vtk_writer.hpp and docs/io.md).
#include "core/io/vtk_writer.hpp"

#include <cstring>
#include <type_traits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/io/atomic_file.hpp"

namespace grainlab::io {

namespace {

template <class T>
const char* vtk_type() {
  if constexpr (std::is_same_v<T, double>) return "Float64";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "UInt32";
  else if constexpr (std::is_same_v<T, std::uint16_t>) return "UInt16";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "Int32";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "Int64";
  else static_assert(sizeof(T) == 0, "no VTK type for this element type");
}

/// Appends one <DataArray> of `values` (components per tuple given) in the chosen encoding.
template <class T>
void data_array(std::string& out, const char* name, int components, const std::vector<T>& values, VtkEncoding enc) {
  out += fmt::format("        <DataArray type=\"{}\" Name=\"{}\" NumberOfComponents=\"{}\" format=\"{}\">\n", vtk_type<T>(),
                     name, components, enc == VtkEncoding::ascii ? "ascii" : "binary");
  if (enc == VtkEncoding::ascii) {
    out += "          ";
    for (std::size_t i = 0; i < values.size(); ++i) {
      if constexpr (std::is_floating_point_v<T>) fmt::format_to(std::back_inserter(out), "{:.17g}", values[i]);
      else fmt::format_to(std::back_inserter(out), "{}", values[i]);
      out += (i + 1) % 12 == 0 && i + 1 < values.size() ? "\n          " : " ";
    }
    out += "\n";
  } else {
    const std::uint64_t nbytes = values.size() * sizeof(T);
    out += "          ";
    out += base64_encode(std::string_view(reinterpret_cast<const char*>(&nbytes), sizeof nbytes));
    out += base64_encode(std::string_view(reinterpret_cast<const char*>(values.data()), nbytes));
    out += "\n";
  }
  out += "        </DataArray>\n";
}

std::vector<double> flatten(const std::vector<Vec3>& v) {
  std::vector<double> out(3 * v.size());
  for (std::size_t i = 0; i < v.size(); ++i)
    for (int k = 0; k < 3; ++k) out[3 * i + k] = v[i][k];
  return out;
}

// Escapes a string for an XML attribute value.
std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string base64_encode(std::string_view bytes) {
  static constexpr char table[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const std::uint32_t v = (std::uint32_t(std::uint8_t(bytes[i])) << 16) | (std::uint32_t(std::uint8_t(bytes[i + 1])) << 8) |
                            std::uint8_t(bytes[i + 2]);
    out += table[(v >> 18) & 63];
    out += table[(v >> 12) & 63];
    out += table[(v >> 6) & 63];
    out += table[v & 63];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest > 0) {
    std::uint32_t v = std::uint32_t(std::uint8_t(bytes[i])) << 16;
    if (rest == 2) v |= std::uint32_t(std::uint8_t(bytes[i + 1])) << 8;
    out += table[(v >> 18) & 63];
    out += table[(v >> 12) & 63];
    out += rest == 2 ? table[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string vtp_document(const World& world, const VtkOptions& options) {
  const ParticleStore& p = world.particles;
  const std::size_t n = p.size();
  const VtkEncoding enc = options.encoding;
  std::string out;
  out += "<?xml version=\"1.0\"?>\n";
  out += "<VTKFile type=\"PolyData\" version=\"1.0\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n";
  out += "  <PolyData>\n";
  out += fmt::format("    <Piece NumberOfPoints=\"{}\" NumberOfVerts=\"{}\" NumberOfLines=\"0\" NumberOfStrips=\"0\" "
                     "NumberOfPolys=\"0\">\n",
                     n, n);
  out += "      <Points>\n";
  data_array(out, "position", 3, flatten(p.position), enc);
  out += "      </Points>\n";
  out += "      <PointData Scalars=\"radius\" Vectors=\"velocity\">\n";
  data_array(out, "radius", 1, p.radius, enc);
  data_array(out, "velocity", 3, flatten(p.velocity), enc);
  data_array(out, "angular_velocity", 3, flatten(p.angular_velocity), enc);
  data_array(out, "id", 1, p.id, enc);
  data_array(out, "material", 1, p.material, enc);
  // Rigid bodies present (model-reduction aggregates, clumps): the body index per particle, -1 when free,
  // so ParaView can colour the aggregates. Worlds without bodies write exactly what they wrote before.
  if (!world.bodies.empty()) data_array(out, "body", 1, p.body, enc);
  if (options.contact_data) {
    std::vector<std::int32_t> count(n, 0);
    std::vector<double> force(n, 0.0);
    for (const Contact& c : world.contacts()) {
      if (c.overlap <= 0) continue;
      const double f = c.force.norm();
      ++count[c.a];
      force[c.a] += f;
      if (!c.is_wall()) {
        ++count[c.b];
        force[c.b] += f;
      }
    }
    data_array(out, "contact_count", 1, count, enc);
    data_array(out, "contact_force", 1, force, enc);
  }
  out += "      </PointData>\n";
  out += "      <Verts>\n";
  std::vector<std::int64_t> connectivity(n), offsets(n);
  for (std::size_t i = 0; i < n; ++i) {
    connectivity[i] = std::int64_t(i);
    offsets[i] = std::int64_t(i + 1);
  }
  data_array(out, "connectivity", 1, connectivity, enc);
  data_array(out, "offsets", 1, offsets, enc);
  out += "      </Verts>\n";
  out += "    </Piece>\n";
  out += "  </PolyData>\n";
  out += "</VTKFile>\n";
  return out;
}

void write_vtp(const World& world, const std::filesystem::path& path, const VtkOptions& options) {
  write_file_atomically(path, vtp_document(world, options));
}

std::string pvd_document(const std::vector<SnapshotEntry>& entries) {
  std::string out;
  out += "<?xml version=\"1.0\"?>\n";
  out += "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n";
  out += "  <Collection>\n";
  for (const SnapshotEntry& e : entries)
    out += fmt::format("    <DataSet timestep=\"{:.17g}\" group=\"\" part=\"0\" file=\"{}\"/>\n", e.time, xml_escape(e.file));
  out += "  </Collection>\n";
  out += "</VTKFile>\n";
  return out;
}

SnapshotSeries::SnapshotSeries(std::filesystem::path directory, std::string base_name, VtkOptions options)
    : directory_(std::move(directory)), base_name_(std::move(base_name)), options_(options) {
  if (base_name_.empty() || base_name_.find('/') != std::string::npos || base_name_ == "." || base_name_ == "..")
    throw InputError(fmt::format("snapshot base_name '{}' is invalid (must be a non-empty file name without '/')", base_name_));
  std::error_code ec;
  std::filesystem::create_directories(directory_, ec);
  if (ec || !std::filesystem::is_directory(directory_))
    throw InputError(fmt::format("snapshot directory '{}' cannot be created: {}", directory_.string(), ec.message()));
}

std::filesystem::path SnapshotSeries::write(World& world) {
  if (options_.contact_data) world.sync_contacts();
  if (!entries_.empty() && world.time < entries_.back().time)
    throw InputError(fmt::format("snapshot time {} is earlier than the previous snapshot's {} in series '{}'", world.time,
                                 entries_.back().time, base_name_));
  const std::string file = fmt::format("{}_{:06d}.vtp", base_name_, entries_.size());
  const std::filesystem::path path = directory_ / file;
  write_vtp(world, path, options_);
  entries_.push_back({world.time, file});
  write_file_atomically(pvd_path(), pvd_document(entries_));
  return path;
}

}  // namespace grainlab::io
