// Stand-alone tests of the C++ kernels in src/core (no R): `make test-cpp`.
// Each kernel is compared with a brute-force O(n^2) computation written here.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <vector>

#include "core/augrc.h"
#include "core/binning.h"

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


// ---- Calibration binning (issue 6) -----------------------------------------

aurc::CalibSorted sorted_calib(const std::vector<double>& x,
                               const std::vector<double>& y, bool desc,
                               const std::vector<double>& w = {}) {
  aurc::CalibSorted d;
  aurc::calib_sort(x.data(), y.data(), w.empty() ? nullptr : w.data(),
                   x.size(), desc, d);
  return d;
}

std::vector<double> bin_counts(const std::vector<std::size_t>& ends) {
  std::vector<double> c;
  std::size_t prev = 0;
  for (std::size_t e : ends) {
    c.push_back(double(e - prev));
    prev = e;
  }
  return c;
}

void test_key_roundtrip_and_sort() {
  for (double v : {0.0, -0.0, 1e-300, 0.3, 1.0, -2.5, 1e300}) {
    const double back = aurc::key_to_double(aurc::sortable_key(v));
    CHECK(back == v);
  }
  // stable in both directions: ties keep the input order
  std::vector<double> x{0.5, 0.9, 0.5, 0.1, 0.5};
  std::vector<double> y{1, 0, 0, 1, 1};
  auto a = sorted_calib(x, y, false);
  CHECK(a.x[0] == 0.1 && a.x[4] == 0.9);
  CHECK(a.y[1] == 1 && a.y[2] == 0 && a.y[3] == 1);  // rows 1, 3, 5
  auto d = sorted_calib(x, y, true);
  CHECK(d.x[0] == 0.9 && d.x[4] == 0.1);
  CHECK(d.y[1] == 1 && d.y[2] == 0 && d.y[3] == 1);  // rows 1, 3, 5
}

void test_equal_width_edges() {
  using aurc::equal_width_bin;
  // edge b is b / 10 computed by one division: 0.3 is the edge of bin 3
  CHECK(equal_width_bin(0.3, 10) == 3);
  CHECK(equal_width_bin(0.1 * 3, 10) == 4);  // 0.30000000000000004
  CHECK(equal_width_bin(0.7, 10) == 7);
  CHECK(equal_width_bin(1.0, 10) == 10);
  CHECK(equal_width_bin(0.0, 10) == 1);
  CHECK(equal_width_bin(1e-300, 10) == 1);
  CHECK(equal_width_bin(0.30000000000000004, 10) == 4);
  // agrees with the merge against the edges b / k, brute force
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> grid(0, 60);
  for (std::size_t k : {1u, 3u, 7u, 10u, 20u, 60u}) {
    std::vector<double> x(300), y(300, 0.0);
    for (auto& v : x) v = grid(rng) / 60.0;
    for (std::size_t i = 0; i < 30; ++i) x[i] = (i % 7) * 0.1;
    std::vector<double> edges(k + 1);
    for (std::size_t b = 0; b <= k; ++b) edges[b] = double(b) / double(k);
    auto d = sorted_calib(x, y, false);
    std::vector<std::size_t> ends;
    aurc::bins_breaks(d, edges, ends);
    CHECK(ends.size() == k);
    auto cnt = bin_counts(ends);
    std::vector<double> brute(k, 0.0);
    bool agree = true;
    for (double v : x) {
      std::size_t b = 1;
      while (b < k && !(v <= edges[b])) ++b;
      brute[b - 1] += 1;
      agree = agree && equal_width_bin(v, k) == b;
    }
    CHECK(agree);
    CHECK(cnt == brute);
    std::vector<double> hist;
    aurc::equal_width_histogram(d, k, hist);
    CHECK(hist == brute);
    auto dd = sorted_calib(x, y, true);
    aurc::equal_width_histogram(dd, k, hist);
    CHECK(hist == brute);
  }
}

void test_equal_mass() {
  // no ties: sizes differ by at most one; 10 samples in 3 bins: targets
  // 3.33 and 6.67 -> boundaries 3 and 7 -> sizes 3, 4, 3
  std::vector<double> x(10), y(10, 0.0);
  for (std::size_t i = 0; i < 10; ++i) x[i] = (i + 1) / 16.0;
  auto d = sorted_calib(x, y, false);
  std::vector<std::size_t> ends;
  aurc::bins_equal_mass(d, 3, ends);
  CHECK((bin_counts(ends) == std::vector<double>{3, 4, 3}));
  for (std::size_t n : {5u, 17u, 100u, 101u}) {
    for (std::size_t k : {1u, 2u, 3u, 7u, 10u}) {
      std::vector<double> xs(n), ys(n, 0.0);
      for (std::size_t i = 0; i < n; ++i) xs[i] = double((i * 37) % n) / n;
      auto ds = sorted_calib(xs, ys, false);
      aurc::bins_equal_mass(ds, k, ends);
      auto c = bin_counts(ends);
      double lo = 1e300, hi = 0, tot = 0;
      for (double v : c) {
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        tot += v;
      }
      CHECK(c.size() == std::min(n, k));
      CHECK(hi - lo <= 1.0);
      CHECK(tot == double(n));
    }
  }
  // ties are never split: 0.5 x 6 among 10 samples, 2 bins: target 5 lies
  // inside the tie group (cumulative 2..8); 5 - 2 = 3 and 8 - 5 = 3 are
  // equal -> the lower edge: sizes 2 and 8
  std::vector<double> t{0.1, 0.2, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.7, 0.9};
  auto dt = sorted_calib(t, std::vector<double>(10, 0.0), false);
  aurc::bins_equal_mass(dt, 2, ends);
  CHECK((bin_counts(ends) == std::vector<double>{2, 8}));
}

