// Experiment mbd_qrb_checks: Gavrilov 1999 quasi-rigid bodies (QRBs) on real contact networks and the
// hierarchical-graph primitives (seed 002 l.1620-1802, 1896-1906, 1946-1996, 2403-2500; ledger
// ../shared/claims/gavrilov.md G-E9, claims G-C58, G-C59, G-C82; docs/gavrilov_qrb.md).
//   check = "hgraph": random hierarchies (random InsertLink / Group / Ungroup); after every operation the
//     structure is audited against InsertLink, and every Group is undone by Ungroup once to test the
//     identity. Reports `violations` (faults found) over `operations`. perturb: Ungroup without re-attaching
//     the peer links (the PDF-split reading of l.1786-1793).
//   check = "silo": the G-E5 quasi-static silo (core/quasistatic/silo_fill) filled disk by disk; after every
//     disk FindQRBs runs on the stable links of the settled network (stable: compressive and below the
//     Coulomb limit by `slip_margin`), every `exact_every` disks (and at the end) the templates are compared
//     with the exact rigid clusters (core/mbd/rigid_clusters). Between two disks the new contacts between
//     already placed disks are matched against the previous QRBs (a link born inside a QRB, the "loop"
//     of G-C58); `inserts_inside_intact` counts those whose QRB lost no link and had no slide meanwhile.
//   check = "hopper": helper F's MBD hopper (core/mbd/hopper, thesis settings and ledger G-E8 defaults):
//     the closed fill settled, then snapshots every `hopper_interval` s of discharge; the same comparison on
//     the links the MBD marks stable (5.10, not slipping). (Links born inside QRBs are not counted here:
//     the QRBs of F's engine are not rigid bodies yet, so they break between snapshots.)
//     `template_links` = 1, `triangle_template` = false and `use_stability` = false are the deliberately wrong
//     variants for perturbations.
#include <algorithm>
#include <limits>
#include <map>
#include <random>

#include "core/error.hpp"
#include "core/mbd/hgraph.hpp"
#include "core/mbd/hopper.hpp"
#include "core/mbd/qrb_audit.hpp"
#include "core/mbd/qrb_templates.hpp"
#include "core/quasistatic/silo_fill.hpp"
#include "experiments/experiment.hpp"

