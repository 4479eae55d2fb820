// Empirical influence functions of every metric (DEFINITIONS Sec. 11), after one
// sort of the scores (and, for the oracle of E-AURC / NAURC, one of the
// losses).
//
// Every metric T is a function of the case weights w through the tie-group
// sums c_g = sum_{i in g} w_i and s_g = sum_{i in g} w_i loss_i (ascending
// score groups, see ties.h). The empirical influence value of sample i is
// the derivative of T at the weighted empirical distribution P_n in the
// direction of a point mass at sample i,
//   IF_i = d/de T((1 - e) P_n + e delta_i) |_{e = 0}
//        = N dT/dw_i - sum_j w_j dT/dw_j,          N = sum_j w_j,
// and because sample i enters only through its own group,
//   N dT/dw_i = a_g + b_g loss_i,  a_g = N dT/dc_g,  b_g = N dT/ds_g.
// Each kernel below returns (a_g, b_g) per group from one or two linear
// passes (prefix and suffix sums); metric_influence() scatters them back to
// the samples (input order) and centres them (the second term, which is
// zero for the functionals that depend on P_n only). For those (alpha,
// sele, AUGRC, failure AUROC and AUPR, ECE) this is exactly the von Mises
// derivative at P_n; for V-statistics it is the first-order Hoeffding
// projection; integer weights give exactly the values of repeated rows.
// The kernels are in influence_kernels.h; the derivations are written out
// in R/ci-influence.R (the help page).
#ifndef AURC_CORE_INFLUENCE_H
#define AURC_CORE_INFLUENCE_H

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "binning.h"
#include "influence_kernels.h"
#include "ties.h"

