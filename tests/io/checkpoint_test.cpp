// Checkpoint/restart: a saved and reloaded World is bitwise identical in every array, a restarted run
// continues bit for bit, and damaged files are rejected with a clear message.
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <unistd.h>

#include "core/error.hpp"
#include "core/io/checkpoint.hpp"
#include "tests/io/toy_stepper.hpp"

using namespace grainlab;
namespace fs = std::filesystem;

namespace {

template <class T>
bool bitwise_equal(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}
bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool same_bits(const Vec3& a, const Vec3& b) { return std::memcmp(a.data(), b.data(), sizeof(double) * 3) == 0; }

/// Compares every saved member of two worlds bit for bit (timers excluded when `timers` is false:
/// they measure wall-clock time).
void require_identical(const World& a, const World& b, bool timers = true) {
  const auto& p = a.particles;
  const auto& q = b.particles;
  BOOST_TEST(bitwise_equal(p.id, q.id));
  BOOST_TEST(bitwise_equal(p.position, q.position));
  BOOST_TEST(bitwise_equal(p.velocity, q.velocity));
  BOOST_TEST(bitwise_equal(p.orientation, q.orientation));
  BOOST_TEST(bitwise_equal(p.angular_velocity, q.angular_velocity));
  BOOST_TEST(bitwise_equal(p.force, q.force));
  BOOST_TEST(bitwise_equal(p.torque, q.torque));
  BOOST_TEST(bitwise_equal(p.radius, q.radius));
  BOOST_TEST(bitwise_equal(p.mass, q.mass));
  BOOST_TEST(bitwise_equal(p.inv_mass, q.inv_mass));
  BOOST_TEST(bitwise_equal(p.inertia, q.inertia));
  BOOST_TEST(bitwise_equal(p.inv_inertia, q.inv_inertia));
  BOOST_TEST(bitwise_equal(p.material, q.material));
  BOOST_TEST(bitwise_equal(p.flags, q.flags));
  BOOST_TEST(p.next_id == q.next_id);
  BOOST_REQUIRE(a.materials.size() == b.materials.size());
  for (std::size_t i = 0; i < a.materials.size(); ++i) {
    const Material &x = a.materials[i], &y = b.materials[i];
    BOOST_TEST(x.name == y.name);
    for (auto [u, v] : {std::pair{x.density, y.density}, {x.youngs_modulus, y.youngs_modulus},
                        {x.poisson_ratio, y.poisson_ratio}, {x.restitution, y.restitution}, {x.friction, y.friction},
                        {x.rolling_friction, y.rolling_friction}, {x.twisting_factor, y.twisting_factor}})
      BOOST_TEST(same_bits(u, v));
  }
  BOOST_REQUIRE(a.walls.size() == b.walls.size());
  for (std::size_t i = 0; i < a.walls.size(); ++i) {
    const Wall &x = a.walls[i], &y = b.walls[i];
    BOOST_TEST(x.name == y.name);
    BOOST_TEST(x.material == y.material);
    BOOST_TEST(x.shape.index() == y.shape.index());
    const auto& sx = std::get<PlaneShape>(x.shape);
    const auto& sy = std::get<PlaneShape>(y.shape);
    BOOST_TEST((same_bits(sx.point, sy.point) && same_bits(sx.normal, sy.normal)));
    for (auto [u, v] : {std::pair{x.velocity, y.velocity}, {x.angular_velocity, y.angular_velocity},
                        {x.rotation_center, y.rotation_center}, {x.surface_velocity, y.surface_velocity},
                        {x.force, y.force}, {x.torque, y.torque}})
      BOOST_TEST(same_bits(u, v));
  }
  BOOST_REQUIRE(a.contacts().size() == b.contacts().size());
  for (std::size_t i = 0; i < a.contacts().size(); ++i) {
    const Contact &x = a.contacts()[i], &y = b.contacts()[i];
    const bool same = x.key == y.key && x.a == y.a && x.b == y.b && same_bits(x.normal, y.normal) &&
                      same_bits(x.point, y.point) && same_bits(x.overlap, y.overlap) &&
                      same_bits(x.effective_radius, y.effective_radius) && x.age == y.age && same_bits(x.force, y.force);
    BOOST_TEST(same, "contact " << i << " differs");
  }
  // The model history as saved: zero where a World keeps none.
  auto tangential = [](const World& w, std::size_t i) { return w.tangential_spring(i); };
  auto springs = [](const World& w, std::size_t i) {
    return w.model_history().springs_kept ? w.model_history().springs.at(i) : SpringHistory{};
  };
  auto multipliers = [](const World& w, std::size_t i) {
    return w.model_history().multipliers_kept ? w.model_history().multipliers.at(i) : MultiplierHistory{};
  };
  auto angular = [](const World& w, std::size_t i) {
    return w.model_history().angular_multipliers_kept ? w.model_history().angular_multipliers.at(i)
                                                      : AngularMultiplierHistory{};
  };
  for (std::size_t i = 0; i < a.contacts().size(); ++i) {
    BOOST_TEST(same_bits(tangential(a, i), tangential(b, i)), "tangential spring of contact " << i << " differs");
    const SpringHistory sx = springs(a, i), sy = springs(b, i);
    const MultiplierHistory mx = multipliers(a, i), my = multipliers(b, i);
    const AngularMultiplierHistory ax = angular(a, i), ay = angular(b, i);
    BOOST_TEST(std::memcmp(&sx, &sy, sizeof sx) == 0, "springs of contact " << i << " differ");
    BOOST_TEST(std::memcmp(&mx, &my, sizeof mx) == 0, "multipliers of contact " << i << " differ");
    BOOST_TEST(std::memcmp(&ax, &ay, sizeof ax) == 0, "angular multipliers of contact " << i << " differ");
  }
  const DetectorState da = a.detector.state(), db = b.detector.state();
  BOOST_TEST(da.valid == db.valid);
  BOOST_TEST(bitwise_equal(da.reference_position, db.reference_position));
  BOOST_TEST(da.pair_count == db.pair_count);
  BOOST_TEST(same_bits(da.skin, db.skin));
  BOOST_TEST(da.stats.rebuilds == db.stats.rebuilds);
  BOOST_TEST(da.stats.candidates == db.stats.candidates);
  BOOST_TEST(da.stats.wall_contacts == db.stats.wall_contacts);
  BOOST_TEST(same_bits(a.collision.skin, b.collision.skin));
  BOOST_TEST((a.collision.periodic == b.collision.periodic));
  BOOST_TEST(same_bits(a.collision.periodic_lo, b.collision.periodic_lo));
  BOOST_TEST(same_bits(a.collision.periodic_hi, b.collision.periodic_hi));
  BOOST_TEST(same_bits(a.gravity.g, b.gravity.g));
  BOOST_TEST(same_bits(a.gravity.ramp_from, b.gravity.ramp_from));
  BOOST_TEST(same_bits(a.gravity.ramp_duration, b.gravity.ramp_duration));
  BOOST_TEST(same_bits(a.time, b.time));
  BOOST_TEST(a.step == b.step);
  if (timers) BOOST_TEST(same_bits(a.timers.collision, b.timers.collision));
}

World stepped_world(int steps) {
  World w = test::toy_world();
  w.particles.fix(5);
  w.collision.periodic = {false, false, false};
  for (int i = 0; i < steps; ++i) test::toy_step(w, 1e-4);
  return w;
}

fs::path temp_dir(const char* name) {
  const fs::path d = fs::temp_directory_path() / fmt::format("grainlab_io_{}_{}", name, ::getpid());
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(checkpoint)

BOOST_AUTO_TEST_CASE(round_trip_is_bitwise_equal) {
  const World w = stepped_world(300);
  // The state must be non-trivial for the test to mean something: contacts with history, wall loads.
  std::size_t with_history = 0;
  for (std::size_t k = 0; k < w.contacts().size(); ++k) with_history += w.contacts()[k].age > 0 && w.tangential_spring(k).norm() > 0;
  BOOST_TEST_REQUIRE(with_history > 10u);
  BOOST_TEST_REQUIRE(w.walls[0].force.norm() > 0);
  BOOST_TEST_REQUIRE(w.detector.pair_count() < w.contacts().size());  // wall contacts present too

  const fs::path dir = temp_dir("roundtrip");
  io::save_checkpoint(w, dir / "state.ckpt");
  const World r = io::load_checkpoint(dir / "state.ckpt");
  require_identical(w, r);
  BOOST_TEST((io::checkpoint_bytes(r) == io::checkpoint_bytes(w)));
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(restart_continues_bit_for_bit) {
  // Step N, checkpoint, step M  vs  load the checkpoint, step M. The toy stepper (tests/io/toy_stepper.hpp)
  // stands in for core/sdem; it reads every piece of state the engine keeps (contact history, detector
  // reference positions, gravity ramp, wall motion).
  World original = stepped_world(250);
  const std::string saved = io::checkpoint_bytes(original);
  World restarted = io::world_from_checkpoint(saved);
  for (int i = 0; i < 300; ++i) {
    test::toy_step(original, 1e-4);
    test::toy_step(restarted, 1e-4);
  }
  BOOST_TEST_REQUIRE(original.detector.stats().rebuilds > 0u);
  require_identical(original, restarted, /*timers=*/false);
}

BOOST_AUTO_TEST_CASE(refuses_to_overwrite_unless_allowed) {
  const World w = stepped_world(10);
  const fs::path dir = temp_dir("overwrite");
  io::save_checkpoint(w, dir / "c.ckpt");
  BOOST_CHECK_EXCEPTION(io::save_checkpoint(w, dir / "c.ckpt"), InputError,
                        [](const InputError& e) { return std::string(e.what()).find("exists already") != std::string::npos; });
  World later = stepped_world(20);
  io::save_checkpoint(later, dir / "c.ckpt", io::Overwrite::allow);
  BOOST_TEST(io::load_checkpoint(dir / "c.ckpt").step == 20u);
  // No temporary files left behind.
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++files;
  BOOST_TEST(files == 1u);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(damaged_files_are_rejected_with_a_reason) {
  const std::string good = io::checkpoint_bytes(stepped_world(50));
  auto message = [](const std::string& bytes) -> std::string {
    try {
      io::world_from_checkpoint(bytes, "test.ckpt");
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  auto contains = [](const std::string& s, const char* part) {
    BOOST_TEST_INFO("message: " << s);
    BOOST_TEST(s.find(part) != std::string::npos);
  };
  contains(message(good.substr(0, good.size() / 2)), "truncated");
  contains(message(good.substr(0, 20)), "truncated");
  contains(message(good.substr(0, good.size() - 1)), "truncated");
  contains(message(good + "x"), "trailing");
  contains(message("hello world, this is not a checkpoint"), "magic");
  std::string corrupt = good;
  corrupt[good.size() / 2] ^= 0x10;
  contains(message(corrupt), "checksum");
  std::string future = good;
  future[8] = 99;  // version field
  contains(message(future), "version 99");
  BOOST_CHECK_THROW(io::load_checkpoint("/nonexistent/dir/x.ckpt"), InputError);
}

BOOST_AUTO_TEST_CASE(unknown_wall_shape_is_a_clear_error) {
  // A file from a build with more shape types: patch the first wall's variant index to 200 and its tag,
  // then fix the checksum so that the shape check itself is reached.
  std::string bytes = io::checkpoint_bytes(stepped_world(1));
  const std::size_t tag = bytes.find("plane");
  BOOST_REQUIRE(tag != std::string::npos);
  const std::uint32_t index = 200;
  std::memcpy(&bytes[tag - 8 - 4], &index, 4);  // u32 index, then u64 tag length, then the tag
  auto rehash = [](std::string& b) {
    const std::size_t header = 32, footer = 16;
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a 64, as in checkpoint.cpp
    for (std::size_t i = header; i < b.size() - footer; ++i) {
      h ^= static_cast<unsigned char>(b[i]);
      h *= 1099511628211ull;
    }
    std::memcpy(&b[b.size() - footer], &h, 8);
  };
  rehash(bytes);
  BOOST_CHECK_EXCEPTION(io::world_from_checkpoint(bytes, "future.ckpt"), InputError, [](const InputError& e) {
    BOOST_TEST_MESSAGE(e.what());
    return std::string(e.what()).find("variant index 200 is unknown") != std::string::npos &&
           std::string(e.what()).find("WALL") != std::string::npos;
  });
  // A known index with another tag (the variant's alternatives were reordered): also refused.
  const std::uint32_t zero = 0;
  std::memcpy(&bytes[tag - 8 - 4], &zero, 4);
  bytes.replace(tag, 5, "plank");
  rehash(bytes);
  BOOST_CHECK_EXCEPTION(io::world_from_checkpoint(bytes, "future.ckpt"), InputError, [](const InputError& e) {
    return std::string(e.what()).find("'plank' in the file but 'plane'") != std::string::npos;
  });
}

BOOST_AUTO_TEST_CASE(empty_world_round_trips) {
  World w;
  const World r = io::world_from_checkpoint(io::checkpoint_bytes(w));
  BOOST_TEST(r.particles.size() == 0u);
  BOOST_TEST(r.walls.size() == 0u);
  BOOST_TEST((io::checkpoint_bytes(r) == io::checkpoint_bytes(w)));
}

BOOST_AUTO_TEST_SUITE_END()