// The authors' algorithm, written sample by sample from its description:
// returns bin sizes from the top, or {} when undefined.
std::vector<double> brute_ding(std::vector<double> x, double z, double min_rem,
                               double min_range) {
  std::stable_sort(x.begin(), x.end(), std::greater<double>());
  const double n = double(x.size()), lowest = x.back();
  std::vector<double> num{0};
  double lo = 1, hi = 0, target = INFINITY;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (num.back() > target && n - double(i) > min_rem &&
        lo - lowest > min_range) {
      num.push_back(0);
      lo = 1;
      hi = 0;
    }
    num.back() += 1;
    lo = std::min(lo, x[i]);
    hi = std::max(hi, x[i]);
    target = (hi == lo) ? INFINITY : std::pow(z / (hi - lo), 2) * 0.25;
  }
  const std::size_t last = num.size() - 1;
  if (last > 0 && target - num[last] > 0) {
    const double need = target - num[last];
    if (!std::isfinite(need)) return {};
    const double e = std::trunc(need * num[last] / n);
    for (std::size_t b = 0; b < last; ++b) {
      num[b] -= e;
      num[last] += e;
      if (num[b] <= 0) return {};
    }
  }
  return num;
}

void test_adaptive_hand() {
  aurc::AdaptiveSettings s;
  s.z = 1.0;
  s.min_remaining = 2;
  s.min_range = 0.05;
  // descending, z = 1, target = 0.25 / eps^2:
  // 1, .96875 (eps 1/32: 256), .9375 (64), .875 (16), .8125 (7.11),
  // .6875 (count 6, eps 5/16: 2.56) -> full; .625 opens bin 2 (13 - 6 = 7
  // > 2 remain, .6875 - .0625 > .05). Bin 2: .625, .5625 (64), .5 (16),
  // .34375 (count 4, eps 9/32: 3.16) -> full; .25 opens bin 3 (3 > 2
  // remain). Bin 3: .25, .1875 (64), .0625 (count 3, eps 3/16: 7.11).
  // needed = 64/9 - 3 = 37/9.
  // ding2020: trunc(37/9 * 3 / 13) = 0 from every bin: 6, 4, 3.
  // adaptive: floor(37/9 * 6 / 13) = 1 and floor(37/9 * 4 / 13) = 1:
  // boundaries 6 - 1 = 5 and 5 + 4 - 1 = 8: 5, 3, 5.
  std::vector<double> x{1, 0.96875, 0.9375, 0.875, 0.8125, 0.6875, 0.625,
                        0.5625, 0.5, 0.34375, 0.25, 0.1875, 0.0625};
  std::vector<double> y(x.size(), 1.0);
  auto d = sorted_calib(x, y, true);
  std::vector<std::size_t> ends;
  aurc::AdaptiveSettings ding = s;
  ding.ding2020 = true;
  CHECK(aurc::bins_adaptive(d, ding, ends) == aurc::AdaptiveStatus::ok);
  CHECK((bin_counts(ends) == std::vector<double>{6, 4, 3}));
  CHECK(aurc::bins_adaptive(d, s, ends) == aurc::AdaptiveStatus::ok);
  CHECK((bin_counts(ends) == std::vector<double>{5, 3, 5}));

  // a tie split by ding2020 only (min_remaining 3): 1 then .5 (eps .5:
  // target 1, count 2 > 1) -> the next .5 opens bin 2 in ding2020; the
  // adaptive binning adds the three .5 at once: {1, .5 x3} (count 4 >
  // target 1), then .25 opens bin 2 (8 - 4 = 4 > 3 remain) holding .25,
  // .1875, .125, 0 (eps .25: target 4, count 4: not short).
  std::vector<double> t{1, 0.5, 0.5, 0.5, 0.25, 0.1875, 0.125, 0};
  auto dt = sorted_calib(t, std::vector<double>(8, 1.0), true);
  s.min_remaining = ding.min_remaining = 3;
  CHECK(aurc::bins_adaptive(dt, ding, ends) == aurc::AdaptiveStatus::ok);
  CHECK((bin_counts(ends) == std::vector<double>{2, 6}));
  CHECK(aurc::bins_adaptive(dt, s, ends) == aurc::AdaptiveStatus::ok);
  CHECK((bin_counts(ends) == std::vector<double>{4, 4}));

  // last bin one distinct value: 1, .5 (target 1) then 0 x3 opens bin 2
  // with an infinite target: the authors' code overflows; adaptive keeps
  // the bins as they are
  std::vector<double> u{1, 0.5, 0, 0, 0};
  auto du = sorted_calib(u, std::vector<double>(5, 1.0), true);
  s.min_remaining = ding.min_remaining = 2;
  CHECK(aurc::bins_adaptive(du, ding, ends) ==
        aurc::AdaptiveStatus::ding_infinite_target);
  CHECK(aurc::bins_adaptive(du, s, ends) == aurc::AdaptiveStatus::ok);
  CHECK((bin_counts(ends) == std::vector<double>{2, 3}));

  // all equal, and fewer samples than min_remaining: one bin
  std::vector<double> e(50, 0.7);
  auto de = sorted_calib(e, std::vector<double>(50, 1.0), true);
  CHECK(aurc::bins_adaptive(de, s, ends) == aurc::AdaptiveStatus::ok);
  CHECK(ends.size() == 1 && ends[0] == 50);
  aurc::AdaptiveSettings def;
  CHECK(aurc::bins_adaptive(d, def, ends) == aurc::AdaptiveStatus::ok);
  CHECK(ends.size() == 1);
}

