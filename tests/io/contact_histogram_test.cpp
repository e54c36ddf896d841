// Contact histogram observer (core/io/contact_histogram.hpp): on a constructed world with known
// overlaps and contact velocities the bin counts are exact; totals equal the number of touching
// contacts, also for worlds stepped by the SDEM and the NDEM engines.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "core/io/contact_histogram.hpp"
#include "core/ndem/ndem_stepper.hpp"
#include "core/sdem/sdem_stepper.hpp"

using namespace grainlab;
namespace fs = std::filesystem;

namespace {

constexpr double r = 0.01;  // sphere radius, m (d = 0.02 for every contact here)

Material glass() {
  Material m;
  m.name = "glass";
  m.density = 2500;
  m.youngs_modulus = 1e7;
  m.poisson_ratio = 0.25;
  m.restitution = 0.5;
  m.friction = 0.5;
  return m;
}

// Four touching contacts with known overlap delta/d and normal velocity u_n (> 0 separating), plus a
// separated pair inside the Verlet skin (a candidate with overlap < 0 that must not count):
//   sphere on the floor z = 0:                    delta = 1.0 mm (0.05 d),   u_n = -0.3 (falling)
//   vertical pair, upper faster upwards:          delta = 2.0 mm (0.10 d),   u_n = +0.3 (separating;
//                                                 spins and sideways speed must not enter)
//   horizontal pair, approaching:                 delta = 0.5 mm (0.025 d),  u_n = -0.2
//   sphere on a wall x = -1 that moves away (-x): delta = 1.5 mm (0.075 d),  u_n = +0.4
//   separated pair, gap 0.1 mm < skin 1 mm:       not touching
World known_world() {
  World w;
  w.gravity.g = Vec3::Zero();
  w.add_material(glass());
  Wall floor;
  floor.name = "floor";
  floor.shape = PlaneShape{Vec3::Zero(), Vec3::UnitZ()};
  w.add_wall(floor);
  Wall side;
  side.name = "side";
  side.shape = PlaneShape{Vec3(-1, 0, 0), Vec3::UnitX()};
  side.velocity = Vec3(-0.4, 0, 0);
  w.add_wall(side);
  w.add_sphere(Vec3(0, 0, r - 0.001), r, 0, Vec3(0, 0, -0.3));
  w.add_sphere(Vec3(1, 0, 0.5), r, 0, Vec3(0.7, 0, 0.2), Vec3(3, 1, 2));
  w.add_sphere(Vec3(1, 0, 0.5 + 2 * r - 0.002), r, 0, Vec3(-0.3, 0.1, 0.5), Vec3(-1, 4, 0));
  w.add_sphere(Vec3(2, 0, 0.5), r, 0, Vec3(0.1, 5, 0));
  w.add_sphere(Vec3(2 + 2 * r - 0.0005, 0, 0.5), r, 0, Vec3(-0.1, 0, 0), Vec3(0, 0, 7));
  w.add_sphere(Vec3(-1 + r - 0.0015, 0, 0.5), r, 0);
  w.add_sphere(Vec3(4, 0, 0.5), r, 0, Vec3(0, 0, 1));
  w.add_sphere(Vec3(4, 0, 0.5 + 2 * r + 1e-4), r, 0, Vec3(0, 0, -1));
  w.detect_contacts();
  return w;
}

std::size_t touching(const World& w) {
  return std::size_t(std::count_if(w.contacts().begin(), w.contacts().end(), [](const Contact& c) { return c.overlap > 0; }));
}

io::HistogramAxis fixed(double lo, double hi, int bins) {
  io::HistogramAxis a;
  a.automatic = false;
  a.lower = lo;
  a.upper = hi;
  a.bins = bins;
  return a;
}

io::HistogramAxis automatic(int bins) {
  io::HistogramAxis a;
  a.bins = bins;
  return a;
}

fs::path temp_prefix(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / "grainlab_contact_histogram_test";
  fs::create_directories(dir);
  return dir / (name + "_");
}

std::size_t line_count(const fs::path& p) {
  std::ifstream in(p);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) ++n;
  return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(contact_histogram)

BOOST_AUTO_TEST_CASE(values_of_the_constructed_world) {
  const World w = known_world();
  BOOST_TEST(w.contacts().size() == 5u);  // 4 touching + the separated candidate
  BOOST_TEST(touching(w) == 4u);
  io::ContactValues v = io::touching_contact_values(w, io::OverlapUnit::metre);
  BOOST_TEST_REQUIRE(v.overlap.size() == 4u);
  std::sort(v.overlap.begin(), v.overlap.end());
  std::sort(v.normal_velocity.begin(), v.normal_velocity.end());
  // Overlaps come from positions of order 1 m: rounding of 1e-16 m relative to 1 m.
  const double expected_overlap[] = {0.0005, 0.001, 0.0015, 0.002};
  for (int i = 0; i < 4; ++i) BOOST_TEST(std::abs(v.overlap[i] - expected_overlap[i]) < 1e-12);
  // u_n from velocities given exactly along the normals; spins and tangential speeds have no normal part.
  const double expected_u[] = {-0.3, -0.2, 0.3, 0.4};
  for (int i = 0; i < 4; ++i) BOOST_TEST(std::abs(v.normal_velocity[i] - expected_u[i]) < 1e-12);
  io::ContactValues vd = io::touching_contact_values(w, io::OverlapUnit::diameter);
  std::sort(vd.overlap.begin(), vd.overlap.end());
  for (int i = 0; i < 4; ++i) BOOST_TEST(std::abs(vd.overlap[i] - expected_overlap[i] / (2 * r)) < 1e-10);
}

BOOST_AUTO_TEST_CASE(fixed_bins_count_exactly) {
  const World w = known_world();
  io::ContactHistogramSettings s;
  s.overlap = fixed(0.0, 0.08, 4);            // bins of 0.02 d: 0.025 -> 1, 0.05 -> 2, 0.075 -> 3, 0.1 -> overflow
  s.normal_velocity = fixed(-0.5, 0.5, 4);    // bins of 0.25 m/s: -0.3 -> 0, -0.2 -> 1, 0.3 and 0.4 -> 3
  const io::ContactHistograms h = io::sample_contact_histograms(w, s);
  BOOST_TEST(h.touching == 4u);
  BOOST_TEST((h.overlap.counts == std::vector<std::uint64_t>{0, 1, 1, 1}));
  BOOST_TEST(h.overlap.underflow == 0u);
  BOOST_TEST(h.overlap.overflow == 1u);
  BOOST_TEST((h.normal_velocity.counts == std::vector<std::uint64_t>{1, 1, 0, 2}));
  BOOST_TEST(h.normal_velocity.underflow + h.normal_velocity.overflow == 0u);
  BOOST_TEST(h.overlap.total() == 4u);
  BOOST_TEST(h.normal_velocity.total() == 4u);

  // Narrow range: what falls outside is counted, never dropped.
  s.normal_velocity = fixed(-0.25, 0.35, 3);
  const io::ContactHistograms n = io::sample_contact_histograms(w, s);
  BOOST_TEST(n.normal_velocity.underflow == 1u);  // -0.3
  BOOST_TEST(n.normal_velocity.overflow == 1u);   // 0.4
  BOOST_TEST((n.normal_velocity.counts == std::vector<std::uint64_t>{1, 0, 1}));  // -0.2 in [-0.25,-0.05), 0.3 in [0.15,0.35]
}

BOOST_AUTO_TEST_CASE(automatic_bins_span_the_data) {
  const World w = known_world();
  io::ContactHistogramSettings s;
  s.overlap = automatic(2);          // [0.025, 0.1] d, split at 0.0625
  s.normal_velocity = automatic(2);  // [-0.3, 0.4] m/s, split at 0.05
  const io::ContactHistograms h = io::sample_contact_histograms(w, s);
  BOOST_TEST(std::abs(h.overlap.lower - 0.025) < 1e-10);
  BOOST_TEST(std::abs(h.overlap.upper - 0.1) < 1e-10);
  BOOST_TEST((h.overlap.counts == std::vector<std::uint64_t>{2, 2}));  // the maximum lands in the closed last bin
  BOOST_TEST(std::abs(h.normal_velocity.lower + 0.3) < 1e-12);
  BOOST_TEST(std::abs(h.normal_velocity.upper - 0.4) < 1e-12);
  BOOST_TEST((h.normal_velocity.counts == std::vector<std::uint64_t>{2, 2}));
  BOOST_TEST(h.overlap.underflow + h.overlap.overflow + h.normal_velocity.underflow + h.normal_velocity.overflow == 0u);
}

BOOST_AUTO_TEST_CASE(degenerate_and_empty_samples) {
  const io::Histogram one = io::make_histogram({0.3}, automatic(4));
  BOOST_TEST(std::abs(one.lower - 0.15) < 1e-15);  // [x - |x|/2, x + |x|/2]
  BOOST_TEST(std::abs(one.upper - 0.45) < 1e-15);
  BOOST_TEST(one.total() == 1u);
  const io::Histogram zero = io::make_histogram({0.0, 0.0}, automatic(3));
  BOOST_TEST(zero.lower == -0.5);
  BOOST_TEST((zero.counts == std::vector<std::uint64_t>{0, 2, 0}));
  const io::Histogram none = io::make_histogram({}, automatic(3));
  BOOST_TEST(none.total() == 0u);
  // Fractions of an empty sample are 0, not NaN.
  for (const auto& row : io::histogram_rows(none, 0, 0, 0)) BOOST_TEST(row[6] == 0.0);
  BOOST_CHECK_THROW(io::make_histogram({std::nan("")}, automatic(3)), InputError);
}

BOOST_AUTO_TEST_CASE(rows_sum_to_the_touching_contacts) {
  const World w = known_world();
  io::ContactHistogramSettings s;
  s.overlap = fixed(0.0, 0.08, 4);
  s.normal_velocity = fixed(-0.25, 0.35, 3);
  const io::ContactHistograms h = io::sample_contact_histograms(w, s);
  for (const io::Histogram* hist : {&h.overlap, &h.normal_velocity}) {
    const auto rows = io::histogram_rows(*hist, h.time, h.step, h.touching);
    BOOST_TEST(rows.size() == hist->counts.size() + 2);
    double count = 0, fraction = 0;
    for (const auto& row : rows) {
      BOOST_TEST(row.size() == io::histogram_columns().size());
      count += row[5];
      fraction += row[6];
    }
    BOOST_TEST(count == 4.0);
    BOOST_TEST(std::abs(fraction - 1.0) < 1e-15);
    BOOST_TEST(rows.front()[2] == -1.0);  // underflow row
    BOOST_TEST(rows.front()[3] == -std::numeric_limits<double>::infinity());
    BOOST_TEST(rows.back()[4] == std::numeric_limits<double>::infinity());
    BOOST_TEST(rows[1][3] == hist->lower);
    BOOST_TEST(rows[rows.size() - 2][4] == hist->upper);
  }
}

BOOST_AUTO_TEST_CASE(bad_settings_name_the_parameter) {
  io::ContactHistogramSettings s;
  s.overlap.bins = 0;
  try {
    s.validate();
    BOOST_FAIL("bins = 0 accepted");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("overlap.bins") != std::string::npos);
  }
  s.overlap = automatic(3);
  s.normal_velocity = fixed(1.0, 1.0, 3);
  try {
    s.validate();
    BOOST_FAIL("empty range accepted");
  } catch (const InputError& e) {
    BOOST_TEST(std::string(e.what()).find("normal_velocity") != std::string::npos);
  }
  BOOST_CHECK_THROW(io::parse_overlap_unit("mm"), InputError);
  BOOST_CHECK_THROW(io::ContactHistogramObserver(s, 1), InputError);
}

