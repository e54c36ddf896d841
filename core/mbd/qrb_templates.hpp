#pragma once
// FindQRBs of Gavrilov's MBD model (1999 Sec. 5.3.3, 5.7.4-5.7.6; seed 002 l.1896-1906, 2403-2481): among
// the members of a container (a cluster or the System) and their *stable* links only, repeatedly find a
// QRB template and collapse it into a new graph with Group (Property 5.3: collapsing a QRB inside a QRB
// leaves a QRB) until no template is left. All fixed members count as one fixed node ("ground"); a
// template containing the ground becomes a fixed QRB holding the fixed members its free members are
// stably linked to. Templates (Fig. 5.23): "loop" (a stable link whose two ends are already one node:
// here only two fixed members), "hamburger" (two nodes joined by two or more stable links: two pins at
// distinct points), "triangle" (three nodes joined pairwise). A template is grouped only when every link
// between its nodes is stable ("for a QRB to be created it is required that all links in it are stable",
// 002 l.1994); a slipping link between two of its nodes blocks it. Order (002 l.2497-2499, "balancing"): the
// template whose group holds the fewest disks first (fixed QRBs it takes in included); ties by template
// kind (loop, hamburger, triangle), then by ids.
// Correct for generic positions (each template is a QRB); the Q_f4 family and larger templates are not
// searched (002 l.2475-2477), so some QRBs may be missed: core/mbd/rigid_clusters is the exact reference.
//
// Also the rules of claim G-C82 (002 l.1950, 1958, 1992, 2481): a QRB holds only stable links; a new link
// (born slipping and unstable) can never be born inside a QRB; a grip cannot happen inside one.
#include <vector>

#include "core/mbd/hgraph.hpp"

namespace grainlab::mbd {

struct TemplateCounts {
  int loops = 0, hamburgers = 0, triangles = 0;
};

struct QrbOptions {
  bool use_stability = true;  ///< false: every link counts as stable (a deliberately wrong reading, G-C82)
  int hamburger_links = 2;    ///< links that make a pair rigid; 1 is a deliberately wrong template (G-C58)
  bool triangles = true;      ///< false: hamburgers only, a deliberately incomplete template set (G-C58)
  /// A slipping link between two nodes of a template blocks it (002 l.1994). false: the group may enclose
  /// slipping links (a diagnostic: how many misses the all-stable rule alone causes).
  bool block_on_slipping = true;
};

struct QrbDetection {
  std::vector<int> created;  ///< every graph Grouped, in order (nested ones included)
  TemplateCounts counts;
};

/// Runs FindQRBs on the members of `container`. `stable[l]` says whether link l is stable (size >= the
/// graph's link count). The new QRBs are recorded in `is_qrb` (resized to the node count).
QrbDetection find_qrbs(HierarchicalGraph& g, int container, const std::vector<char>& stable,
                       std::vector<char>& is_qrb, const QrbOptions& options = {});

/// The outermost QRB below `container` that contains node v, or no_node.
int outermost_qrb(const HierarchicalGraph& g, int container, int v, const std::vector<char>& is_qrb);

/// G-C82: a link between atoms a1 and a2 would be born inside a QRB (its owner would be a QRB).
bool insert_inside_qrb(const HierarchicalGraph& g, int a1, int a2, const std::vector<char>& is_qrb);

/// G-C82: the links inside QRBs that are not stable (must be none).
std::vector<int> unstable_links_in_qrbs(const HierarchicalGraph& g, const std::vector<char>& is_qrb,
                                        const std::vector<char>& stable);

/// G-C82 as enforced rules: InputError when a link would be inserted inside a QRB, or when the link to
/// grip (stop slipping) lies inside a QRB. Event handlers call these before acting.
void require_insert_outside_qrbs(const HierarchicalGraph& g, int a1, int a2, const std::vector<char>& is_qrb);
void require_grip_outside_qrbs(const HierarchicalGraph& g, int link, const std::vector<char>& is_qrb);

}  // namespace grainlab::mbd
