// R glue for the metrics of DEFINITIONS Secs. 3 and 4: sorts once, then streams
// every requested metric over the tie groups of the sorted data (no tie
// group is materialised). Inputs are validated (and NA removed) in R first.
#include "glue.h"
#include "core/augrc.h"
#include "core/contribution.h"
#include "core/curve.h"
#include "core/failure.h"
#include "core/metric_name.h"
#include "core/replicate_metrics.h"
#include "core/oracle.h"
#include "core/partial.h"
#include "core/working_points.h"
#include "core/small_sort.h"

using namespace aurc;

namespace {

// Buffers reused across calls (and across the groups of a grouped call), so
// many small groups cost no allocation each. The scores and the losses (for
// the oracle order) have buffers of their own: the metrics stream over the
// sorted scores while the losses are sorted.
struct MetricWorkspace {
  SortedLoss sorted, sorted_loss;
  Presorted presorted, presorted_loss;
  GroupVectors by_loss;
  int threads = 1;  // for the sorts (radix_sort(): large inputs only)
};

// Groups of equal loss in ascending loss, for the oracle order. 0/1 losses
// need no sort: two groups.
template <class Check>
void loss_groups(const double* loss, const double* w, std::size_t n,
                 MetricWorkspace& ws, Check& check) {
  GroupVectors& out = ws.by_loss;
  bool binary = true;
  double c0 = 0.0, c1 = 0.0;
  for (std::size_t i = 0; i < n && binary; ++i) {
    const double wi = w ? w[i] : 1.0;
    if (loss[i] == 0.0) c0 += wi;
    else if (loss[i] == 1.0) c1 += wi;
    else binary = false;
  }
  if (binary) {
    out.count = {c0, c1};
    out.loss = {0.0, c1};
    return;
  }
  if (!w) {
    sort_with_loss_any(loss, loss, n, ws.sorted_loss, check, ws.threads);
    collect_groups(ws.sorted_loss, out);
    return;
  }
  presort_any(loss, n, ws.presorted_loss, check, ws.threads);
  collect_groups(PresortedGroups{ws.presorted_loss, loss, w}, out);
}

// The metrics asked for, each a MetricSpec (core/replicate_metrics.h: the
// one C++ description of a metric with its options, shared with the
// bootstrap engines), decoded once from the kernel names R's registry
// gives ("prr@0.5") and the shared options.
struct MetricRequest {
  std::vector<MetricSpec> specs;
  Estimator est = Estimator::alpha;  // shared by every metric of a call
};

MetricRequest metric_request(const Rcpp::CharacterVector& metrics,
                             const std::string& estimator,
                             const std::string& method,
                             const std::string& optimum, double coverage,
                             double risk) {
  MetricRequest req;
  for (R_xlen_t j = 0; j < metrics.size(); ++j) {
    const std::string name = Rcpp::as<std::string>(metrics[j]);
    MetricSpec spec;
    if (!make_metric_spec(name, estimator, method, optimum, coverage, risk,
                          spec) ||
        !streams_over_groups(spec.kind))
      Rcpp::stop("unknown metric '" + name + "'");
    req.est = spec.estimator;
    req.specs.push_back(spec);
  }
  return req;
}

// Every requested metric over a group source of the sorted scores
// (SortedLoss or PresortedGroups; `n` its total weight), written to
// out[0 .. codes.size()). Each metric is one streaming pass, as aurc_vec()
// is; the mean loss is computed only when a metric needs it. Returns the
// coverage achieved by risk_at_coverage (NaN if not asked).
template <class Source, class Check>
double metrics_on(const Source& groups, double n, const double* loss,
                  const double* w, std::size_t len, const MetricRequest& req,
                  MetricWorkspace& ws, Check& check, double* out) {
  bool have_mean = false, have_aurc = false, have_oracle = false;
  double mean_value = std::nan(""), aurc_value = std::nan(""),
         oracle_value = std::nan("");
  // every metric and every shared quantity is one pass over the tie
  // groups, with an interrupt check before it (the passes themselves have
  // none: core/ties.h)
  auto get_mean = [&]() {
    if (!have_mean) {
      check();
      mean_value = total_loss(groups) / n;
    }
    have_mean = true;
    return mean_value;
  };
  auto get_aurc = [&]() {
    if (!have_aurc) {
      check();
      aurc_value = aurc_estimate(req.est, groups, n);
    }
    have_aurc = true;
    return aurc_value;
  };
  bool have_loss_groups = false;
  auto ensure_loss_groups = [&]() {
    if (!have_loss_groups) loss_groups(loss, w, len, ws, check);
    have_loss_groups = true;
  };
  auto get_oracle = [&]() {
    if (!have_oracle) {
      ensure_loss_groups();
      oracle_value = aurc_oracle(req.est, ws.by_loss, n);
    }
    have_oracle = true;
    return oracle_value;
  };
  double achieved = std::nan("");
  for (std::size_t j = 0; j < req.specs.size(); ++j) {
    const MetricSpec& m = req.specs[j];
    double v = std::numeric_limits<double>::quiet_NaN();
    check();
    switch (m.kind) {
      case MetricKind::aurc:
        v = get_aurc();
        break;
      case MetricKind::eaurc:
        v = get_aurc() - (m.asymptotic ? aurc_asymptotic_optimum(get_mean())
                                         : get_oracle());
        break;
      case MetricKind::eaugrc: {
        const double ml = get_mean();
        v = augrc_trapezoid(groups, n) - 0.5 * ml * ml;
        break;
      }
      case MetricKind::naurc: {
        const double optimum = get_oracle();  // (the loss groups too)
        v = loss_is_constant(ws.by_loss)
                ? std::numeric_limits<double>::quiet_NaN()
                : naurc_value(get_aurc(), optimum, get_mean());
        break;
      }
      case MetricKind::mean_loss:
        v = get_mean();
        break;
      case MetricKind::auarc:
        v = 1.0 - get_aurc();
        break;
      case MetricKind::prr:
        ensure_loss_groups();
        v = prr_value(groups, ws.by_loss, n, m.max_rejection, m.prr_ties);
        break;
      default:  // the metrics of the score's tie groups alone
        score_group_metric(m, groups, n, v, achieved);
        break;
    }
    out[j] = v;
  }
  return achieved;
}

// Every requested metric of one sample (a whole vector or one group's
// slice) after one sort of its scores. `w` null: unit weights.
template <class Check>
double evaluate_metrics(const double* score, const double* loss,
                        const double* w, std::size_t len,
                        const MetricRequest& req, MetricWorkspace& ws,
                        Check& check, double* out) {
  if (!w) {
    sort_with_loss_any(score, loss, len, ws.sorted, check, ws.threads);
    return metrics_on(ws.sorted, static_cast<double>(len), loss, w, len, req,
                      ws, check, out);
  }
  presort_any(score, len, ws.presorted, check, ws.threads);
  double total = 0.0;
  for (std::size_t i = 0; i < len; ++i) total += w[i];
  return metrics_on(PresortedGroups{ws.presorted, loss, w}, total, loss, w,
                    len, req, ws, check, out);
}

// Group boundaries: offsets[g] .. offsets[g + 1] (0-based, non-decreasing,
// from 0 to n, the common length of the columns). Checked before any
// access.
std::vector<std::size_t> group_offsets(const Rcpp::NumericVector& offsets,
                                       std::size_t n, std::size_t n_loss,
                                       const Rcpp::NumericVector& weights) {
  if (n_loss != n ||
      (weights.size() != 0 && static_cast<std::size_t>(weights.size()) != n)) {
    Rcpp::stop("`score`, `loss` and `case_weights` must have the same length");
  }
  const R_xlen_t m = offsets.size();
  if (m < 1) Rcpp::stop("`offsets` must have at least one element");
  std::vector<std::size_t> out(static_cast<std::size_t>(m));
  double prev = 0.0;
  for (R_xlen_t g = 0; g < m; ++g) {
    const double o = offsets[g];
    if (!(o >= prev) || o > static_cast<double>(n) || o != std::floor(o)) {
      Rcpp::stop("`offsets` must be non-decreasing whole numbers within the data");
    }
    if (g == 0 && o != 0.0) Rcpp::stop("`offsets` must start at 0");
    out[static_cast<std::size_t>(g)] = static_cast<std::size_t>(o);
    prev = o;
  }
  if (out.back() != n) Rcpp::stop("`offsets` must end at the number of rows");
  return out;
}

}  // namespace

