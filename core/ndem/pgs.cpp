#include "core/ndem/pgs.hpp"

#include <algorithm>
#include <cmath>

#include <tbb/parallel_for.h>

namespace grainlab {

void NdemRows::resize(std::size_t m) {
  for (auto* v : {&a, &b}) v->resize(m);
  contact.resize(m);
  for (auto* v : {&n, &t1, &t2, &ca_n, &ca_t1, &ca_t2, &cb_n, &cb_t1, &cb_t2}) v->resize(m);
  for (auto* v : {&scale, &overlap, &stiffness, &sigma_n, &q_n, &mu, &mu_roll, &mu_twist, &restitution, &impact_speed})
    v->resize(m);
  for (int r = 0; r < 6; ++r) {
    bias[r].assign(m, 0.0);
    inv_diag[r].assign(m, 0.0);
    lambda[r].resize(m);
  }
}

namespace {

// Geometry of one row of contact c: direction and lever arms (rows 0-2 linear, 3-5 angular).
struct RowGeom {
  const Vec3* d;
  const Vec3* ca;
  const Vec3* cb;
  bool angular;
};

inline RowGeom geom(const NdemRows& R, std::size_t c, int r) {
  switch (r) {
    case 0: return {&R.n[c], &R.ca_n[c], &R.cb_n[c], false};
    case 1: return {&R.t1[c], &R.ca_t1[c], &R.cb_t1[c], false};
    case 2: return {&R.t2[c], &R.ca_t2[c], &R.cb_t2[c], false};
    case 3: return {&R.t1[c], nullptr, nullptr, true};
    case 4: return {&R.t2[c], nullptr, nullptr, true};
    default: return {&R.n[c], nullptr, nullptr, true};
  }
}

// Unscaled G v of row r (separation-rate sign), including the wall's known motion.
inline double row_velocity(const NdemRows& R, const NdemBodies& B, std::size_t c, int r) {
  const RowGeom g = geom(R, c, r);
  const int a = R.a[c], b = R.b[c];
  double u = R.bias[r][c];
  if (g.angular) {
    u += g.d->dot(B.w[a]);
    if (b >= 0) u -= g.d->dot(B.w[b]);
  } else {
    u += g.d->dot(B.v[a]) + g.ca->dot(B.w[a]);
    if (b >= 0) u -= g.d->dot(B.v[b]) + g.cb->dot(B.w[b]);
  }
  return u;
}

// v += M^{-1} G_r^T (scale * dl).
inline void apply_row(const NdemRows& R, NdemBodies& B, std::size_t c, int r, double scaled_dl) {
  const RowGeom g = geom(R, c, r);
  const int a = R.a[c], b = R.b[c];
  if (g.angular) {
    B.w[a] += (B.inv_inertia[a] * scaled_dl) * *g.d;
    if (b >= 0) B.w[b] -= (B.inv_inertia[b] * scaled_dl) * *g.d;
  } else {
    B.v[a] += (B.inv_mass[a] * scaled_dl) * *g.d;
    B.w[a] += (B.inv_inertia[a] * scaled_dl) * *g.ca;
    if (b >= 0) {
      B.v[b] -= (B.inv_mass[b] * scaled_dl) * *g.d;
      B.w[b] -= (B.inv_inertia[b] * scaled_dl) * *g.cb;
    }
  }
}

// G_r M^{-1} G_r^T for the unscaled row.
inline double row_mass(const NdemRows& R, const NdemBodies& B, std::size_t c, int r) {
  const RowGeom g = geom(R, c, r);
  const int a = R.a[c], b = R.b[c];
  double k;
  if (g.angular) {
    k = B.inv_inertia[a] * g.d->squaredNorm();
    if (b >= 0) k += B.inv_inertia[b] * g.d->squaredNorm();
  } else {
    k = B.inv_mass[a] * g.d->squaredNorm() + B.inv_inertia[a] * g.ca->squaredNorm();
    if (b >= 0) k += B.inv_mass[b] * g.d->squaredNorm() + B.inv_inertia[b] * g.cb->squaredNorm();
  }
  return k;
}

// The two bodies of one contact held in registers during its block update (loaded once, written back
// once): the same arithmetic in the same order as the NdemBodies versions above, without reloading
// through memory the compiler cannot prove unaliased.
struct Local {
  Vec3 va, wa, vb, wb;
  double ima, iIa, imb, iIb;
  bool has_b;
  Local(const NdemBodies& B, int a, int b)
      : va(B.v[a]), wa(B.w[a]), vb(b >= 0 ? B.v[b] : Vec3::Zero()), wb(b >= 0 ? B.w[b] : Vec3::Zero()),
        ima(B.inv_mass[a]), iIa(B.inv_inertia[a]), imb(b >= 0 ? B.inv_mass[b] : 0.0),
        iIb(b >= 0 ? B.inv_inertia[b] : 0.0), has_b(b >= 0) {}
  void store(NdemBodies& B, int a, int b) const {
    B.v[a] = va;
    B.w[a] = wa;
    if (has_b) {
      B.v[b] = vb;
      B.w[b] = wb;
    }
  }
};

inline double row_velocity(const NdemRows& R, const Local& B, std::size_t c, int r) {
  const RowGeom g = geom(R, c, r);
  double u = R.bias[r][c];
  if (g.angular) {
    u += g.d->dot(B.wa);
    if (B.has_b) u -= g.d->dot(B.wb);
  } else {
    u += g.d->dot(B.va) + g.ca->dot(B.wa);
    if (B.has_b) u -= g.d->dot(B.vb) + g.cb->dot(B.wb);
  }
  return u;
}

inline void apply_row(const NdemRows& R, Local& B, std::size_t c, int r, double scaled_dl) {
  const RowGeom g = geom(R, c, r);
  if (g.angular) {
    B.wa += (B.iIa * scaled_dl) * *g.d;
    if (B.has_b) B.wb -= (B.iIb * scaled_dl) * *g.d;
  } else {
    B.va += (B.ima * scaled_dl) * *g.d;
    B.wa += (B.iIa * scaled_dl) * *g.ca;
    if (B.has_b) {
      B.vb -= (B.imb * scaled_dl) * *g.d;
      B.wb -= (B.iIb * scaled_dl) * *g.cb;
    }
  }
}

// Clamps the pair (x, y) to the box |x|,|y| <= bound or to the disk |(x, y)| <= bound.
inline void project_pair(double& x, double& y, double bound, bool cone) {
  if (cone) {
    const double m = std::sqrt(x * x + y * y);
    if (m > bound) {
      const double f = m > 0 ? bound / m : 0.0;
      x *= f;
      y *= f;
    }
  } else {
    x = std::clamp(x, -bound, bound);
    y = std::clamp(y, -bound, bound);
  }
}

// Rows r and r+1 (a tangential pair, Sigma = sigma): box -> Gauss-Seidel row by row with clamping;
// cone -> both rows from the same velocities, projected on the disk, then applied. Returns
// sum |dlambda| D (the projected residual, m/s).
inline double solve_pair(const NdemRows& R, Local& B, std::array<std::vector<double>, 6>& L,
                         const std::array<std::vector<double>, 6>& inv_diag, std::size_t c, int r, double sigma,
                         double omega, double bound, bool cone) {
  const double o1 = L[r][c], o2 = L[r + 1][c];
  double x = o1 + omega * inv_diag[r][c] * (-row_velocity(R, B, c, r) - sigma * o1);
  if (!cone) {
    x = std::clamp(x, -bound, bound);
    if (x != o1) apply_row(R, B, c, r, x - o1);
  }
  double y = o2 + omega * inv_diag[r + 1][c] * (-row_velocity(R, B, c, r + 1) - sigma * o2);
  if (cone) {
    project_pair(x, y, bound, true);
    if (x != o1) apply_row(R, B, c, r, x - o1);
  } else {
    y = std::clamp(y, -bound, bound);
  }
  if (y != o2) apply_row(R, B, c, r + 1, y - o2);
  L[r][c] = x;
  L[r + 1][c] = y;
  return std::abs(x - o1) / inv_diag[r][c] + std::abs(y - o2) / inv_diag[r + 1][c];
}

struct Accum {
  double n = 0, t = 0, r = 0;
};

constexpr std::size_t pgs_chunk = 256;  // contacts per parallel task (fixed: results independent of threads)

// One blocked sweep over the contacts. `normal_target(c, u)` returns the rhs of the normal row minus
// its Sigma term handled inside: for the continuous stage r = q - s u - Sigma lambda; for the impact
// stage r = target - u. Bounds use the physical normal impulse  s * lambda_n.
template <class NormalResidual>
Accum sweep(const NdemRows& R, NdemBodies& Bodies, std::array<std::vector<double>, 6>& L,
            const std::array<std::vector<double>, 6>& inv_diag, const std::vector<double>& scale, double sigma_t,
            double sigma_r, double omega, bool cone, bool rolling, NormalResidual&& normal_residual,
            const std::uint32_t* order, std::size_t count) {
  Accum acc;
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t c = order[k];
    const double s = scale[c];
    Local B(Bodies, R.a[c], R.b[c]);
    // Normal row.
    {
      const double u = s * row_velocity(R, B, c, 0);
      const double res = normal_residual(c, u, L[0][c]);
      const double old = L[0][c];
      const double nl = std::max(0.0, old + omega * inv_diag[0][c] * res);
      const double dl = nl - old;
      if (dl != 0) apply_row(R, B, c, 0, s * dl);
      L[0][c] = nl;
      acc.n += std::abs(dl) / inv_diag[0][c];
    }
    const double fn = s * L[0][c];  // physical normal impulse |G_n^T lambda_n| (000 l.799, 1572, 1616)
    // Friction rows t1, t2, bound mu fn.
    acc.t += solve_pair(R, B, L, inv_diag, c, 1, sigma_t, omega, R.mu[c] * fn, cone);
    if (!rolling) {
      B.store(Bodies, R.a[c], R.b[c]);
      continue;
    }
    // Rolling rows r1, r2 (bound mu_r r* fn), then twisting (bound alpha mu r* fn).
    acc.r += solve_pair(R, B, L, inv_diag, c, 3, sigma_r, omega, R.mu_roll[c] * fn, cone);
    {
      const double o = L[5][c];
      const double bound = R.mu_twist[c] * fn;
      const double z = std::clamp(o + omega * inv_diag[5][c] * (-row_velocity(R, B, c, 5) - sigma_r * o), -bound, bound);
      if (z != o) apply_row(R, B, c, 5, z - o);
      L[5][c] = z;
      acc.r += std::abs(z - o) / inv_diag[5][c];
    }
    B.store(Bodies, R.a[c], R.b[c]);
  }
  return acc;
}

PgsResult iterate(const NdemRows& R, NdemBodies& B, std::array<std::vector<double>, 6>& L,
                  const std::array<std::vector<double>, 6>& inv_diag, const std::vector<double>& scale, double sigma_t,
                  double sigma_r, const PgsOptions& opt, const auto& normal_residual) {
  PgsResult out;
  const std::size_t m = R.size();
  if (m == 0) return out;
  const double rows_n = double(m), rows_t = 2.0 * double(m), rows_r = 3.0 * double(m);
  const double rows_all = rows_n + rows_t + (R.rolling ? rows_r : 0.0);
  std::vector<std::uint32_t> identity;
  if (!opt.colouring) {
    identity.resize(m);
    for (std::size_t c = 0; c < m; ++c) identity[c] = std::uint32_t(c);
  }
  std::vector<Accum> partial;
  for (int k = 1; k <= opt.iterations; ++k) {
    Accum a;
    if (!opt.colouring) {
      a = sweep(R, B, L, inv_diag, scale, sigma_t, sigma_r, opt.omega, opt.cone, R.rolling, normal_residual,
                identity.data(), m);
    } else {
      // Colours in order; inside a colour no two contacts share a body, so the fixed-size chunks run in
      // parallel without races and in any order; partial sums are combined in chunk order.
      const NdemColouring& col = *opt.colouring;
      for (std::size_t g = 0; g + 1 < col.start.size(); ++g) {
        const std::size_t begin = col.start[g], end = col.start[g + 1];
        const bool serial = g + 2 == col.start.size();  // last group: the overflow set
        const std::size_t nchunks = serial ? 1 : (end - begin + pgs_chunk - 1) / pgs_chunk;
        partial.assign(nchunks, Accum{});
        auto run_chunk = [&](std::size_t ch) {
          const std::size_t b0 = serial ? begin : begin + ch * pgs_chunk;
          const std::size_t b1 = serial ? end : std::min(end, b0 + pgs_chunk);
          partial[ch] = sweep(R, B, L, inv_diag, scale, sigma_t, sigma_r, opt.omega, opt.cone, R.rolling,
                              normal_residual, col.order.data() + b0, b1 - b0);
        };
        if (nchunks == 1) run_chunk(0);
        else tbb::parallel_for(std::size_t(0), nchunks, run_chunk);
        for (const Accum& p : partial) {
          a.n += p.n;
          a.t += p.t;
          a.r += p.r;
        }
      }
    }
    out.iterations = k;
    // |dlambda| * D / omega is the (projected) residual of the row before its update, m/s.
    out.final_residual = (a.n + a.t + a.r) / (opt.omega * rows_all);
    if (opt.record_residuals) {
      out.residual_normal.push_back(a.n / (opt.omega * rows_n));
      out.residual_friction.push_back(a.t / (opt.omega * rows_t));
      out.residual_rolling.push_back(R.rolling ? a.r / (opt.omega * rows_r) : 0.0);
    }
    if (opt.after_iteration) opt.after_iteration(k);
    if (opt.tolerance > 0 && out.final_residual < opt.tolerance) break;
  }
  return out;
}

}  // namespace

