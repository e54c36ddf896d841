#include "core/mbd/qrb_templates.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>

#include "core/error.hpp"

namespace grainlab::mbd {
namespace {

constexpr int ground = -2;  // all fixed members seen as one node

struct Candidate {
  int disks = 0, kind = 0;             // kind: 0 loop, 1 hamburger, 2 triangle
  std::array<int, 3> nodes{0, 0, 0};   // representatives, unused slots = ground - 1
  bool operator<(const Candidate& o) const { return std::tie(disks, kind, nodes) < std::tie(o.disks, o.kind, o.nodes); }
};

bool is_stable(const std::vector<char>& stable, int l, const QrbOptions& o) {
  if (!o.use_stability) return true;
  if (l >= int(stable.size())) throw InputError("find_qrbs: the stable-link flags are shorter than the link count");
  return stable[std::size_t(l)] != 0;
}

// The members a template groups: its free nodes, and with the ground the fixed members stably linked to them.
std::vector<int> group_of(const HierarchicalGraph& g, int container, const Candidate& c, std::map<int, int>& rep,
                          const std::vector<char>& stable, const QrbOptions& o) {
  std::vector<int> s;
  if (c.kind == 0) return {c.nodes[0], c.nodes[1]};
  bool with_ground = false;
  for (int r : c.nodes) {
    if (r == ground) with_ground = true;
    else if (r != ground - 1) s.push_back(r);
  }
  if (!with_ground) return s;
  std::set<int> fixed_members;
  for (int l : g.internal_links(container)) {
    if (!is_stable(stable, l, o)) continue;
    const HLink& k = g.link(l);
    const bool in1 = std::count(s.begin(), s.end(), k.member1) > 0, in2 = std::count(s.begin(), s.end(), k.member2) > 0;
    if (in1 && rep[k.member2] == ground) fixed_members.insert(k.member2);
    if (in2 && rep[k.member1] == ground) fixed_members.insert(k.member1);
  }
  s.insert(s.end(), fixed_members.begin(), fixed_members.end());
  return s;
}

bool holds_only_stable(const HierarchicalGraph& g, int container, const std::vector<int>& s,
                       const std::vector<char>& stable, const QrbOptions& o) {
  for (int l : g.internal_links(container)) {
    const HLink& k = g.link(l);
    if (std::count(s.begin(), s.end(), k.member1) && std::count(s.begin(), s.end(), k.member2) && !is_stable(stable, l, o))
      return false;
  }
  return true;
}

}  // namespace

QrbDetection find_qrbs(HierarchicalGraph& g, int container, const std::vector<char>& stable,
                       std::vector<char>& is_qrb, const QrbOptions& options) {
  if (options.hamburger_links < 1) throw InputError("find_qrbs: hamburger_links must be >= 1");
  if (g.is_atom(container)) throw InputError("find_qrbs: the container must be a graph");
  QrbDetection out;
  for (;;) {
    std::map<int, int> rep, disks;  // member -> representative, free atoms inside
    for (int m : g.members(container)) {
      const std::vector<int> atoms = g.atoms_of(m);
      int free = 0;
      bool fixed = false;
      for (int a : atoms) {
        if (g.fixed(a)) fixed = true;
        else ++free;
      }
      rep[m] = fixed ? ground : m;
      disks[m] = free;
    }
    auto disks_of = [&](int r) { return r == ground ? 0 : disks[r]; };
    std::map<std::pair<int, int>, int> multiplicity;
    std::map<int, std::set<int>> neighbours;
    std::vector<Candidate> candidates;
    for (int l : g.internal_links(container)) {
      if (!is_stable(stable, l, options)) continue;
      const HLink& k = g.link(l);
      const int a = rep[k.member1], b = rep[k.member2];
      if (a == b) {  // a loop: both ends already one node (two fixed members)
        candidates.push_back({0, 0, {std::min(k.member1, k.member2), std::max(k.member1, k.member2), ground - 1}});
        continue;
      }
      ++multiplicity[{std::min(a, b), std::max(a, b)}];
      neighbours[a].insert(b);
      neighbours[b].insert(a);
    }
    for (const auto& [pair, count] : multiplicity) {
      const auto [a, b] = pair;
      if (count >= options.hamburger_links) candidates.push_back({disks_of(a) + disks_of(b), 1, {a, b, ground - 1}});
      for (int c : neighbours[a])
        if (c > b && neighbours[b].count(c)) candidates.push_back({disks_of(a) + disks_of(b) + disks_of(c), 2, {a, b, c}});
    }
    std::sort(candidates.begin(), candidates.end());
    // The first template, in order, whose group would hold stable links only: a QRB is created only when
    // all its links are stable (002 l.1994); a slipping link between two of its nodes blocks it.
    std::vector<int> s;
    const Candidate* chosen = nullptr;
    for (const Candidate& c : candidates) {
      s = group_of(g, container, c, rep, stable, options);
      if (holds_only_stable(g, container, s, stable, options)) {
        chosen = &c;
        break;
      }
    }
    if (!chosen) break;
    const Candidate best = *chosen;
    const int h = g.group(s);
    is_qrb.resize(std::size_t(g.nodes()), 0);
    is_qrb[std::size_t(h)] = 1;
    out.created.push_back(h);
    (best.kind == 0 ? out.counts.loops : best.kind == 1 ? out.counts.hamburgers : out.counts.triangles)++;
  }
  is_qrb.resize(std::size_t(g.nodes()), 0);
  return out;
}

int outermost_qrb(const HierarchicalGraph& g, int container, int v, const std::vector<char>& is_qrb) {
  int found = no_node;
  for (int x = v; x != no_node && x != container; x = g.owner(x))
    if (x < int(is_qrb.size()) && is_qrb[std::size_t(x)]) found = x;
  return found;
}

bool insert_inside_qrb(const HierarchicalGraph& g, int a1, int a2, const std::vector<char>& is_qrb) {
  const int owner = g.insert_link(a1, a2).owner;
  return owner < int(is_qrb.size()) && is_qrb[std::size_t(owner)];
}

std::vector<int> unstable_links_in_qrbs(const HierarchicalGraph& g, const std::vector<char>& is_qrb,
                                        const std::vector<char>& stable) {
  std::vector<int> out;
  for (int h = 0; h < g.nodes() && h < int(is_qrb.size()); ++h) {
    if (!is_qrb[std::size_t(h)] || !g.alive(h)) continue;
    for (int l : g.internal_links(h))
      if (l >= int(stable.size()) || !stable[std::size_t(l)]) out.push_back(l);
  }
  std::sort(out.begin(), out.end());
  return out;
}

void require_insert_outside_qrbs(const HierarchicalGraph& g, int a1, int a2, const std::vector<char>& is_qrb) {
  if (insert_inside_qrb(g, a1, a2, is_qrb))
    throw InputError("QRB rule (G-C82): a link between atoms " + std::to_string(a1) + " and " + std::to_string(a2) +
                     " would be born inside a QRB, whose members cannot move relative to one another");
}

void require_grip_outside_qrbs(const HierarchicalGraph& g, int link, const std::vector<char>& is_qrb) {
  const int owner = g.link(link).owner;
  if (owner != no_node && owner < int(is_qrb.size()) && is_qrb[std::size_t(owner)])
    throw InputError("QRB rule (G-C82): link " + std::to_string(link) + " grips inside a QRB, which holds only stable links");
}

}  // namespace grainlab::mbd
