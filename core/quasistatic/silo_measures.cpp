#include "core/quasistatic/silo_measures.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "core/quasistatic/stiffness_solvers.hpp"

namespace grainlab::quasistatic {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// y = a + b x with the standard error of b.
void line_fit(const std::vector<double>& x, const std::vector<double>& y, double& slope, double& slope_se) {
  const std::size_t n = x.size();
  slope = slope_se = nan;
  if (n < 3) return;
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < n; ++i) mx += x[i] / n, my += y[i] / n;
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < n; ++i) sxx += (x[i] - mx) * (x[i] - mx), sxy += (x[i] - mx) * (y[i] - my);
  if (!(sxx > 0)) return;
  slope = sxy / sxx;
  double rss = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double r = y[i] - my - slope * (x[i] - mx);
    rss += r * r;
  }
  slope_se = std::sqrt(rss / double(n - 2) / sxx);
}

}  // namespace

Equilibrium equilibrium(const SiloFill& fill) {
  Equilibrium e;
  const Eigen::VectorXd& d = fill.displacements();
  const Eigen::VectorXd f = fill.external_loads();
  e.relative_residual = (fill.truss().stiffness() * d - fill.total_loads()).norm() / f.norm();
  for (const Link& l : fill.truss().links()) {
    if (!l.active) continue;
    const LinkStress s = fill.truss().stress(l, d);
    e.max_tension = std::max(e.max_tension, -s.normal);
    e.max_friction_excess =
        std::max(e.max_friction_excess, std::abs(s.tangential) - l.spring.friction * std::max(0.0, s.normal));
  }
  return e;
}

double identity_error(const SiloFill& fill) {
  const Eigen::SparseMatrix<double> k = fill.truss().stiffness();
  const Eigen::MatrixXd z = fill.rima().matrix();
  const Eigen::MatrixXd zk = z * k;
  return (zk - Eigen::MatrixXd::Identity(zk.rows(), zk.cols())).cwiseAbs().maxCoeff();
}

double cholesky_difference(const SiloFill& fill) {
  const Eigen::VectorXd d1 = fill.displacements();
  const Eigen::VectorXd d2 = solve_sparse_cholesky(fill.truss().stiffness(), fill.total_loads());
  double diff = 0, scale = 0;
  for (const Link& l : fill.truss().links()) {
    if (!l.active) continue;
    const LinkStress a = fill.truss().stress(l, d1), b = fill.truss().stress(l, d2);
    diff = std::max({diff, std::abs(a.normal - b.normal), std::abs(a.tangential - b.tangential)});
    scale = std::max({scale, std::abs(b.normal), std::abs(b.tangential)});
  }
  return scale > 0 ? diff / scale : 0;
}

double fill_height(const SiloFill& fill) {
  double top = 0;
  for (int i = 0; i < int(fill.disks().size()); ++i)
    top = std::max(top, fill.position(i).y() + fill.disks()[i].radius);
  return top;
}

WallPressure wall_pressure(const SiloFill& fill, double window) {
  const double top = fill_height(fill);
  const int windows = int(std::floor(top / window));
  std::vector<double> left(windows, 0.0), right(windows, 0.0);
  for (const Link& l : fill.truss().links()) {
    if (!l.active || (l.wall != left_wall && l.wall != right_wall)) continue;
    const int w = int(std::floor(fill.position(l.a).y() / window));
    if (w < 0 || w >= windows) continue;
    const double sn = std::max(0.0, fill.truss().stress(l, fill.displacements()).normal);
    (l.wall == left_wall ? left : right)[w] += sn / window;
  }
  WallPressure p;
  for (int w = windows - 1; w >= 0; --w) {  // ascending depth
    p.depth.push_back(top - (w + 0.5) * window);
    p.left.push_back(left[w]);
    p.right.push_back(right[w]);
    p.pressure.push_back((left[w] + right[w]) / 2);
  }
  return p;
}

JanssenK fit_janssen_k(const WallPressure& p, double rho_b, double g, double width, double mu_w) {
  JanssenK out;
  out.saturation = rho_b * g * width / (2 * mu_w);
  auto sse = [&](double k) {
    double s = 0;
    for (std::size_t i = 0; i < p.depth.size(); ++i) {
      const double r = p.pressure[i] - out.saturation * (1 - std::exp(-2 * mu_w * k * p.depth[i] / width));
      s += r * r;
    }
    return s;
  };
  if (p.depth.size() < 2) return {nan, nan, out.saturation};
  double lo = std::log(1e-3), hi = std::log(1e2);
  const double phi = (std::sqrt(5.0) - 1) / 2;
  for (int i = 0; i < 200; ++i) {
    const double a = hi - phi * (hi - lo), b = lo + phi * (hi - lo);
    (sse(std::exp(a)) < sse(std::exp(b)) ? hi : lo) = (sse(std::exp(a)) < sse(std::exp(b)) ? b : a);
  }
  out.k = std::exp((lo + hi) / 2);
  double mean = 0, tss = 0;
  for (double v : p.pressure) mean += v / p.pressure.size();
  for (double v : p.pressure) tss += (v - mean) * (v - mean);
  out.r2 = tss > 0 ? 1 - sse(out.k) / tss : nan;
  return out;
}

