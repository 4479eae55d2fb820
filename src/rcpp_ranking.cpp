// R glue for the bootstrap ranking: converts types, checks interrupts on the
// master thread, and calls the kernels in core/bootstrap.h and
// core/wilcoxon.h. Inputs are validated in R first (R/ranking.R).
#include "glue.h"
#include "core/bootstrap.h"
#include "core/wilcoxon.h"

using namespace aurc;

namespace {

Alternative alternative_arg(const std::string& name) {
  Alternative alt;
  if (!parse_alternative(name, alt))
    Rcpp::stop("unknown alternative '" + name + "'");
  return alt;
}

}  // namespace

// Number of threads OpenMP would allow (1 without OpenMP).
// [[Rcpp::export(rng = false)]]
int openmp_max_threads_impl() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

// score, loss: n x C (one column per method and run); indices: n x B of
// 1-based case positions, or B x n with replicate_rows; kernels and the
// option vectors: one entry per metric, as R's registry gives them
// (ranking_kernel_specs() in R/ranking-metrics.R); progress: NULL or an R
// function called with the number of replicates done. Returns B x C x M
// metric values.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector ranking_metrics_impl(const Rcpp::NumericMatrix& score,
                                         const Rcpp::NumericMatrix& loss,
                                         const Rcpp::IntegerMatrix& indices,
                                         const Rcpp::CharacterVector& kernels,
                                         const Rcpp::CharacterVector& estimator,
                                         const Rcpp::CharacterVector& method,
                                         const Rcpp::CharacterVector& optimum,
                                         const Rcpp::NumericVector& coverage,
                                         const Rcpp::NumericVector& risk,
                                         int threads,
                                         SEXP progress = R_NilValue,
                                         bool replicate_rows = false) {
  const std::size_t n = static_cast<std::size_t>(score.nrow());
  const std::size_t C = static_cast<std::size_t>(score.ncol());
  const std::size_t B = static_cast<std::size_t>(
      replicate_rows ? indices.nrow() : indices.ncol());
  const std::size_t n_idx = static_cast<std::size_t>(
      replicate_rows ? indices.ncol() : indices.nrow());
  if (n_idx != n) Rcpp::stop("indices must have one entry per case");
  const R_xlen_t n_metrics = kernels.size();
  if (estimator.size() != n_metrics || method.size() != n_metrics ||
      optimum.size() != n_metrics || coverage.size() != n_metrics ||
      risk.size() != n_metrics)
    Rcpp::stop("one set of options per metric is needed");
  std::vector<MetricSpec> entries(static_cast<std::size_t>(n_metrics));
  for (R_xlen_t m = 0; m < n_metrics; ++m) {
    const std::string name = Rcpp::as<std::string>(kernels[m]);
    if (!make_metric_spec(name, Rcpp::as<std::string>(estimator[m]),
                          Rcpp::as<std::string>(method[m]),
                          Rcpp::as<std::string>(optimum[m]), coverage[m],
                          risk[m], entries[static_cast<std::size_t>(m)]))
      Rcpp::stop("unknown kernel metric '" + name + "'");
  }
  const std::size_t M = entries.size();
  RInterrupt check;
  const bool need_loss = needs_loss_order(entries);
  std::vector<RankingColumn> cols(C);
  for (std::size_t c = 0; c < C; ++c) {
    prepare_column(score.begin() + c * n, loss.begin() + c * n, n, cols[c],
                   check, threads);
    if (need_loss)
      prepare_loss_order(loss.begin() + c * n, n, cols[c], check, threads);
  }
  Rcpp::NumericVector out(static_cast<R_xlen_t>(B * C * M));
  out.attr("dim") = Rcpp::IntegerVector::create(
      static_cast<int>(B), static_cast<int>(C), static_cast<int>(M));
  bootstrap_metrics(cols, n, indices.begin(), B, entries, threads,
                    out.begin(), check, RProgress{progress}, replicate_rows);
  return out;
}

// One paired test (for checking against stats::wilcox.test).
// [[Rcpp::export(rng = false)]]
Rcpp::List signed_rank_test_impl(const Rcpp::NumericVector& x,
                                 const Rcpp::NumericVector& y,
                                 const std::string& alternative,
                                 bool correct) {
  if (x.size() != y.size()) Rcpp::stop("x and y must have the same length");
  SignedRankWork w;
  const SignedRankResult r =
      signed_rank_test(x.begin(), y.begin(), static_cast<std::size_t>(x.size()),
                       alternative_arg(alternative), correct, w);
  return Rcpp::List::create(
      Rcpp::Named("statistic") = r.statistic,
      Rcpp::Named("p_value") = r.p_value, Rcpp::Named("n") = r.n,
      Rcpp::Named("exact") = r.exact);
}

// All ordered pairs of the columns of a replicate x method matrix.
// [[Rcpp::export(rng = false)]]
Rcpp::List signed_rank_pairs_impl(const Rcpp::NumericMatrix& values,
                                  const std::string& alternative,
                                  bool correct) {
  const std::size_t m = static_cast<std::size_t>(values.nrow());
  const std::size_t K = static_cast<std::size_t>(values.ncol());
  const std::size_t P = K * (K > 0 ? K - 1 : 0);
  Rcpp::NumericVector statistic(static_cast<R_xlen_t>(P));
  Rcpp::NumericVector p_value(static_cast<R_xlen_t>(P));
  signed_rank_pairs(values.begin(), m, K, alternative_arg(alternative),
                    correct, statistic.begin(), p_value.begin());
  return Rcpp::List::create(Rcpp::Named("statistic") = statistic,
                            Rcpp::Named("p_value") = p_value);
}

// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector holm_impl(const Rcpp::NumericVector& p) {
  Rcpp::NumericVector out(p.size());
  holm_adjust(p.begin(), static_cast<std::size_t>(p.size()), out.begin());
  return out;
}