namespace aurc {

// ---- the driver ----

// Per-group coefficients of one score-group metric (everything but ECE and
// the oracle part of E-AURC / NAURC).
inline void score_group_influence(Metric m, const InfluenceOptions& o,
                                  const GroupVectors& gv, double N,
                                  GroupInfluence& out) {
  switch (m) {
    case Metric::aurc:
    case Metric::eaurc:
    case Metric::naurc:
      if (o.estimator == Estimator::alpha) influence_alpha(gv, N, out);
      else if (o.estimator == Estimator::trapezoid)
        influence_aurc_trapezoid(gv, N, out);
      else influence_rank(o.estimator, gv, N, out);
      break;
    case Metric::augrc:
      if (o.step) influence_rank(Estimator::sele, gv, N, out);
      else influence_augrc(gv, N, out);
      break;
    case Metric::eaugrc: {
      influence_augrc(gv, N, out);
      const double mu = total_loss(gv) / N;
      for (std::size_t g = 0; g < out.a.size(); ++g) {
        out.a[g] += mu * mu;
        out.b[g] -= mu;
      }
      out.estimate -= 0.5 * mu * mu;
      break;
    }
    case Metric::failure_auroc: influence_auroc(gv, N, out); break;
    case Metric::failure_aupr: influence_aupr(gv, N, out); break;
    case Metric::risk_at_coverage:
      influence_risk_at_coverage(gv, N, o.coverage, out);
      break;
    case Metric::coverage_at_risk:
      influence_coverage_at_risk(gv, N, o.risk, out);
      break;
    case Metric::mean_loss: {
      out.reset(gv.count.size());
      const double mu = total_loss(gv) / N;
      for (std::size_t g = 0; g < out.a.size(); ++g) {
        out.a[g] = -mu;
        out.b[g] = 1.0;
      }
      out.estimate = mu;
      break;
    }
    default: break;
  }
}

// Writes out[i] = a[g(i)] + b[g(i)] loss[i] in input order.
inline void scatter_groups(const Presorted& p, const double* loss,
                           const GroupInfluence& gi, double* out) {
  std::size_t g = 0;
  for_each_run(p.keys, [&](std::size_t b, std::size_t e) {
    for (std::size_t k = b; k < e; ++k) {
      const std::size_t i = p.order[k];
      out[i] = gi.a[g] + gi.b[g] * loss[i];
    }
    ++g;
  });
}

// Subtracts the weighted mean (null weight = 1 per sample).
inline void centre(double* x, const double* w, std::size_t n, double N) {
  double s = 0.0;
  for (std::size_t i = 0; i < n; ++i) s += (w ? w[i] : 1.0) * x[i];
  const double mean = s / N;
  for (std::size_t i = 0; i < n; ++i) x[i] -= mean;
}

// ECE with equal-width bins, confidence = score in [0, 1], correct =
// 1 - loss: ECE = sum_b |G_b| / N with G_b = sum_{i in b} w_i (correct_i -
// confidence_i), so IF_i = sign(G_b(i)) (correct_i - confidence_i) - ECE.
// With `edges` (ascending upper edges) the bins are those edges instead of
// k equal-width bins.
inline double ece_influence(const double* score, const double* loss,
                            const double* w, std::size_t n, std::size_t k,
                            double N, double* out,
                            const std::vector<double>& edges = {}) {
  if (!edges.empty()) k = edges.size();
  std::vector<double> gap(k, 0.0);
  std::vector<std::size_t> bin(n);
  for (std::size_t i = 0; i < n; ++i) {
    bin[i] = (edges.empty() ? equal_width_bin(score[i], k)
                            : edge_bin(score[i], edges)) - 1;
    gap[bin[i]] += (w ? w[i] : 1.0) * ((1.0 - loss[i]) - score[i]);
  }
  double ece = 0.0;
  for (double g : gap) ece += std::fabs(g);
  ece /= N;
  for (std::size_t i = 0; i < n; ++i) {
    const double gb = gap[bin[i]];
    const double sg = gb > 0.0 ? 1.0 : (gb < 0.0 ? -1.0 : 0.0);
    out[i] = sg * ((1.0 - loss[i]) - score[i]) - ece;
  }
  return ece;
}

// Sorted data shared by all metrics of one score vector.
struct InfluenceData {
  const double* score;
  const double* loss;
  const double* weight;  // null: every sample weight 1
  std::size_t n;
  double N;
  Presorted by_score;
  GroupVectors groups;
  bool have_loss_groups = false;
  Presorted by_loss;
  GroupVectors loss_groups;
  int threads = 1;  // for the sorts
};

template <class Check = NoCheck>
void prepare_influence(const double* score, const double* loss,
                       const double* weight, std::size_t n, InfluenceData& d,
                       Check check = Check(), int threads = 1) {
  d.threads = threads;
  d.score = score;
  d.loss = loss;
  d.weight = weight;
  d.n = n;
  double N = 0.0;
  if (weight) {
    for (std::size_t i = 0; i < n; ++i) N += weight[i];
  } else {
    N = double(n);
  }
  d.N = N;
  presort(score, n, d.by_score, check, threads);
  collect_groups(PresortedGroups{d.by_score, loss, weight}, d.groups);
}

template <class Check = NoCheck>
void ensure_loss_groups(InfluenceData& d, Check check = Check()) {
  if (d.have_loss_groups) return;
  presort(d.loss, d.n, d.by_loss, check, d.threads);
  collect_groups(PresortedGroups{d.by_loss, d.loss, d.weight}, d.loss_groups);
  d.have_loss_groups = true;
}

// The estimate of metric m (the same value as the point-estimate kernels)
// and the centred influence values in input order (out: n doubles). NaN
// estimate (and influence) when the metric is undefined.
template <class Check = NoCheck>
double metric_influence(InfluenceData& d, Metric m, const InfluenceOptions& o,
                        double* out, Check check = Check()) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::size_t n = d.n;
  const double N = d.N;
  if (!(N > 0.0)) {
    for (std::size_t i = 0; i < n; ++i) out[i] = nan;
    return nan;
  }
  if (m == Metric::ece) {
    const double v = ece_influence(d.score, d.loss, d.weight, n, o.n_bins, N,
                                   out, o.edges);
    centre(out, d.weight, n, N);
    return v;
  }
  GroupInfluence gi;
  score_group_influence(m, o, d.groups, N, gi);
  double estimate = gi.estimate;
  if (std::isnan(estimate)) {
    for (std::size_t i = 0; i < n; ++i) out[i] = nan;
    return nan;
  }
  if (m == Metric::coverage_at_risk && !gi.a.empty() && std::isnan(gi.a[0])) {
    for (std::size_t i = 0; i < n; ++i) out[i] = nan;
    return estimate;
  }
  scatter_groups(d.by_score, d.loss, gi, out);
  centre(out, d.weight, n, N);
  if (m == Metric::eaurc || m == Metric::naurc) {
    const double mu = total_loss(d.groups) / N;
    std::vector<double> oracle_if(n);
    double optimum;
    if (m == Metric::eaurc && o.asymptotic) {
      optimum = aurc_asymptotic_optimum(mu);
      const double slope = -std::log1p(-mu);
      for (std::size_t i = 0; i < n; ++i)
        oracle_if[i] = slope * (d.loss[i] - mu);
    } else {
      ensure_loss_groups(d, check);
      optimum = aurc_oracle(o.estimator, d.loss_groups, N);
      std::vector<double> block;
      influence_oracle(o.estimator, d.loss_groups, N, block);
      std::size_t k = 0;
      for_each_run(d.by_loss.keys, [&](std::size_t b, std::size_t e) {
        for (std::size_t j = b; j < e; ++j)
          oracle_if[d.by_loss.order[j]] = block[k];
        ++k;
      });
      centre(oracle_if.data(), d.weight, n, N);
    }
    if (m == Metric::eaurc) {
      for (std::size_t i = 0; i < n; ++i) out[i] -= oracle_if[i];
      estimate -= optimum;
    } else {
      // NAURC = (A - A*) / (mu - A*): the delta method
      const double den = mu - optimum;
      if (!(den > 0.0) || loss_is_constant(d.loss_groups)) {
        for (std::size_t i = 0; i < n; ++i) out[i] = nan;
        return nan;
      }
      const double num = estimate - optimum;
      for (std::size_t i = 0; i < n; ++i) {
        const double if_mu = d.loss[i] - mu;
        out[i] = (out[i] - oracle_if[i]) / den -
                 num * (if_mu - oracle_if[i]) / (den * den);
      }
      estimate = num / den;
    }
  }
  return estimate;
}