void NdemColouring::build(const NdemRows& R, std::size_t num_bodies, int max_colours) {
  // Greedy colouring in contact order (Box2D v3 constraint-graph style): each contact takes the first
  // colour used by neither of its particle bodies (fixed particles count: they are written to); walls
  // never conflict. Contacts that find no colour among max_colours go to the overflow set (solved
  // serially after the colours). Deterministic: depends on the contact order only.
  const std::size_t m = R.size();
  const int K = std::clamp(max_colours, 1, 63);
  std::vector<std::uint64_t> used(num_bodies, 0);
  std::vector<int> colour(m);
  std::vector<std::size_t> count(K + 1, 0);
  for (std::size_t c = 0; c < m; ++c) {
    const int a = R.a[c], b = R.b[c];
    const std::uint64_t busy = used[a] | (b >= 0 ? used[b] : 0);
    int g = K;  // overflow
    for (int k = 0; k < K; ++k)
      if (!(busy >> k & 1)) {
        g = k;
        break;
      }
    colour[c] = g;
    if (g < K) {
      used[a] |= std::uint64_t(1) << g;
      if (b >= 0) used[b] |= std::uint64_t(1) << g;
    }
    ++count[g];
  }
  start.assign(K + 2, 0);
  for (int g = 0; g <= K; ++g) start[g + 1] = start[g] + count[g];
  order.resize(m);
  std::vector<std::size_t> fill(start.begin(), start.end() - 1);
  for (std::size_t c = 0; c < m; ++c) order[fill[colour[c]]++] = std::uint32_t(c);
  colours_used = 0;
  for (int g = 0; g < K; ++g)
    if (count[g]) colours_used = g + 1;
  overflow = count[K];
}