namespace grainlab {
namespace {

using namespace mbd;
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// G-C59: property test on random hierarchies.
RunResult hgraph_properties(std::uint64_t seed, int trials, bool perturb) {
  std::mt19937_64 rng(seed);
  int violations = 0, operations = 0, groups = 0, ungroups = 0, max_depth = 0;
  for (int trial = 0; trial < trials; ++trial) {
    HierarchicalGraph g;
    const int root = g.add_graph();
    std::vector<int> atoms;
    const int n = 10 + int(rng() % 30);
    for (int i = 0; i < n; ++i) atoms.push_back(g.add_atom(rng() % 6 == 0, root));
    for (int op = 0; op < 8 * n; ++op, ++operations) {
      const int kind = int(rng() % 4);
      if (kind == 0) {
        const int a = atoms[rng() % atoms.size()], b = atoms[rng() % atoms.size()];
        if (a != b) g.add_link(a, b);
      } else {
        std::vector<int> graphs;
        for (int v = 0; v < g.nodes(); ++v)
          if (g.alive(v) && !g.is_atom(v) && !g.members(v).empty()) graphs.push_back(v);
        const int h = graphs[rng() % graphs.size()];
        if (kind == 3 && h != root) {
          g.ungroup(h, !perturb);
          ++ungroups;
        } else {
          std::vector<int> m = g.members(h);
          std::shuffle(m.begin(), m.end(), rng);
          m.resize(1 + rng() % m.size());
          std::vector<int> owners;
          for (int v = 0; v < g.nodes(); ++v) owners.push_back(g.owner(v));
          std::vector<HLink> before;
          for (int l = 0; l < g.links(); ++l) before.push_back(g.link(l));
          const int h1 = g.group(m);
          ++groups;
          max_depth = std::max(max_depth, g.depth(h1));
          if (kind == 1) {  // Ungroup(Group(S)) must restore every owner and attachment
            g.ungroup(h1, !perturb);
            ++ungroups;
            for (int v = 0; v < int(owners.size()); ++v) violations += g.owner(v) != owners[std::size_t(v)];
            for (int l = 0; l < g.links(); ++l)
              violations += g.link(l).owner != before[std::size_t(l)].owner ||
                            g.link(l).member1 != before[std::size_t(l)].member1 ||
                            g.link(l).member2 != before[std::size_t(l)].member2;
          }
        }
      }
      if (!g.audit().empty()) {  // count the fault, continue on a fresh hierarchy
        ++violations;
        break;
      }
    }
  }
  RunResult out;
  out.metrics = {{"violations", double(violations)}, {"operations", double(operations)}, {"groups", double(groups)},
                 {"ungroups", double(ungroups)}, {"max_depth", double(max_depth)}};
  return out;
}

// One settled silo as a body network: disks (free), then the three walls (fixed); active links only.
struct SiloNetwork {
  std::vector<quasistatic::RigidBody> bodies;
  std::vector<quasistatic::ContactLink> links;
  std::vector<char> stable;
  std::vector<int> truss_link;  ///< per network link: the truss link index
};

SiloNetwork silo_network(const quasistatic::SiloFill& f, double slip_margin) {
  SiloNetwork n;
  const int disks = int(f.disks().size());
  for (int i = 0; i < disks; ++i) n.bodies.push_back({f.position(i), false});
  for (int w = 0; w < 3; ++w) n.bodies.push_back({Eigen::Vector2d(0, 0), true});
  const auto& links = f.truss().links();
  for (int k = 0; k < int(links.size()); ++k) {
    const quasistatic::Link& l = links[std::size_t(k)];
    if (!l.active) continue;
    const int b = l.b == quasistatic::fixed_node ? disks + l.wall : l.b;
    n.links.push_back({l.a, b, f.contact_point(l)});
    const quasistatic::LinkStress s = f.truss().stress(l, f.displacements());
    n.stable.push_back(s.normal > 0 && std::abs(s.tangential) < (1 - slip_margin) * l.spring.friction * s.normal);
    n.truss_link.push_back(k);
  }
  return n;
}

// The outermost QRB of each body after FindQRBs on the network's stable links (-1: none).
std::vector<int> qrb_labels(const SiloNetwork& net, const QrbOptions& options) {
  NetworkGraph g = network_graph(net.bodies, net.links);
  std::vector<char> stable(std::size_t(g.graph.links()), 0), is_qrb;
  for (std::size_t k = 0; k < net.links.size(); ++k) stable[std::size_t(g.link[k])] = net.stable[k];
  find_qrbs(g.graph, g.container, stable, is_qrb, options);
  std::vector<int> label(net.bodies.size(), -1);
  for (std::size_t i = 0; i < net.bodies.size(); ++i) label[i] = outermost_qrb(g.graph, g.container, g.atom[i], is_qrb);
  return label;
}

QrbOptions qrb_options(const Parameters& p) {
  QrbOptions options;
  options.hamburger_links = int(p.integer("template_links"));
  options.use_stability = p.boolean("use_stability");
  options.triangles = p.boolean("triangle_template");
  options.block_on_slipping = p.boolean("block_on_slipping");
  return options;
}

// Per-snapshot comparison totals, shared by the silo and the hopper.
struct Tally {
  int snapshots = 0;
  double not_rigid = 0, split = 0, unstable_inside = 0, missed_max = 0, missed_sum = 0, rigid = 0, missed = 0;
  double missed_unblocked = 0;
  TimeSeries series;
  explicit Tally(const char* at) : series{{at, "rigid_disks", "missed_disks", "disks_in_qrbs", "qrbs", "max_depth", "stable_fraction"}, {}} {}
  QrbAudit last;
  double last_stable_fraction = 0;
  void add(double time, const QrbAudit& a, std::size_t links) {
    last = a;
    ++snapshots;
    not_rigid += a.not_rigid_qrbs;
    split += a.split_qrbs;
    unstable_inside += a.unstable_inside;
    missed_max = std::max(missed_max, a.missed_fraction());
    missed_sum += a.missed_fraction();
    rigid += a.rigid_disks;
    missed += a.missed_disks;
    missed_unblocked += a.missed_disks_unblocked;
    last_stable_fraction = double(a.stable_links) / std::max<double>(1, double(links));
    series.rows.push_back({time, double(a.rigid_disks), double(a.missed_disks), double(a.disks_in_qrbs), double(a.qrbs),
                           double(a.max_depth), last_stable_fraction});
  }
  void write(RunResult& out) const {
    out.series["snapshots"] = series;
    out.metrics["exact_snapshots"] = snapshots;
    out.metrics["stable_fraction"] = last_stable_fraction;
    out.metrics["qrbs"] = last.qrbs;
    out.metrics["fixed_qrbs"] = last.fixed_qrbs;
    out.metrics["disks_in_qrbs"] = last.disks_in_qrbs;
    out.metrics["rigid_disks"] = last.rigid_disks;
    out.metrics["missed_fraction"] = last.missed_fraction();
    out.metrics["missed_fraction_max"] = missed_max;
    out.metrics["missed_fraction_mean"] = snapshots ? missed_sum / snapshots : nan;
    out.metrics["missed_fraction_pooled"] = rigid > 0 ? missed / rigid : 0.0;
    out.metrics["missed_unblocked_pooled"] = rigid > 0 ? missed_unblocked / rigid : 0.0;
    out.metrics["not_rigid_qrbs"] = not_rigid;
    out.metrics["split_qrbs"] = split;
    out.metrics["unstable_inside"] = unstable_inside;
    out.metrics["hamburgers"] = last.counts.hamburgers;
    out.metrics["triangles"] = last.counts.triangles;
    out.metrics["loops"] = last.counts.loops;
    out.metrics["max_depth"] = last.max_depth;
  }
};

// One MBD state as a body network: active disks (free), then the active boundary segments (fixed).
SiloNetwork hopper_network(const MbdSystem& sys, std::vector<int>& body_of_disk) {
  SiloNetwork n;
  body_of_disk.assign(sys.disks().size(), -1);
  for (std::size_t i = 0; i < sys.disks().size(); ++i)
    if (sys.disks()[i].active) body_of_disk[i] = int(n.bodies.size()), n.bodies.push_back({sys.disks()[i].x, false});
  std::vector<int> body_of_segment(sys.segments().size(), -1);
  for (std::size_t k = 0; k < sys.segments().size(); ++k) {
    const Segment& sg = sys.segments()[k];
    if (sg.active) body_of_segment[k] = int(n.bodies.size()), n.bodies.push_back({0.5 * (sg.a + sg.b), true});
  }
  for (const mbd::Link& l : sys.links()) {
    const Disk& a = sys.disks()[std::size_t(l.a)];
    int b = -1;
    Vec2 point;
    if (l.is_wall()) {
      b = body_of_segment[std::size_t(l.segment())];
      point = sys.segments()[std::size_t(l.segment())].closest(a.x);
    } else {
      b = body_of_disk[std::size_t(l.b)];
      point = a.x + a.r * (sys.disks()[std::size_t(l.b)].x - a.x).normalized();
    }
    if (body_of_disk[std::size_t(l.a)] < 0 || b < 0) continue;
    n.links.push_back({body_of_disk[std::size_t(l.a)], b, point});
    n.stable.push_back(l.stable && !l.slipping);
  }
  return n;
}

RunResult hopper_qrbs(const Parameters& p, RunContext& ctx) {
  const QrbOptions options = qrb_options(p);
  MbdSettings settings;  // the thesis's link and step settings (002 l.2773-2777), F's ledger defaults
  settings.stability_speed = p.real("stability_speed");
  MbdSystem sys(settings);
  const HopperGeometry g;        // W = 0.3, H = 0.8, W1 = 0.08 m, alpha = 60 deg from the horizontal
  const HopperSegments walls = add_hopper_walls(sys, g);
  HopperFill fill;
  fill.disks = int(p.integer("hopper_disks"));
  fill.radius_sd_fraction = p.real("radius_sd_fraction");
  fill.seed = std::uint64_t(p.integer("seed"));
  fill_hopper(sys, g, fill);
  const int snapshots = int(p.integer("hopper_snapshots"));
  const int ticks = std::max(1, int(std::lround(p.real("hopper_interval") / sys.settings().step)));
  Tally tally("t");
  for (int k = 0; k <= snapshots && sys.active_disks() > 0; ++k) {
    if (k == 1) sys.remove_segment(walls.closure);  // the slot opens after the first snapshot
    if (k >= 1)
      for (int t = 0; t < ticks; ++t) {
        sys.step();
        sys.delete_below(0);
      }
    std::vector<int> body_of_disk;
    const SiloNetwork net = hopper_network(sys, body_of_disk);
    tally.add(k * p.real("hopper_interval"), audit_templates(net.bodies, net.links, net.stable, options), net.links.size());
    if (ctx.progress) ctx.progress(double(k + 1) / (snapshots + 1));
  }
  RunResult out;
  tally.write(out);
  out.metrics["disks_placed"] = fill.disks;
  return out;
}

RunResult silo_qrbs(const Parameters& p, RunContext& ctx) {
  quasistatic::SiloSettings s;
  s.width = p.real("width");
  s.height = p.real("height");
  s.disks = int(p.integer("disks"));
  s.seed = std::uint64_t(p.integer("seed"));
  s.drop_half_width = p.real("drop_half_width");
  const QrbOptions options = qrb_options(p);
  const double slip_margin = p.real("slip_margin");
  const int exact_every = int(p.integer("exact_every"));

  quasistatic::SiloFill fill(s);
  std::vector<int> qrb_of_disk;  // outermost QRB per disk after the previous disk (-1: none)
  // per QRB label of the previous disk: its internal truss links and their slide counts then
  std::map<int, std::vector<std::pair<int, int>>> internal_links;
  int placed = 0;
  double inserts_inside = 0, inserts_intact = 0, old_connects = 0;
  Tally tally("disks");
  std::size_t links_before = 0;
  while (fill.add_disk()) {
    ++placed;
    const int disks = int(fill.disks().size());
    // contacts created while this disk settled, between two disks placed before it
    const auto& links = fill.truss().links();
    for (std::size_t k = links_before; k < links.size(); ++k) {
      const quasistatic::Link& l = links[k];
      if (l.b == quasistatic::fixed_node || l.a == disks - 1 || l.b == disks - 1) continue;
      ++old_connects;
      if (l.a < int(qrb_of_disk.size()) && l.b < int(qrb_of_disk.size()) && qrb_of_disk[std::size_t(l.a)] >= 0 &&
          qrb_of_disk[std::size_t(l.a)] == qrb_of_disk[std::size_t(l.b)]) {
        ++inserts_inside;
        // intact: none of the QRB's links was removed or slid while this disk settled (else the thesis
        // would have disintegrated the QRB first, and the new link is legal)
        bool intact = true;
        for (const auto& [link, slides] : internal_links[qrb_of_disk[std::size_t(l.a)]])
          intact = intact && links[std::size_t(link)].active && links[std::size_t(link)].slides == slides;
        inserts_intact += intact;
      }
    }
    links_before = links.size();
    const SiloNetwork net = silo_network(fill, slip_margin);
    qrb_of_disk = qrb_labels(net, options);
    internal_links.clear();
    for (std::size_t k = 0; k < net.links.size(); ++k) {
      const int la = qrb_of_disk[std::size_t(net.links[k].a)], lb = qrb_of_disk[std::size_t(net.links[k].b)];
      if (la >= 0 && la == lb) internal_links[la].emplace_back(net.truss_link[k], links[std::size_t(net.truss_link[k])].slides);
    }
    qrb_of_disk.resize(std::size_t(disks));  // the walls' labels dropped
    if (placed % exact_every == 0 || placed == s.disks)
      tally.add(placed, audit_templates(net.bodies, net.links, net.stable, options), net.links.size());
    if (ctx.progress) ctx.progress(double(placed) / s.disks);
  }
  if (placed == 0) throw InputError("mbd_qrb_checks: no disk placed (silo too small for 'disks')");
  if (placed % exact_every != 0 && placed != s.disks) {  // a full silo ended the filling early: judge its end too
    const SiloNetwork net = silo_network(fill, slip_margin);
    tally.add(placed, audit_templates(net.bodies, net.links, net.stable, options), net.links.size());
  }
  RunResult out;
  tally.write(out);
  out.metrics["disks_placed"] = placed;
  out.metrics["old_connects"] = old_connects;
  out.metrics["inserts_inside_qrbs"] = inserts_inside;
  out.metrics["inserts_inside_intact"] = inserts_intact;
  return out;
}

Experiment make() {
  Experiment e;
  e.name = "mbd_qrb_checks";
  e.description = "Gavrilov 1999 QRBs: H-graph primitives on random hierarchies; template QRB detection vs exact rigidity on G-E5 silo networks";
  e.parameters = {
      {"check", ParamType::text, "", std::string("silo"), std::nullopt, std::nullopt, "which check", {"hgraph", "silo", "hopper"}},
      {"perturb", ParamType::boolean, "-", false, std::nullopt, std::nullopt, "hgraph: Ungroup without re-attaching peer links (deliberately wrong)"},
      {"trials", ParamType::integer, "-", std::int64_t(40), 1.0, 1e6, "hgraph: random hierarchies"},
      {"seed", ParamType::integer, "-", std::int64_t(1), 0.0, 1e15, "random seed (hierarchies; silo radii and drop points)"},
      {"width", ParamType::real, "m", 0.3, 0.02, 10.0, "silo width (002 l.1478)"},
      {"height", ParamType::real, "m", 1.0, 0.05, 10.0, "silo height (002 l.1478)"},
      {"disks", ParamType::integer, "-", std::int64_t(500), 1.0, 5000.0, "disks dropped (002 l.1478)"},
      {"drop_half_width", ParamType::real, "m", 0.02, 0.0, 10.0, "drop x uniform in centre +- this (ledger G-E5 default)"},
      {"slip_margin", ParamType::real, "-", 1e-6, 0.0, 0.99, "a link is stable when |s_tau| < (1 - this) mu s_eta and s_eta > 0"},
      {"exact_every", ParamType::integer, "-", std::int64_t(10), 1.0, 1e6, "disks between exact-rigidity comparisons (and after the last)"},
      {"template_links", ParamType::integer, "-", std::int64_t(2), 1.0, 2.0, "links that make a hamburger (1: deliberately wrong template)"},
      {"triangle_template", ParamType::boolean, "-", true, std::nullopt, std::nullopt, "false: hamburger templates only (deliberately incomplete)"},
      {"hopper_disks", ParamType::integer, "-", std::int64_t(500), 1.0, 5000.0, "hopper: disks (002 l.2777)"},
      {"radius_sd_fraction", ParamType::real, "-", 0.05, 0.0, 0.3, "hopper: radius sd / mean (0 monosized, 0.05 polysized, ledger default)"},
      {"hopper_snapshots", ParamType::integer, "-", std::int64_t(5), 0.0, 1e4, "hopper: snapshots after the settled closed fill"},
      {"hopper_interval", ParamType::real, "s", 0.1, 1e-5, 100.0, "hopper: discharge time between snapshots"},
      {"block_on_slipping", ParamType::boolean, "-", true, std::nullopt, std::nullopt, "a slipping link between two nodes of a template blocks it (002 l.1994); false: diagnostic"},
      {"stability_speed", ParamType::real, "m/s", MbdSettings{}.stability_speed, 1e-9, 1e3, "hopper: C_stability of (5.10) (ledger default; P22 suggests a decade sweep)"},
      {"use_stability", ParamType::boolean, "-", true, std::nullopt, std::nullopt, "false: slipping links count as stable (deliberately wrong)"},
  };
  e.run = [](const Parameters& p, RunContext& ctx) {
    const std::string& check = p.text("check");
    RunResult out = check == "hgraph" ? hgraph_properties(std::uint64_t(p.integer("seed")), int(p.integer("trials")), p.boolean("perturb"))
                    : check == "hopper" ? hopper_qrbs(p, ctx)
                                        : silo_qrbs(p, ctx);
    for (const char* m : {"violations", "operations", "groups", "ungroups", "max_depth", "disks_placed", "exact_snapshots",
                          "stable_fraction", "qrbs", "fixed_qrbs", "disks_in_qrbs", "rigid_disks", "missed_fraction",
                          "missed_fraction_max", "missed_fraction_mean", "missed_fraction_pooled", "missed_unblocked_pooled", "inserts_inside_intact", "not_rigid_qrbs", "split_qrbs", "unstable_inside",
                          "hamburgers", "triangles", "loops", "old_connects", "inserts_inside_qrbs", "inserts_inside_intact", "missed_unblocked_pooled"})
      out.metrics.emplace(m, nan);  // one metric set for both checks (NaN where it does not apply)
    return out;
  };
  return e;
}

const ExperimentRegistration registration{make()};

}  // namespace
}  // namespace grainlab