// Every requested metric from one sort of the scores (and, only for the
// exact optimum of eaurc/naurc, one of the losses). Returns the values in
// the order of `metrics` and the coverage achieved by risk_at_coverage.
// [[Rcpp::export(rng = false)]]
Rcpp::List metrics_impl(const Rcpp::NumericVector& score,
                        const Rcpp::NumericVector& loss,
                        const Rcpp::NumericVector& case_weights,
                        const Rcpp::CharacterVector& metrics,
                        const std::string& estimator,
                        const std::string& method,
                        const std::string& optimum, double coverage,
                        double risk, int threads = 1) {
  const MetricRequest req =
      metric_request(metrics, estimator, method, optimum, coverage, risk);
  MetricWorkspace ws;
  ws.threads = threads;
  RInterrupt check;
  Rcpp::NumericVector out(metrics.size());
  const double achieved = evaluate_metrics(
      score.begin(), loss.begin(), optional_ptr(case_weights),
      static_cast<std::size_t>(score.size()), req, ws, check, out.begin());
  return Rcpp::List::create(Rcpp::_["values"] = out,
                            Rcpp::_["achieved_coverage"] = achieved);
}

// The same metrics for many groups in one call. The rows are ordered by
// group; group g is rows offsets[g] .. offsets[g + 1] - 1. Groups of total
// weight 0 (or no rows) get NA and are flagged in `empty`; the caller warns.
// Returns `values`, a groups x metrics matrix, `achieved_coverage` per group
// and `empty`.
// [[Rcpp::export(rng = false)]]
Rcpp::List metrics_grouped_impl(SEXP score_column, SEXP loss_column,
                                const Rcpp::NumericVector& case_weights,
                                const Rcpp::NumericVector& offsets,
                                const Rcpp::CharacterVector& metrics,
                                const std::string& estimator,
                                const std::string& method,
                                const std::string& optimum, double coverage,
                                double risk, int threads = 1) {
  const DoubleColumn score(score_column), loss(loss_column);
  const std::vector<std::size_t> off =
      group_offsets(offsets, score.size(), loss.size(), case_weights);
  const MetricRequest req =
      metric_request(metrics, estimator, method, optimum, coverage, risk);
  const std::size_t n_groups = off.size() - 1;
  const std::size_t m = req.specs.size();
  Rcpp::NumericMatrix values(static_cast<int>(n_groups), static_cast<int>(m));
  Rcpp::NumericVector achieved(n_groups);
  Rcpp::LogicalVector empty(n_groups);
  const double* w = optional_ptr(case_weights);
  MetricWorkspace ws;
  ws.threads = threads;
  std::vector<double> row(m);
  std::size_t calls = 0;
  ThrottledInterrupt throttled{&calls};
  RInterrupt check;
  for (std::size_t g = 0; g < n_groups; ++g) {
    const std::size_t b = off[g], len = off[g + 1] - off[g];
    double total = static_cast<double>(len);
    if (w) {
      total = 0.0;
      for (std::size_t i = b; i < b + len; ++i) total += w[i];
    }
    if (!(total > 0.0)) {
      empty[g] = true;
      achieved[g] = NA_REAL;
      for (std::size_t j = 0; j < m; ++j) values(g, j) = NA_REAL;
      throttled();
      continue;
    }
    const double* wg = w ? w + b : nullptr;
    achieved[g] = len >= kChunk
        ? evaluate_metrics(score.begin() + b, loss.begin() + b, wg, len, req,
                           ws, check, row.data())
        : evaluate_metrics(score.begin() + b, loss.begin() + b, wg, len, req,
                           ws, throttled, row.data());
    for (std::size_t j = 0; j < m; ++j) values(g, j) = row[j];
  }
  return Rcpp::List::create(Rcpp::_["values"] = values,
                            Rcpp::_["achieved_coverage"] = achieved,
                            Rcpp::_["empty"] = empty);
}

