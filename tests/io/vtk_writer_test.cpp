// VTK output: the .vtp carries every particle with the documented arrays, values round-trip exactly in
// both encodings, and the .pvd lists every snapshot with increasing times after each write.
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <unistd.h>

#include "core/error.hpp"
#include "core/io/vtk_writer.hpp"
#include "tests/io/toy_stepper.hpp"

using namespace grainlab;
namespace fs = std::filesystem;

namespace {

std::string read_text(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

/// The text between the <DataArray ... Name="name" ...> tag and its </DataArray>, plus the tag itself.
std::pair<std::string, std::string> find_array(const std::string& doc, const std::string& name) {
  const std::size_t at = doc.find("Name=\"" + name + "\"");
  BOOST_REQUIRE_MESSAGE(at != std::string::npos, "array " << name << " missing");
  const std::size_t tag_begin = doc.rfind('<', at), tag_end = doc.find('>', at);
  const std::size_t end = doc.find("</DataArray>", tag_end);
  return {doc.substr(tag_begin, tag_end - tag_begin + 1), doc.substr(tag_end + 1, end - tag_end - 1)};
}

std::vector<double> parse_ascii(const std::string& body) {
  std::istringstream s(body);
  std::vector<double> v;
  double x;
  while (s >> x) v.push_back(x);
  return v;
}

std::string base64_decode(const std::string& text) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  std::string group;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    group += c;
    if (group.size() < 4) continue;
    const int a = value(group[0]), b = value(group[1]), c2 = value(group[2]), d = value(group[3]);
    out += char((a << 2) | (b >> 4));
    if (group[2] != '=') out += char(((b & 15) << 4) | (c2 >> 2));
    if (group[3] != '=') out += char(((c2 & 3) << 6) | d);
    group.clear();
  }
  return out;
}

/// Decodes an inline binary array as VTK does: base64 UInt64 byte count, then base64 data.
template <class T>
std::vector<T> parse_binary(const std::string& body) {
  std::string trimmed;
  for (char c : body)
    if (!std::isspace(static_cast<unsigned char>(c))) trimmed += c;
  const std::string header = base64_decode(trimmed.substr(0, 12));  // 8 bytes -> 12 characters
  std::uint64_t nbytes = 0;
  std::memcpy(&nbytes, header.data(), 8);
  const std::string data = base64_decode(trimmed.substr(12));
  BOOST_REQUIRE_EQUAL(data.size(), nbytes);
  std::vector<T> v(nbytes / sizeof(T));
  std::memcpy(v.data(), data.data(), nbytes);
  return v;
}

World small_world() {
  World w = test::toy_world(3);
  for (int i = 0; i < 200; ++i) test::toy_step(w, 1e-4);
  return w;
}

