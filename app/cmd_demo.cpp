// `grainlab demo`: a small smooth-DEM simulation — a jittered lattice of spheres falls into an open box
// and settles — writing a VTK snapshot series (ParaView: open demo.pvd) and a CSV of energy and
// contacts over time. A quick way to see the engine work end to end.
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <utility>

#include <fmt/format.h>
#include <tbb/global_control.h>

#include "app/command.hpp"
#include "core/error.hpp"
#include "core/io/energy_observer.hpp"
#include "core/io/vtk_writer.hpp"
#include "core/sdem/sdem_stepper.hpp"
#include "core/sources/fill.hpp"
#include "core/world.hpp"

namespace grainlab {
namespace {

struct DemoOptions {
  std::string out = "results/demo";
  int per_side = 10;       // lattice sites per horizontal side
  int layers = 10;
  double duration = 0.5;   // s
  double snapshot_interval = 0.01;  // s
  int threads = 0;
  bool force = false;
};

int run_demo(const DemoOptions& o) {
  namespace fs = std::filesystem;
  if (o.per_side < 1 || o.layers < 1) throw InputError("--per-side and --layers must be >= 1");
  if (!(o.duration > 0)) throw InputError("--duration must be > 0");
  if (!(o.snapshot_interval > 0)) throw InputError("--snapshot-interval must be > 0");
  if (fs::exists(o.out) && !fs::is_empty(o.out) && !o.force)
    throw InputError(fmt::format("output folder '{}' exists and is not empty; pass --force to replace its files "
                                 "or choose another --out", o.out));
  std::unique_ptr<tbb::global_control> limit;
  if (o.threads > 0) limit = std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism, o.threads);

  // Material and bed of the SDEM benchmark (issue 6): d = 10 mm glass-like beads, soft E for a cheap step.
  const double r = 0.005, spacing = 2.4 * r;
  World world;
  Material m;
  m.name = "beads";
  m.density = 2500;
  m.youngs_modulus = 5e6;
  m.poisson_ratio = 0.25;
  m.restitution = 0.5;
  m.friction = 0.7;
  m.rolling_friction = 0.05;
  const auto mat = world.add_material(m);
  const double width = o.per_side * spacing;
  Wall box;
  box.name = "box";
  box.material = mat;
  box.shape = BoxShape{Vec3(0, 0, 0.5 * width * 4), Vec3(0.5 * width, 0.5 * width, 2.0 * width), Quat::Identity(),
                       BoxShape::open_top};
  world.add_wall(std::move(box));
  sources::LatticeFill fill;
  fill.region = sources::BoxRegion{Vec3(-0.5 * width, -0.5 * width, 0.2 * width),
                          Vec3(0.5 * width, 0.5 * width, 0.2 * width + o.layers * spacing)};
  fill.radius = r;
  fill.spacing = spacing;
  fill.jitter = 0.09 * 2 * r;
  fill.material = mat;
  sources::lattice_fill(world, fill);

  SdemSettings settings;
  settings.time_step = 5e-5;
  SdemStepper stepper(settings);

  fs::create_directories(o.out);
  io::SnapshotSeries snapshots(o.out, "demo");
  io::EnergyObserver energy(fs::path(o.out) / "energy.csv", 20);
  const auto steps = std::uint64_t(std::llround(o.duration / settings.time_step));
  const auto snapshot_every = std::max<std::uint64_t>(1, std::llround(o.snapshot_interval / settings.time_step));
  fmt::print("demo: {} spheres, {} steps of {} s; writing {}/demo.pvd and energy.csv\n", world.particles.size(), steps,
             settings.time_step, o.out);
  const auto t0 = std::chrono::steady_clock::now();
  snapshots.write(world);
  for (std::uint64_t s = 1; s <= steps; ++s) {
    stepper.step(world);
    energy.observe(world);
    if (s % snapshot_every == 0) snapshots.write(world);
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto& e = energy.last();
  fmt::print("demo: done in {:.2f} s ({:.3g} s per particle-step); final kinetic energy {:.3g} J\n", wall,
             wall / double(steps * world.particles.size()), e.kinetic_translational + e.kinetic_rotational);
  return 0;
}

const CommandRegistration reg{"demo", "Run a small SDEM demo (spheres settling in a box): VTK snapshots + energy CSV",
                              [](CLI::App& cmd) {
                                auto o = std::make_shared<DemoOptions>();
                                cmd.add_option("--out", o->out, "output folder")->capture_default_str();
                                cmd.add_option("--per-side", o->per_side, "lattice sites per side")->capture_default_str();
                                cmd.add_option("--layers", o->layers, "lattice layers")->capture_default_str();
                                cmd.add_option("--duration", o->duration, "simulated time, s")->capture_default_str();
                                cmd.add_option("--snapshot-interval", o->snapshot_interval, "time between snapshots, s")
                                    ->capture_default_str();
                                cmd.add_option("--threads", o->threads, "engine threads (0 = all cores)")->capture_default_str();
                                cmd.add_flag("--force", o->force, "write into an existing, non-empty output folder");
                                return [o] { return run_demo(*o); };
                              },
                              90};

}  // namespace
}  // namespace grainlab
