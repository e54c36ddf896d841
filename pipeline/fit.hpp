#pragma once
// Least-squares fits of a model y = f(x; p) with standard errors.
// Linear models are solved directly (QR); nonlinear ones by Levenberg-Marquardt damped Gauss-Newton with a
// forward-difference Jacobian. Standard errors: sqrt(diag((J^T J)^-1) * RSS/(n - k)) at the optimum.
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

FitResult fit_nonlinear(const Model& f, const std::vector<std::string>& names, std::vector<double> guess,
                        const std::vector<double>& x, const std::vector<double>& y);

/// Built-in model families: linear (a + b x), proportional (b x), power (a x^b),
/// saturating (a (1 - exp(-x/b))), exponential (a exp(b x)). Throws on an unknown name.
FitResult fit_model(const std::string& model, const std::vector<double>& x, const std::vector<double>& y,
                    std::vector<double> guess = {});

std::vector<std::string> model_names();
/// Parameter names of a built-in model (empty for an unknown model).
std::vector<std::string> model_parameters(const std::string& model);

}  // namespace grainlab::pipeline
