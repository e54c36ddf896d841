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
//     already placed disks are matched against the previous QRBs (a link born inside a QRB, G-C82).
//     `template_links` = 1, `triangle_template` = false and `use_stability` = false are the deliberately wrong
//     variants for perturbations.
#include <algorithm>
#include <limits>
#include <random>

#include "core/error.hpp"
#include "core/mbd/hgraph.hpp"
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

RunResult silo_qrbs(const Parameters& p, RunContext& ctx) {
  quasistatic::SiloSettings s;
  s.width = p.real("width");
  s.height = p.real("height");
  s.disks = int(p.integer("disks"));
  s.seed = std::uint64_t(p.integer("seed"));
  s.drop_half_width = p.real("drop_half_width");
  QrbOptions options;
  options.hamburger_links = int(p.integer("template_links"));
  options.use_stability = p.boolean("use_stability");
  options.triangles = p.boolean("triangle_template");
  const double slip_margin = p.real("slip_margin");
  const int exact_every = int(p.integer("exact_every"));

  quasistatic::SiloFill fill(s);
  std::vector<int> qrb_of_disk;  // outermost QRB per disk after the previous disk (-1: none)
  int placed = 0, exact_snapshots = 0;
  double inserts_inside = 0, old_connects = 0, not_rigid = 0, split = 0, unstable_inside = 0;
  double missed_max = 0, missed_sum = 0, rigid_total = 0, missed_total = 0;
  TimeSeries snapshots{{"disks", "rigid_disks", "missed_disks", "disks_in_qrbs", "qrbs", "max_depth", "stable_fraction"}, {}};
  QrbAudit last;
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
          qrb_of_disk[std::size_t(l.a)] == qrb_of_disk[std::size_t(l.b)])
        ++inserts_inside;
    }
    links_before = links.size();
    const SiloNetwork net = silo_network(fill, slip_margin);
    NetworkGraph g = network_graph(net.bodies, net.links);
    std::vector<char> stable(std::size_t(g.graph.links()), 0), is_qrb;
    for (std::size_t k = 0; k < net.links.size(); ++k) stable[std::size_t(g.link[k])] = net.stable[k];
    find_qrbs(g.graph, g.container, stable, is_qrb, options);
    qrb_of_disk.assign(std::size_t(disks), -1);
    for (int i = 0; i < disks; ++i) qrb_of_disk[std::size_t(i)] = outermost_qrb(g.graph, g.container, g.atom[std::size_t(i)], is_qrb);
    const bool last_disk = placed == s.disks;
    if (placed % exact_every == 0 || last_disk) {
      last = audit_templates(net.bodies, net.links, net.stable, options);
      ++exact_snapshots;
      not_rigid += last.not_rigid_qrbs;
      split += last.split_qrbs;
      unstable_inside += last.unstable_inside;
      missed_max = std::max(missed_max, last.missed_fraction());
      missed_sum += last.missed_fraction();
      rigid_total += last.rigid_disks;
      missed_total += last.missed_disks;
      snapshots.rows.push_back({double(placed), double(last.rigid_disks), double(last.missed_disks), double(last.disks_in_qrbs),
                                double(last.qrbs), double(last.max_depth),
                                double(last.stable_links) / std::max<double>(1, double(net.links.size()))});
    }
    if (ctx.progress) ctx.progress(double(placed) / s.disks);
  }
  if (exact_snapshots == 0) throw InputError("mbd_qrb_checks: no disk placed (silo too small for 'disks')");
  // the final snapshot once more, after the last disk (the loop may end early on a full silo)
  const SiloNetwork net = silo_network(fill, slip_margin);
  last = audit_templates(net.bodies, net.links, net.stable, options);
  RunResult out;
  out.series["snapshots"] = snapshots;
  out.metrics = {
      {"disks_placed", double(placed)},
      {"exact_snapshots", double(exact_snapshots)},
      {"stable_fraction", double(last.stable_links) / std::max<double>(1, double(net.links.size()))},
      {"qrbs", double(last.qrbs)},
      {"fixed_qrbs", double(last.fixed_qrbs)},
      {"disks_in_qrbs", double(last.disks_in_qrbs)},
      {"rigid_disks", double(last.rigid_disks)},
      {"missed_fraction", last.missed_fraction()},
      {"missed_fraction_max", std::max(missed_max, last.missed_fraction())},
      {"missed_fraction_mean", missed_sum / exact_snapshots},
      {"missed_fraction_pooled", rigid_total > 0 ? missed_total / rigid_total : 0.0},
      {"not_rigid_qrbs", not_rigid},
      {"split_qrbs", split},
      {"unstable_inside", unstable_inside},
      {"hamburgers", double(last.counts.hamburgers)},
      {"triangles", double(last.counts.triangles)},
      {"loops", double(last.counts.loops)},
      {"max_depth", double(last.max_depth)},
      {"old_connects", old_connects},
      {"inserts_inside_qrbs", inserts_inside},
  };
  return out;
}

Experiment make() {
  Experiment e;
  e.name = "mbd_qrb_checks";
  e.description = "Gavrilov 1999 QRBs: H-graph primitives on random hierarchies; template QRB detection vs exact rigidity on G-E5 silo networks";
  e.parameters = {
      {"check", ParamType::text, "", std::string("silo"), std::nullopt, std::nullopt, "which check", {"hgraph", "silo"}},
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
      {"use_stability", ParamType::boolean, "-", true, std::nullopt, std::nullopt, "false: slipping links count as stable (deliberately wrong)"},
  };
  e.run = [](const Parameters& p, RunContext& ctx) {
    RunResult out = p.text("check") == "hgraph"
                        ? hgraph_properties(std::uint64_t(p.integer("seed")), int(p.integer("trials")), p.boolean("perturb"))
                        : silo_qrbs(p, ctx);
    for (const char* m : {"violations", "operations", "groups", "ungroups", "max_depth", "disks_placed", "exact_snapshots",
                          "stable_fraction", "qrbs", "fixed_qrbs", "disks_in_qrbs", "rigid_disks", "missed_fraction",
                          "missed_fraction_max", "missed_fraction_mean", "missed_fraction_pooled", "not_rigid_qrbs", "split_qrbs", "unstable_inside",
                          "hamburgers", "triangles", "loops", "old_connects", "inserts_inside_qrbs"})
      out.metrics.emplace(m, nan);  // one metric set for both checks (NaN where it does not apply)
    return out;
  };
  return e;
}

const ExperimentRegistration registration{make()};

}  // namespace
}  // namespace grainlab