// The estimate and standard error of metric m when the influence values
// themselves are not wanted (selective_ci() without weights, strata or
// clusters): the scores sorted with the loss as payload, as the point
// estimate sorts them, and the influence value of each case read in
// sorted order. The standard error is a sum over the cases, so their order
// does not matter; this skips the gather of the losses and the scatter
// back to input order, two random-access passes that cost more than the
// sort at n = 1e6. Returns false for the metrics whose influence values
// need more than the score groups and the losses (ECE, coverage at risk);
// the caller then takes metric_influence().
inline bool sorted_only_metric(Metric m) {
  return m != Metric::ece && m != Metric::coverage_at_risk;
}

// The oracle's part of the influence values of E-AURC and NAURC, by the
// position of each case in `sl` (metric_influence() writes them in input
// order): the losses sorted once more, with their positions in `sl`.
// Returns the oracle's AURC and whether the loss is constant.
template <class Check>
double oracle_by_position(const SortedLoss& sl, const InfluenceOptions& o,
                          double N, double mu, std::vector<double>& out,
                          bool& constant, Check& check) {
  const std::size_t n = sl.loss.size();
  out.assign(n, 0.0);
  if (o.asymptotic) {
    const double slope = -std::log1p(-mu);
    for (std::size_t k = 0; k < n; ++k) out[k] = slope * sl.loss[k];
    constant = false;
    return aurc_asymptotic_optimum(mu);
  }
  Presorted by_loss;
  presort(sl.loss.data(), n, by_loss, check);
  GroupVectors groups;
  collect_groups(PresortedGroups{by_loss, sl.loss.data(), nullptr}, groups);
  constant = loss_is_constant(groups);
  const double optimum = aurc_oracle(o.estimator, groups, N);
  std::vector<double> block;
  influence_oracle(o.estimator, groups, N, block);
  std::size_t g = 0;
  for_each_run(by_loss.keys, [&](std::size_t b, std::size_t e) {
    for (std::size_t j = b; j < e; ++j) out[by_loss.order[j]] = block[g];
    ++g;
  });
  return optimum;
}

