// Experiment quasistatic_silo: Gavrilov 1999 G-E5, a planar silo filled disk by disk with the quasi-static
// model and RIMA (core/quasistatic, docs/gavrilov_silo.md). Reports the equilibrium and RIMA invariants
// over the whole filling (G-C26, G-C27), the wall pressure per 10-radius window with the 2-D Janssen fit
// (G-C33), slide energy and locations (G-C30, G-C32), cascades (G-C35), force-chain angle vs heap slope
// (G-C29) and, with compare_seed > 0, a second filling's wall pressures (history dependence, G-C34).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/quasistatic/silo_fill.hpp"
#include "core/quasistatic/silo_measures.hpp"
#include "experiments/experiment.hpp"

namespace grainlab {
namespace {

using namespace quasistatic;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

SiloSettings settings_from(const Parameters& p, std::int64_t seed) {
  SiloSettings s;
  s.width = p.real("width");
  s.height = p.real("height");
  s.disks = int(p.integer("disks"));
  s.radius_mean = p.real("radius_mean");
  s.radius_sd_fraction = p.real("radius_sd_fraction");
  s.areal_density = p.real("areal_density");
  s.gravity = p.real("gravity");
  s.disk_link = {p.real("k_normal"), p.real("k_tangential"), p.real("friction")};
  s.wall_link = {p.real("wall_k_normal"), p.real("wall_k_tangential"), p.real("wall_friction")};
  s.drop_half_width = p.real("drop_half_width");
  s.seed = std::uint64_t(seed);
  s.max_actions = int(p.integer("max_actions"));
  s.near_radius = 5 * s.radius_mean;
  s.refresh_tolerance = p.real("refresh_tolerance");
  s.refine = p.boolean("refine");
  return s;
}

double bulk_density(const SiloFill& f) {
  double mass = 0;
  for (const SiloDisk& d : f.disks()) mass += d.mass;
  return mass / (f.settings().width * fill_height(f));
}

Experiment make() {
  Experiment e;
  e.name = "quasistatic_silo";
  e.description = "Gavrilov 1999 G-E5: planar silo filled disk by disk, quasi-static truss with RIMA (Ch. 4)";
  e.parameters = {
      {"width", ParamType::real, "m", 0.3, 0.02, 10.0, "silo width (002 l.1478)"},
      {"height", ParamType::real, "m", 1.0, 0.05, 10.0, "silo height ('depth', 002 l.1478)"},
      {"disks", ParamType::integer, "-", std::int64_t(500), 1.0, 5000.0, "disks dropped (002 l.1478)"},
      {"radius_mean", ParamType::real, "m", 0.01, 1e-4, 1.0, "mean disk radius (002 l.1478)"},
      {"radius_sd_fraction", ParamType::real, "-", 0.05, 0.0, 0.3, "radius sd / mean ('variance 5 %', ledger default)"},
      {"areal_density", ParamType::real, "kg/m^2", 1190.0, 1e-3, 1e6, "disk mass per area (ledger P3)"},
      {"gravity", ParamType::real, "m/s^2", 9.81, 1e-3, 1e3, "gravitational acceleration"},
      {"k_normal", ParamType::real, "N/m", 1.0e6, 1.0, 1e12, "disk-disk K_eta (002 l.1480)"},
      {"k_tangential", ParamType::real, "N/m", 1.0e5, 1.0, 1e12, "disk-disk K_tau (002 l.1480)"},
      {"friction", ParamType::real, "-", 0.43, 0.0, 10.0, "disk-disk mu (002 l.1480)"},
      {"wall_k_normal", ParamType::real, "N/m", 1.5e6, 1.0, 1e12, "disk-wall K_eta (002 l.1480)"},
      {"wall_k_tangential", ParamType::real, "N/m", 1.5e5, 1.0, 1e12, "disk-wall K_tau (002 l.1480)"},
      {"wall_friction", ParamType::real, "-", 0.33, 0.0, 10.0, "disk-wall mu (002 l.1480)"},
      {"drop_half_width", ParamType::real, "m", 0.02, 0.0, 10.0, "drop x uniform in centre +- this (ledger default: one mean diameter)"},
      {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 1e15, "random seed (radii, drop points)"},
      {"compare_seed", ParamType::integer, "-", std::int64_t(0), 0.0, 1e15, "if > 0: a second filling with this seed, for history dependence (G-C34)"},
      {"max_actions", ParamType::integer, "-", std::int64_t(10000), 1.0, 1e7, "topology-loop actions per disk (ledger default 1e4)"},
      {"check_every", ParamType::integer, "-", std::int64_t(10), 1.0, 1e6, "disks between |ZK - I| and Cholesky cross-checks (and after the last)"},
      {"refine", ParamType::boolean, "-", true, std::nullopt, std::nullopt, "one step of iterative refinement after D = Z F (false: the thesis's D = Z F alone)"},
      {"refresh_tolerance", ParamType::real, "-", 1e-11, 0.0, 1.0, "|ZK - I| above which Z is recomputed from K after a removal (0: pure RIMA as in the thesis)"},
      {"window_radii", ParamType::real, "-", 10.0, 1.0, 1000.0, "wall-pressure window height in mean radii (002 l.1521)"},
  };
  e.run = [](const Parameters& p, RunContext& ctx) {
    const auto start = std::chrono::steady_clock::now();
    const SiloSettings s = settings_from(p, p.integer("seed"));
    const int check_every = int(p.integer("check_every"));
    SiloFill fill(s);
    double residual = 0, tension = 0, excess = 0, identity = 0, cholesky = 0;
    int placed = 0;
    while (fill.add_disk()) {
      ++placed;
      const Equilibrium eq = equilibrium(fill);
      residual = std::max(residual, eq.relative_residual);
      tension = std::max(tension, eq.max_tension / fill.mean_weight());
      excess = std::max(excess, eq.max_friction_excess / fill.mean_weight());
      if (placed % check_every == 0) {
        identity = std::max(identity, identity_error(fill));
        cholesky = std::max(cholesky, cholesky_difference(fill));
      }
      if (ctx.progress) ctx.progress(double(placed) / s.disks);
    }
    identity = std::max({identity, identity_error(fill), fill.worst_identity_error()});
    cholesky = std::max(cholesky, cholesky_difference(fill));
    const double fill_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    const double window = p.real("window_radii") * s.radius_mean;
    const WallPressure wp = wall_pressure(fill, window);
    const JanssenK jk = fit_janssen_k(wp, bulk_density(fill), s.gravity, s.width, s.wall_link.friction);
    const SlideEnergy se = slide_energy(fill, window);
    const SlideLocations sl = slide_locations(fill);
    const ChainAngles ca = chain_angles(fill);

    int unresolved = 0, with_slides = 0, multi = 0, max_rounds = 0, kept = 0;
    double rounds_sum = 0;
    std::vector<int> rounds;
    for (const DiskLog& l : fill.log()) {
      unresolved += l.unresolved;
      kept += l.kept_tensile;
      if (l.slide_rounds > 0) {
        ++with_slides;
        multi += l.slide_rounds >= 2;
        rounds_sum += l.slide_rounds;
        rounds.push_back(l.slide_rounds);
        max_rounds = std::max(max_rounds, l.slide_rounds);
      }
    }
    std::sort(rounds.begin(), rounds.end());
    int active = 0, wall_links = 0;
    for (const Link& l : fill.truss().links())
      if (l.active) ++active, wall_links += l.b == fixed_node;

    RunResult out;
    out.metrics = {
        {"disks_placed", placed},
        {"fill_height", fill_height(fill)},
        {"active_links", active},
        {"wall_links", wall_links},
        {"max_residual", residual},
        {"max_tension_ratio", tension},
        {"max_friction_excess_ratio", excess},
        {"unresolved_disks", unresolved},
        {"kept_tensile_links", kept},
        {"max_identity_error", identity},
        {"max_cholesky_difference", cholesky},
        {"rima_refreshes", fill.refreshes()},
        {"pressure_windows", double(wp.depth.size())},
        {"janssen_K", jk.k},
        {"janssen_r2", jk.r2},
        {"janssen_saturation", jk.saturation},
        {"bottom_pressure", wp.pressure.empty() ? nan : wp.pressure.back()},
        {"top_pressure", wp.pressure.empty() ? nan : wp.pressure.front()},
        {"slide_energy_total", se.total},
        {"wall_energy_share", se.wall_share},
        {"wall_link_share", se.wall_link_share},
        {"wall_energy_ratio", se.wall_share / se.wall_link_share},
        {"interior_energy_slope_t", se.interior_slope_se > 0 ? se.interior_slope / se.interior_slope_se : nan},
        {"slide_events", sl.events},
        {"near_new_enrichment", sl.near_new_enrichment},
        {"near_wall_enrichment", sl.near_wall_enrichment},
        {"disks_with_slides", with_slides},
        {"cascade_multi_fraction", with_slides > 0 ? double(multi) / with_slides : nan},
        {"cascade_mean_rounds", with_slides > 0 ? rounds_sum / with_slides : nan},
        {"cascade_median_rounds", rounds.empty() ? nan : double(rounds[rounds.size() / 2])},
        {"cascade_max_rounds", max_rounds},
        {"chain_mode_deg", ca.chain_mode_deg},
        {"chain_median_deg", ca.chain_median_deg},
        {"repose_deg", ca.repose_deg},
        {"chain_minus_repose_deg", std::abs(ca.chain_mode_deg - ca.repose_deg)},
        {"time_fill", fill_seconds},
    };
    // History dependence: the same silo with another seed, window by window (G-C34).
    double history = nan;
    if (p.integer("compare_seed") > 0) {
      SiloFill other(settings_from(p, p.integer("compare_seed")));
      while (other.add_disk()) {}
      const WallPressure wq = wall_pressure(other, window);
      history = 0;
      const std::size_t n = std::min(wp.pressure.size(), wq.pressure.size());
      for (std::size_t i = 0; i < n; ++i) {
        const double ref = std::max(wp.pressure[i], wq.pressure[i]);
        if (ref > 0) history = std::max(history, std::abs(wp.pressure[i] - wq.pressure[i]) / ref);
      }
    }
    out.metrics["history_max_rel_diff"] = history;

    TimeSeries pressure{{"depth", "pressure", "left", "right", "janssen"}, {}};
    for (std::size_t i = 0; i < wp.depth.size(); ++i)
      pressure.rows.push_back({wp.depth[i], wp.pressure[i], wp.left[i], wp.right[i],
                               jk.saturation * (1 - std::exp(-2 * s.wall_link.friction * jk.k * wp.depth[i] / s.width))});
    out.series["pressure"] = std::move(pressure);
    TimeSeries disks{{"disk", "actions", "connects", "disconnects", "slide_rounds", "slides", "slide_energy"}, {}};
    for (std::size_t i = 0; i < fill.log().size(); ++i) {
      const DiskLog& l = fill.log()[i];
      disks.rows.push_back({double(i + 1), double(l.actions), double(l.connects), double(l.disconnects),
                            double(l.slide_rounds), double(l.slides), l.slide_energy});
    }
    out.series["disks"] = std::move(disks);
    return out;
  };
  return e;
}

const ExperimentRegistration registration{make()};

}  // namespace
}  // namespace grainlab
