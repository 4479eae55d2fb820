// R glue for the statistics of the weight estimators and the finite-sample
// batch study (core/estimator_stats.h, core/batch_study.h). Arguments are
// validated and recycled to a common length in R first.
#include "glue.h"
#include "core/batch_study.h"
#include "core/estimator_stats.h"

using namespace aurc;

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector weight_bias_impl(const Rcpp::NumericVector& beta,
                                     const Rcpp::NumericVector& n,
                                     const std::string& estimator) {
  const Estimator est = estimator_arg(estimator);
  const std::size_t len = static_cast<std::size_t>(beta.size());
  Rcpp::NumericVector out(beta.size());
  RInterrupt check;
  // one element can cost O(sqrt(n)): check every element
  for (std::size_t i = 0; i < len; ++i) {
    if (i % 64 == 0) check();
    out[i] = weight_bias(est, beta[i], n[i]);
  }
  return out;
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector weight_mse_impl(const Rcpp::NumericVector& rank,
                                    const Rcpp::NumericVector& n,
                                    const std::string& estimator) {
  const Estimator est = estimator_arg(estimator);
  const std::size_t len = static_cast<std::size_t>(rank.size());
  Rcpp::NumericVector out(rank.size());
  RInterrupt check;
  chunked_for(0, len, check,
              [&](std::size_t i) { out[i] = weight_mse(est, rank[i], n[i]); });
  return out;
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector mean_weight_mse_impl(const Rcpp::NumericVector& n,
                                         const std::string& estimator) {
  const Estimator est = estimator_arg(estimator);
  Rcpp::NumericVector out(n.size());
  RInterrupt check;
  for (R_xlen_t i = 0; i < n.size(); ++i) {
    check();
    out[i] = mean_weight_mse(est, n[i], check);
  }
  return out;
}

// The whole study in one call: the full set is sorted once; for each
// repetition and each batch size (in that order) the split is drawn with
// R's sample.int(n), so set.seed() reproduces it. Returns the estimates of
// every split, batch-major within a split, splits in order.
// [[Rcpp::export]]
Rcpp::NumericVector batch_study_impl(const Rcpp::NumericVector& score,
                                     const Rcpp::NumericVector& loss,
                                     const Rcpp::NumericVector& batch_sizes,
                                     const Rcpp::CharacterVector& estimators,
                                     int times,
                                     SEXP progress = R_NilValue) {
  const std::size_t n = static_cast<std::size_t>(score.size());
  std::vector<Estimator> est;
  for (R_xlen_t e = 0; e < estimators.size(); ++e)
    est.push_back(estimator_arg(Rcpp::as<std::string>(estimators[e])));
  RInterrupt check;
  BatchData d;
  prepare_batch_data(score.begin(), loss.begin(), n, d, check);

  std::size_t total = 0;
  for (R_xlen_t j = 0; j < batch_sizes.size(); ++j)
    total += (n / static_cast<std::size_t>(batch_sizes[j])) * est.size();
  total *= static_cast<std::size_t>(times);
  Rcpp::NumericVector out(static_cast<R_xlen_t>(total));

  Rcpp::Environment base = Rcpp::Environment::base_env();
  Rcpp::Function sample_int = base["sample.int"];
  std::vector<std::size_t> perm(n);
  BatchWorkspace ws;
  const RProgress report{progress};
  std::size_t at = 0;
  for (int rep = 0; rep < times; ++rep) {
    for (R_xlen_t j = 0; j < batch_sizes.size(); ++j) {
      const std::size_t b = static_cast<std::size_t>(batch_sizes[j]);
      Rcpp::IntegerVector p = sample_int(static_cast<double>(n));
      for (std::size_t i = 0; i < n; ++i)
        perm[i] = static_cast<std::size_t>(p[i] - 1);
      batch_estimates(d, perm.data(), b, est.data(), est.size(),
                      out.begin() + at, ws, check);
      at += (n / b) * est.size();
    }
    report(static_cast<std::size_t>(rep) + 1);
  }
  return out;
}
