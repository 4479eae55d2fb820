// R glue for the smooth ECE (core/smooth_ece.h). Inputs are validated in R
// (NA and zero weights removed, confidences in [0, 1], outcomes 0/1).
#include "glue.h"
#include "core/smooth_ece.h"

using namespace aurc;

namespace {

SmoothMethod smooth_method_arg(const std::string& method) {
  if (method == "relplot") return SmoothMethod::relplot;
  if (method == "fine") return SmoothMethod::fine;
  Rcpp::stop("unknown smooth ECE method '" + method + "'");
}

}  // namespace

// smECE at bandwidth `sigma`, or (sigma NaN) at relplot's fixed point found
// by `steps` bisection steps with floor `eps`. Returns c(value, sigma).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector smooth_ece_impl(const Rcpp::NumericVector& confidence,
                                    const Rcpp::NumericVector& correct,
                                    const Rcpp::NumericVector& case_weights,
                                    double sigma, const std::string& method,
                                    double eps, int steps) {
  const std::size_t n = static_cast<std::size_t>(confidence.size());
  std::vector<double> r(n);
  double total = 0.0;
  const double* w = optional_ptr(case_weights);
  for (std::size_t i = 0; i < n; ++i) {
    r[i] = correct[i] - confidence[i];
    total += w ? w[i] : 1.0;
  }
  SmoothData d;
  d.f = confidence.begin();
  d.r = r.data();
  d.w = w;
  d.n = n;
  RInterrupt check;
  const SmoothMethod m = smooth_method_arg(method);
  if (std::isnan(sigma)) {
    SmoothResult res = smooth_ece_search(d, total, m, eps, steps, check);
    return Rcpp::NumericVector::create(res.value, res.sigma);
  }
  return Rcpp::NumericVector::create(
      smooth_ece_sigma(d, total, sigma, m, check), sigma);
}

// The smoothed residual and weight at points t (relplot: its interpolation
// at any t; fine: its own grid of `fine_eval_intervals(sigma) + 1` points,
// t ignored). Returns list(t, residual, weight): the kernel sums, not
// divided by the total weight.
// [[Rcpp::export(rng = false)]]
Rcpp::List smooth_curve_impl(const Rcpp::NumericVector& confidence,
                             const Rcpp::NumericVector& correct,
                             const Rcpp::NumericVector& case_weights,
                             double sigma, const std::string& method,
                             const Rcpp::NumericVector& t) {
  const std::size_t n = static_cast<std::size_t>(confidence.size());
  std::vector<double> r(n);
  for (std::size_t i = 0; i < n; ++i) r[i] = correct[i] - confidence[i];
  SmoothData d;
  d.f = confidence.begin();
  d.r = r.data();
  d.w = optional_ptr(case_weights);
  d.n = n;
  RInterrupt check;
  std::vector<double> at, res_t, wt_t;
  if (smooth_method_arg(method) == SmoothMethod::relplot) {
    at.assign(t.begin(), t.end());
    relplot_smooth(d, sigma, at, res_t, wt_t, check);
  } else {
    const std::size_t g = fine_eval_intervals(sigma) + 1;
    at.resize(g);
    for (std::size_t k = 0; k < g; ++k) at[k] = double(k) / double(g - 1);
    fine_smooth(d, sigma, g, res_t, wt_t, true, check);
  }
  return Rcpp::List::create(Rcpp::Named("t") = at,
                            Rcpp::Named("residual") = res_t,
                            Rcpp::Named("weight") = wt_t);
}