// SDEM: a column of 5 spheres settled on the floor has exactly 5 touching contacts (4 pairs + floor),
// resting: every u_n is tiny. The observer writes (bins + 2) rows per sample to each CSV.
BOOST_AUTO_TEST_CASE(sdem_column_every_k_steps) {
  World w;
  w.gravity.g = Vec3(0, 0, -9.81);
  w.add_material(glass());
  Wall floor;
  floor.name = "floor";
  floor.shape = PlaneShape{};
  w.add_wall(floor);
  for (int i = 0; i < 5; ++i) w.add_sphere(Vec3(0, 0, r + 2 * r * i), r, 0);
  SdemSettings settings;
  settings.time_step = 2e-5;
  SdemStepper sdem(settings);
  io::ContactHistogramSettings hs;
  hs.overlap = automatic(5);
  hs.normal_velocity = fixed(-1e-3, 1e-3, 4);
  const fs::path prefix = temp_prefix("sdem");
  {
    io::ContactHistogramObserver obs(hs, 2500, prefix);
    for (int k = 0; k < 10000; ++k) {
      sdem.step(w);
      obs.observe(w);
    }
    BOOST_TEST(obs.samples() == 4u);
    BOOST_TEST(obs.last().touching == 5u);
    BOOST_TEST(obs.last().overlap.total() == 5u);
    // After 0.2 s with e = 0.5 the column has come to rest: |u_n| < 1 mm/s for every contact.
    BOOST_TEST(obs.last().normal_velocity.underflow + obs.last().normal_velocity.overflow == 0u);
    BOOST_TEST(obs.overlap_rows().size() == 4u * (5 + 2));
    BOOST_TEST(obs.normal_velocity_rows().size() == 4u * (4 + 2));
  }
  BOOST_TEST(line_count(prefix.string() + "overlap.csv") == 1u + 4u * 7u);
  BOOST_TEST(line_count(prefix.string() + "normal_velocity.csv") == 1u + 4u * 6u);
  fs::remove_all(prefix.parent_path());
}

