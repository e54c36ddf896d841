// Least-squares fitting (see fit.hpp). Eigen dense algebra; single-threaded.
#include "pipeline/fit.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <Eigen/Dense>
#include <fmt/format.h>

#include "experiments/cost_model.hpp"

namespace grainlab::pipeline {

namespace {
using Points = std::vector<std::vector<double>>;

double rss_of(const ModelN& f, const std::vector<double>& p, const Points& x, const std::vector<double>& y) {
  double s = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double r = y[i] - f(x[i], p);
    s += r * r;
  }
  return s;
}

Eigen::MatrixXd jacobian(const ModelN& f, const std::vector<double>& p, const Points& x) {
  Eigen::MatrixXd J(x.size(), p.size());
  for (size_t j = 0; j < p.size(); ++j) {
    auto q = p;
    const double h = 1e-7 * std::max(1.0, std::abs(p[j]));
    q[j] += h;
    for (size_t i = 0; i < x.size(); ++i) J(i, j) = (f(x[i], q) - f(x[i], p)) / h;
  }
  return J;
}

/// Parameters the data determine: those outside the null space of J^T J (columns scaled to unit norm, so
/// that the test does not depend on the parameters' units). A zero column is undetermined.
std::vector<bool> identifiable(const Eigen::MatrixXd& A) {
  const auto k = A.rows();
  std::vector<bool> ok(size_t(k), true);
  Eigen::VectorXd scale(k);
  for (Eigen::Index j = 0; j < k; ++j) {
    scale(j) = A(j, j) > 0 ? 1.0 / std::sqrt(A(j, j)) : 0.0;
    if (A(j, j) <= 0) ok[size_t(j)] = false;
  }
  const Eigen::MatrixXd S = scale.asDiagonal() * A * scale.asDiagonal();
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(S);
  const double top = eig.eigenvalues().cwiseAbs().maxCoeff();
  for (Eigen::Index m = 0; m < k; ++m)
    if (eig.eigenvalues()(m) <= 1e-10 * top)
      for (Eigen::Index j = 0; j < k; ++j)
        if (std::abs(eig.eigenvectors()(j, m)) > 1e-3) ok[size_t(j)] = false;
  return ok;
}
}  // namespace

FitResult fit_nonlinear(const Model& f, const std::vector<std::string>& names, std::vector<double> guess,
                        const std::vector<double>& x, const std::vector<double>& y) {
  Points points;
  for (double t : x) points.push_back({t});
  return fit_nonlinear([&f](const std::vector<double>& t, const std::vector<double>& p) { return f(t[0], p); }, names,
                       std::move(guess), points, y);
}

FitResult fit_nonlinear(const ModelN& f, const std::vector<std::string>& names, std::vector<double> p, const Points& x,
                        const std::vector<double>& y) {
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
  // Covariance over the determined parameters only; an undetermined one is NaN with an infinite error.
  const Eigen::MatrixXd J = jacobian(f, p, x);
  const std::vector<bool> ok = identifiable(J.transpose() * J);
  std::vector<Eigen::Index> kept;
  for (size_t j = 0; j < k; ++j)
    if (ok[j]) kept.push_back(Eigen::Index(j));
  Eigen::MatrixXd Jk(n, kept.size());
  for (size_t c = 0; c < kept.size(); ++c) Jk.col(Eigen::Index(c)) = J.col(kept[c]);
  const Eigen::MatrixXd cov = (Jk.transpose() * Jk).inverse() * (rss / double(n - k));
  out.std_errors.assign(k, std::numeric_limits<double>::infinity());
  for (size_t c = 0; c < kept.size(); ++c)
    out.std_errors[size_t(kept[c])] = std::sqrt(std::max(0.0, cov(Eigen::Index(c), Eigen::Index(c))));
  for (size_t j = 0; j < k; ++j)
    if (!ok[j]) out.values[j] = std::numeric_limits<double>::quiet_NaN();
  double mean = 0, tss = 0;
  for (double v : y) mean += v / double(n);
  for (double v : y) tss += (v - mean) * (v - mean);
  out.r2 = tss > 0 ? 1 - rss / tss : 1.0;
  return out;
}

std::vector<std::string> model_parameters(const std::string& model) {
  if (model == "proportional") return {"b"};
  if (model == "eq41") return {"c0", "c1", "c2"};
  for (const auto& m : model_names())
    if (m == model) return {"a", "b"};
  return {};
}

std::vector<std::string> model_names() { return {"linear", "proportional", "power", "saturating", "exponential", "eq41"}; }

std::size_t model_inputs(const std::string& model) {
  if (model == "eq41") return 3;
  for (const auto& m : model_names())
    if (m == model) return 1;
  return 0;
}

