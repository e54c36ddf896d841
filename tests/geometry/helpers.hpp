#pragma once
// Small helpers shared by the geometry tests.
#include <vector>

#include "core/walls.hpp"

namespace grainlab::test {

inline std::vector<WallHit> hits_of(const WallShape& shape, const Vec3& c, double r, double margin = 0) {
  std::vector<WallHit> hits;
  collide_sphere(shape, c, r, margin, hits);
  return hits;
}

inline const WallHit* find_feature(const std::vector<WallHit>& hits, int feature) {
  for (const WallHit& h : hits)
    if (h.feature == feature) return &h;
  return nullptr;
}

// Every hit must be self-consistent: unit normal, and the contact point at distance r - overlap from
// the centre along -normal (point = c - (r - overlap) n). Holds for all shapes by construction of the
// closest-point models; checked to 1e-12 m (rounding of O(1) m coordinates).
inline bool consistent(const WallHit& h, const Vec3& c, double r) {
  return std::abs(h.normal.norm() - 1) < 1e-12 && (h.point - (c - (r - h.overlap) * h.normal)).norm() < 1e-12;
}

}  // namespace grainlab::test