namespace {

// Appends the risk-coverage curve of one sample (distinct thresholds,
// descending; groups of zero weight are not thresholds) to the three
// vectors; returns the total weight.
template <class Check>
double append_rc_curve(const double* score, const double* loss,
                       const double* w, std::size_t n, MetricWorkspace& ws,
                       Check& check, std::vector<double>& thr,
                       std::vector<double>& acc, std::vector<double>& los) {
  CurveSums sums;
  const work_vector<std::uint64_t>* keys;
  double total = 0.0;
  if (!w) {
    sort_with_loss_any(score, loss, n, ws.sorted, check, ws.threads);
    rc_curve_sums(ws.sorted, sums);
    keys = &ws.sorted.keys;
    total = static_cast<double>(n);
  } else {
    presort_any(score, n, ws.presorted, check, ws.threads);
    rc_curve_sums(PresortedGroups{ws.presorted, loss, w}, sums);
    keys = &ws.presorted.keys;
    for (std::size_t i = 0; i < n; ++i) total += w[i];
  }
  std::size_t g = 0;
  for_each_run_reverse(*keys, [&](std::size_t b, std::size_t) {
    if (sums.count[g] > 0.0) {
      thr.push_back(key_to_double((*keys)[b]));
      acc.push_back(sums.accepted[g]);
      los.push_back(sums.loss_accepted[g]);
    }
    ++g;
  });
  return total;
}

}  // namespace

