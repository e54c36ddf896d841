#pragma once
// Template QRB detection against exact rigidity on one snapshot of a planar contact network (claims G-C58,
// G-C82; ledger ../shared/claims/gavrilov.md G-E9): bodies become atoms of one container graph, contacts its
// links; FindQRBs (core/mbd/qrb_templates) runs on the stable links; core/mbd/rigid_clusters gives the exact
// rigid clusters of the same stable links. Reports correctness (every QRB rigid on its own by the rank test,
// and inside one exact cluster), completeness (disks in exact rigid clusters the templates miss), and the
// G-C82 invariant (no unstable link inside a QRB).
#include <vector>

#include "core/mbd/hgraph.hpp"
#include "core/mbd/qrb_templates.hpp"
#include "core/quasistatic/rigidity.hpp"

namespace grainlab::mbd {

/// One atom per body (fixed bodies fixed), one link per contact, all inside one container graph.
struct NetworkGraph {
  HierarchicalGraph graph;
  int container = no_node;
  std::vector<int> atom;  ///< per body
  std::vector<int> link;  ///< per contact
};
NetworkGraph network_graph(const std::vector<quasistatic::RigidBody>& bodies,
                           const std::vector<quasistatic::ContactLink>& links);

struct QrbAudit {
  int free_bodies = 0, stable_links = 0;
  int qrbs = 0;               ///< outermost QRBs (members of the container after FindQRBs)
  int fixed_qrbs = 0;
  int disks_in_qrbs = 0;      ///< free bodies inside a QRB
  int rigid_disks = 0;        ///< free bodies in an exact rigid cluster of >= 2 bodies or held by the fixed ones
  int missed_disks = 0;       ///< rigid_disks not inside a QRB
  /// rigid_disks not inside a QRB when a slipping link does not block a template: what the two templates
  /// alone miss, apart from the all-stable rule (the ledger's reference ignores slipping links altogether)
  int missed_disks_unblocked = 0;
  int not_rigid_qrbs = 0;     ///< QRBs (at any depth) whose own bodies and links have internal DOF
  int split_qrbs = 0;         ///< outermost QRBs whose bodies span two exact clusters (or free + fixed)
  int unstable_inside = 0;    ///< G-C82: links inside QRBs that are not stable
  int max_depth = 0;          ///< deepest QRB nesting below the container
  TemplateCounts counts;
  double missed_fraction() const { return rigid_disks > 0 ? double(missed_disks) / rigid_disks : 0.0; }
};

/// `stable[k]` per contact. The exact reference always uses the stable links; `options` may perturb the
/// template side only.
QrbAudit audit_templates(const std::vector<quasistatic::RigidBody>& bodies,
                         const std::vector<quasistatic::ContactLink>& links, const std::vector<char>& stable,
                         const QrbOptions& options = {});

}  // namespace grainlab::mbd
