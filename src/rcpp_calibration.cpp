// R glue for calibration bins (core/binning.h): one sort, one binning pass,
// per-bin sums. Inputs are validated (NA and zero weights removed) in R.
#include "glue.h"
#include "core/binning.h"
#include "core/small_sort.h"

using namespace aurc;

// binning: "breaks" (edges given: equal width or custom), "equal_mass",
// "adaptive", "ding2020". Returns per-bin sums in ascending confidence, a
// status (see AdaptiveStatus) and weighted counts of an equal-width
// histogram of `hist_bins` bins.
// [[Rcpp::export(rng = false)]]
Rcpp::List calibration_bins_impl(const Rcpp::NumericVector& confidence,
                                 const Rcpp::NumericVector& correct,
                                 const Rcpp::NumericVector& case_weights,
                                 const std::string& binning,
                                 const Rcpp::NumericVector& breaks,
                                 double n_bins, double z,
                                 double min_remaining, double min_range,
                                 double hist_bins, int threads = 1) {
  const std::size_t n = static_cast<std::size_t>(confidence.size());
  const double* w = optional_ptr(case_weights);
  const bool adaptive = binning == "adaptive" || binning == "ding2020";
  RInterrupt check;
  CalibSorted d;
  calib_sort(confidence.begin(), correct.begin(), w, n, adaptive, d, check,
             threads);

  std::vector<std::size_t> ends;
  AdaptiveStatus status = AdaptiveStatus::ok;
  if (binning == "breaks") {
    std::vector<double> edges(breaks.begin(), breaks.end());
    bins_breaks(d, edges, ends);
  } else if (binning == "equal_mass") {
    bins_equal_mass(d, static_cast<std::size_t>(n_bins), ends);
  } else if (adaptive) {
    AdaptiveSettings s;
    s.z = z;
    s.min_remaining = min_remaining;
    s.min_range = min_range;
    s.ding2020 = binning == "ding2020";
    status = bins_adaptive(d, s, ends);
  } else {
    Rcpp::stop("unknown binning '" + binning + "'");
  }
  BinStats st;
  bin_stats(d, ends, st);

  const std::size_t hk = static_cast<std::size_t>(hist_bins);
  std::vector<double> hist;
  equal_width_histogram(d, hk, hist);

  return Rcpp::List::create(
      Rcpp::Named("n") = st.n, Rcpp::Named("sum_confidence") = st.sum_x,
      Rcpp::Named("sum_correct") = st.sum_y,
      Rcpp::Named("min_confidence") = st.min_x,
      Rcpp::Named("max_confidence") = st.max_x,
      Rcpp::Named("status") = static_cast<int>(status),
      Rcpp::Named("histogram") = hist);
}

// 1-based equal-width bin of each x among k bins (the rule of
// equal_width_bin(), exposed for tests).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector equal_width_bin_impl(const Rcpp::NumericVector& x,
                                         double k) {
  Rcpp::NumericVector out(x.size());
  for (R_xlen_t i = 0; i < x.size(); ++i)
    out[i] = static_cast<double>(
        equal_width_bin(x[i], static_cast<std::size_t>(k)));
  return out;
}

// One pass over the calibration input: 1-based position of the first
// confidence outside [0, 1] and of the first `correct` that is not 0/1
// (missing values skipped), and whether anything is missing.
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector calibration_scan_impl(const Rcpp::NumericVector& confidence,
                                          SEXP correct) {
  const R_xlen_t n = confidence.size();
  double bad_conf = 0, bad_correct = 0;
  bool missing = false;
  const double* x = confidence.begin();
  for (R_xlen_t i = 0; i < n; ++i) {
    if (std::isnan(x[i])) {
      missing = true;
    } else if (bad_conf == 0 && !(x[i] >= 0.0 && x[i] <= 1.0)) {
      bad_conf = static_cast<double>(i + 1);
    }
  }
  const R_xlen_t m = Rf_xlength(correct);
  if (TYPEOF(correct) == REALSXP) {
    const double* y = REAL(correct);
    for (R_xlen_t i = 0; i < m; ++i) {
      if (std::isnan(y[i])) {
        missing = true;
      } else if (bad_correct == 0 && y[i] != 0.0 && y[i] != 1.0) {
        bad_correct = static_cast<double>(i + 1);
      }
    }
  } else if (TYPEOF(correct) == INTSXP || TYPEOF(correct) == LGLSXP) {
    const int* y = TYPEOF(correct) == INTSXP ? INTEGER(correct)
                                              : LOGICAL(correct);
    for (R_xlen_t i = 0; i < m; ++i) {
      if (y[i] == NA_INTEGER) {
        missing = true;
      } else if (bad_correct == 0 && y[i] != 0 && y[i] != 1) {
        bad_correct = static_cast<double>(i + 1);
      }
    }
  }
  return Rcpp::NumericVector::create(bad_conf, bad_correct, missing ? 1 : 0);
}

