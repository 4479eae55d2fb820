// Empirical influence functions of every metric (SPEC Sec. 11), after one
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
// The derivations are written out in R/ci-influence.R (the help page).
#ifndef AURC_CORE_INFLUENCE_H
#define AURC_CORE_INFLUENCE_H

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "augrc.h"
#include "binning.h"
#include "curve.h"
#include "failure.h"
#include "oracle.h"
#include "ties.h"

namespace aurc {

enum class Metric {
  aurc, augrc, failure_auroc, failure_aupr, eaurc, eaugrc, naurc,
  risk_at_coverage, coverage_at_risk, ece, mean_loss
};

inline bool parse_metric(const std::string& name, Metric& out) {
  if (name == "aurc") out = Metric::aurc;
  else if (name == "augrc") out = Metric::augrc;
  else if (name == "failure_auroc") out = Metric::failure_auroc;
  else if (name == "failure_aupr") out = Metric::failure_aupr;
  else if (name == "eaurc") out = Metric::eaurc;
  else if (name == "eaugrc") out = Metric::eaugrc;
  else if (name == "naurc") out = Metric::naurc;
  else if (name == "risk_at_coverage") out = Metric::risk_at_coverage;
  else if (name == "coverage_at_risk") out = Metric::coverage_at_risk;
  else if (name == "ece") out = Metric::ece;
  else if (name == "mean_loss") out = Metric::mean_loss;
  else return false;
  return true;
}

struct InfluenceOptions {
  Estimator estimator = Estimator::alpha;
  bool step = false;         // AUGRC by the step rule (= sele)
  bool asymptotic = false;   // E-AURC against err + (1 - err) log(1 - err)
  double coverage = 0.5;     // risk at coverage
  double risk = 0.5;         // coverage at risk
  std::size_t n_bins = 10;   // ECE, equal-width bins
};

// IF_i = a[g] + b[g] * loss_i for sample i in group g (before centring).
struct GroupInfluence {
  std::vector<double> a, b;
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
  std::vector<double> U(G), L(G);
  double u = 0.0, l = 0.0;
  for (std::size_t g = G; g-- > 0;) {
    u += gv.count[g];
    l += gv.loss[g];
    U[g] = u;
    L[g] = l;
  }
  double T = 0.0;
  for (std::size_t g = 0; g < G; ++g)
    if (gv.count[g] > 0.0) T += gv.count[g] * L[g] / U[g];
  T /= N;
  double p1 = 0.0, p2 = 0.0;
  for (std::size_t g = 0; g < G; ++g) {
    if (!(U[g] > 0.0)) continue;  // nothing at or above: weightless samples
    const double c = gv.count[g];
    if (c > 0.0) {
      p1 += c * L[g] / (U[g] * U[g]);
      p2 += c / U[g];
    }
    out.a[g] = L[g] / U[g] - p1 - T;
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
  double above = 0.0;  // loss strictly above
  below = 0.0;
  std::vector<double> C(G);
  for (std::size_t g = 0; g < G; ++g) {
    C[g] = below;
    below += gv.count[g];
  }
  for (std::size_t g = G; g-- > 0;) {
    out.a[g] = (above + 0.5 * gv.loss[g]) / N - 2.0 * T;
    out.b[g] = (C[g] + 0.5 * gv.count[g]) / N;
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
  double above = 0.0, loss_above = 0.0, best = 0.0;
  std::size_t gstar = G, glast = G;
  for (std::size_t g = G; g-- > 0;) {
    if (!(gv.count[g] > 0.0)) continue;
    above += gv.count[g];
    loss_above += gv.loss[g];
    glast = g;
    if (loss_above / above <= risk) {
      best = above / N;
      gstar = g;
    }
  }
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
inline double ece_influence(const double* score, const double* loss,
                            const double* w, std::size_t n, std::size_t k,
                            double N, double* out) {
  std::vector<double> gap(k, 0.0);
  std::vector<std::size_t> bin(n);
  for (std::size_t i = 0; i < n; ++i) {
    bin[i] = equal_width_bin(score[i], k) - 1;
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
};

template <class Check = NoCheck>
void prepare_influence(const double* score, const double* loss,
                       const double* weight, std::size_t n, InfluenceData& d,
                       Check check = Check()) {
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
  presort(score, n, d.by_score, check);
  collect_groups(PresortedGroups{d.by_score, loss, weight}, d.groups);
}

template <class Check = NoCheck>
void ensure_loss_groups(InfluenceData& d, Check check = Check()) {
  if (d.have_loss_groups) return;
  presort(d.loss, d.n, d.by_loss, check);
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
                                   out);
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
      if (!(den > 0.0)) {
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
