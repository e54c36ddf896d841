#pragma once
// The block update of one contact's rows, shared by the packed sphere and general records
// (core/ndem/pgs.cpp, one contact at a time) and the rigid-body rows (core/ndem/body_rows.cpp).
// See docs/ndem_row_model.md.
#include <algorithm>
#include <cmath>

#include "core/ndem/lanes.hpp"

namespace grainlab::ndem_rows {

/// Residual sums of a sweep by row kind: sum |dlambda| / (omega D^{-1}).
struct Accum {
  double n = 0, t = 0, r = 0;
  Accum& operator+=(const Accum& o) {
    n += o.n;
    t += o.t;
    r += o.r;
    return *this;
  }
};

/// The residual terms of four records (one per lane), by row group: kept apart so that the caller adds them
/// to an Accum record by record, in the order a scalar sweep adds them.
struct LaneSums {
  V4 n{}, t{}, r{}, twist{};
};

// Adds one record's residual term of the row group starting at row r0 (0 normal, 1 friction pair, 3 rolling
// pair, 5 twist).
template <int r0>
[[gnu::always_inline]] inline void add_residual(Accum& acc, double x) {
  (r0 == 0 ? acc.n : r0 == 1 ? acc.t : acc.r) += x;
}
template <int r0>
[[gnu::always_inline]] inline void add_residual(LaneSums& acc, V4 x) {
  (r0 == 0 ? acc.n : r0 == 1 ? acc.t : r0 == 3 ? acc.r : acc.twist) += x;
}
// The normal row's term, |dlambda| / (omega D^{-1}); none where D^{-1} is 0 (a body row may have no mass on
// its normal).
[[gnu::always_inline]] inline void add_normal_residual(Accum& acc, double dl, double oid) {
  if (oid > 0) acc.n += std::abs(dl) / oid;
}
[[gnu::always_inline]] inline void add_normal_residual(LaneSums& acc, V4 dl, V4 oid) {
  acc.n += oid > V4{} ? absolute(dl) / oid : V4{};
}

/// Adds four records' terms to `acc`, record (lane) by record, each in the order block_update forms them.
inline void add_lanes(Accum& acc, const LaneSums& lanes) {
  for (int l = 0; l < 4; ++l) {
    acc.n += lanes.n[l];
    acc.t += lanes.t[l];
    acc.r += lanes.r[l];
    acc.r += lanes.twist[l];
  }
}

// Block update of one contact's rows (normal, friction pair, rolling pair, twist) on a contact state `st`
// that provides the unscaled separation rate of row r (u<r>()) and applies an impulse on it (ap<r>(P)).
// Row update: lambda <- proj(lambda + omega D^{-1} (q - u - Sigma lambda)) (000 Algorithm 1, l.1494);
// friction and rolling bounds from the physical normal impulse s lambda_n (000 l.799, 1572, 1616).
// Box: row by row; cone/disk: both rows of a pair from the same state, then a joint projection.
// Residual sums |dlambda| / (omega D^{-1}) into `acc`; the caller multiplies by omega.
// T: double (one contact; Sums = Accum) or V4 (four contacts, core/ndem/lanes.hpp; Sums = LaneSums).
template <int NR, bool Residual, class State, class T, class Sums>
[[gnu::always_inline]] inline void block_update(State& st, T* lam, const T* oid, const T* bound, T s, T q, T sigma,
                                                T sigma_t, T sigma_r, bool cone, Sums& acc) {
  {
    const T old = lam[0];
    const T nl = max0(old + oid[0] * (q - s * st.template u<0>() - sigma * old));
    const T dl = nl - old;
    st.template ap<0>(s * dl);
    lam[0] = nl;
    if constexpr (Residual) add_normal_residual(acc, dl, oid[0]);
  }
  const T fn = s * lam[0];  // physical normal impulse
  auto pair = [&](auto r1c, T sig, T bnd) {
    constexpr int r1 = decltype(r1c)::value, r2 = r1 + 1;
    const T o1 = lam[r1], o2 = lam[r2];
    T x = o1 + oid[r1] * (-st.template u<r1>() - sig * o1);
    T y;
    if (cone) {
      y = o2 + oid[r2] * (-st.template u<r2>() - sig * o2);
      project_pair(x, y, bnd, true);
      st.template ap<r1>(x - o1);
    } else {
      x = clamp(x, -bnd, bnd);
      st.template ap<r1>(x - o1);
      y = clamp(o2 + oid[r2] * (-st.template u<r2>() - sig * o2), -bnd, bnd);
    }
    st.template ap<r2>(y - o2);
    lam[r1] = x;
    lam[r2] = y;
    if constexpr (Residual) add_residual<r1>(acc, absolute(x - o1) / oid[r1] + absolute(y - o2) / oid[r2]);
  };
  pair(std::integral_constant<int, 1>{}, sigma_t, bound[0] * fn);
  if constexpr (NR == 6) {
    st.begin_rolling();
    pair(std::integral_constant<int, 3>{}, sigma_r, bound[1] * fn);
    const T o = lam[5];
    const T b = bound[2] * fn;
    const T z = clamp(o + oid[5] * (-st.template u<5>() - sigma_r * o), -b, b);
    st.template ap<5>(z - o);
    lam[5] = z;
    if constexpr (Residual) add_residual<5>(acc, absolute(z - o) / oid[5]);
  }
}

}  // namespace grainlab::ndem_rows
