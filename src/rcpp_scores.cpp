// R glue for confidence scores and losses from model outputs (DEFINITIONS Sec. 5).
// The matrix or array is read in place (column-major, as R stores it);
// inputs are validated in R first. An n x K matrix of logits or
// probabilities arrives as an Armadillo matrix: `const arma::mat&` wraps
// R's memory without a copy, and the kernels in core/ read its column-major
// storage (memptr(), n_rows, n_cols). This is the one glue file that
// includes RcppArmadillo.h; the others include Rcpp.h only, which compiles
// in about half the time.
#include <RcppArmadillo.h>

#include "glue.h"
#include "core/scores.h"

using namespace aurc;

namespace {

Score score_arg(const std::string& name) {
  if (name == "msp") return Score::msp;
  if (name == "maxlogit") return Score::maxlogit;
  if (name == "margin") return Score::margin;
  if (name == "neg_entropy") return Score::neg_entropy;
  if (name == "maxlogit_pnorm") return Score::maxlogit_pnorm;
  if (name == "neg_gini") return Score::neg_gini;
  if (name == "mcd_msp") return Score::mcd_msp;
  if (name == "mcd_pe") return Score::mcd_pe;
  if (name == "mcd_mi") return Score::mcd_mi;
  Rcpp::stop("unknown score '" + name + "'");
}

Loss loss_arg(const std::string& name) {
  if (name == "zero_one") return Loss::zero_one;
  if (name == "cross_entropy") return Loss::cross_entropy;
  if (name == "brier") return Loss::brier;
  Rcpp::stop("unknown loss '" + name + "'");
}

}  // namespace

// x: n x K matrix.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector scores_impl(const arma::mat& x, const std::string& type,
                                bool logits, double temperature,
                                double p_norm) {
  const std::size_t n = x.n_rows, K = x.n_cols;
  Rcpp::NumericVector out(static_cast<R_xlen_t>(n));
  scores_matrix(x.memptr(), n, K, score_arg(type), logits, temperature, p_norm,
                out.begin(), RInterrupt());
  return out;
}

// x: S x n x K array of ensemble members' outputs (dims given).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector scores_members_impl(const Rcpp::NumericVector& x,
                                        const Rcpp::IntegerVector& dims,
                                        const std::string& type, bool logits,
                                        double temperature) {
  const std::size_t S = dims[0], n = dims[1], K = dims[2];
  Rcpp::NumericVector out(static_cast<R_xlen_t>(n));
  scores_members(x.begin(), S, n, K, score_arg(type), logits, temperature,
                 out.begin(), RInterrupt());
  return out;
}

// labels: 0-based class index per row.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector losses_impl(const arma::mat& x,
                                const Rcpp::IntegerVector& labels,
                                const std::string& type, bool logits,
                                double temperature) {
  const std::size_t n = x.n_rows, K = x.n_cols;
  Rcpp::NumericVector out(static_cast<R_xlen_t>(n));
  losses_matrix(x.memptr(), n, K, labels.begin(), loss_arg(type), logits,
                temperature, out.begin(), RInterrupt());
  return out;
}

// [[Rcpp::export(rng = false)]]
double mean_nll_impl(const arma::mat& logits,
                     const Rcpp::IntegerVector& labels, double temperature) {
  return mean_nll(logits.memptr(), logits.n_rows, logits.n_cols,
                  labels.begin(), temperature);
}
