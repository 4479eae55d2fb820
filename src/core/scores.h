// Confidence scores and per-sample losses from a classifier's outputs
// (DEFINITIONS Sec. 5; Zhou et al. 2025, Table S2; Traub et al. 2024, App. A.2.1).
//
// Matrices are column-major with n rows (samples) and K columns (classes),
// as R stores them: element (i, k) at x[i + k * n]. Arrays of S members
// (MC dropout passes or ensemble members) are S x n x K: element (s, i, k)
// at x[s + S * (i + n * k)]. Logits are turned into probabilities by a
// stable softmax of z / T: subtract the row maximum before exp(), so logits
// of any size give finite results.
#ifndef AURC_CORE_SCORES_H
#define AURC_CORE_SCORES_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "interrupt.h"

namespace aurc {

enum class Score {
  msp, maxlogit, margin, neg_entropy, maxlogit_pnorm, neg_gini,
  mcd_msp, mcd_pe, mcd_mi
};
enum class Loss { zero_one, cross_entropy, brier };

// One row (sample) gathered from a strided matrix, with its probabilities
// and log-probabilities.
struct Row {
  std::vector<double> z, p, logp;
  explicit Row(std::size_t K) : z(K), p(K), logp(K) {}
};

// Gathers row i of x (logits or probabilities), and fills p and logp.
// For logits, z holds z / temperature. For probabilities, logp is -Inf
// where p is 0 (callers treat 0 log 0 as 0).
inline void load_row(const double* x, std::size_t n, std::size_t K,
                     std::size_t i, std::size_t stride, bool logits,
                     double temperature, Row& r) {
  for (std::size_t k = 0; k < K; ++k) r.z[k] = x[(i + n * k) * stride];
  if (logits) {
    double m = -std::numeric_limits<double>::infinity();
    for (std::size_t k = 0; k < K; ++k) {
      r.z[k] /= temperature;
      if (r.z[k] > m) m = r.z[k];
    }
    double sum = 0.0;
    for (std::size_t k = 0; k < K; ++k) sum += std::exp(r.z[k] - m);
    const double log_sum = std::log(sum);
    for (std::size_t k = 0; k < K; ++k) {
      r.logp[k] = r.z[k] - m - log_sum;
      r.p[k] = std::exp(r.logp[k]);
    }
  } else {
    for (std::size_t k = 0; k < K; ++k) {
      r.p[k] = r.z[k];
      r.logp[k] = std::log(r.p[k]);
    }
  }
}

// sum_k p_k log p_k with 0 log 0 = 0 (the negative entropy)
inline double neg_entropy_of(const std::vector<double>& p,
                             const std::vector<double>& logp) {
  double h = 0.0;
  for (std::size_t k = 0; k < p.size(); ++k)
    if (p[k] > 0.0) h += p[k] * logp[k];
  return h;
}

// Index of the first maximum.
inline std::size_t argmax_first(const std::vector<double>& v) {
  std::size_t best = 0;
  for (std::size_t k = 1; k < v.size(); ++k)
    if (v[k] > v[best]) best = k;
  return best;
}

// max z / ||z||_p, the norm scaled by max |z| so that it cannot overflow;
// p = Inf gives max |z|. NaN when every logit is 0.
inline double maxlogit_pnorm_of(const std::vector<double>& z, double p) {
  double big = 0.0, mx = -std::numeric_limits<double>::infinity();
  for (double v : z) {
    if (std::fabs(v) > big) big = std::fabs(v);
    if (v > mx) mx = v;
  }
  if (!(big > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  double norm = big;
  if (std::isfinite(p)) {
    double s = 0.0;
    for (double v : z) s += std::pow(std::fabs(v) / big, p);
    norm = big * std::pow(s, 1.0 / p);
  }
  return mx / norm;
}

// Scores of the single-model types from an n x K matrix.
template <class Check = NoCheck>
void scores_matrix(const double* x, std::size_t n, std::size_t K, Score type,
                   bool logits, double temperature, double p_norm,
                   double* out, Check check = Check()) {
  Row r(K);
  chunked_for(0, n, check, [&](std::size_t i) {
    load_row(x, n, K, i, 1, logits, temperature, r);
    double v = 0.0;
    switch (type) {
      case Score::msp: {
        v = r.p[argmax_first(r.p)];
        break;
      }
      case Score::maxlogit: {
        v = r.z[argmax_first(r.z)];
        break;
      }
      case Score::margin: {
        double a = -1.0, b = -1.0;  // the two largest probabilities
        for (double q : r.p) {
          if (q > a) {
            b = a;
            a = q;
          } else if (q > b) {
            b = q;
          }
        }
        v = K > 1 ? a - b : a;
        break;
      }
      case Score::neg_entropy: v = neg_entropy_of(r.p, r.logp); break;
      case Score::maxlogit_pnorm: v = maxlogit_pnorm_of(r.z, p_norm); break;
      case Score::neg_gini: {
        for (double q : r.p) v += q * q;
        v -= 1.0;
        break;
      }
      default: v = std::numeric_limits<double>::quiet_NaN();
    }
    out[i] = v;
  });
}

// Scores of S members (MC dropout / ensembles) from an S x n x K array:
// with the mean probability pbar = mean_s p_s,
//   mcd_msp  max_k pbar_k
//   mcd_pe   sum_k pbar_k log pbar_k   (negative predictive entropy)
//   mcd_mi   -(H(pbar) - mean_s H(p_s)) (negative mutual information)
template <class Check = NoCheck>
void scores_members(const double* x, std::size_t S, std::size_t n,
                    std::size_t K, Score type, bool logits,
                    double temperature, double* out, Check check = Check()) {
  Row r(K);
  std::vector<double> pbar(K), logpbar(K);
  chunked_for(0, n, check, [&](std::size_t i) {
    std::fill(pbar.begin(), pbar.end(), 0.0);
    double mean_negh = 0.0;
    for (std::size_t s = 0; s < S; ++s) {
      load_row(x + s, n, K, i, S, logits, temperature, r);
      for (std::size_t k = 0; k < K; ++k) pbar[k] += r.p[k];
      mean_negh += neg_entropy_of(r.p, r.logp);
    }
    for (std::size_t k = 0; k < K; ++k) {
      pbar[k] /= double(S);
      logpbar[k] = std::log(pbar[k]);
    }
    mean_negh /= double(S);
    const double negh_bar = neg_entropy_of(pbar, logpbar);
    switch (type) {
      case Score::mcd_msp: out[i] = pbar[argmax_first(pbar)]; break;
      case Score::mcd_pe: out[i] = negh_bar; break;
      case Score::mcd_mi: out[i] = negh_bar - mean_negh; break;
      default: out[i] = std::numeric_limits<double>::quiet_NaN();
    }
  });
}

// Per-sample losses from an n x K matrix and labels in 0..K-1:
//   zero_one       argmax != label (ties in argmax: the first maximum)
//   cross_entropy  -log p_label; from probabilities with p clamped to the
//                  smallest positive normalised double, from logits exactly
//                  in log space
//   brier          sum_k (p_k - 1[label = k])^2
template <class Check = NoCheck>
void losses_matrix(const double* x, std::size_t n, std::size_t K,
                   const int* label, Loss type, bool logits,
                   double temperature, double* out, Check check = Check()) {
  Row r(K);
  const double tiny = std::numeric_limits<double>::min();
  chunked_for(0, n, check, [&](std::size_t i) {
    load_row(x, n, K, i, 1, logits, temperature, r);
    const std::size_t y = static_cast<std::size_t>(label[i]);
    double v = 0.0;
    switch (type) {
      case Loss::zero_one:
        v = argmax_first(logits ? r.z : r.p) == y ? 0.0 : 1.0;
        break;
      case Loss::cross_entropy:
        v = logits ? -r.logp[y] : -std::log(r.p[y] > tiny ? r.p[y] : tiny);
        break;
      case Loss::brier:
        for (std::size_t k = 0; k < K; ++k) {
          const double d = r.p[k] - (k == y ? 1.0 : 0.0);
          v += d * d;
        }
        break;
    }
    out[i] = v;
  });
}

// Mean negative log-likelihood of logits at temperature T (for fitting T).
inline double mean_nll(const double* z, std::size_t n, std::size_t K,
                       const int* label, double temperature) {
  Row r(K);
  double acc = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    load_row(z, n, K, i, 1, true, temperature, r);
    acc -= r.logp[static_cast<std::size_t>(label[i])];
  }
  return acc / double(n);
}

}  // namespace aurc

#endif