void test_adaptive_random() {
  // ding2020 against the brute force; adaptive never empty, never splits
  // ties, and equals ding2020 when there are no ties and no top-up
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> unif(0.0, 1.0);
  int compared = 0, same = 0;
  for (int rep = 0; rep < 300; ++rep) {
    const std::size_t n = 20 + rng() % 400;
    const bool ties = rep % 2 == 0;
    std::vector<double> x(n), y(n, 0.0);
    for (auto& v : x) {
      v = std::pow(unif(rng), 0.3);
      if (ties) v = std::round(v * 40) / 40;
    }
    auto d = sorted_calib(x, y, true);
    aurc::AdaptiveSettings ding;
    ding.ding2020 = true;
    ding.min_remaining = double(rng() % 40);
    std::vector<std::size_t> ends;
    auto st = aurc::bins_adaptive(d, ding, ends);
    auto brute = brute_ding(x, ding.z, ding.min_remaining, ding.min_range);
    if (brute.empty()) {
      CHECK(st != aurc::AdaptiveStatus::ok);
    } else {
      ++compared;
      CHECK(st == aurc::AdaptiveStatus::ok);
      CHECK(bin_counts(ends) == brute);
    }
    aurc::AdaptiveSettings ad = ding;
    ad.ding2020 = false;
    std::vector<std::size_t> ends2;
    CHECK(aurc::bins_adaptive(d, ad, ends2) == aurc::AdaptiveStatus::ok);
    bool ok = ends2.back() == n;
    for (std::size_t b = 0; b < ends2.size(); ++b) {
      const std::size_t prev = b ? ends2[b - 1] : 0;
      ok = ok && ends2[b] > prev;
      if (ends2[b] < n) ok = ok && d.x[ends2[b]] != d.x[ends2[b] - 1];
    }
    CHECK(ok);
    if (!ties && !brute.empty() && ends == ends2) ++same;
  }
  CHECK(compared > 100);
  CHECK(same > 20);
}

void test_bin_stats() {
  std::vector<double> x{0.2, 0.9, 0.4, 0.95};
  std::vector<double> y{0, 1, 1, 0};
  std::vector<double> w{1, 2, 3, 0.5};
  auto d = sorted_calib(x, y, false, w);
  std::vector<std::size_t> ends;
  aurc::bins_breaks(d, {0.0, 0.5, 1.0}, ends);
  aurc::BinStats st;
  aurc::bin_stats(d, ends, st);
  // bin 1: weights 1 (0.2, wrong) and 3 (0.4, right): n 4, conf 1.4 / 4,
  // acc 3/4; bin 2: 2 (0.9, right), 0.5 (0.95, wrong): n 2.5,
  // conf 2.275 / 2.5, acc 2 / 2.5
  CHECK(close(st.n[0], 4) && close(st.sum_x[0], 1.4) && close(st.sum_y[0], 3));
  CHECK(close(st.n[1], 2.5) && close(st.sum_x[1], 2.275));
  CHECK(st.min_x[1] == 0.9 && st.max_x[1] == 0.95);
  double ece, mce;
  aurc::calibration_errors(st, ece, mce);
  // |0.75 - 0.35| = 0.4, |0.8 - 0.91| = 0.11
  CHECK(close(ece, (4 * 0.4 + 2.5 * 0.11) / 6.5));
  CHECK(close(mce, 0.4));
}

}  // namespace

int main() {
  test_sortable_key();
  test_radix_sort();
  test_estimators();
  test_reference_values();
  test_augrc();
  test_interrupt_hook();
  test_key_roundtrip_and_sort();
  test_equal_width_edges();
  test_equal_mass();
  test_adaptive_hand();
  test_adaptive_random();
  test_bin_stats();
  std::printf("core: %d of %d checks succeeded\n", n_checks - n_failed,
              n_checks);
  return n_failed == 0 ? 0 : 1;
}
