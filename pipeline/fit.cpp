// Least-squares fitting (see fit.hpp). Eigen dense algebra; single-threaded.
#include "pipeline/fit.hpp"

#include <cmath>
#include <stdexcept>

#include <Eigen/Dense>
#include <fmt/format.h>

namespace grainlab::pipeline {

namespace {
double rss_of(const Model& f, const std::vector<double>& p, const std::vector<double>& x, const std::vector<double>& y) {
  double s = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double r = y[i] - f(x[i], p);
    s += r * r;
  }
  return s;
}

Eigen::MatrixXd jacobian(const Model& f, const std::vector<double>& p, const std::vector<double>& x) {
  Eigen::MatrixXd J(x.size(), p.size());
  for (size_t j = 0; j < p.size(); ++j) {
    auto q = p;
    const double h = 1e-7 * std::max(1.0, std::abs(p[j]));
    q[j] += h;
    for (size_t i = 0; i < x.size(); ++i) J(i, j) = (f(x[i], q) - f(x[i], p)) / h;
  }
  return J;
}
}  // namespace

FitResult fit_nonlinear(const Model& f, const std::vector<std::string>& names, std::vector<double> p,
                        const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = x.size(), k = p.size();
  if (n != y.size()) throw std::invalid_argument("fit: x and y differ in length");
  if (n <= k) throw std::invalid_argument(fmt::format("fit: {} points cannot determine {} parameters with errors", n, k));
  FitResult out;
  out.names = names;
  double lambda = 1e-3, rss = rss_of(f, p, x, y);
  for (out.iterations = 0; out.iterations < 200; ++out.iterations) {
    const Eigen::MatrixXd J = jacobian(f, p, x);
    Eigen::VectorXd r(n);
    for (size_t i = 0; i < n; ++i) r(i) = y[i] - f(x[i], p);
    const Eigen::MatrixXd A = J.transpose() * J;
    const Eigen::VectorXd g = J.transpose() * r;
    bool improved = false;
    for (int tries = 0; tries < 30 && !improved; ++tries) {
      Eigen::MatrixXd D = A;
      for (size_t j = 0; j < k; ++j) D(j, j) += lambda * std::max(A(j, j), 1e-300);
      const Eigen::VectorXd step = D.ldlt().solve(g);
      auto q = p;
      for (size_t j = 0; j < k; ++j) q[j] += step(j);
      const double rq = rss_of(f, q, x, y);
      if (std::isfinite(rq) && rq <= rss) {
        const double rel = (rss - rq) / std::max(rss, 1e-300);
        p = q;
        rss = rq;
        lambda = std::max(lambda / 10, 1e-12);
        improved = true;
        if (rel < 1e-14 || step.norm() < 1e-14 * (1 + Eigen::Map<Eigen::VectorXd>(p.data(), k).norm())) out.converged = true;
      } else {
        lambda *= 10;
      }
    }
    if (!improved) out.converged = true;  // no descent direction left: at a minimum to machine precision
    if (out.converged) break;
  }
  out.values = p;
  out.rss = rss;
  const Eigen::MatrixXd J = jacobian(f, p, x);
  const Eigen::MatrixXd cov = (J.transpose() * J).inverse() * (rss / double(n - k));
  for (size_t j = 0; j < k; ++j) out.std_errors.push_back(std::sqrt(std::max(0.0, cov(j, j))));
  double mean = 0, tss = 0;
  for (double v : y) mean += v / double(n);
  for (double v : y) tss += (v - mean) * (v - mean);
  out.r2 = tss > 0 ? 1 - rss / tss : 1.0;
  return out;
}

std::vector<std::string> model_parameters(const std::string& model) {
  if (model == "proportional") return {"b"};
  for (const auto& m : model_names())
    if (m == model) return {"a", "b"};
  return {};
}

std::vector<std::string> model_names() { return {"linear", "proportional", "power", "saturating", "exponential"}; }

FitResult fit_model(const std::string& model, const std::vector<double>& x, const std::vector<double>& y,
                    std::vector<double> guess) {
  auto first_guess = [&](std::vector<double> g) { return guess.empty() ? g : guess; };
  if (model == "linear") {  // a + b x: exact linear least squares, then the same error formula
    double sx = 0, sy = 0;
    for (size_t i = 0; i < x.size(); ++i) sx += x[i], sy += y[i];
    return fit_nonlinear([](double t, const std::vector<double>& p) { return p[0] + p[1] * t; }, {"a", "b"},
                         first_guess({sy / double(y.size()), 0.0}), x, y);
  }
  if (model == "proportional")
    return fit_nonlinear([](double t, const std::vector<double>& p) { return p[0] * t; }, {"b"}, first_guess({1.0}), x, y);
  if (model == "power") {
    // start from the log-log line through the data
    std::vector<double> lx, ly;
    for (size_t i = 0; i < x.size(); ++i)
      if (x[i] > 0 && y[i] > 0) lx.push_back(std::log(x[i])), ly.push_back(std::log(y[i]));
    std::vector<double> g{1.0, 1.0};
    if (lx.size() >= 3) {
      auto lin = fit_model("linear", lx, ly);
      g = {std::exp(lin.values[0]), lin.values[1]};
    }
    return fit_nonlinear([](double t, const std::vector<double>& p) { return p[0] * std::pow(t, p[1]); }, {"a", "b"},
                         first_guess(g), x, y);
  }
  if (model == "saturating") {
    double ymax = 0, xmid = 0;
    for (size_t i = 0; i < x.size(); ++i) ymax = std::max(ymax, y[i]), xmid += x[i] / double(x.size());
    return fit_nonlinear([](double t, const std::vector<double>& p) { return p[0] * (1 - std::exp(-t / p[1])); }, {"a", "b"},
                         first_guess({ymax, std::max(xmid, 1e-12)}), x, y);
  }
  if (model == "exponential")
    return fit_nonlinear([](double t, const std::vector<double>& p) { return p[0] * std::exp(p[1] * t); }, {"a", "b"},
                         first_guess({1.0, 0.0}), x, y);
  throw std::invalid_argument(fmt::format("unknown fit model '{}' (known: linear, proportional, power, saturating, exponential)", model));
}

}  // namespace grainlab::pipeline
