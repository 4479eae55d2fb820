// R glue for CORP reliability (core/pav.h): one sort, tie groups, PAV, the
// score decomposition; and the refit of a resampled replicate given as
// counts per tie group (no new sort). Inputs are validated in R.
#include "glue.h"
#include "core/binning.h"
#include "core/pav.h"

using namespace aurc;

namespace {

CorpScore corp_score_arg(const std::string& score) {
  if (score == "brier") return CorpScore::brier;
  if (score == "log") return CorpScore::log;
  Rcpp::stop("unknown score '" + score + "'");
}

}  // namespace

// Tie groups (ascending confidence) with their weight, row count, outcome
// sum and PAV block; the blocks; and the decomposition under `score`.
// [[Rcpp::export(rng = false)]]
Rcpp::List corp_impl(const Rcpp::NumericVector& confidence,
                     const Rcpp::NumericVector& correct,
                     const Rcpp::NumericVector& case_weights,
                     const std::string& score, bool details,
                     int threads = 1) {
  const std::size_t n = static_cast<std::size_t>(confidence.size());
  RInterrupt check;
  CalibSorted d;
  calib_sort(confidence.begin(), correct.begin(),
             optional_ptr(case_weights), n, false, d, check, threads);
  if (!details) {
    const CorpDecomposition dec =
        corp_decompose_sorted(d.x, d.y, d.w, corp_score_arg(score));
    return Rcpp::List::create(Rcpp::Named("decomposition") =
        Rcpp::NumericVector::create(
            Rcpp::Named("mean_score") = dec.mean_score,
            Rcpp::Named("mcb") = dec.mcb, Rcpp::Named("dsc") = dec.dsc,
            Rcpp::Named("unc") = dec.unc));
  }
  TieGroups g;
  tie_groups(d.x, d.y, d.w, g);
  PavFit fit;
  pav(g.weight, g.sum_y, fit);
  const CorpDecomposition dec =
      corp_decompose(g.x, g.weight, g.sum_y, fit, corp_score_arg(score));
  const Rcpp::NumericVector decomposition = Rcpp::NumericVector::create(
      Rcpp::Named("mean_score") = dec.mean_score,
      Rcpp::Named("mcb") = dec.mcb, Rcpp::Named("dsc") = dec.dsc,
      Rcpp::Named("unc") = dec.unc);
  std::vector<double> count(g.count.begin(), g.count.end());
  std::vector<double> block(fit.block_of.size());
  for (std::size_t k = 0; k < block.size(); ++k)
    block[k] = double(fit.block_of[k] + 1);
  std::vector<double> first(fit.first.size()), last(fit.last.size());
  for (std::size_t b = 0; b < first.size(); ++b) {
    first[b] = double(fit.first[b] + 1);
    last[b] = double(fit.last[b] + 1);
  }
  return Rcpp::List::create(
      Rcpp::Named("x") = g.x, Rcpp::Named("weight") = g.weight,
      Rcpp::Named("count") = count, Rcpp::Named("sum_y") = g.sum_y,
      Rcpp::Named("block") = block, Rcpp::Named("block_first") = first,
      Rcpp::Named("block_last") = last,
      Rcpp::Named("block_weight") = fit.weight,
      Rcpp::Named("block_mean") = fit.mean,
      Rcpp::Named("decomposition") = decomposition);
}

// One resampled replicate over the tie groups at x (ascending): `weight`
// resampled cases and `ones` resampled outcomes per group. Returns the PAV
// fit at every group present (weight > 0), linearly interpolated in x at
// the absent groups between present ones, NA outside them.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector corp_refit_impl(const Rcpp::NumericVector& x,
                                    const Rcpp::NumericVector& weight,
                                    const Rcpp::NumericVector& ones) {
  const std::size_t m = static_cast<std::size_t>(x.size());
  std::vector<double> w(weight.begin(), weight.end());
  std::vector<double> s(ones.begin(), ones.end());
  PavFit fit;
  pav(w, s, fit);
  Rcpp::NumericVector out(m, NA_REAL);
  std::size_t prev = m;  // last present group
  for (std::size_t k = 0; k < m; ++k) {
    if (!(w[k] > 0)) continue;
    const double v = fit.mean[fit.block_of[k]];
    out[k] = v;
    if (prev != m && k > prev + 1) {
      const double v0 = out[prev];
      for (std::size_t j = prev + 1; j < k; ++j)
        out[j] = v0 + (v - v0) * ((x[j] - x[prev]) / (x[k] - x[prev]));
    }
    prev = k;
  }
  return out;
}

// The decomposition from per-row tie-group ids (1-based, into the groups of
// corp_impl(), confidences gx), outcomes and weights (a bootstrap replicate:
// case weights times counts). Linear: group sums, PAV, decomposition; no
// sort. Returns c(mean_score, mcb, dsc, unc).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector corp_groups_impl(const Rcpp::NumericVector& gx,
                                     const Rcpp::IntegerVector& group,
                                     const Rcpp::NumericVector& correct,
                                     const Rcpp::NumericVector& weight,
                                     const std::string& score) {
  const std::size_t m = static_cast<std::size_t>(gx.size());
  std::vector<double> x(gx.begin(), gx.end());
  std::vector<double> wt(m, 0.0), sy(m, 0.0);
  const R_xlen_t n = group.size();
  for (R_xlen_t i = 0; i < n; ++i) {
    const std::size_t g = static_cast<std::size_t>(group[i] - 1);
    wt[g] += weight[i];
    sy[g] += weight[i] * correct[i];
  }
  // groups that the replicate left empty drop out
  std::vector<double> xs, ws, ss;
  for (std::size_t g = 0; g < m; ++g) {
    if (!(wt[g] > 0)) continue;
    xs.push_back(x[g]);
    ws.push_back(wt[g]);
    ss.push_back(sy[g]);
  }
  PavFit fit;
  pav(ws, ss, fit);
  const CorpDecomposition dec =
      corp_decompose(xs, ws, ss, fit, corp_score_arg(score));
  return Rcpp::NumericVector::create(dec.mean_score, dec.mcb, dec.dsc,
                                     dec.unc);
}
