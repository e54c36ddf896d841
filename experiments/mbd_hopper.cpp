// Experiment mbd_hopper: Gavrilov 1999 G-E8, discharge of a 2-D hopper with the event-driven MBD model
// (core/mbd, docs/gavrilov_hopper.md; seed 002 l.2745-2860). Fills the closed hopper, opens the slot at
// t = 0, deletes disks whose top passes below it, and logs a frame every 0.005 s (002 l.2784): discharge
// (0.1-s moving average), left/right fluxes, event counts by type, elapsed time, energies. A run ends when
// the hopper is empty, at end_time, or when nothing has left for jam_window (a permanent jam).
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>

#include "core/mbd/hopper.hpp"
#include "core/mbd/qrb_dynamics.hpp"
#include "experiments/experiment.hpp"
#include "experiments/mbd_hopper_measures.hpp"

namespace grainlab {
namespace {

using namespace mbd;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

MbdSettings mbd_settings(const Parameters& p) {
  MbdSettings s;
  s.step = p.real("step");
  s.gravity = Vec2(0, -p.real("gravity"));
  s.disk_link = {p.real("k_normal"), p.real("k_tangential"), p.real("c_normal"), p.real("c_tangential"), p.real("friction")};
  s.wall_link = {p.real("wall_k_normal"), p.real("wall_k_tangential"), p.real("wall_c_normal"),
                 p.real("wall_c_tangential"), p.real("wall_friction")};
  s.integrator = p.text("integrator") == "euler" ? Integrator::euler : Integrator::heun;
  s.rotation = p.text("rotation_increment") == "omega" ? RotationIncrement::omega : RotationIncrement::angle;
  s.slip_tolerance_relative = p.real("slip_tolerance_relative");
  s.slip_tolerance_absolute = p.real("slip_tolerance_absolute");
  s.stability_speed = p.real("stability_speed");
  s.stability_dwell = int(p.integer("stability_dwell"));
  s.conservation_steps = int(p.integer("conservation_steps"));
  s.free_step_factor = int(p.integer("free_step_factor"));
  return s;
}

// with_qrb: the variant mbd_hopper_qrb, QRBs as a reduction during the discharge (core/mbd/qrb_dynamics,
// docs/gavrilov_qrb.md); its extra parameters and metrics leave mbd_hopper's results unchanged.
Experiment make(bool with_qrb) {
  Experiment e;
  e.name = with_qrb ? "mbd_hopper_qrb" : "mbd_hopper";
  e.description = with_qrb ? "Gavrilov 1999 G-E8 with QRBs (Sec. 5.7): hopper discharge, stable groups moved as rigid bodies"
                           : "Gavrilov 1999 G-E8: 2-D hopper discharge with the event-driven MBD model (Ch. 5)";
  e.parameters = {
      {"disks", ParamType::integer, "-", std::int64_t(500), 1.0, 5000.0, "disks in the hopper (002 l.2777)"},
      {"radius_mean", ParamType::real, "m", 0.01, 1e-4, 1.0, "disk radius / mean radius (002 l.2777)"},
      {"radius_sd_fraction", ParamType::real, "-", 0.0, 0.0, 0.3, "radius sd / mean: 0 monosized, 0.05 polysized ('variance 5 %', ledger default)"},
      {"areal_density", ParamType::real, "kg/m^2", 1190.0, 1e-3, 1e6, "planar disk density (002 l.2773)"},
      {"gravity", ParamType::real, "m/s^2", 9.8, 1e-3, 1e3, "gravitational acceleration (002 l.2773)"},
      {"width", ParamType::real, "m", 0.3, 0.02, 10.0, "hopper width W (002 l.2773)"},
      {"height", ParamType::real, "m", 0.8, 0.05, 10.0, "hopper height H from the slot plane (002 l.2773)"},
      {"orifice", ParamType::real, "m", 0.08, 0.001, 10.0, "slot width W1 (002 l.2773)"},
      {"angle_deg", ParamType::real, "deg", 60.0, 1.0, 89.0, "funnel angle alpha (002 l.2773)"},
      {"angle_from", ParamType::text, "", std::string("horizontal"), std::nullopt, std::nullopt, "alpha measured from the horizontal (ledger default) or the vertical", {"horizontal", "vertical"}},
      {"k_normal", ParamType::real, "N/m", 1.0e6, 1.0, 1e12, "disk-disk K_eta (002 l.2773)"},
      {"k_tangential", ParamType::real, "N/m", 1.0e5, 1.0, 1e12, "disk-disk K_tau (002 l.2773)"},
      {"c_normal", ParamType::real, "N s/m", 1.0e3, 0.0, 1e9, "disk-disk C_eta (002 l.2773)"},
      {"c_tangential", ParamType::real, "N s/m", 1.0e3, 0.0, 1e9, "disk-disk C_tau (002 l.2773)"},
      {"friction", ParamType::real, "-", 0.43, 0.0, 10.0, "disk-disk mu (002 l.2773)"},
      {"wall_k_normal", ParamType::real, "N/m", 1.5e6, 1.0, 1e12, "disk-wall K_eta (002 l.2775)"},
      {"wall_k_tangential", ParamType::real, "N/m", 1.5e5, 1.0, 1e12, "disk-wall K_tau (002 l.2775)"},
      {"wall_c_normal", ParamType::real, "N s/m", 1.5e3, 0.0, 1e9, "disk-wall C_eta (002 l.2775)"},
      {"wall_c_tangential", ParamType::real, "N s/m", 1.5e3, 0.0, 1e9, "disk-wall C_tau (002 l.2775)"},
      {"wall_friction", ParamType::real, "-", 0.33, 0.0, 10.0, "disk-wall mu (002 l.2775)"},
      {"step", ParamType::real, "s", 1e-5, 1e-8, 1e-2, "cluster time step (002 l.2777)"},
      {"integrator", ParamType::text, "", std::string("heun"), std::nullopt, std::nullopt, "cluster integrator: Heun (5.17-5.18, ledger default) or Euler (5.15)", {"heun", "euler"}},
      {"rotation_increment", ParamType::text, "", std::string("angle"), std::nullopt, std::nullopt, "rotation in (5.4): angle increment dphi r (thesis) or omega r h", {"angle", "omega"}},
      {"slip_tolerance_relative", ParamType::real, "-", 1e-3, 0.0, 1.0, "C_tolerance / (mu f_n) (ledger default)"},
      {"slip_tolerance_absolute", ParamType::real, "N", 1e-6, 0.0, 1e3, "C_tolerance floor (ledger default)"},
      {"stability_speed", ParamType::real, "m/s", 1e-3, 1e-9, 1e3, "C_stability of (5.10) (ledger default)"},
      {"stability_dwell", ParamType::integer, "-", std::int64_t(10), 1.0, 1e6, "steps stable before a stabilize-link event (002 l.2169)"},
      {"conservation_steps", ParamType::integer, "-", std::int64_t(10), 0.0, 1e6, "steps a split-off disk keeps the cluster step (002 l.2297, ledger default)"},
      {"free_step_factor", ParamType::integer, "-", std::int64_t(1), 1.0, 1e4, "step of a link-free disk between contact checks, in cluster steps"},
      {"end_time", ParamType::real, "s", 5.0, 0.0, 1e3, "virtual time after the slot opens (002 l.2782)"},
      {"log_interval", ParamType::real, "s", 0.005, 1e-5, 1.0, "frame interval (002 l.2784)"},
      {"rate_window", ParamType::real, "s", 0.1, 1e-3, 10.0, "moving-average window of the discharge (002 l.2794)"},
      {"jam_window", ParamType::real, "s", 0.5, 1e-3, 100.0, "no disk leaving for this long = a permanent jam (the run stops)"},
      {"near_jam_fraction", ParamType::real, "-", 0.2, 0.0, 1.0, "near-jam: moving average below this fraction of its mean (ledger G-C69)"},
      {"near_jam_duration", ParamType::real, "s", 0.1, 0.0, 10.0, "near-jam: for at least this long (ledger G-C69)"},
      {"settle_time_max", ParamType::real, "s", 1.5, 0.0, 100.0, "longest settling of the closed fill"},
      {"settle_speed", ParamType::real, "m/s", 1e-4, 1e-9, 10.0, "the fill has settled when every disk is slower"},
      {"deleted_energy", ParamType::text, "", std::string("kinetic_and_potential"), std::nullopt, std::nullopt, "energy of a deleted disk in the ledger: KE + PE (datum: slot plane) or KE only as printed (002 l.2846, ledger P10)", {"kinetic_and_potential", "kinetic"}},
      {"empty_window_min", ParamType::real, "s", 2.5, 0.0, 1e3, "G-C70: emptying time (scaled to 500 disks) at least (ledger tolerance)"},
      {"empty_window_max", ParamType::real, "s", 5.0, 0.0, 1e3, "G-C70: and at most"},
      {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 1e15, "random seed (radii, lattice jitter)"},
  };
  if (with_qrb)
    e.parameters.insert(e.parameters.end(), {
        {"qrb", ParamType::text, "", std::string("on"), std::nullopt, std::nullopt, "QRBs as rigid bodies during the discharge", {"on", "off"}},
        {"qrb_detect_interval", ParamType::integer, "-", std::int64_t(100), 1.0, 1e9, "ticks between FindQRBs runs"},
        {"qrb_check_interval", ParamType::integer, "-", std::int64_t(10), 1.0, 1e9, "ticks between internal-force solves (ungroup tests)"},
        {"qrb_book_projection", ParamType::text, "", std::string("yes"), std::nullopt, std::nullopt, "book the kinetic energy lost when a QRB's velocities are made rigid as dissipated; 'no' is a deliberate error (perturbation)", {"yes", "no"}},
        {"qrb_internal_forces", ParamType::text, "", std::string("cg"), std::nullopt, std::nullopt, "a QRB's internal link forces: the thesis's stiffness solve (002 l.2503-2606) by Jacobi-PCG or sparse Cholesky, or the minimum-norm least-squares force balance (the earlier reading)", {"cg", "cholesky", "least_squares"}},
        {"qrb_prestress", ParamType::text, "", std::string("yes"), std::nullopt, std::nullopt, "the links' present spring forces are the stiffness solve's prestress (Eq. 4.35's device); 'no': every stress from K^-1 F alone (the literal l.2503)", {"yes", "no"}},
        {"qrb_ungroup_scope", ParamType::text, "", std::string("owner_chain"), std::nullopt, std::nullopt, "a failing link dissolves its owner QRB and the owners above (002 l.2483), or the whole outermost QRB (the earlier simplification)", {"owner_chain", "outermost"}},
        {"qrb_regroup_at_once", ParamType::text, "", std::string("yes"), std::nullopt, std::nullopt, "run FindQRBs right after an Ungroup with the failing links counted as slipping (002 l.1973); 'no': the freed bodies wait for the next detection", {"yes", "no"}},
        {"qrb_supports", ParamType::text, "", std::string("tree"), std::nullopt, std::nullopt, "a fixed QRB's supports: its links to the walls inside it in the QRB tree, or every wall link of a member (the earlier reading)", {"tree", "all_walls"}},
        {"qrb_ungroup", ParamType::text, "", std::string("yes"), std::nullopt, std::nullopt, "ungroup on tension, slip or unbalanced load; 'no' is a deliberately wrong reading (perturbation)", {"yes", "no"}},
    });
  e.run = [with_qrb](const Parameters& p, RunContext& ctx) {
    using clock = std::chrono::steady_clock;
    MbdSystem sys(mbd_settings(p));
    HopperGeometry g;
    g.width = p.real("width"), g.height = p.real("height"), g.orifice = p.real("orifice");
    g.angle_deg = p.real("angle_deg"), g.angle_from_horizontal = p.text("angle_from") == "horizontal";
    const HopperSegments walls = add_hopper_walls(sys, g);
    HopperFill fill;
    fill.disks = int(p.integer("disks"));
    fill.radius_mean = p.real("radius_mean");
    fill.radius_sd_fraction = p.real("radius_sd_fraction");
    fill.areal_density = p.real("areal_density");
    fill.settle_time_max = p.real("settle_time_max");
    fill.settle_speed = p.real("settle_speed");
    fill.seed = std::uint64_t(p.integer("seed"));
    const auto t_fill = clock::now();
    const double settle = fill_hopper(sys, g, fill);
    const double fill_seconds = std::chrono::duration<double>(clock::now() - t_fill).count();

    // Initial equilibrium (G-C81): the largest net force on a disk, in disk weights, and the fill top.
    double residual = 0, top = 0, weight = 0;
    {
      const std::vector<Vec2> f = sys.net_forces();
      for (int i = 0; i < int(sys.disks().size()); ++i) {
        const Disk& d = sys.disks()[i];
        residual = std::max(residual, f[i].norm() / (d.m * p.real("gravity")));
        top = std::max(top, d.x.y() + d.r);
        weight += d.m * p.real("gravity");
      }
    }
    // Open the slot: time and events restart at 0.
    sys.remove_segment(walls.closure);
    sys.reset_events();
    std::unique_ptr<QrbDynamics> qrb;
    if (with_qrb && p.text("qrb") == "on") {
      QrbDynamicsOptions qo;
      qo.detect_interval = int(p.integer("qrb_detect_interval"));
      qo.check_interval = int(p.integer("qrb_check_interval"));
      qo.ungroup = p.text("qrb_ungroup") == "yes";
      qo.book_projection = p.text("qrb_book_projection") == "yes";
      qo.spring_prestress = p.text("qrb_prestress") == "yes";
      qo.ungroup_owner_chain = p.text("qrb_ungroup_scope") == "owner_chain";
      qo.regroup_at_once = p.text("qrb_regroup_at_once") == "yes";
      qo.supports_from_tree = p.text("qrb_supports") == "tree";
      const std::string method = p.text("qrb_internal_forces");
      qo.internal_forces = method == "least_squares" ? QrbForceMethod::least_squares
                           : method == "cholesky"    ? QrbForceMethod::cholesky
                                                     : QrbForceMethod::conjugate_gradient;
      qrb = std::make_unique<QrbDynamics>(sys, qo);
      qrb->detect();  // the settled fill, with the slot open
      qrb->check();
    }
    TimeSeries qrb_log;
    qrb_log.columns = {"t", "qrb_fraction", "qrbs"};
    double qrb_fraction_sum = 0, qrb_fraction_max = 0;
    const bool ke_only = p.text("deleted_energy") == "kinetic";
    const EnergyLedger e0 = sys.energy();
    const double t0 = sys.time(), end = p.real("end_time"), log_dt = p.real("log_interval");
    const int per_frame = std::max(1, int(std::lround(log_dt / p.real("step"))));
    const int n0 = sys.active_disks();
    DischargeFrames frames;
    TimeSeries log;
    log.columns = {"t", "remaining", "clusters", "events", "event_rate", "processing_rate", "efficiency",
                   "kinetic", "potential", "links", "deleted", "dissipated", "imbalance"};
    std::vector<double> event_rate, processing_rate, efficiency, remaining;
    double last_removal = 0, worst_imbalance = 0;
    std::uint64_t events_before = 0;
    auto frame_start = clock::now();
    const auto run_start = frame_start;
    int left = 0, right = 0;
    std::size_t seen = 0;
    bool jammed = false;
    while (sys.active_disks() > 0 && sys.time() - t0 < end - 1e-12) {
      for (int k = 0; k < per_frame; ++k) {
        sys.step();
        if (sys.delete_below(0) > 0) last_removal = sys.time() - t0;
        if (qrb) qrb->after_step();
      }
      sys.log_state();
      const auto now = clock::now();
      const double elapsed = std::chrono::duration<double>(now - frame_start).count();
      frame_start = now;
      const double t = sys.time() - t0;
      for (; seen < sys.deleted_x().size(); ++seen) (sys.deleted_x()[seen] < g.centre() ? left : right) += 1;
      frames.time.push_back(t);
      frames.removed.push_back(n0 - sys.active_disks());
      frames.left.push_back(left), frames.right.push_back(right);
      const std::uint64_t events = sys.events().total();
      const double de = double(events - events_before);
      events_before = events;
      const EnergyLedger en = sys.energy();
      const double imbalance = en.total(!ke_only) - e0.total(!ke_only);
      worst_imbalance = std::max(worst_imbalance, std::abs(imbalance));
      event_rate.push_back(de / log_dt);
      processing_rate.push_back(elapsed > 0 ? de / elapsed : nan);
      efficiency.push_back(elapsed > 0 ? log_dt / elapsed : nan);
      remaining.push_back(sys.active_disks());
      log.rows.push_back({t, double(sys.active_disks()), double(sys.clusters().size()), de, de / log_dt,
                          processing_rate.back(), efficiency.back(), en.kinetic, en.potential, en.links,
                          en.deleted_kinetic + (ke_only ? 0.0 : en.deleted_potential), en.dissipated, imbalance});
      if (ctx.progress) ctx.progress(std::min(1.0, t / end));
      if (qrb) {
        const double fraction = sys.active_disks() > 0 ? double(qrb->disks_in_qrbs()) / sys.active_disks() : 0.0;
        qrb_log.rows.push_back({t, fraction, double(qrb->groups())});
        qrb_fraction_sum += fraction, qrb_fraction_max = std::max(qrb_fraction_max, fraction);
      }
      if (t - last_removal >= p.real("jam_window")) {
        jammed = true;
        break;
      }
    }
    const double run_seconds = std::chrono::duration<double>(clock::now() - run_start).count();
    const double virtual_time = sys.time() - t0;
    const DischargeStats st =
        discharge_stats(frames, p.real("rate_window"), p.real("near_jam_fraction"), p.real("near_jam_duration"));
    // Correlations over the flowing period only (NaN for a run that jams before it flows for one window).
    std::vector<double> flow_events, flow_rate, flow_efficiency, flow_processing, flow_remaining;
    for (std::size_t i = 0; i < st.flowing.size(); ++i)
      if (st.flowing[i]) {
        flow_events.push_back(event_rate[i]), flow_rate.push_back(st.rate[i]);
        flow_efficiency.push_back(efficiency[i]), flow_processing.push_back(processing_rate[i]);
        flow_remaining.push_back(remaining[i]);
      }
    const EnergyLedger en = sys.energy();
    const double released = (e0.potential) - (en.potential + en.deleted_potential);
    const auto& ev = sys.events();

    RunResult r;
    auto& m = r.metrics;
    m["fill_settle_time"] = settle;
    m["fill_seconds"] = fill_seconds;
    m["fill_top"] = top;
    m["fill_residual_weights"] = residual;
    m["initial_disks"] = n0;
    m["removed"] = n0 - sys.active_disks();
    m["emptied"] = sys.active_disks() == 0 ? 1 : 0;
    m["empty_time"] = sys.active_disks() == 0 ? virtual_time : nan;
    // G-C70 at any scale: the emptying time extrapolated to the thesis's 500 disks at the same mean rate.
    const double empty_500 = sys.active_disks() == 0 ? virtual_time * 500.0 / n0 : nan;
    m["empty_time_for_500"] = empty_500;
    m["emptied_in_window"] = empty_500 >= p.real("empty_window_min") && empty_500 <= p.real("empty_window_max") ? 1 : 0;
    // G-C66: the run reached one of its ends (empty, end_time, permanent jam) without an instability.
    m["reached_end"] = (sys.active_disks() == 0 || jammed || virtual_time >= end - 1e-9) ? 1 : 0;
    m["jammed"] = jammed ? 1 : 0;
    m["last_removal_time"] = last_removal;
    m["virtual_time"] = virtual_time;
    m["mean_rate"] = st.mean_rate;
    m["rate_cv"] = st.rate_cv;
    m["near_jams"] = st.near_jams;
    m["left_right_sign_changes"] = st.sign_changes;
    m["events_total"] = double(ev.total());
    m["events_per_virtual_s"] = virtual_time > 0 ? ev.total() / virtual_time : nan;
    m["events_per_elapsed_s"] = run_seconds > 0 ? ev.total() / run_seconds : nan;
    for (int k = 0; k < event_type_count; ++k) m["events_" + std::string(event_type_names[k])] = double(ev.n[k]);
    m["event_discharge_pearson"] = pearson(flow_events, flow_rate);
    m["efficiency_remaining_spearman"] = spearman(flow_efficiency, flow_remaining);
    m["processing_remaining_spearman"] = spearman(flow_processing, flow_remaining);
    m["initial_efficiency"] = efficiency.empty() ? nan : efficiency.front();
    m["mean_efficiency"] = run_seconds > 0 ? virtual_time / run_seconds : nan;
    m["energy_released"] = released;
    m["energy_imbalance_ratio"] = released > 0 ? worst_imbalance / released : nan;
    m["state_size_per_body"] = sys.state_size_per_body();
    m["run_seconds"] = run_seconds;
    m["frames"] = double(frames.time.size());
    m["log_interval_used"] = per_frame * p.real("step");
    r.series["log"] = std::move(log);
    TimeSeries rate;
    rate.columns = {"t", "rate", "left_minus_right"};
    for (std::size_t i = 0; i < frames.time.size(); ++i) rate.rows.push_back({frames.time[i], st.rate[i], st.left_minus_right[i]});
    r.series["discharge"] = std::move(rate);
    if (with_qrb) {
      m["seconds_per_virtual_s"] = virtual_time > 0 ? run_seconds / virtual_time : nan;
      m["qrb_fraction_mean"] = frames.time.empty() ? 0.0 : qrb_fraction_sum / double(frames.time.size());
      m["qrb_fraction_max"] = qrb_fraction_max;
      m["qrb_groupings"] = qrb ? double(qrb->groupings()) : 0.0;
      m["qrb_dissolutions"] = qrb ? double(qrb->dissolutions()) : 0.0;
      if (qrb) r.series["qrb"] = std::move(qrb_log);
    }
    return r;
  };
  return e;
}

const ExperimentRegistration registration{make(false)};
const ExperimentRegistration registration_qrb{make(true)};

}  // namespace
}  // namespace grainlab