// NDEM: the histogram total equals the stepper's own count of active contacts, and every normal
// velocity of a resting NDEM contact is the constraint velocity G v the solver drove towards
// -(overlap change) per step, so it is small.
BOOST_AUTO_TEST_CASE(ndem_column_total_equals_active_contacts) {
  World w;
  w.gravity.g = Vec3(0, 0, -9.81);
  w.add_material(glass());
  Wall floor;
  floor.name = "floor";
  floor.shape = PlaneShape{};
  w.add_wall(floor);
  for (int i = 0; i < 6; ++i) w.add_sphere(Vec3(0, 0, r + 2 * r * i), r, 0);
  NdemSettings settings;
  settings.time_step = 0.005;
  settings.iterations = 200;
  NdemStepper ndem(settings);
  io::ContactHistogramSettings hs;
  hs.overlap = fixed(0.0, 0.01, 10);  // static overlaps here are below 0.5 % of d
  hs.normal_velocity = fixed(-1e-3, 1e-3, 2);
  io::ContactHistogramObserver obs(hs, 0);  // every = 0: only on sample()
  for (int k = 0; k < 200; ++k) {
    ndem.step(w);
    BOOST_TEST(!obs.observe(w));
  }
  obs.sample(w);
  BOOST_TEST(obs.samples() == 1u);
  BOOST_TEST(obs.last().touching == 6u);
  BOOST_TEST(ndem.stats().contacts == 6u);
  BOOST_TEST(obs.last().overlap.total() == ndem.stats().contacts);
  BOOST_TEST(obs.last().overlap.underflow + obs.last().overlap.overflow == 0u);
  BOOST_TEST(obs.last().normal_velocity.underflow + obs.last().normal_velocity.overflow == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