double normal_velocity(const NdemRows& rows, const NdemBodies& bodies, std::size_t c) {
  return row_velocity(rows, bodies, c, 0);
}

void apply_impulses(const NdemRows& R, NdemBodies& B) {
  const int nrows = R.rolling ? 6 : 3;
  for (std::size_t c = 0; c < R.size(); ++c)
    for (int r = 0; r < nrows; ++r)
      if (R.lambda[r][c] != 0) apply_row(R, B, c, r, (r == 0 ? R.scale[c] : 1.0) * R.lambda[r][c]);
}

PgsResult solve_continuous(NdemRows& R, NdemBodies& B, const PgsOptions& opt) {
  auto normal_residual = [&R](std::size_t c, double u, double lambda) { return R.q_n[c] - u - R.sigma_n[c] * lambda; };
  return iterate(R, B, R.lambda, R.inv_diag, R.scale, R.sigma_t, R.sigma_r, opt, normal_residual);
}

PgsResult solve_impact(const NdemRows& R, const std::vector<char>& impacting, const std::vector<double>& u_minus,
                       NdemBodies& B, const PgsOptions& opt, std::array<std::vector<double>, 6>& impulse) {
  const std::size_t m = R.size();
  std::array<std::vector<double>, 6> inv_diag;
  const std::vector<double> unit(m, 1.0);
  for (int r = 0; r < 6; ++r) {
    impulse[r].assign(m, 0.0);
    inv_diag[r].assign(m, 0.0);
  }
  for (std::size_t c = 0; c < m; ++c)
    for (int r = 0; r < (R.rolling ? 6 : 3); ++r) {
      const double sigma = r == 0 ? 0.0 : (r < 3 ? R.sigma_t : R.sigma_r);
      inv_diag[r][c] = 1.0 / (row_mass(R, B, c, r) + sigma);
    }
  // Newton: G_n v+ = -e G_n v- for impacting contacts; G_n v+ >= 0 for the others (unscaled normal).
  auto normal_residual = [&](std::size_t c, double u, double) {
    return (impacting[c] ? -R.restitution[c] * u_minus[c] : 0.0) - u;
  };
  return iterate(R, B, impulse, inv_diag, unit, R.sigma_t, R.sigma_r, opt, normal_residual);
}

// Exposed for the stepper's set-up of D^{-1}.
double ndem_row_mass(const NdemRows& R, const NdemBodies& B, std::size_t c, int r) { return row_mass(R, B, c, r); }

}  // namespace grainlab