// The risk-coverage curve at every distinct threshold, descending.
// [[Rcpp::export(rng = false)]]
Rcpp::List rc_curve_impl(const Rcpp::NumericVector& score,
                         const Rcpp::NumericVector& loss,
                         const Rcpp::NumericVector& case_weights,
                         int threads = 1) {
  MetricWorkspace ws;
  ws.threads = threads;
  RInterrupt check;
  std::vector<double> thr, acc, los;
  const double total = append_rc_curve(
      score.begin(), loss.begin(), optional_ptr(case_weights),
      static_cast<std::size_t>(score.size()), ws, check, thr, acc, los);
  return Rcpp::List::create(Rcpp::_["threshold"] = thr,
                            Rcpp::_["n_accepted"] = acc,
                            Rcpp::_["loss_accepted"] = los,
                            Rcpp::_["n"] = total);
}

// One risk-coverage curve per group, rows ordered by group as for
// metrics_grouped_impl(). Returns the curves one after another and, per
// group, the number of points `size` and the total weight `n`.
// [[Rcpp::export(rng = false)]]
Rcpp::List rc_curve_grouped_impl(const Rcpp::NumericVector& score,
                                 const Rcpp::NumericVector& loss,
                                 const Rcpp::NumericVector& case_weights,
                                 const Rcpp::NumericVector& offsets,
                                 int threads = 1) {
  const std::vector<std::size_t> off = group_offsets(
      offsets, static_cast<std::size_t>(score.size()),
      static_cast<std::size_t>(loss.size()), case_weights);
  const std::size_t n_groups = off.size() - 1;
  const double* w = optional_ptr(case_weights);
  MetricWorkspace ws;
  ws.threads = threads;
  std::vector<double> thr, acc, los;
  thr.reserve(static_cast<std::size_t>(score.size()));
  acc.reserve(thr.capacity());
  los.reserve(thr.capacity());
  Rcpp::NumericVector size(n_groups), total(n_groups);
  std::size_t calls = 0;
  ThrottledInterrupt throttled{&calls};
  RInterrupt check;
  for (std::size_t g = 0; g < n_groups; ++g) {
    const std::size_t b = off[g], len = off[g + 1] - off[g];
    const std::size_t before = thr.size();
    const double* wg = w ? w + b : nullptr;
    total[g] = len >= kChunk
        ? append_rc_curve(score.begin() + b, loss.begin() + b, wg, len, ws,
                          check, thr, acc, los)
        : append_rc_curve(score.begin() + b, loss.begin() + b, wg, len, ws,
                          throttled, thr, acc, los);
    size[g] = static_cast<double>(thr.size() - before);
  }
  return Rcpp::List::create(Rcpp::_["threshold"] = thr,
                            Rcpp::_["n_accepted"] = acc,
                            Rcpp::_["loss_accepted"] = los,
                            Rcpp::_["size"] = size, Rcpp::_["n"] = total);
}

