// Influence kernels of every metric: per tie group, the coefficients
// (a_g, b_g) with IF_i = a_g + b_g loss_i (see influence.h for the recipe
// and the driver that scatters them back to the samples).
#ifndef AURC_CORE_INFLUENCE_KERNELS_H
#define AURC_CORE_INFLUENCE_KERNELS_H

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "augrc.h"
#include "failure.h"
#include "metric_kind.h"
#include "oracle.h"
#include "ties.h"

namespace aurc {

// The metrics of the one table (metric_kind.h) that have an influence
// kernel here; the partial areas, PRR over part of the rejection range,
// FPR at TPR, the balanced metrics and fd-shifts' working point have theirs
// in R (R/ci-influence-*.R), the others none (bootstrap only).
using Metric = MetricKind;

inline bool parse_metric(const std::string& name, Metric& out) {
  if (!parse_metric_kind(name, out)) return false;
  switch (out) {
    case Metric::aurc:
    case Metric::augrc:
    case Metric::failure_auroc:
    case Metric::failure_aupr:
    case Metric::eaurc:
    case Metric::eaugrc:
    case Metric::naurc:
    case Metric::risk_at_coverage:
    case Metric::coverage_at_risk:
    case Metric::ece:
    case Metric::mean_loss:
      return true;
    default:
      return false;
  }
}

struct InfluenceOptions {
  Estimator estimator = Estimator::alpha;
  bool step = false;         // AUGRC by the step rule (= sele)
  bool asymptotic = false;   // E-AURC against err + (1 - err) log(1 - err)
  double coverage = 0.5;     // risk at coverage
  double risk = 0.5;         // coverage at risk
  std::size_t n_bins = 10;   // ECE, equal-width bins
  // ECE with data-driven bins fixed in advance (adaptive, equal-mass): their
  // ascending upper edges; empty for n_bins equal-width bins
  std::vector<double> edges;
};

// IF_i = a[g] + b[g] * loss_i for sample i in group g (before centring).
struct GroupInfluence {
  // (pooled buffers, src/core/memory.h: at n = 1e6 distinct scores fresh
  // vectors cost their page faults on every call)
  work_vector<double> a, b;
  double estimate = std::numeric_limits<double>::quiet_NaN();
  void reset(std::size_t G) {
    a.assign(G, 0.0);
    b.assign(G, 0.0);
  }
};

// ---- the AURC estimators ----

// alpha: T = (1/N) sum_g c_g rho_g, rho_g = L_g / U_g (loss and count at or
// above group g). dT/ds_h collects c_g / U_g over g <= h (the alpha weight);
// dT/dc_h adds rho_h, removes c_g L_g / U_g^2 over g <= h, and -T/N.
inline void influence_alpha(const GroupVectors& gv, double N,
                            GroupInfluence& out) {
  const std::size_t G = gv.count.size();
  out.reset(G);
  // U (count at or above g) and L (loss at or above g) are kept in out.b
  // and out.a until the forward pass, which reads entry g before it
  // writes it (no two more vectors of G doubles)
  double* U = out.b.data();
  double* L = out.a.data();
  double u = 0.0, l = 0.0, T = 0.0;
  for (std::size_t g = G; g-- > 0;) {
    u += gv.count[g];
    l += gv.loss[g];
    U[g] = u;
    L[g] = l;
  }
  for (std::size_t g = 0; g < G; ++g)
    if (gv.count[g] > 0.0) T += gv.count[g] * L[g] / U[g];
  T /= N;
  double p1 = 0.0, p2 = 0.0;
  for (std::size_t g = 0; g < G; ++g) {
    const double Ug = U[g], Lg = L[g];
    if (!(Ug > 0.0)) {  // nothing at or above: weightless samples
      out.a[g] = 0.0;
      out.b[g] = 0.0;
      continue;
    }
    const double c = gv.count[g];
    if (c > 0.0) {
      p1 += c * Lg / (Ug * Ug);
      p2 += c / Ug;
    }
    out.a[g] = Lg / Ug - p1 - T;
    out.b[g] = p2;
  }
  out.estimate = T;
}

// Rank-weighted estimators T = (1/N) sum_g s_g w(B_g, N), B_g the count at
// or below group g: alpha_prime (w = -log(1 - B / (N + 1))), sele (B / N)
// and 2sele (2 B / N).
inline void influence_rank(Estimator est, const GroupVectors& gv, double N,
                           GroupInfluence& out) {
  const std::size_t G = gv.count.size();
  out.reset(G);
  std::vector<double> B(G);
  double below = 0.0;
  for (std::size_t g = 0; g < G; ++g) {
    below += gv.count[g];
    B[g] = below;
  }
  double T = 0.0;
  for (std::size_t g = 0; g < G; ++g)
    T += gv.loss[g] * rank_weight(est, B[g], N);
  T /= N;
  if (est == Estimator::alpha_prime) {
    // dw/dB = 1 / (N + 1 - B), dw/dN = -B / ((N + 1)(N + 1 - B))
    double k0 = 0.0;
    for (std::size_t g = 0; g < G; ++g)
      k0 -= gv.loss[g] * B[g] / ((N + 1.0) * (N + 1.0 - B[g]));
    double suf = 0.0;
    for (std::size_t g = G; g-- > 0;) {
      suf += gv.loss[g] / (N + 1.0 - B[g]);
      out.a[g] = suf + k0 - T;
      out.b[g] = rank_weight(est, B[g], N);
    }
  } else {
    // sele: N^2 T = sum_g s_g B_g, a V-statistic (Hoeffding projection)
    const double f = est == Estimator::two_sele ? 2.0 : 1.0;
    double suf = 0.0;
    for (std::size_t g = G; g-- > 0;) {
      suf += gv.loss[g];
      out.a[g] = f * suf / N - 2.0 * T;
      out.b[g] = f * B[g] / N;
    }
  }
  out.estimate = T;
}

// Trapezoid rule over the selective risk curve: with the K non-empty groups
// numbered from the most confident down, N T = sum_k rho_k beta_k,
// beta_k = c_k (1 for k = 1, else 1/2) + c_{k+1} / 2.
inline void influence_aurc_trapezoid(const GroupVectors& gv, double N,
                                     GroupInfluence& out) {
  const std::size_t G = gv.count.size();
  out.reset(G);
  std::vector<std::size_t> idx;  // non-empty groups, descending score
  for (std::size_t g = G; g-- > 0;)
    if (gv.count[g] > 0.0) idx.push_back(g);
  const std::size_t K = idx.size();
  std::vector<double> U(K), rho(K), beta(K);
  double u = 0.0, l = 0.0;
  for (std::size_t k = 0; k < K; ++k) {
    u += gv.count[idx[k]];
    l += gv.loss[idx[k]];
    U[k] = u;
    rho[k] = l / u;
  }
  double NT = 0.0;
  for (std::size_t k = 0; k < K; ++k) {
    beta[k] = gv.count[idx[k]] * (k == 0 ? 1.0 : 0.5) +
              (k + 1 < K ? 0.5 * gv.count[idx[k + 1]] : 0.0);
    NT += rho[k] * beta[k];
  }
  const double T = NT / N;
  // sums over k >= j (the less confident groups, U_k includes c_j)
  double sc = 0.0, ss = 0.0;
  for (std::size_t j = K; j-- > 0;) {
    sc += beta[j] * rho[j] / U[j];
    ss += beta[j] / U[j];
    const double direct =
        rho[j] * (j == 0 ? 1.0 : 0.5) + (j > 0 ? 0.5 * rho[j - 1] : 0.0);
    out.a[idx[j]] = direct - sc - T;
    out.b[idx[j]] = ss;
  }
  out.estimate = T;
}

// ---- AUGRC and the binary metrics ----

// Trapezoid AUGRC, the V-statistic
// N^2 T = sum_g s_g (C_{<g} + c_g / 2): first-order Hoeffding projection.
inline void influence_augrc(const GroupVectors& gv, double N,
                            GroupInfluence& out) {
  const std::size_t G = gv.count.size();
  out.reset(G);
  double T = 0.0, below = 0.0;
  for (std::size_t g = 0; g < G; ++g) {
    T += gv.loss[g] * (below + 0.5 * gv.count[g]);
    below += gv.count[g];
  }
  T /= N * N;
  // descending, with the count strictly below g as the total less what
  // has been passed (`below` holds the total after the first loop); no
  // vector of G prefix sums
  double above = 0.0;  // loss strictly above
  for (std::size_t g = G; g-- > 0;) {
    below -= gv.count[g];  // count strictly below g
    out.a[g] = (above + 0.5 * gv.loss[g]) / N - 2.0 * T;
    out.b[g] = (below + 0.5 * gv.count[g]) / N;
    above += gv.loss[g];
  }
  out.estimate = T;
}

// Failure AUROC T = A / (O F), A = sum_g o_g (F_{<g} + f_g / 2) with o the
// correct and f the failed counts: DeLong's placement values,
// IF = (V10 - T) / P(correct) for a correct sample and
// (V01 - T) / P(failure) for a failure.
inline void influence_auroc(const GroupVectors& gv, double N,
                            GroupInfluence& out) {
  const std::size_t G = gv.count.size();
  out.reset(G);
  double O = 0.0, F = 0.0, A = 0.0;
  for (std::size_t g = 0; g < G; ++g) {
    const double o = gv.count[g] - gv.loss[g], f = gv.loss[g];
    A += o * (F + 0.5 * f);
    F += f;
    O += o;
  }
  if (!(O > 0.0) || !(F > 0.0)) return;
  const double T = A / (O * F);
  std::vector<double> fb(G);
  double fail_below = 0.0;
  for (std::size_t g = 0; g < G; ++g) {
    fb[g] = fail_below;
    fail_below += gv.loss[g];
  }
  double ok_above = 0.0;
  for (std::size_t g = G; g-- > 0;) {
    const double o = gv.count[g] - gv.loss[g], f = gv.loss[g];
    const double d_ok = N * ((fb[g] + 0.5 * f) / (O * F) - T / O);
    const double d_fail = N * ((ok_above + 0.5 * o) / (O * F) - T / F);
    out.a[g] = d_ok;
    out.b[g] = d_fail - d_ok;
    ok_above += o;
  }
  out.estimate = T;
}

// Failure AUPR T = A / F, A = sum_g f_g FB_g / B_g (failures and samples at
// or below group g, ascending): dA/df_h = FB_h / B_h + sum_{g >= h} f_g / B_g,
// dA/dc_h = -sum_{g >= h} f_g FB_g / B_g^2.
inline void influence_aupr(const GroupVectors& gv, double N,
                           GroupInfluence& out) {
  const std::size_t G = gv.count.size();
  out.reset(G);
  std::vector<double> B(G), FB(G);
  double b = 0.0, fb = 0.0, A = 0.0;
  for (std::size_t g = 0; g < G; ++g) {
    b += gv.count[g];
    fb += gv.loss[g];
    B[g] = b;
    FB[g] = fb;
    if (gv.count[g] > 0.0 && gv.loss[g] > 0.0) A += gv.loss[g] * fb / b;
  }
  const double F = fb;
  if (!(F > 0.0) || !(b - F > 0.0)) return;
  const double T = A / F;
  double s1 = 0.0, s2 = 0.0;
  for (std::size_t g = G; g-- > 0;) {
    if (!(B[g] > 0.0)) continue;
    s1 += gv.loss[g] / B[g];
    s2 += gv.loss[g] * FB[g] / (B[g] * B[g]);
    out.a[g] = N * (-s2 / F);
    out.b[g] = N * ((FB[g] / B[g] + s1) / F - T / F);
  }
  out.estimate = T;
}

// ---- the oracle (E-AURC, NAURC) ----

// Influence of the population optimum AURC* = int_0^1 Q(t) J(t) dt (Q the
// quantile function of the loss, J(t) the weight at coverage rank 1 - t:
// -log t for the AURC estimators, 1 - t for sele, 2 (1 - t) for 2sele), an
// L-functional. With loss blocks k = 1..K ascending (value lambda_k, mass
// F_k - F_{k-1}) and D_j = (lambda_j - lambda_{j+1}) J(F_j):
//   IF(block k) = sum_{j >= k, j < K} D_j - sum_{j < K} D_j F_j.
// Writes one value per block of `by_loss` (ascending loss groups).
inline void influence_oracle(Estimator est, const GroupVectors& by_loss,
                             double N, std::vector<double>& out) {
  const std::size_t K = by_loss.count.size();
  out.assign(K, 0.0);
  std::vector<std::size_t> idx;
  for (std::size_t k = 0; k < K; ++k)
    if (by_loss.count[k] > 0.0) idx.push_back(k);
  const std::size_t m = idx.size();
  if (m < 2) return;
  auto J = [est](double t) {
    switch (est) {
      case Estimator::sele: return 1.0 - t;
      case Estimator::two_sele: return 2.0 * (1.0 - t);
      default: return -std::log(t);
    }
  };
  std::vector<double> D(m, 0.0), Fj(m, 0.0);
  double cum = 0.0, centre = 0.0;
  for (std::size_t j = 0; j + 1 < m; ++j) {
    cum += by_loss.count[idx[j]];
    Fj[j] = cum / N;
    const double lam = by_loss.loss[idx[j]] / by_loss.count[idx[j]];
    const double lam1 =
        by_loss.loss[idx[j + 1]] / by_loss.count[idx[j + 1]];
    D[j] = (lam - lam1) * J(Fj[j]);
    centre += D[j] * Fj[j];
  }
  double suf = 0.0;
  for (std::size_t j = m; j-- > 0;) {
    suf += D[j];  // D[m - 1] = 0
    out[idx[j]] = suf - centre;
  }
}

// ---- working points ----

// Mean loss of a window of about sqrt(N) samples (whole groups) centred on
// group g: the local failure rate E[loss | s = q] at the threshold q.
inline double local_loss_rate(const GroupVectors& gv, std::size_t g, double N) {
  const std::size_t G = gv.count.size();
  const double want = std::ceil(std::sqrt(N));
  double c = gv.count[g], s = gv.loss[g];
  std::size_t lo = g, hi = g;
  while (c < want && (lo > 0 || hi + 1 < G)) {
    if (hi + 1 < G) {
      ++hi;
      c += gv.count[hi];
      s += gv.loss[hi];
    }
    if (c < want && lo > 0) {
      --lo;
      c += gv.count[lo];
      s += gv.loss[lo];
    }
  }
  return c > 0.0 ? s / c : std::numeric_limits<double>::quiet_NaN();
}

// A threshold group holding at least sqrt(N) samples stays the threshold
// under small perturbations ("locked"); otherwise the threshold is a
// quantile that moves, and its influence enters through the local loss rate.
inline bool threshold_locked(double count, double N) {
  return count >= std::sqrt(N);
}

// Risk at coverage c: theta = m(q) / c, m(q) = E[loss 1(s >= q)],
// q the (1 - c) quantile of the score. With r(q) = E[loss | s = q],
//   IF = [1(s >= q) (loss - r(q)) - (m - r(q) c)] / c
// (the density of the score cancels). A locked threshold has r(q) = theta.
inline void influence_risk_at_coverage(const GroupVectors& gv, double N,
                                       double coverage, GroupInfluence& out) {
  const std::size_t G = gv.count.size();
  out.reset(G);
  double above = 0.0, loss_above = 0.0;
  std::size_t gstar = G;
  for (std::size_t g = G; g-- > 0;) {
    if (!(gv.count[g] > 0.0)) continue;
    above += gv.count[g];
    loss_above += gv.loss[g];
    if (above / N >= coverage) {
      gstar = g;
      break;
    }
  }
  if (gstar == G) return;
  const double theta = loss_above / above, c = above / N, m = loss_above / N;
  const double r = threshold_locked(gv.count[gstar], N)
                       ? theta
                       : local_loss_rate(gv, gstar, N);
  for (std::size_t g = 0; g < G; ++g) {
    const bool in = g >= gstar;
    out.a[g] = ((in ? -r : 0.0) - (m - r * c)) / c;
    out.b[g] = in ? 1.0 / c : 0.0;
  }
  out.estimate = theta;
}

// Coverage at risk r over the tie groups: the largest coverage whose
// accepted risk is at most r, its threshold group (G when none
// qualifies), and the highest- and lowest-score groups with samples.
struct CoverageAtRiskFit {
  double coverage = 0.0;
  std::size_t threshold, top, bottom;
};

inline CoverageAtRiskFit fit_coverage_at_risk(const GroupVectors& gv,
                                              double N, double risk) {
  const std::size_t G = gv.count.size();
  CoverageAtRiskFit fit;
  fit.threshold = fit.top = fit.bottom = G;
  double above = 0.0, loss_above = 0.0;
  for (std::size_t g = G; g-- > 0;) {
    if (!(gv.count[g] > 0.0)) continue;
    if (fit.top == G) fit.top = g;
    above += gv.count[g];
    loss_above += gv.loss[g];
    fit.bottom = g;
    if (loss_above / above <= risk) {
      fit.coverage = above / N;
      fit.threshold = g;
    }
  }
  return fit;
}

// Coverage at risk r: c = P(s >= q) where q solves m(q) = r P(s >= q).
// Implicit differentiation of E[1(s >= q)(loss - r)] = 0 gives
//   IF = 1(s >= q) (1 + (loss - r) / (r - r(q))) - c,
// r(q) the local loss rate at q (the density cancels again). With a tied
// threshold group of at least sqrt(N) samples the coverage jumps between
// neighbouring groups whose risks straddle r: not differentiable, so NaN
// influence (no analytic interval). c = 0 (no threshold qualifies) or c = 1
// (all accepted) is held fixed (zero influence). NaN influence when the
// local rate does not exceed r (the crossing cannot be located).
inline void influence_coverage_at_risk(const GroupVectors& gv, double N,
                                       double risk, GroupInfluence& out) {
  const std::size_t G = gv.count.size();
  out.reset(G);
  const CoverageAtRiskFit fit = fit_coverage_at_risk(gv, N, risk);
  const double best = fit.coverage;
  const std::size_t gstar = fit.threshold, glast = fit.bottom;
  out.estimate = best;
  if (gstar == G || gstar == glast) return;
  const double c = best;
  const double rq = local_loss_rate(gv, gstar, N);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (!(rq > risk) || threshold_locked(gv.count[gstar], N)) {
    for (std::size_t g = 0; g < G; ++g) out.a[g] = nan;
    return;
  }
  const double k = 1.0 / (risk - rq);
  for (std::size_t g = 0; g < G; ++g) {
    const bool in = g >= gstar;
    out.a[g] = (in ? 1.0 - risk * k : 0.0) - c;
    out.b[g] = in ? k : 0.0;
  }
}

}  // namespace aurc

#endif
