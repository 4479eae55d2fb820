// Stand-alone tests of the C++ kernels in src/core (no R): `make test-cpp`.
// Each kernel is compared with a brute-force O(n^2) computation written here.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include "core/augrc.h"
#include "core/batch_study.h"
#include "core/estimator_stats.h"

namespace {

int n_checks = 0, n_failed = 0;

void check(bool ok, const char* what, int line) {
  ++n_checks;
  if (!ok) {
    ++n_failed;
    std::printf("FAILED (line %d): %s\n", line, what);
  }
}
#define CHECK(x) check((x), #x, __LINE__)

bool close(double a, double b, double tol = 1e-12) {
  return std::fabs(a - b) <= tol * std::max(1.0, std::fabs(b));
}

// brute force: every sample counts w[i] times
double brute_alpha(const std::vector<double>& s, const std::vector<double>& l,
                   const std::vector<double>& w) {
  double n = 0, acc = 0;
  for (double x : w) n += x;
  for (std::size_t j = 0; j < s.size(); ++j) {
    if (w[j] == 0) continue;
    double num = 0, den = 0;
    for (std::size_t i = 0; i < s.size(); ++i)
      if (s[i] >= s[j]) {
        num += w[i] * l[i];
        den += w[i];
      }
    acc += w[j] * num / den;
  }
  return acc / n;
}

double brute_rank(aurc::Estimator est, const std::vector<double>& s,
                  const std::vector<double>& l, const std::vector<double>& w) {
  double n = 0, acc = 0;
  for (double x : w) n += x;
  for (std::size_t i = 0; i < s.size(); ++i) {
    double r = 0;
    for (std::size_t k = 0; k < s.size(); ++k)
      if (s[k] <= s[i]) r += w[k];
    acc += w[i] * aurc::rank_weight(est, r, n) * l[i];
  }
  return acc / n;
}

void test_sortable_key() {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> x = {-inf, -1e300, -2.5, -1e-310, -0.0, 0.0,
                           1e-310, 1.0, 3e200, inf};
  for (std::size_t i = 1; i < x.size(); ++i) {
    if (x[i - 1] == x[i])
      CHECK(aurc::sortable_key(x[i - 1]) == aurc::sortable_key(x[i]));
    else
      CHECK(aurc::sortable_key(x[i - 1]) < aurc::sortable_key(x[i]));
  }
}

void test_radix_sort() {
  std::mt19937_64 rng(42);
  std::normal_distribution<double> norm;
  for (std::size_t n : {0, 1, 2, 7, 1000, 100000}) {
    std::vector<double> x(n);
    for (auto& v : x) v = std::round(norm(rng) * 20) / 4;  // many ties
    aurc::Presorted p;
    aurc::presort(x.data(), n, p);
    std::vector<std::size_t> ref(n);
    for (std::size_t i = 0; i < n; ++i) ref[i] = i;
    std::stable_sort(ref.begin(), ref.end(),
                     [&](std::size_t a, std::size_t b) { return x[a] < x[b]; });
    CHECK(p.order == ref);  // stable and ascending
  }
}

void test_estimators() {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> norm;
  std::uniform_real_distribution<double> unif(0, 2);
  const aurc::Estimator rank_ests[] = {aurc::Estimator::alpha_prime,
                                       aurc::Estimator::sele,
                                       aurc::Estimator::two_sele};
  for (std::size_t n : {1, 2, 5, 50, 300}) {
    std::vector<double> s(n), l(n), w(n), ones(n, 1.0);
    for (std::size_t i = 0; i < n; ++i) {
      s[i] = std::round(norm(rng) * 4) / 4;
      l[i] = unif(rng);
      w[i] = std::floor(unif(rng) * 2);  // 0, 1, 2 ... (mostly)
    }
    w[0] = 1;
    aurc::Presorted p;
    aurc::presort(s.data(), n, p);
    double nw = 0;
    for (double x : w) nw += x;
    const aurc::PresortedGroups weighted{p, l.data(), w.data()};
    const aurc::PresortedGroups plain{p, l.data(), nullptr};
    aurc::SortedLoss sl;
    aurc::sort_with_loss(s.data(), l.data(), n, sl);

    CHECK(close(aurc::aurc_estimate(aurc::Estimator::alpha, weighted, nw),
                brute_alpha(s, l, w)));
    CHECK(close(aurc::aurc_estimate(aurc::Estimator::alpha, plain, double(n)),
                brute_alpha(s, l, ones)));
    CHECK(close(aurc::aurc_estimate(aurc::Estimator::alpha, sl, double(n)),
                brute_alpha(s, l, ones)));
    for (auto est : rank_ests) {
      CHECK(close(aurc::aurc_estimate(est, weighted, nw),
                  brute_rank(est, s, l, w)));
      CHECK(close(aurc::aurc_estimate(est, sl, double(n)),
                  brute_rank(est, s, l, ones)));
    }
    // alpha weights average to exactly 1, ties and weights included
    aurc::GroupVectors gv;
    aurc::collect_groups(weighted, gv);
    std::vector<double> gw;
    aurc::group_weights(aurc::Estimator::alpha, gv.count, gw);
    double mean = 0;
    for (std::size_t g = 0; g < gw.size(); ++g) mean += gv.count[g] * gw[g];
    CHECK(close(mean / nw, 1.0, 1e-13));
    // a collected source gives the same estimate as the streaming one
    CHECK(close(aurc::aurc_estimate(aurc::Estimator::trapezoid, gv, nw),
                aurc::aurc_estimate(aurc::Estimator::trapezoid, weighted, nw)));
  }
}

void test_reference_values() {
  // the authors' public code (issue #2)
  std::vector<double> s = {0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05};
  std::vector<double> f = {0, 1, 0, 0, 1, 0, 1, 1, 0, 1};
  aurc::SortedLoss sl;
  aurc::sort_with_loss(s.data(), f.data(), s.size(), sl);
  CHECK(close(aurc::aurc_estimate(aurc::Estimator::alpha, sl, 10),
              0.368968253968254, 1e-14));
  CHECK(close(aurc::aurc_estimate(aurc::Estimator::alpha_prime, sl, 10),
              0.335895448726861, 1e-14));
  CHECK(close(aurc::aurc_estimate(aurc::Estimator::sele, sl, 10), 0.23,
              1e-14));
  CHECK(close(aurc::aurc_estimate(aurc::Estimator::trapezoid, sl, 10),
              0.343968253968254, 1e-14));
  CHECK(std::isnan(aurc::aurc_estimate(aurc::Estimator::alpha, sl, 0)));
}

// AUGRC (trapezoid and step) and failure AUROC against brute force, and the
// identity AUGRC = (1 - AUROC_f) acc (1 - acc) + (1 - acc)^2 / 2 (Traub Eq. 7)
void test_augrc() {
  std::mt19937_64 rng(3);
  std::normal_distribution<double> norm;
  std::bernoulli_distribution fail(0.3);
  for (std::size_t n : {2, 9, 40, 250}) {
    std::vector<double> s(n), f(n), w(n);
    for (std::size_t i = 0; i < n; ++i) {
      s[i] = std::round(norm(rng) * 3) / 3;
      f[i] = fail(rng) ? 1.0 : 0.0;
      w[i] = 1.0 + double(i % 3);
    }
    f[0] = 1;
    f[1] = 0;
    double nw = 0, brute_trap = 0, brute_step = 0, good = 0, bad = 0, pairs = 0;
    for (double x : w) nw += x;
    for (std::size_t i = 0; i < n; ++i) {
      double r = 0, a = 1;
      for (std::size_t k = 0; k < n; ++k) {
        if (s[k] <= s[i]) r += w[k];
        if (s[k] < s[i]) a += w[k];
        if (f[i] == 0 && f[k] == 1)
          pairs += w[i] * w[k] * (s[i] > s[k] ? 1.0 : s[i] == s[k] ? 0.5 : 0);
      }
      brute_trap += w[i] * ((a + r) / 2 - 0.5) * f[i];
      brute_step += w[i] * r * f[i];
      (f[i] == 1 ? bad : good) += w[i];
    }
    aurc::Presorted p;
    aurc::presort(s.data(), n, p);
    const aurc::PresortedGroups src{p, f.data(), w.data()};
    const double trap = aurc::augrc_trapezoid(src, nw);
    const double auroc = aurc::failure_auroc(src);
    CHECK(close(trap, brute_trap / (nw * nw)));
    CHECK(close(aurc::augrc_step(src, nw), brute_step / (nw * nw)));
    CHECK(close(auroc, pairs / (good * bad)));
    const double acc = good / nw;
    CHECK(close(trap, (1 - auroc) * acc * (1 - acc) + (1 - acc) * (1 - acc) / 2,
                1e-14));
  }
  std::vector<double> s = {1, 2}, f = {1, 1};
  aurc::Presorted p;
  aurc::presort(s.data(), 2, p);
  CHECK(std::isnan(aurc::failure_auroc(aurc::PresortedGroups{p, f.data(), nullptr})));
}

struct CountingCheck {
  int* calls;
  void operator()() const { ++*calls; }
};

void test_interrupt_hook() {
  std::vector<double> x(200000, 1.0);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = double(i % 977);
  int calls = 0;
  aurc::Presorted p;
  aurc::presort(x.data(), x.size(), p, CountingCheck{&calls});
  CHECK(calls > 3);  // called between chunks of every pass
}


// --- estimator statistics and the batch study (issue 4) ---------------------

// sum_{k=a}^{b-1} 1/k^p in long double, smallest terms first
long double brute_power_sum(long b_minus, long a, int p) {
  long double s = 0;
  for (long k = b_minus; k >= a; --k)
    s += p == 1 ? 1.0L / k : 1.0L / ((long double)k * k);
  return s;
}

void test_digamma_trigamma_diff() {
  const long pairs[][2] = {{1, 1},     {1, 2},      {1, 65},    {1, 66},
                           {3, 200},   {19, 84},    {20, 85},   {20, 21},
                           {21, 5000}, {999, 1000}, {500, 100000},
                           {99990, 100001}, {1, 1000001}, {999000, 1000001}};
  for (const auto& ab : pairs) {
    const long a = ab[0], b = ab[1];
    const long double h = brute_power_sum(b - 1, a, 1);
    const long double t = brute_power_sum(b - 1, a, 2);
    CHECK(close(aurc::digamma_diff(a, b), double(h), 1e-13) ||
          (a == b && aurc::digamma_diff(a, b) == 0));
    CHECK(close(aurc::trigamma_diff(a, b), double(t), 1e-13) ||
          (a == b && aurc::trigamma_diff(a, b) == 0));
    if (a < b) {
      // relative accuracy of the difference itself
      CHECK(std::fabs(aurc::digamma_diff(a, b) - double(h)) <= 1e-13 * h);
      CHECK(std::fabs(aurc::trigamma_diff(a, b) - double(t)) <= 1e-13 * t);
      const long double phi = h - std::log((long double)b / a);
      CHECK(std::fabs(aurc::phi_diff(a, b) - double(phi)) <=
            1e-11 * std::fabs(double(phi)) + 1e-17);
    }
  }
}

// E[w(1 + K)], K ~ Bin(n - 1, beta), by the full sum with lgamma
double brute_expected_weight(aurc::Estimator est, double beta, long n) {
  long double acc = 0, mass = 0;
  const long N = n - 1;
  for (long k = 0; k <= N; ++k) {
    const long double lp = std::lgamma((long double)N + 1) -
                           std::lgamma((long double)k + 1) -
                           std::lgamma((long double)(N - k) + 1) +
                           k * std::log((long double)beta) +
                           (N - k) * std::log1p(-(long double)beta);
    const long double p = std::exp(lp);
    const long r = k + 1;
    long double w;
    if (est == aurc::Estimator::alpha) w = brute_power_sum(n, n - r + 1, 1);
    else w = aurc::rank_weight(est, double(r), double(n));
    acc += p * w;
    mass += p;
  }
  return double(acc / mass);
}

void test_weight_bias_mse() {
  const aurc::Estimator ests[] = {aurc::Estimator::alpha,
                                  aurc::Estimator::alpha_prime,
                                  aurc::Estimator::sele,
                                  aurc::Estimator::two_sele};
  for (auto est : ests) {
    for (long n : {1L, 2L, 7L, 50L, 400L}) {
      for (double beta : {0.0, 1e-6, 0.1, 0.5, 0.9, 0.999}) {
        const double e = aurc::expected_weight(est, beta, double(n));
        const double ref = n == 1 || beta == 0
                               ? aurc::weight_of_rank(est, 1, double(n))
                               : brute_expected_weight(est, beta, n);
        CHECK(close(e, ref, 1e-12));
      }
      // mean MSE over ranks: generic loop; alpha has the closed form H_n / n
      double sum = 0;
      for (long r = 1; r <= n; ++r) sum += aurc::weight_mse(est, r, n);
      CHECK(close(aurc::mean_weight_mse(est, double(n)), sum / n, 1e-12));
    }
  }
  // the alpha MSE is the variance of -log(1 - beta): sum_{k=n+1-r}^n 1/k^2
  CHECK(close(aurc::weight_mse(aurc::Estimator::alpha, 3, 10),
              1.0 / 64 + 1.0 / 81 + 1.0 / 100, 1e-14));
  // alpha_prime adds Q^2, Q = log(1 - r/(n+1)) + H_n - H_{n-r}
  const double q = std::log(1 - 3.0 / 11) + 1.0 / 8 + 1.0 / 9 + 1.0 / 10;
  CHECK(close(aurc::weight_mse(aurc::Estimator::alpha_prime, 3, 10),
              1.0 / 64 + 1.0 / 81 + 1.0 / 100 + q * q, 1e-13));
  // large n stays finite and the mean tracks the rate of Prop. A.4
  const double big = 1e6;
  const double m = aurc::mean_weight_mse(aurc::Estimator::alpha_prime, big);
  CHECK(std::isfinite(m) && m > 0);
  CHECK(m / aurc::mean_weight_mse_rate(big) < 1.3);
  CHECK(std::isfinite(aurc::weight_bias(aurc::Estimator::alpha, 0.3, big)));
}

void test_batch_study() {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> norm;
  std::uniform_real_distribution<double> unif(0, 1);
  const std::size_t n = 1003;
  std::vector<double> s(n), l(n);
  for (std::size_t i = 0; i < n; ++i) {
    s[i] = std::round(norm(rng) * 3) / 3;  // ties
    l[i] = unif(rng);
  }
  aurc::BatchData d;
  aurc::prepare_batch_data(s.data(), l.data(), n, d);
  std::vector<std::size_t> perm(n);
  for (std::size_t i = 0; i < n; ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  const aurc::Estimator ests[] = {aurc::Estimator::alpha,
                                  aurc::Estimator::alpha_prime,
                                  aurc::Estimator::sele,
                                  aurc::Estimator::trapezoid};
  aurc::BatchWorkspace ws;
  for (std::size_t b : {1, 8, 100, 1003}) {
    const std::size_t nb = n / b;
    std::vector<double> out(nb * 4);
    aurc::batch_estimates(d, perm.data(), b, ests, 4, out.data(), ws);
    for (std::size_t g = 0; g < nb; ++g) {
      std::vector<double> bs(b), bl(b);
      for (std::size_t j = 0; j < b; ++j) {
        bs[j] = s[perm[g * b + j]];
        bl[j] = l[perm[g * b + j]];
      }
      aurc::SortedLoss sl;
      aurc::sort_with_loss(bs.data(), bl.data(), b, sl);
      for (std::size_t e = 0; e < 4; ++e)
        CHECK(close(out[g * 4 + e], aurc::aurc_estimate(ests[e], sl, double(b)),
                    1e-13));
    }
  }
}

}  // namespace

int main() {
  test_sortable_key();
  test_radix_sort();
  test_estimators();
  test_reference_values();
  test_augrc();
  test_interrupt_hook();
  test_digamma_trigamma_diff();
  test_weight_bias_mse();
  test_batch_study();
  std::printf("core: %d of %d checks succeeded\n", n_checks - n_failed,
              n_checks);
  return n_failed == 0 ? 0 : 1;
}