namespace {
/// The 1-D families, one formula each (fitted and evaluated alike); empty for another name.
Model family(const std::string& model) {
  if (model == "linear") return [](double t, const std::vector<double>& p) { return p[0] + p[1] * t; };
  if (model == "proportional") return [](double t, const std::vector<double>& p) { return p[0] * t; };
  if (model == "power") return [](double t, const std::vector<double>& p) { return p[0] * std::pow(t, p[1]); };
  if (model == "saturating") return [](double t, const std::vector<double>& p) { return p[0] * (1 - std::exp(-t / p[1])); };
  if (model == "exponential") return [](double t, const std::vector<double>& p) { return p[0] * std::exp(p[1] * t); };
  return {};
}
}  // namespace

FitResult fit_model(const std::string& model, const std::vector<double>& x, const std::vector<double>& y,
                    std::vector<double> guess) {
  const Model f = model == "eq41" ? Model{} : family(model);
  if (!f)
    throw std::invalid_argument(fmt::format("unknown fit model '{}' (known: linear, proportional, power, saturating, exponential; "
                                            "eq41 takes three x)", model));
  auto first_guess = [&](std::vector<double> g) { return guess.empty() ? g : guess; };
  std::vector<double> start;
  if (model == "linear") {  // a + b x: exact linear least squares, then the same error formula
    double sy = 0;
    for (double v : y) sy += v;
    start = {sy / double(y.size()), 0.0};
  } else if (model == "proportional") {
    start = {1.0};
  } else if (model == "power") {
    // start from the log-log line through the data
    std::vector<double> lx, ly;
    for (size_t i = 0; i < x.size(); ++i)
      if (x[i] > 0 && y[i] > 0) lx.push_back(std::log(x[i])), ly.push_back(std::log(y[i]));
    start = {1.0, 1.0};
    if (lx.size() >= 3) {
      auto lin = fit_model("linear", lx, ly);
      start = {std::exp(lin.values[0]), lin.values[1]};
    }
  } else if (model == "saturating") {
    double ymax = 0, xmid = 0;
    for (size_t i = 0; i < x.size(); ++i) ymax = std::max(ymax, y[i]), xmid += x[i] / double(x.size());
    start = {ymax, std::max(xmid, 1e-12)};
  } else {
    start = {1.0, 0.0};
  }
  return fit_nonlinear(f, model_parameters(model), first_guess(start), x, y);
}

namespace {
double eq41(const std::vector<double>& x, const std::vector<double>& p, const ModelSettings& s) {
  return eq41_iterations(x[0], x[1], x[2], s.tolerance, p[0], p[1], p[2], s.narrow_width);
}

void need_inputs(const std::string& model, std::size_t given) {
  if (given != model_inputs(model))
    throw std::invalid_argument(fmt::format("fit model '{}' takes {} x value{}, got {}", model, model_inputs(model),
                                            model_inputs(model) == 1 ? "" : "s", given));
}
}  // namespace

FitResult fit_model(const std::string& model, const std::vector<std::vector<double>>& x, const std::vector<double>& y,
                    std::vector<double> guess, const ModelSettings& settings) {
  if (model_inputs(model) == 0) return fit_model(model, std::vector<double>{}, y, guess);  // throws: unknown model
  for (const auto& point : x) need_inputs(model, point.size());
  if (model != "eq41") {
    std::vector<double> t;
    for (const auto& point : x) t.push_back(point[0]);
    return fit_model(model, t, y, std::move(guess));
  }
  if (!(settings.tolerance > 0)) throw std::invalid_argument(fmt::format("eq41: tolerance must be > 0, got {}", settings.tolerance));
  if (guess.empty()) {
    // A neutral start (no rate dependence, c2 = 1/2) with c0 the least-squares scale for it.
    guess = {1.0, 0.0, 0.5};
    double sgy = 0, sgg = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      const double g = eq41(x[i], guess, settings);
      sgy += g * y[i], sgg += g * g;
    }
    if (sgg > 0) guess[0] = sgy / sgg;
  }
  return fit_nonlinear([settings](const std::vector<double>& t, const std::vector<double>& p) { return eq41(t, p, settings); },
                       model_parameters(model), guess, x, y);
}

double evaluate_model(const std::string& model, const std::vector<double>& x, const std::vector<double>& p,
                      const ModelSettings& settings) {
  need_inputs(model, x.size());
  if (p.size() != model_parameters(model).size())
    throw std::invalid_argument(fmt::format("model '{}' has {} parameters, got {}", model, model_parameters(model).size(), p.size()));
  return model == "eq41" ? eq41(x, p, settings) : family(model)(x[0], p);
}

}  // namespace grainlab::pipeline
