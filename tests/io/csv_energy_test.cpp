// CSV time series and the energy sampler: header once, full precision, known energies and momenta,
// and the Hertz elastic energy checked by energy conservation through an undamped Hertz collision.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <unistd.h>

#include "core/error.hpp"
#include "core/hertz.hpp"
#include "core/io/csv_writer.hpp"
#include "core/io/energy_observer.hpp"

using namespace grainlab;
namespace fs = std::filesystem;

namespace {

fs::path temp_file(const char* name) {
  return fs::temp_directory_path() / fmt::format("grainlab_csv_{}_{}.csv", name, ::getpid());
}

std::vector<std::string> lines_of(const fs::path& p) {
  std::ifstream f(p);
  std::vector<std::string> lines;
  for (std::string line; std::getline(f, line);) lines.push_back(line);
  return lines;
}

std::vector<double> numbers(const std::string& line) {
  std::vector<double> v;
  std::stringstream s(line);
  for (std::string cell; std::getline(s, cell, ',');) v.push_back(std::strtod(cell.c_str(), nullptr));
  return v;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(csv_energy)

BOOST_AUTO_TEST_CASE(csv_header_once_and_full_precision) {
  const fs::path path = temp_file("basic");
  {
    io::CsvWriter csv(path, {"t", "x", "n"});
    csv.row({0.1, 1.0 / 3.0, 7});
    csv.row({0.2, std::nextafter(1.0, 2.0), 123456789012345.0});
    BOOST_TEST(csv.rows() == 2u);
    BOOST_CHECK_EXCEPTION(csv.row({1.0, 2.0}), InputError,
                          [](const InputError& e) { return std::string(e.what()).find("3 columns") != std::string::npos; });
  }
  const auto lines = lines_of(path);
  BOOST_REQUIRE_EQUAL(lines.size(), 3u);
  BOOST_TEST(lines[0] == "t,x,n");
  const auto r1 = numbers(lines[1]), r2 = numbers(lines[2]);
  BOOST_TEST(r1[1] == 1.0 / 3.0);  // exact: 17 significant digits round-trip a double
  BOOST_TEST(r2[1] == std::nextafter(1.0, 2.0));
  BOOST_TEST(lines[2].substr(lines[2].rfind(',') + 1) == "123456789012345");  // integers print as integers
  BOOST_CHECK_THROW(io::CsvWriter(path, {"a,b"}), InputError);
  BOOST_CHECK_THROW(io::CsvWriter(path, {}), InputError);
  fs::remove(path);
}

BOOST_AUTO_TEST_CASE(energy_of_known_state) {
  World w;
  Material m;
  m.density = 1000;
  w.add_material(m);
  w.gravity.g = Vec3(0, 0, -10);
  const double r = 0.1;
  const double mass = 1000 * 4.0 / 3.0 * pi * r * r * r;
  w.add_sphere(Vec3(0, 0, 1), r, 0, Vec3(1, 2, 0), Vec3(0, 0, 3));
  w.add_sphere(Vec3(5, 0, 2), r, 0, Vec3(0, 0, -4));
  w.add_sphere(Vec3(9, 0, 7), r, 0);
  w.particles.fix(2);  // fixed: no potential energy counted, zero velocity
  w.time = 0.5;
  w.step = 42;
  const io::EnergySample s = io::sample_energy(w, Vec3(0, 0, 0.5));
  const double inertia = 0.4 * mass * r * r;
  BOOST_TEST(s.kinetic_translational == 0.5 * mass * (5 + 16), boost::test_tools::tolerance(1e-14));
  BOOST_TEST(s.kinetic_rotational == 0.5 * inertia * 9, boost::test_tools::tolerance(1e-14));
  BOOST_TEST(s.potential_gravity == mass * 10 * (0.5 + 1.5), boost::test_tools::tolerance(1e-14));
  BOOST_TEST(s.momentum.x() == mass * 1, boost::test_tools::tolerance(1e-14));
  BOOST_TEST(s.momentum.y() == mass * 2, boost::test_tools::tolerance(1e-14));
  BOOST_TEST(s.momentum.z() == -mass * 4, boost::test_tools::tolerance(1e-14));
  BOOST_TEST(s.contacts_touching == 0u);
  BOOST_TEST(s.overlap_max == 0.0);
  BOOST_TEST(s.step == 42u);
  BOOST_TEST(s.time == 0.5);

  // Gravity ramp: at t = 0.5 of a 1 s ramp from 0 the potential is half.
  w.gravity.ramp_from = 0;
  w.gravity.ramp_duration = 1.0;
  BOOST_TEST(io::sample_energy(w, Vec3(0, 0, 0.5)).potential_gravity == 0.5 * mass * 10 * 2.0,
             boost::test_tools::tolerance(1e-14));
}

BOOST_AUTO_TEST_CASE(overlaps_and_elastic_energy_of_known_contacts) {
  World w;
  Material m;
  m.youngs_modulus = 1e7;
  m.poisson_ratio = 0.3;
  w.add_material(m);
  Wall floor;
  floor.name = "floor";
  floor.shape = PlaneShape{};
  w.add_wall(std::move(floor));
  const double r = 0.01, d1 = 1e-4, d2 = 3e-4;
  w.add_sphere(Vec3(0, 0, r - d1), r, 0);                  // on the floor, overlap d1
  w.add_sphere(Vec3(0.5, 0, 0.5), r, 0);                   // pair with overlap d2
  w.add_sphere(Vec3(0.5, 0, 0.5 + 2 * r - d2), r, 0);
  w.detect_contacts();
  const io::EnergySample s = io::sample_energy(w);
  BOOST_TEST(s.contacts_touching == 2u);
  BOOST_TEST(s.overlap_max == d2, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(s.overlap_mean == 0.5 * (d1 + d2), boost::test_tools::tolerance(1e-9));
  const double estar = 1.0 / (2 * (1 - 0.09) / 1e7);
  const double k_wall = 4.0 / 3.0 * estar * std::sqrt(r), k_pair = 4.0 / 3.0 * estar * std::sqrt(r / 2);
  const double expected = 0.4 * k_wall * std::pow(d1, 2.5) + 0.4 * k_pair * std::pow(d2, 2.5);
  // Overlaps are computed from positions (rounding ~1e-16 m on 1e-4 m), so 1e-9 relative is ample.
  BOOST_TEST(s.elastic_hertz == expected, boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(elastic_energy_conserves_total_in_undamped_hertz_collision) {
  // Two equal spheres collide head-on under the pure Hertz force f = k_n delta^{3/2} (no damping),
  // integrated with velocity Verlet at dt = t_c / 2000. Kinetic + elastic_hertz must stay constant;
  // Verlet's energy error is O(dt^2) ~ 1e-7 relative here, so 1e-5 is a safe bound and a wrong
  // prefactor or wrong R*/E* in elastic_hertz (any error >= 1 %) fails by orders of magnitude.
  World w;
  Material m;
  m.youngs_modulus = 5e6;
  m.poisson_ratio = 0.25;
  w.add_material(m);
  w.gravity.g.setZero();
  const double r = 0.005, v0 = 0.5;
  w.add_sphere(Vec3(0, 0, 0), r, 0, Vec3(v0, 0, 0));
  w.add_sphere(Vec3(2 * r + 1e-6, 0, 0), r, 0, Vec3(-v0, 0, 0));
  const double estar = mix(m, m).effective_modulus, kn = hertz_stiffness(estar, r / 2);
  const double meff = 0.5 * w.particles.mass[0];
  const double tc = 2.87 * std::pow(meff * meff / (r / 2 * estar * estar * 2 * v0), 0.2);  // Hertz contact time
  const double dt = tc / 2000;
  auto force_on_0 = [&] {
    w.detect_contacts();
    if (w.contacts().empty()) return Vec3(Vec3::Zero());  // separated beyond the skin
    const Contact& c = w.contacts()[0];
    return c.overlap > 0 ? Vec3(kn * std::pow(c.overlap, 1.5) * c.normal * (c.a == 0 ? 1 : -1)) : Vec3::Zero();
  };
  const double e0 = io::sample_energy(w).total_energy();
  Vec3 f = force_on_0();
  double max_elastic = 0, max_error = 0;
  auto& p = w.particles;
  for (int i = 0; i < 4000; ++i) {
    p.velocity[0] += 0.5 * dt * f / p.mass[0];
    p.velocity[1] -= 0.5 * dt * f / p.mass[1];
    p.position[0] += dt * p.velocity[0];
    p.position[1] += dt * p.velocity[1];
    f = force_on_0();
    p.velocity[0] += 0.5 * dt * f / p.mass[0];
    p.velocity[1] -= 0.5 * dt * f / p.mass[1];
    const io::EnergySample s = io::sample_energy(w);
    max_elastic = std::max(max_elastic, s.elastic_hertz);
    max_error = std::max(max_error, std::abs(s.total_energy() - e0) / e0);
  }
  BOOST_TEST(max_elastic > 0.9 * e0);  // nearly all kinetic energy was stored at peak compression
  BOOST_TEST(max_error < 1e-5);
  BOOST_TEST(p.velocity[0].x() < 0);  // they separated
}

BOOST_AUTO_TEST_CASE(observer_writes_every_kth_step) {
  const fs::path path = temp_file("observer");
  World w;
  w.add_material(Material{});
  w.add_sphere(Vec3(0, 0, 1), 0.01, 0, Vec3(1, 0, 0));
  {
    io::EnergyObserver obs(path, 3);
    int written = 0;
    for (w.step = 0; w.step < 10; ++w.step) {
      w.time = 0.1 * double(w.step);
      written += obs.observe(w);
    }
    BOOST_TEST(written == 4);  // steps 0, 3, 6, 9
  }
  const auto lines = lines_of(path);
  BOOST_REQUIRE_EQUAL(lines.size(), 5u);
  BOOST_TEST(lines[0].rfind("time,step,kinetic_translational", 0) == 0u);
  BOOST_TEST(numbers(lines[4])[1] == 9.0);
  BOOST_TEST(numbers(lines[4]).size() == io::EnergySample::columns().size());
  BOOST_CHECK_THROW(io::EnergyObserver(path, 0), InputError);
  fs::remove(path);
}

BOOST_AUTO_TEST_SUITE_END()
