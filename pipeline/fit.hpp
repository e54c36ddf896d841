#pragma once
// Least-squares fits of a model y = f(x; p) with standard errors; x is one value or a point of several
// (Eq. 41 of Paper I takes l, w and I).
// Linear models are solved directly (QR); nonlinear ones by Levenberg-Marquardt damped Gauss-Newton with a
// forward-difference Jacobian. Standard errors: sqrt(diag((J^T J)^-1) * RSS/(n - k)) at the optimum. A
// parameter the data cannot determine (its Jacobian column is zero or a combination of the others, e.g.
// c1 of Eq. 41 when every I = 0) gets value NaN and standard error +inf; the others keep theirs.
#include <functional>
#include <string>
#include <vector>

namespace grainlab::pipeline {

struct FitResult {
  std::vector<std::string> names;
  std::vector<double> values, std_errors;
  double rss = 0, r2 = 0;
  int iterations = 0;
  bool converged = false;
};

using Model = std::function<double(double x, const std::vector<double>& p)>;
/// A model of a point x = (x_1 ... x_m).
using ModelN = std::function<double(const std::vector<double>& x, const std::vector<double>& p)>;

FitResult fit_nonlinear(const Model& f, const std::vector<std::string>& names, std::vector<double> guess,
                        const std::vector<double>& x, const std::vector<double>& y);
/// The same least squares over points x[i] (each of the model's dimension).
FitResult fit_nonlinear(const ModelN& f, const std::vector<std::string>& names, std::vector<double> guess,
                        const std::vector<std::vector<double>>& x, const std::vector<double>& y);

/// Built-in model families: linear (a + b x), proportional (b x), power (a x^b),
/// saturating (a (1 - exp(-x/b))), exponential (a exp(b x)). Throws on an unknown name.
FitResult fit_model(const std::string& model, const std::vector<double>& x, const std::vector<double>& y,
                    std::vector<double> guess = {});

/// Settings of the models that have them: eq41's tolerance eps (000 l.666: N_it^eps is fitted at a given
/// eps, not fitted over it) and the width below which its narrow branch c2 l applies ("w >~ 5").
struct ModelSettings {
  double tolerance = 0.05;
  double narrow_width = 5.0;
};

/// Every built-in model, of one or several x: the 1-D families above and
/// eq41: c0 (1 + c1 I)/eps * (w (1 - exp(-c2 l/w)) if w >= narrow_width, else c2 l), x = (l, w, I)
/// (Paper I Eq. 41, 000 l.666; experiments/cost_model.hpp).
FitResult fit_model(const std::string& model, const std::vector<std::vector<double>>& x, const std::vector<double>& y,
                    std::vector<double> guess, const ModelSettings& settings);
/// The model's value at x with parameters p (for predictions with fitted or published coefficients).
double evaluate_model(const std::string& model, const std::vector<double>& x, const std::vector<double>& p,
                      const ModelSettings& settings = {});

std::vector<std::string> model_names();
/// Parameter names of a built-in model (empty for an unknown model).
std::vector<std::string> model_parameters(const std::string& model);
/// How many x columns a model takes (1, or 3 for eq41; 0 for an unknown model).
std::size_t model_inputs(const std::string& model);

}  // namespace grainlab::pipeline
