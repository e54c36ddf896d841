// Experiment quasistatic_rima_vs_cg: Gavrilov 1999 G-E7 (seed 002 l.2530-2567) and the thread scaling of
// G-E6. One QRB in a silo configuration (a triangular packing, core/quasistatic/lattice_packing.hpp) of
// `disks` disks: the stresses from RIMA (D = Z F, O(n^2)) against a Jacobi-preconditioned CG on the sparse
// K (Eq. 5.25), cold and warm started; the cost of one RIMA update (a link removed and re-inserted, two
// rank-2 updates) against one D = Z F; the same update on `threads` threads (TBB in place of MPI).
// Timings are the minimum over `repeats` repetitions (the machine is shared).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>

#include <Eigen/LU>

#include "core/quasistatic/lattice_packing.hpp"
#include "core/quasistatic/stiffness_solvers.hpp"
#include "experiments/experiment.hpp"

namespace grainlab {
namespace {

using namespace quasistatic;
using Clock = std::chrono::steady_clock;

template <class F>
double min_seconds(int repeats, F&& f) {
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < repeats; ++i) {
    const auto t0 = Clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return best;
}

Experiment make() {
  Experiment e;
  e.name = "quasistatic_rima_vs_cg";
  e.description = "Gavrilov 1999 G-E7/G-E6: RIMA stresses vs Jacobi-CG on one QRB in a silo packing; update cost; threads";
  e.parameters = {
      {"disks", ParamType::integer, "-", std::int64_t(500), 2.0, 5000.0, "disks in the packing (002 l.2542: up to 1000)"},
      {"per_row", ParamType::integer, "-", std::int64_t(15), 2.0, 1000.0, "disks in a long row (15: the 0.3 m silo of G-E5)"},
      {"radius", ParamType::real, "m", 0.01, 1e-4, 1.0, "disk radius"},
      {"areal_density", ParamType::real, "kg/m^2", 1190.0, 1e-3, 1e6, "disk mass per area (ledger P3)"},
      {"gravity", ParamType::real, "m/s^2", 9.81, 1e-3, 1e3, "gravitational acceleration"},
      {"cg_tolerance", ParamType::real, "-", 1e-8, 1e-15, 1.0, "CG stop: |r| <= tol |F| (ledger default 1e-8)"},
      {"repeats", ParamType::integer, "-", std::int64_t(10), 1.0, 1e5, "repetitions per timing (minimum kept)"},
      {"threads", ParamType::integer, "-", std::int64_t(2), 1.0, 256.0, "threads for the parallel RIMA update (G-E6)"},
      {"time_per_disk", ParamType::boolean, "-", false, std::nullopt, std::nullopt, "report rima_solve_s per disk (the Fig. 5.34 reading) instead of per solve"},
      {"rima_solve", ParamType::text, "", std::string("maintained"), {}, {},
       "\"maintained\": D = Z F on the maintained inverse (RIMA); \"recomputed\": Z = K^-1 recomputed (dense) for every solve, no incremental update (a perturbation: what RIMA saves)",
       {"maintained", "recomputed"}},
  };
  e.run = [](const Parameters& p, RunContext&) {
    const int n = int(p.integer("disks")), repeats = int(p.integer("repeats"));
    const double r = p.real("radius");
    const LinkSpring disk{1.0e6, 1.0e5, 0.43}, wall{1.5e6, 1.5e5, 0.33};
    const auto t0 = Clock::now();
    LatticePacking pack = build_lattice_packing(n, int(p.integer("per_row")), r,
                                                p.real("areal_density") * std::numbers::pi * r * r,
                                                p.real("gravity"), disk, wall);
    const double build_s = std::chrono::duration<double>(Clock::now() - t0).count();
    const Eigen::VectorXd& f = pack.gravity_loads;
    const Eigen::SparseMatrix<double> k = pack.truss.stiffness();
    const double tol = p.real("cg_tolerance");

    Eigen::VectorXd d_rima;
    const Eigen::MatrixXd k_dense = p.text("rima_solve") == "recomputed" ? Eigen::MatrixXd(k) : Eigen::MatrixXd();
    const double rima_s = min_seconds(repeats, [&] {
      d_rima = k_dense.size() > 0 ? Eigen::VectorXd(k_dense.inverse() * f) : pack.rima.solve(f);
    });
    CgResult cold;
    const double cg_s = min_seconds(repeats, [&] { cold = solve_jacobi_cg(k, f, tol, 100000); });
    // Warm start (002 l.2518): the previous solution for a load changed by 10 % more weight on the top disks.
    Eigen::VectorXd f2 = f;
    for (int i = std::max(0, n - int(p.integer("per_row"))); i < n; ++i) f2(2 * i + 1) *= 1.1;
    CgResult warm;
    const double cg_warm_s = min_seconds(repeats, [&] { warm = solve_jacobi_cg(k, f2, tol, 100000, cold.x); });
    const double difference = (cold.x - d_rima).norm() / d_rima.norm();
    // One RIMA update: an interior link removed (-C) and re-inserted (+C), two case-3 updates; Z returns to
    // itself up to rounding. Sequential, then on `threads` threads.
    const Link* link = nullptr;
    for (const Link& l : pack.truss.links())
      if (l.b != fixed_node && l.a > n / 2) { link = &l; break; }
    if (!link) link = &pack.truss.links().back();
    const Mat2 c = link_stiffness(link->normal, link->spring);
    auto update_pair = [&] {
      if (link->b == fixed_node) pack.rima.add_fixed_link(link->a, -c), pack.rima.add_fixed_link(link->a, c);
      else pack.rima.add_link(link->a, link->b, -c), pack.rima.add_link(link->a, link->b, c);
    };
    const int update_repeats = std::max(1, repeats / 2);
    const double update_s = min_seconds(update_repeats, update_pair) / 2;
    pack.rima.set_threads(int(p.integer("threads")));
    const double update_parallel_s = min_seconds(update_repeats, update_pair) / 2;
    pack.rima.set_threads(1);
    const Eigen::VectorXd d_after = pack.rima.solve(f);

    RunResult out;
    const double reported_rima = p.boolean("time_per_disk") ? rima_s / n : rima_s;
    out.metrics = {
        {"dofs", 2.0 * n},
        {"links", double(pack.truss.links().size())},
        {"rima_solve_s", reported_rima},
        {"cg_solve_s", cg_s},
        {"cg_warm_s", cg_warm_s},
        {"cg_iterations", double(cold.iterations)},
        {"cg_warm_iterations", double(warm.iterations)},
        {"cg_converged", cold.converged && warm.converged ? 1.0 : 0.0},
        {"cg_over_rima", cg_s / rima_s},
        {"rima_update_s", update_s},
        {"update_over_solve", update_s / rima_s},
        {"parallel_speedup", update_s / update_parallel_s},
        {"rima_cg_difference", difference},
        {"update_roundtrip_difference", (d_after - d_rima).norm() / d_rima.norm()},
        {"time_build", build_s},
    };
    return out;
  };
  return e;
}

const ExperimentRegistration registration{make()};

}  // namespace
}  // namespace grainlab
