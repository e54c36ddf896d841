#include "core/mbd/qrb_audit.hpp"

#include <algorithm>
#include <set>

#include "core/error.hpp"
#include "core/mbd/rigid_clusters.hpp"

namespace grainlab::mbd {

NetworkGraph network_graph(const std::vector<quasistatic::RigidBody>& bodies,
                           const std::vector<quasistatic::ContactLink>& links) {
  NetworkGraph n;
  n.container = n.graph.add_graph();
  for (const auto& b : bodies) n.atom.push_back(n.graph.add_atom(b.fixed, n.container));
  for (const auto& l : links) n.link.push_back(n.graph.add_link(n.atom[std::size_t(l.a)], n.atom[std::size_t(l.b)]));
  return n;
}

QrbAudit audit_templates(const std::vector<quasistatic::RigidBody>& bodies,
                         const std::vector<quasistatic::ContactLink>& links, const std::vector<char>& stable,
                         const QrbOptions& options) {
  if (stable.size() != links.size()) throw InputError("audit_templates: one stable flag per link needed");
  QrbAudit out;
  NetworkGraph n = network_graph(bodies, links);
  std::vector<int> body_of_atom(std::size_t(n.graph.nodes()), -1), contact_of_link(links.size(), -1);
  for (std::size_t i = 0; i < bodies.size(); ++i) body_of_atom[std::size_t(n.atom[i])] = int(i);
  std::vector<char> stable_by_link(std::size_t(n.graph.links()), 0);
  for (std::size_t k = 0; k < links.size(); ++k) {
    stable_by_link[std::size_t(n.link[k])] = stable[k];
    contact_of_link[std::size_t(n.link[k])] = int(k);
  }
  std::vector<char> is_qrb;
  const QrbDetection found = find_qrbs(n.graph, n.container, stable_by_link, is_qrb, options);
  out.counts = found.counts;
  out.unstable_inside = int(unstable_links_in_qrbs(n.graph, is_qrb, stable_by_link).size());

  // Exact rigid clusters of the stable links.
  std::vector<quasistatic::ContactLink> stable_links;
  for (std::size_t k = 0; k < links.size(); ++k)
    if (stable[k]) stable_links.push_back(links[k]);
  out.stable_links = int(stable_links.size());
  const RigidClusters exact = rigid_clusters(bodies, stable_links);
  std::vector<int> size(std::size_t(exact.labels), 0);
  for (std::size_t i = 0; i < bodies.size(); ++i)
    if (!bodies[i].fixed) ++size[std::size_t(exact.label[i])], ++out.free_bodies;

  // Each QRB on its own: its bodies and the links inside it (at any depth), by the rank test.
  for (int h : found.created) {
    std::vector<quasistatic::RigidBody> b;
    std::vector<int> local(bodies.size(), -1);
    for (int a : n.graph.atoms_of(h)) {
      const int i = body_of_atom[std::size_t(a)];
      local[std::size_t(i)] = int(b.size());
      b.push_back(bodies[std::size_t(i)]);
    }
    std::vector<quasistatic::ContactLink> l;
    for (int x : n.graph.links_within(h)) {
      const auto& c = links[std::size_t(contact_of_link[std::size_t(x)])];
      l.push_back({local[std::size_t(c.a)], local[std::size_t(c.b)], c.point});
    }
    const bool fixed = std::any_of(b.begin(), b.end(), [](const auto& x) { return x.fixed; });
    if (quasistatic::degrees_of_freedom(b, l) != (fixed ? 0 : 3)) ++out.not_rigid_qrbs;
    out.max_depth = std::max(out.max_depth, n.graph.depth(h) - n.graph.depth(n.container));
  }
  for (int m : n.graph.members(n.container)) {
    if (n.graph.is_atom(m) || !is_qrb[std::size_t(m)]) continue;
    ++out.qrbs;
    std::set<int> labels;
    bool fixed = false;
    for (int a : n.graph.atoms_of(m)) {
      const int i = body_of_atom[std::size_t(a)];
      if (bodies[std::size_t(i)].fixed) fixed = true;
      else labels.insert(exact.label[std::size_t(i)]), ++out.disks_in_qrbs;
    }
    out.fixed_qrbs += fixed;
    if (labels.size() > 1 || (fixed && !labels.empty() && *labels.begin() != 0)) ++out.split_qrbs;
  }
  QrbOptions unblocked = options;
  unblocked.block_on_slipping = false;
  NetworkGraph u = network_graph(bodies, links);
  std::vector<char> u_is_qrb;
  find_qrbs(u.graph, u.container, stable_by_link, u_is_qrb, unblocked);  // same link ids: built in the same order
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    if (bodies[i].fixed) continue;
    const int label = exact.label[i];
    if (label != 0 && size[std::size_t(label)] < 2) continue;
    ++out.rigid_disks;
    if (outermost_qrb(n.graph, n.container, n.atom[i], is_qrb) == no_node) ++out.missed_disks;
    if (outermost_qrb(u.graph, u.container, u.atom[i], u_is_qrb) == no_node) ++out.missed_disks_unblocked;
  }
  return out;
}

}  // namespace grainlab::mbd