SlideEnergy slide_energy(const SiloFill& fill, double window) {
  SlideEnergy e;
  double wall = 0;
  int links = 0, wall_links = 0;
  const double top = fill_height(fill);
  const int windows = std::max(1, int(std::floor(top / window)));
  std::vector<double> interior(windows, 0.0);
  for (const Link& l : fill.truss().links()) {
    e.total += l.slide_energy;
    if (!l.active && l.slide_energy == 0) continue;
    ++links;
    const bool side = l.wall == left_wall || l.wall == right_wall;
    wall_links += side;
    if (side) {
      wall += l.slide_energy;
    } else {
      const int w = int(std::floor(fill.contact_point(l).y() / window));
      if (w >= 0 && w < windows) interior[w] += l.slide_energy / (window * fill.settings().width);
    }
  }
  e.wall_share = e.total > 0 ? wall / e.total : nan;
  e.wall_link_share = links > 0 ? double(wall_links) / links : nan;
  std::vector<double> h, y;
  for (int w = 0; w < windows; ++w) h.push_back((w + 0.5) * window), y.push_back(interior[w]);
  line_fit(h, y, e.interior_slope, e.interior_slope_se);
  return e;
}

SlideLocations slide_locations(const SiloFill& fill) {
  SlideLocations out;
  double near = 0, near_base = 0, wall = 0, wall_base = 0;
  for (const SlideEvent& s : fill.slide_events()) {
    ++out.events;
    near += s.distance_to_new < fill.settings().near_radius;
    wall += s.near_wall;
    near_base += s.links_near_new;
    wall_base += s.links_near_wall;
  }
  out.near_new_enrichment = near_base > 0 ? near / near_base : nan;
  out.near_wall_enrichment = wall_base > 0 ? wall / wall_base : nan;
  return out;
}

ChainAngles chain_angles(const SiloFill& fill) {
  ChainAngles out;
  std::vector<std::pair<double, double>> force_angle;
  for (const Link& l : fill.truss().links()) {
    if (!l.active || l.b == fixed_node) continue;
    const double sn = fill.truss().stress(l, fill.displacements()).normal;
    const double angle = std::atan2(std::abs(l.normal.y()), std::abs(l.normal.x())) * 180 / std::numbers::pi;
    force_angle.emplace_back(sn, angle);
  }
  if (force_angle.size() < 10) return {nan, nan, nan};
  std::sort(force_angle.begin(), force_angle.end(), [](auto& a, auto& b) { return a.first > b.first; });
  const std::size_t top = std::max<std::size_t>(1, force_angle.size() / 10);
  std::vector<double> angles;
  int histogram[18] = {};
  for (std::size_t i = 0; i < top; ++i) {
    angles.push_back(force_angle[i].second);
    ++histogram[std::min(17, int(force_angle[i].second / 5))];
  }
  std::sort(angles.begin(), angles.end());
  out.chain_median_deg = angles[angles.size() / 2];
  out.chain_mode_deg = 2.5 + 5.0 * double(std::max_element(histogram, histogram + 18) - histogram);
  // Heap surface: the top of the highest disk per column one mean diameter wide; a line per flank (the
  // half on each side of the highest column), the mean of the two slopes' magnitudes.
  const double width = fill.settings().width, column = 2 * fill.settings().radius_mean;
  const int columns = std::max(2, int(width / column));
  std::vector<double> surface(columns, 0.0);
  for (int i = 0; i < int(fill.disks().size()); ++i) {
    const Vec2 p = fill.position(i);
    const int c = std::clamp(int(p.x() / width * columns), 0, columns - 1);
    surface[c] = std::max(surface[c], p.y() + fill.disks()[i].radius);
  }
  const int apex = int(std::max_element(surface.begin(), surface.end()) - surface.begin());
  double slopes = 0;
  int flanks = 0;
  for (int side = 0; side < 2; ++side) {
    std::vector<double> x, y;
    for (int c = side == 0 ? 0 : apex; c <= (side == 0 ? apex : columns - 1); ++c)
      x.push_back((c + 0.5) * width / columns), y.push_back(surface[c]);
    double slope, se;
    line_fit(x, y, slope, se);
    if (std::isfinite(slope)) slopes += std::atan(std::abs(slope)) * 180 / std::numbers::pi, ++flanks;
  }
  out.repose_deg = flanks > 0 ? slopes / flanks : nan;
  return out;
}

}  // namespace grainlab::quasistatic