fs::path temp_dir(const char* name) {
  const fs::path d = fs::temp_directory_path() / fmt::format("grainlab_vtk_{}_{}", name, ::getpid());
  fs::remove_all(d);
  return d;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(vtk)

BOOST_AUTO_TEST_CASE(base64_matches_rfc4648_vectors) {
  BOOST_TEST(io::base64_encode("") == "");
  BOOST_TEST(io::base64_encode("f") == "Zg==");
  BOOST_TEST(io::base64_encode("fo") == "Zm8=");
  BOOST_TEST(io::base64_encode("foo") == "Zm9v");
  BOOST_TEST(io::base64_encode("foobar") == "Zm9vYmFy");
}

BOOST_AUTO_TEST_CASE(ascii_snapshot_round_trips) {
  const World w = small_world();
  const std::size_t n = w.particles.size();
  const std::string doc = io::vtp_document(w, {io::VtkEncoding::ascii, true});
  BOOST_TEST(doc.find("<VTKFile type=\"PolyData\"") != std::string::npos);
  BOOST_TEST(doc.find(fmt::format("NumberOfPoints=\"{}\"", n)) != std::string::npos);
  BOOST_TEST(doc.find(fmt::format("NumberOfVerts=\"{}\"", n)) != std::string::npos);

  const auto [pos_tag, pos] = find_array(doc, "position");
  BOOST_TEST(pos_tag.find("NumberOfComponents=\"3\"") != std::string::npos);
  const std::vector<double> x = parse_ascii(pos);
  BOOST_REQUIRE_EQUAL(x.size(), 3 * n);
  for (std::size_t i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) BOOST_TEST(x[3 * i + k] == w.particles.position[i][k]);  // 17 digits: exact

  const std::vector<double> r = parse_ascii(find_array(doc, "radius").second);
  const std::vector<double> v = parse_ascii(find_array(doc, "velocity").second);
  const std::vector<double> om = parse_ascii(find_array(doc, "angular_velocity").second);
  const std::vector<double> id = parse_ascii(find_array(doc, "id").second);
  const std::vector<double> mat = parse_ascii(find_array(doc, "material").second);
  BOOST_REQUIRE_EQUAL(r.size(), n);
  BOOST_REQUIRE_EQUAL(v.size(), 3 * n);
  BOOST_REQUIRE_EQUAL(om.size(), 3 * n);
  for (std::size_t i = 0; i < n; ++i) {
    BOOST_TEST(r[i] == w.particles.radius[i]);
    BOOST_TEST(id[i] == double(w.particles.id[i]));
    BOOST_TEST(mat[i] == double(w.particles.material[i]));
    for (int k = 0; k < 3; ++k) {
      BOOST_TEST(v[3 * i + k] == w.particles.velocity[i][k]);
      BOOST_TEST(om[3 * i + k] == w.particles.angular_velocity[i][k]);
    }
  }
  // Contact data against a direct count.
  std::vector<double> expected_count(n, 0), expected_force(n, 0);
  for (const Contact& c : w.contacts())
    if (c.overlap > 0) {
      expected_count[c.a] += 1;
      expected_force[c.a] += c.force.norm();
      if (!c.is_wall()) {
        expected_count[c.b] += 1;
        expected_force[c.b] += c.force.norm();
      }
    }
  BOOST_TEST(parse_ascii(find_array(doc, "contact_count").second) == expected_count, boost::test_tools::per_element());
  BOOST_TEST(parse_ascii(find_array(doc, "contact_force").second) == expected_force, boost::test_tools::per_element());
  double touching = 0;
  for (double c : expected_count) touching += c;
  BOOST_TEST(touching > 20);  // the settled bed has contacts, so the check above is not vacuous
  const std::vector<double> offsets = parse_ascii(find_array(doc, "offsets").second);
  BOOST_REQUIRE_EQUAL(offsets.size(), n);
  BOOST_TEST(offsets.back() == double(n));
}

BOOST_AUTO_TEST_CASE(binary_snapshot_round_trips_bitwise) {
  const World w = small_world();
  const std::size_t n = w.particles.size();
  const std::string doc = io::vtp_document(w, {io::VtkEncoding::base64, false});
  BOOST_TEST(doc.find("header_type=\"UInt64\"") != std::string::npos);
  BOOST_TEST(doc.find("contact_count") == std::string::npos);
  const std::vector<double> x = parse_binary<double>(find_array(doc, "position").second);
  BOOST_REQUIRE_EQUAL(x.size(), 3 * n);
  BOOST_TEST(std::memcmp(x.data(), w.particles.position.data(), x.size() * sizeof(double)) == 0);
  const std::vector<double> v = parse_binary<double>(find_array(doc, "velocity").second);
  BOOST_TEST(std::memcmp(v.data(), w.particles.velocity.data(), v.size() * sizeof(double)) == 0);
  const std::vector<std::uint32_t> id = parse_binary<std::uint32_t>(find_array(doc, "id").second);
  BOOST_TEST(id == w.particles.id, boost::test_tools::per_element());
  const std::vector<std::uint16_t> mat = parse_binary<std::uint16_t>(find_array(doc, "material").second);
  BOOST_TEST(mat == w.particles.material, boost::test_tools::per_element());
  const auto [tag, body] = find_array(doc, "radius");
  BOOST_TEST(tag.find("format=\"binary\"") != std::string::npos);
  BOOST_TEST(parse_binary<double>(body) == w.particles.radius, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(series_keeps_a_valid_pvd_after_every_write) {
  const fs::path dir = temp_dir("series");
  World w = test::toy_world(5);
  io::SnapshotSeries series(dir, "bed");
  for (int s = 0; s < 4; ++s) {
    const fs::path written = series.write(w);
    BOOST_TEST(fs::exists(written));
    // After each write the .pvd is complete and lists every snapshot so far, times increasing.
    const std::string pvd = read_text(series.pvd_path());
    BOOST_TEST(pvd.find("</VTKFile>") != std::string::npos);
    const std::regex entry("<DataSet timestep=\"([^\"]+)\" group=\"\" part=\"0\" file=\"([^\"]+)\"/>");
    std::vector<double> times;
    std::vector<std::string> files;
    for (auto it = std::sregex_iterator(pvd.begin(), pvd.end(), entry); it != std::sregex_iterator(); ++it) {
      times.push_back(std::stod((*it)[1]));
      files.push_back((*it)[2]);
    }
    BOOST_REQUIRE_EQUAL(times.size(), std::size_t(s + 1));
    for (std::size_t k = 0; k < files.size(); ++k) {
      BOOST_TEST(files[k] == fmt::format("bed_{:06d}.vtp", k));
      BOOST_TEST(fs::exists(dir / files[k]));
      if (k > 0) BOOST_TEST(times[k] > times[k - 1]);
    }
    BOOST_TEST(times.back() == w.time);
    for (int i = 0; i < 20; ++i) test::toy_step(w, 1e-4);
  }
  // Going back in time is refused.
  w.time = 0;
  BOOST_CHECK_THROW(series.write(w), InputError);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(bad_base_name_is_named) {
  BOOST_CHECK_EXCEPTION(io::SnapshotSeries(temp_dir("bad"), "a/b"), InputError,
                        [](const InputError& e) { return std::string(e.what()).find("base_name") != std::string::npos; });
  fs::remove_all(temp_dir("bad"));
}

BOOST_AUTO_TEST_SUITE_END()