template <class Check = NoCheck>
double metric_se_sorted(const SortedLoss& sl, const GroupVectors& gv,
                        Metric m, const InfluenceOptions& o, double& se,
                        Check check = Check()) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::size_t n = sl.loss.size();
  const double N = double(n);
  se = nan;
  if (!(N > 0.0)) return nan;
  GroupInfluence gi;
  score_group_influence(m, o, gv, N, gi);
  double estimate = gi.estimate;
  if (std::isnan(estimate)) return nan;
  if (gi.a.size() != gv.count.size()) return estimate;  // se stays NaN
  // E-AURC = A - A*, NAURC = (A - A*) / (mu - A*) (the delta method): the
  // influence value x of a case is a linear combination of that of the
  // AURC (u), of the oracle (v) and of the loss itself, x = c_u u + c_v v
  // + c_l loss (centring below makes constants irrelevant)
  std::vector<double> oracle;
  double c_u = 1.0, c_v = 0.0, c_l = 0.0;
  if (m == Metric::eaurc || m == Metric::naurc) {
    bool constant = false;
    const double mu = total_loss(gv) / N;
    const double optimum = oracle_by_position(sl, o, N, mu, oracle, constant,
                                              check);
    c_v = -1.0;
    if (m == Metric::eaurc) {
      estimate -= optimum;
    } else {
      const double den = mu - optimum;
      if (!(den > 0.0) || constant) return nan;
      const double num = estimate - optimum;
      // (u - v) / den - num (loss - v) / den^2
      c_u = 1.0 / den;
      c_v = -1.0 / den + num / (den * den);
      c_l = -num / (den * den);
      estimate = num / den;
    }
  }
  const double* v = oracle.empty() ? nullptr : oracle.data();
  // one pass: the sums, sums of squares and counts of the influence values
  // within the strata (the failure AUROC's two classes, DeLong's variance;
  // one stratum otherwise); then influence_se() of the values centred at
  // their overall mean m (centre()), as sum (x - m)^2 = ss - 2 m s + c m^2.
  // The values are shifted by the first one first, so that a mean far from
  // zero loses no precision to cancellation.
  auto value = [&](std::size_t g, std::size_t k) {
    const double u = gi.a[g] + gi.b[g] * sl.loss[k];
    return v ? c_u * u + c_v * v[k] + c_l * sl.loss[k] : u;
  };
  const bool strata = m == Metric::failure_auroc;
  const double shift = value(0, 0);
  double s1[2] = {0.0, 0.0}, ss[2] = {0.0, 0.0}, cnt[2] = {0.0, 0.0};
  std::size_t g = 0;
  for_each_run(sl.keys, [&](std::size_t b, std::size_t e) {
    for (std::size_t k = b; k < e; ++k) {
      const double x = value(g, k) - shift;
      const int c = strata ? (sl.loss[k] != 0.0) : 0;
      s1[c] += x;
      ss[c] += x * x;
      cnt[c] += 1.0;
    }
    ++g;
  });
  const double mean = (s1[0] + s1[1]) / N;
  double var = 0.0;
  for (int c = 0; c < 2; ++c) {
    if (!(cnt[c] > 0.0)) continue;
    if (!(cnt[c] > 1.0)) return estimate;  // se stays NaN
    const double centred =
        ss[c] - 2.0 * mean * s1[c] + cnt[c] * mean * mean;
    var += centred * cnt[c] / (cnt[c] - 1.0);
  }
  se = std::sqrt(var) / N;
  return estimate;
}

// Standard error from influence values: sqrt(sum_i w_i IF_i^2 * N_k /
// (N_k - 1)) / N, the sum taken within strata k (one stratum, or for the
// failure AUROC the two classes, which is DeLong's variance with its
// n - 1 denominators). `stratum` null: one stratum; else 0/1 per sample.
inline double influence_se(const double* x, const double* w,
                           const double* stratum, std::size_t n) {
  double ss[2] = {0.0, 0.0}, cnt[2] = {0.0, 0.0};
  for (std::size_t i = 0; i < n; ++i) {
    const int k = stratum ? (stratum[i] != 0.0) : 0;
    const double wi = w ? w[i] : 1.0;
    if (!(wi > 0.0)) continue;
    ss[k] += wi * x[i] * x[i];
    cnt[k] += wi;
  }
  const double N = cnt[0] + cnt[1];
  double v = 0.0;
  for (int k = 0; k < 2; ++k) {
    if (!(cnt[k] > 0.0)) continue;
    if (!(cnt[k] > 1.0)) return std::numeric_limits<double>::quiet_NaN();
    v += ss[k] * cnt[k] / (cnt[k] - 1.0);
  }
  return std::sqrt(v) / N;
}

}  // namespace aurc

#endif