// Calibration bins of many groups in one call. Rows are ordered by group;
// group g is rows offsets[g] .. offsets[g + 1] - 1 (validated, NA and zero
// weights removed in R; every group non-empty). Same settings as
// calibration_bins_impl(). Returns the per-bin sums of all groups one after
// another, and per group `size` (bins), `status`, `ece` and `mce`.
// [[Rcpp::export(rng = false)]]
Rcpp::List calibration_grouped_impl(const Rcpp::NumericVector& confidence,
                                    const Rcpp::NumericVector& correct,
                                    const Rcpp::NumericVector& case_weights,
                                    const Rcpp::NumericVector& offsets,
                                    const std::string& binning,
                                    const Rcpp::NumericVector& breaks,
                                    double n_bins, double z,
                                    double min_remaining, double min_range,
                                    int threads = 1) {
  const std::size_t n = static_cast<std::size_t>(confidence.size());
  if (static_cast<std::size_t>(correct.size()) != n ||
      (case_weights.size() != 0 &&
       static_cast<std::size_t>(case_weights.size()) != n)) {
    Rcpp::stop("`confidence`, `correct` and `case_weights` must have the same length");
  }
  const R_xlen_t m = offsets.size();
  if (m < 1 || offsets[0] != 0.0 || offsets[m - 1] != static_cast<double>(n)) {
    Rcpp::stop("`offsets` must run from 0 to the number of rows");
  }
  for (R_xlen_t g = 1; g < m; ++g) {
    if (!(offsets[g] >= offsets[g - 1]) || offsets[g] != std::floor(offsets[g]))
      Rcpp::stop("`offsets` must be non-decreasing whole numbers");
  }
  const bool adaptive = binning == "adaptive" || binning == "ding2020";
  if (!adaptive && binning != "breaks" && binning != "equal_mass") {
    Rcpp::stop("unknown binning '" + binning + "'");
  }
  const double* w = optional_ptr(case_weights);
  const std::vector<double> edges(breaks.begin(), breaks.end());
  AdaptiveSettings s;
  s.z = z;
  s.min_remaining = min_remaining;
  s.min_range = min_range;
  s.ding2020 = binning == "ding2020";

  const std::size_t n_groups = static_cast<std::size_t>(m - 1);
  std::vector<double> bn, sx, sy, lo, hi;
  Rcpp::NumericVector size(n_groups), ece(n_groups), mce(n_groups);
  Rcpp::IntegerVector status(n_groups);
  CalibSorted d;
  std::vector<std::size_t> ends;
  BinStats st;
  std::size_t calls = 0;
  ThrottledInterrupt throttled{&calls};
  RInterrupt check;
  for (std::size_t g = 0; g < n_groups; ++g) {
    const std::size_t b = static_cast<std::size_t>(offsets[g]);
    const std::size_t len = static_cast<std::size_t>(offsets[g + 1]) - b;
    const double* wg = w ? w + b : nullptr;
    if (len >= kChunk) {
      calib_sort_any(confidence.begin() + b, correct.begin() + b, wg, len,
                     adaptive, d, check, threads);
    } else {
      throttled();
      calib_sort_any(confidence.begin() + b, correct.begin() + b, wg, len,
                     adaptive, d, throttled);
    }
    ends.clear();
    AdaptiveStatus res = AdaptiveStatus::ok;
    if (binning == "breaks") {
      bins_breaks(d, edges, ends);
    } else if (binning == "equal_mass") {
      bins_equal_mass(d, static_cast<std::size_t>(n_bins), ends);
    } else {
      res = bins_adaptive(d, s, ends);
    }
    status[g] = static_cast<int>(res);
    bin_stats(d, ends, st);
    bn.insert(bn.end(), st.n.begin(), st.n.end());
    sx.insert(sx.end(), st.sum_x.begin(), st.sum_x.end());
    sy.insert(sy.end(), st.sum_y.begin(), st.sum_y.end());
    lo.insert(lo.end(), st.min_x.begin(), st.min_x.end());
    hi.insert(hi.end(), st.max_x.begin(), st.max_x.end());
    size[g] = static_cast<double>(st.n.size());
    calibration_errors(st, ece[g], mce[g]);
  }
  return Rcpp::List::create(
      Rcpp::Named("n") = bn, Rcpp::Named("sum_confidence") = sx,
      Rcpp::Named("sum_correct") = sy, Rcpp::Named("min_confidence") = lo,
      Rcpp::Named("max_confidence") = hi, Rcpp::Named("size") = size,
      Rcpp::Named("status") = status, Rcpp::Named("ece") = ece,
      Rcpp::Named("mce") = mce);
}