// Per-position failure contributions (Traub et al., App. A.1.1).
// [[Rcpp::export(rng = false)]]
Rcpp::List contribution_impl(double n) {
  const std::size_t m = static_cast<std::size_t>(n);
  Rcpp::NumericVector a(m), trap(m), step(m);
  failure_contributions(m, a.begin(), trap.begin(), step.begin());
  return Rcpp::List::create(Rcpp::_["aurc"] = a, Rcpp::_["augrc"] = trap,
                            Rcpp::_["augrc_step"] = step);
}

namespace {

// The group vectors of prr_groups_impl() and prr_parts_impl(); returns the
// total count.
double prr_groups(const Rcpp::NumericVector& score_count,
                  const Rcpp::NumericVector& score_loss,
                  const Rcpp::NumericVector& loss_count,
                  const Rcpp::NumericVector& loss_sum, GroupVectors& by_score,
                  GroupVectors& by_loss) {
  if (score_count.size() != score_loss.size() ||
      loss_count.size() != loss_sum.size()) {
    Rcpp::stop("group counts and sums must have the same length");
  }
  by_score.count.assign(score_count.begin(), score_count.end());
  by_score.loss.assign(score_loss.begin(), score_loss.end());
  by_loss.count.assign(loss_count.begin(), loss_count.end());
  by_loss.loss.assign(loss_sum.begin(), loss_sum.end());
  double n = 0.0;
  for (double c : by_score.count) n += c;
  return n;
}

}  // namespace

// PRR (src/core/partial.h) from collected groups: the tie groups of the
// score in ascending score (counts and loss sums) and the groups of equal
// loss in ascending loss (counts and loss sums), as a score table holds
// them (R/score-table.R).
// [[Rcpp::export(rng = false)]]
double prr_groups_impl(const Rcpp::NumericVector& score_count,
                       const Rcpp::NumericVector& score_loss,
                       const Rcpp::NumericVector& loss_count,
                       const Rcpp::NumericVector& loss_sum,
                       double max_rejection) {
  GroupVectors by_score, by_loss;
  const double n = prr_groups(score_count, score_loss, loss_count, loss_sum,
                              by_score, by_loss);
  return prr_value(by_score, by_loss, n, max_rejection);
}

// The three parts of PRR (src/core/partial.h) from groups as in
// prr_groups_impl(): the mean loss m, the mean step risk A over the
// rejection window and its oracle value A*, PRR = (m - A) / (m - A*). For
// the influence function of PRR (R/ci-influence-prr.R).
// [[Rcpp::export(rng = false)]]
Rcpp::NumericVector prr_parts_impl(const Rcpp::NumericVector& score_count,
                                   const Rcpp::NumericVector& score_loss,
                                   const Rcpp::NumericVector& loss_count,
                                   const Rcpp::NumericVector& loss_sum,
                                   double max_rejection) {
  GroupVectors by_score, by_loss;
  const double n = prr_groups(score_count, score_loss, loss_count, loss_sum,
                              by_score, by_loss);
  const double width = max_rejection * n, a = n - width;
  return Rcpp::NumericVector::create(
      Rcpp::_["mean"] = total_loss(by_score) / n,
      Rcpp::_["area"] = step_window(by_score, a, n) / width,
      Rcpp::_["optimum"] = oracle_step_window(by_loss, a, n) / width);
}
