// Stand-alone tests of the C++ kernels in src/core (no R): `make test-cpp`.
// Each kernel is compared with a brute-force O(n^2) computation written here.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#if defined(__unix__) || defined(__APPLE__)
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "core/input_checks.h"
#include "core/augrc.h"
#include "core/batch_study.h"
#include "core/estimator_stats.h"
#include "core/contribution.h"
#include "core/curve.h"
#include "core/failure.h"
#include "core/oracle.h"
#include "core/scores.h"
#include "core/bootstrap.h"
#include "core/ci_bootstrap.h"
#include "core/wilcoxon.h"
#include "core/binning.h"
#include "core/small_sort.h"
#include "core/scan.h"
#include "core/pav.h"
#include "core/smooth_ece.h"
#include "core/influence.h"
#include "core/ci_working_point.h"
#include "core/metric_name.h"
#include "core/partial.h"
#include "core/threads.h"
#include "core/kendall.h"
#include "core/running_auroc.h"

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
    CHECK(std::equal(p.order.begin(), p.order.end(), ref.begin()) && p.order.size() == ref.size());  // stable and ascending
  }
}

// A forked child runs every kernel on one thread (core/threads.h): GNU
// OpenMP's pool does not survive fork(), and a child that started a
// parallel region of two threads after its parent had one waited for ever.
// The child sorts on "two threads" under an alarm and reports by its exit
// status; the parent sorts on two threads again afterwards.
void test_fork_threads() {
  CHECK(aurc::usable_threads(0) == 1);
  CHECK(aurc::usable_threads(1) == 1);
  CHECK(aurc::usable_threads(4) == 4);  // no owner recorded: any process
#ifdef AURC_HAVE_FORK
  aurc::record_owner_process();
  CHECK(!aurc::in_forked_child());
  CHECK(aurc::usable_threads(2) == 2);
  const std::size_t n = std::size_t(1) << 17;
  std::vector<double> x(n);
  std::mt19937_64 rng(32);
  std::uniform_real_distribution<double> unif;
  for (double& v : x) v = std::round(unif(rng) * 1000);
  aurc::Presorted before;
  aurc::presort(x.data(), n, before, aurc::NoCheck(), 2);  // starts the pool
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child == 0) {
    // a hang ends the child with SIGALRM (60 s: the sanitizers' child is
    // slow on a loaded machine); each failed check has its own exit code
    alarm(60);
    if (!aurc::in_forked_child()) _exit(2);
    if (aurc::usable_threads(2) != 1) _exit(3);
    aurc::Presorted p;
    aurc::presort(x.data(), n, p, aurc::NoCheck(), 2);
    if (p.order != before.order) _exit(4);
    const double bad[] = {0.5, -1.0};
    if (aurc::first_invalid_loss(bad, 2, 2) != 1) _exit(5);
    _exit(0);
  }
  int status = 0;
  CHECK(child > 0 && waitpid(child, &status, 0) == child);
  if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
    std::printf("forked child: %s %d\n",
                WIFSIGNALED(status) ? "signal" : "exit code",
                WIFSIGNALED(status) ? WTERMSIG(status)
                                    : WEXITSTATUS(status));
  }
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  aurc::Presorted after;
  aurc::presort(x.data(), n, after, aurc::NoCheck(), 2);
  CHECK(after.order == before.order);
  aurc::owner_process() = 0;
#endif
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
  // poll_interrupt(): the host's check only when its flag says an
  // interrupt is pending, never inside an OpenMP region; grow_large()
  // polls between its steps, and a check that throws ends it
  {
    static int polls;
    static volatile int pending = 0;
    polls = 0;
    aurc::interrupt_flag() = &pending;
    aurc::interrupt_poll() = [] { ++polls; };
    aurc::poll_interrupt();
    CHECK(polls == 0);
    pending = 1;
    aurc::poll_interrupt();
    CHECK(polls == 1);
#ifdef _OPENMP
#pragma omp parallel num_threads(1)
    aurc::poll_interrupt();
    CHECK(polls == 1);
#endif
    std::vector<double> v;
    v.reserve(std::size_t(5) << 20);
    aurc::grow_large(v, std::size_t(5) << 20);
    CHECK(polls >= 5 && v.size() == (std::size_t(5) << 20) && v.back() == 0.0);
    aurc::interrupt_poll() = [] { throw std::runtime_error("interrupted"); };
    std::vector<double> u;
    u.reserve(std::size_t(3) << 20);
    bool thrown = false;
    try {
      aurc::grow_large(u, std::size_t(3) << 20, 2.0);
    } catch (const std::runtime_error&) {
      thrown = true;
    }
    CHECK(thrown);
    pending = 0;
    aurc::grow_large(u, std::size_t(3) << 20, 2.0);
    CHECK(u.size() == (std::size_t(3) << 20) && u.back() == 2.0);
    aurc::interrupt_poll() = nullptr;
    aurc::interrupt_flag() = nullptr;
  }
  // runs at the chunk borders: every key its own run, and one run of all
  for (std::size_t n : {aurc::kChunk - 1, aurc::kChunk, aurc::kChunk + 1,
                        2 * aurc::kChunk + 3}) {
    std::vector<std::uint64_t> distinct(n), equal(n, 7);
    for (std::size_t i = 0; i < n; ++i) distinct[i] = i;
    std::size_t runs = 0, last_end = 0;
    aurc::for_each_run(distinct, [&](std::size_t b, std::size_t e) {
      runs += (b == last_end && e == b + 1);
      last_end = e;
    });
    CHECK(runs == n);
    runs = 0;
    std::size_t last_begin = n;
    aurc::for_each_run_reverse(distinct, [&](std::size_t b, std::size_t e) {
      runs += (e == last_begin && e == b + 1);
      last_begin = b;
    });
    CHECK(runs == n);
    std::size_t whole = 0;
    aurc::for_each_run(equal, [&](std::size_t b, std::size_t e) {
      whole += (b == 0 && e == n);
    });
    aurc::for_each_run_reverse(equal, [&](std::size_t b, std::size_t e) {
      whole += (b == 0 && e == n);
    });
    CHECK(whole == 2);
  }
}

// The MSD-first sort (n >= kHybridSort) gives the stable ascending order
// for any thread count: on tied data with negative zeros and infinities,
// on a dense cluster with a few far outliers (one bucket of more than
// kBucketLarge keys, sorted by a second MSD-first sort), for both payload
// kinds; and it checks interrupts between segments.
void test_radix_sort_threads() {
  std::mt19937_64 rng(43);
  std::normal_distribution<double> norm;
  const double inf = std::numeric_limits<double>::infinity();
  const std::size_t sizes[] = {aurc::kHybridSort, std::size_t(1) << 17,
                               std::size_t(300001),
                               aurc::kBucketLarge + 100000};
  for (std::size_t n : sizes) {
    const bool cluster = n > aurc::kBucketLarge;
    std::vector<double> x(n), l(n);
    for (std::size_t i = 0; i < n; ++i) {
      if (cluster) {
        x[i] = i % 1000 == 0 ? (i % 2000 == 0 ? 1e300 : -1e300)
                             : 1.5 + 1e-6 * std::round(norm(rng) * 1e4);
      } else {
        x[i] = (i % 3 == 0) ? std::round(norm(rng) * 8) / 4 : norm(rng);
      }
      l[i] = double(i);
    }
    x[5] = -0.0;
    x[6] = 0.0;
    x[7] = inf;
    x[8] = -inf;
    std::vector<std::size_t> ref(n);
    for (std::size_t i = 0; i < n; ++i) ref[i] = i;
    std::stable_sort(ref.begin(), ref.end(), [&](std::size_t a, std::size_t b) {
      return aurc::sortable_key(x[a]) < aurc::sortable_key(x[b]);
    });
    for (int threads : {1, 2, 3, 4}) {
      aurc::Presorted p;
      int calls = 0;
      aurc::presort(x.data(), n, p, CountingCheck{&calls}, threads);
      CHECK(std::equal(p.order.begin(), p.order.end(), ref.begin()) && p.order.size() == ref.size());
      CHECK(calls > 3);
      aurc::SortedLoss sl;
      aurc::sort_with_loss(x.data(), l.data(), n, sl, aurc::NoCheck(), threads);
      bool same = sl.keys == p.keys;
      for (std::size_t k = 0; k < n && same; ++k) same = sl.loss[k] == double(ref[k]);
      CHECK(same);
    }
  }
}

// ---- metrics of Traub et al., curves, scores (issue 3) ----

// Failure AUPR, working points and the curve against brute force on tied,
// weighted data.
void test_failure_and_curve() {
  std::mt19937_64 rng(11);
  std::normal_distribution<double> norm;
  std::bernoulli_distribution fail(0.4);
  for (std::size_t n : {3, 17, 120}) {
    std::vector<double> s(n), f(n), w(n);
    for (std::size_t i = 0; i < n; ++i) {
      s[i] = std::round(norm(rng) * 2) / 2;
      f[i] = fail(rng) ? 1.0 : 0.0;
      w[i] = 0.5 + double(i % 4);
    }
    f[0] = 1;
    f[1] = 0;
    aurc::Presorted p;
    aurc::presort(s.data(), n, p);
    const aurc::PresortedGroups src{p, f.data(), w.data()};
    // brute force: distinct thresholds, ascending, flagged = s <= t
    std::vector<double> thr(s);
    std::sort(thr.begin(), thr.end());
    thr.erase(std::unique(thr.begin(), thr.end()), thr.end());
    double total_f = 0, nw = 0, ap = 0, prev_rec = 0;
    for (std::size_t i = 0; i < n; ++i) {
      total_f += w[i] * f[i];
      nw += w[i];
    }
    for (double t : thr) {
      double tp = 0, fl = 0;
      for (std::size_t i = 0; i < n; ++i)
        if (s[i] <= t) {
          tp += w[i] * f[i];
          fl += w[i];
        }
      ap += (tp / total_f - prev_rec) * tp / fl;
      prev_rec = tp / total_f;
    }
    CHECK(close(aurc::failure_aupr(src), ap));
    // curve: descending thresholds
    aurc::CurveSums cs;
    aurc::rc_curve_sums(src, cs);
    CHECK(cs.accepted.size() == thr.size());
    for (std::size_t g = 0; g < thr.size(); ++g) {
      const double t = thr[thr.size() - 1 - g];
      double acc = 0, los = 0;
      for (std::size_t i = 0; i < n; ++i)
        if (s[i] >= t) {
          acc += w[i];
          los += w[i] * f[i];
        }
      CHECK(close(cs.accepted[g], acc) && close(cs.loss_accepted[g], los));
      CHECK(close(aurc::key_to_double(aurc::sortable_key(t)), t));
    }
    // risk at coverage 0.5 and coverage at risk 0.3
    double achieved = 0, want_risk = -1, want_cov = -1, best = 0;
    for (std::size_t g = 0; g < thr.size(); ++g) {
      const double cov = cs.accepted[g] / nw;
      const double risk = cs.loss_accepted[g] / cs.accepted[g];
      if (want_risk < 0 && cov >= 0.5) {
        want_risk = risk;
        want_cov = cov;
      }
      if (risk <= 0.3) best = cov;
    }
    CHECK(close(aurc::risk_at_coverage(src, nw, 0.5, achieved), want_risk));
    CHECK(close(achieved, want_cov));
    CHECK(close(aurc::coverage_at_risk(src, nw, 0.3), best));
  }
  std::vector<double> s = {1, 2}, f = {0, 0};
  aurc::Presorted p;
  aurc::presort(s.data(), 2, p);
  CHECK(std::isnan(aurc::failure_aupr(aurc::PresortedGroups{p, f.data(), nullptr})));
}

// The oracle: equal to the estimator on the data sorted by loss, and the
// unit split makes integer weights equal repeated rows.
// loss_is_constant(): at most one loss group of positive count. A
// constant loss that is no binary fraction (0.7) left NAURC's and PRR's
// denominators a rounding error away from 0.
void test_constant_loss() {
  aurc::GroupVectors g;
  CHECK(aurc::loss_is_constant(g));  // no groups
  g.count = {0.0, 5.0, 0.0};
  g.loss = {0.0, 3.5, 0.0};
  CHECK(aurc::loss_is_constant(g));  // one group of positive weight
  g.count = {2.0, 5.0};
  g.loss = {0.0, 3.5};
  CHECK(!aurc::loss_is_constant(g));
  for (std::size_t n : {33u, 101u, 1000u, 12345u}) {
    for (double v : {0.7, 0.3, 0.1, 0.9}) {
      aurc::GroupVectors by_score, by_loss;
      for (std::size_t i = 0; i < n; ++i) {
        by_score.count.push_back(1.0 + (i % 3));
        by_score.loss.push_back(v * (1.0 + (i % 3)));
      }
      double total = 0.0;
      for (double c : by_score.count) total += c;
      by_loss.count = {total};
      by_loss.loss = {v * total};
      CHECK(std::isnan(aurc::prr_value(by_score, by_loss, total, 1.0)));
      CHECK(std::isnan(aurc::prr_value(by_score, by_loss, total, 0.5)));
    }
  }
}

void test_oracle() {
  std::vector<double> loss = {0.5, 0.0, 2.0, 0.5, 1.0};
  std::vector<double> w = {2, 1, 1, 3, 0};
  std::vector<double> rep_loss, rep_score;
  for (std::size_t i = 0; i < loss.size(); ++i)
    for (int k = 0; k < int(w[i]); ++k) rep_loss.push_back(loss[i]);
  std::sort(rep_loss.begin(), rep_loss.end());
  for (std::size_t i = 0; i < rep_loss.size(); ++i)
    rep_score.push_back(-double(i));  // lowest loss most confident
  aurc::Presorted pl;
  aurc::presort(loss.data(), loss.size(), pl);
  const aurc::PresortedGroups by_loss{pl, loss.data(), w.data()};
  aurc::Presorted pr;
  aurc::presort(rep_score.data(), rep_score.size(), pr);
  const aurc::PresortedGroups strict{pr, rep_loss.data(), nullptr};
  const double n = double(rep_loss.size());
  for (auto est : {aurc::Estimator::alpha, aurc::Estimator::alpha_prime,
                   aurc::Estimator::sele, aurc::Estimator::trapezoid}) {
    CHECK(close(aurc::aurc_oracle(est, by_loss, n),
                aurc::aurc_estimate(est, strict, n)));
  }
  CHECK(close(aurc::aurc_asymptotic_optimum(0.5), 0.5 + 0.5 * std::log(0.5)));
  CHECK(aurc::aurc_asymptotic_optimum(1.0) == 1.0);
  CHECK(std::isnan(aurc::naurc_value(0.3, 0.2, 0.2)));
}

// The closed forms of aurc_oracle() against the unit-by-unit OracleSource
// (the definition: integer weights are repeated rows) on weights large
// enough to take the closed forms, fractional ones included.
void test_oracle_closed_form() {
  std::mt19937_64 rng(15);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int rep = 0; rep < 20; ++rep) {
    const std::size_t n = 1 + rng() % 12;
    std::vector<double> loss(n), w(n);
    for (std::size_t i = 0; i < n; ++i) {
      loss[i] = rep % 2 ? double(rng() % 3) : std::floor(u(rng) * 40) / 8;
      w[i] = double(rng() % 3000);
      if (rep % 3 == 0) w[i] += 0.25 * double(rng() % 4);  // fractional
      if (rep % 5 == 0 && i == 0) w[i] = 0;
    }
    aurc::Presorted pl;
    aurc::presort(loss.data(), n, pl);
    const aurc::PresortedGroups by_loss{pl, loss.data(), w.data()};
    const double total = aurc::total_count(by_loss);
    if (!(total > 0)) continue;
    for (auto est : {aurc::Estimator::alpha, aurc::Estimator::alpha_prime,
                     aurc::Estimator::sele, aurc::Estimator::two_sele,
                     aurc::Estimator::trapezoid}) {
      const double fast = aurc::aurc_oracle(est, by_loss, total);
      const double units =
          aurc::aurc_estimate(est, aurc::oracle_source(by_loss), total);
      CHECK(close(fast, units, 1e-12));
    }
  }
  // huge weights: closed forms, finite, no loop; the oracle AURC of a
  // binary loss is sum_j j / (c0 + j) / n over the c1 failures
  std::vector<double> loss = {0.0, 1.0};
  std::vector<double> w = {1e16, 3e15};
  aurc::Presorted pl;
  aurc::presort(loss.data(), 2, pl);
  const aurc::PresortedGroups by_loss{pl, loss.data(), w.data()};
  const double n = 1.3e16, c0 = 1e16, c1 = 3e15;
  const double expect =
      (c1 - c0 * (std::log((c0 + c1) / c0))) / n;  // H differences ~ log
  CHECK(close(aurc::aurc_oracle(aurc::Estimator::alpha, by_loss, n), expect,
              1e-9));
  for (auto est : {aurc::Estimator::alpha_prime, aurc::Estimator::sele,
                   aurc::Estimator::trapezoid}) {
    const double v = aurc::aurc_oracle(est, by_loss, n);
    CHECK(std::isfinite(v) && v >= 0.0 && v <= 1.0);
  }
  // sele: failures take the lowest ranks 1..c1
  CHECK(close(aurc::aurc_oracle(aurc::Estimator::sele, by_loss, n),
              (c1 * (c1 + 1) / 2) / (n * n), 1e-12));
}

void test_contributions() {
  const std::size_t n = 7;
  std::vector<double> a(n), t(n), st(n);
  aurc::failure_contributions(n, a.data(), t.data(), st.data());
  double h = 0;
  for (std::size_t k = n; k >= 1; --k) {
    h += 1.0 / double(k);
    CHECK(close(a[k - 1], h / 7.0));
    CHECK(close(t[k - 1], (7.0 - double(k) + 0.5) / 49.0));
    CHECK(close(st[k - 1], (7.0 - double(k) + 1.0) / 49.0));
  }
}

// Scores and losses on a 2 x 3 matrix, by hand; huge logits stay finite.
void test_scores() {
  // column-major 2 x 3: row 0 = (0, log 2, 0), row 1 = (1e4, -1e4, 0)
  std::vector<double> z = {0.0, 1e4, std::log(2.0), -1e4, 0.0, 0.0};
  std::vector<double> out(2);
  aurc::scores_matrix(z.data(), 2, 3, aurc::Score::msp, true, 1.0, 2.0,
                      out.data());
  CHECK(close(out[0], 0.5) && close(out[1], 1.0));
  aurc::scores_matrix(z.data(), 2, 3, aurc::Score::margin, true, 1.0, 2.0,
                      out.data());
  CHECK(close(out[0], 0.25));
  aurc::scores_matrix(z.data(), 2, 3, aurc::Score::neg_entropy, true, 1.0,
                      2.0, out.data());
  CHECK(close(out[0], 0.5 * std::log(0.5) + 0.5 * std::log(0.25)));
  CHECK(std::isfinite(out[1]));
  aurc::scores_matrix(z.data(), 2, 3, aurc::Score::maxlogit_pnorm, true, 1.0,
                      2.0, out.data());
  CHECK(close(out[1], 1.0 / std::sqrt(2.0)));
  std::vector<int> y = {1, 1};
  aurc::losses_matrix(z.data(), 2, 3, y.data(), aurc::Loss::cross_entropy,
                      true, 1.0, out.data());
  CHECK(close(out[0], std::log(2.0)) && close(out[1], 2e4));
  aurc::losses_matrix(z.data(), 2, 3, y.data(), aurc::Loss::zero_one, true,
                      1.0, out.data());
  CHECK(out[0] == 0.0 && out[1] == 1.0);
  aurc::losses_matrix(z.data(), 2, 3, y.data(), aurc::Loss::brier, true, 1.0,
                      out.data());
  CHECK(close(out[0], 0.0625 + 0.25 + 0.0625) && close(out[1], 2.0));
  // two identical members: mutual information 0
  std::vector<double> a = {0.0, 0.0, std::log(2.0), std::log(2.0), 0.0, 0.0};
  std::vector<double> mi(1);
  aurc::scores_members(a.data(), 2, 1, 3, aurc::Score::mcd_mi, true, 1.0,
                       mi.data());
  CHECK(std::fabs(mi[0]) < 1e-15);
}

// ---- bootstrap ranking (issue 5) ------------------------------------------

// brute force, unit weights: failure AUPR (flagged = s <= t, ascending t),
// trapezoid AUGRC (1/n^2) sum (mid_i - 1/2) l_i, and the "alpha" AURC of
// the oracle order (losses sorted ascending, every sample its own score)
double brute_aupr(const std::vector<double>& s, const std::vector<double>& f) {
  std::vector<double> thr(s);
  std::sort(thr.begin(), thr.end());
  thr.erase(std::unique(thr.begin(), thr.end()), thr.end());
  double total_f = 0, ap = 0, prev_rec = 0;
  for (double x : f) total_f += x;
  if (total_f == 0 || total_f == double(f.size()))
    return std::numeric_limits<double>::quiet_NaN();
  for (double t : thr) {
    double tp = 0, fl = 0;
    for (std::size_t i = 0; i < s.size(); ++i)
      if (s[i] <= t) {
        tp += f[i];
        fl += 1;
      }
    ap += (tp / total_f - prev_rec) * tp / fl;
    prev_rec = tp / total_f;
  }
  return ap;
}

double brute_augrc(const std::vector<double>& s, const std::vector<double>& l) {
  const double n = double(s.size());
  double acc = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    double below = 0, le = 0;
    for (double x : s) {
      below += x < s[i];
      le += x <= s[i];
    }
    acc += ((below + 1 + le) / 2 - 0.5) * l[i];
  }
  return acc / (n * n);
}

double brute_oracle_alpha(std::vector<double> l) {
  std::sort(l.begin(), l.end());
  std::vector<double> s(l.size()), w(l.size(), 1.0);
  for (std::size_t i = 0; i < l.size(); ++i) s[i] = -double(i);
  return brute_alpha(s, l, w);
}

// Equal element by element, NaN equal to NaN.
bool same_values(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i]))))
      return false;
  return true;
}

// A replicate's metrics from counts equal the metrics of the data with the
// drawn rows repeated (a fresh sort of the score and of the loss), for every
// registered metric, with 0/1 losses and with a continuous loss with ties;
// the new metrics of the oracle order and failure AUPR also equal brute
// force; the block kernel equals the one-replicate pass; thread count does
// not matter; preparing the loss order leaves the other metrics unchanged.
void test_bootstrap_replicates() {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> norm;
  std::exponential_distribution<double> expo;
  const std::size_t n = 57, C = 3, B = 11;
  // every metric of the ranking's registry (R/metric-registry.R) with the
  // options R gives it by default, and the other estimators and rules
  struct Named {
    const char* name;
    aurc::MetricSpec spec;
  };
  std::vector<Named> named;
  auto add = [&](const char* name, const char* kernel,
                 const char* est = "alpha", const char* method = "trapezoid",
                 double coverage = 0.5, double risk = 0.5) {
    aurc::MetricSpec s;
    CHECK(aurc::make_metric_spec(kernel, est, method, "exact", coverage,
                                 risk, s));
    named.push_back({name, s});
  };
  add("aurc", "aurc");
  add("aurc_alpha_prime", "aurc", "alpha_prime");
  add("aurc_sele", "aurc", "sele");
  add("aurc_2sele", "aurc", "2sele");
  add("aurc_trapezoid", "aurc", "trapezoid");
  add("augrc", "augrc");
  add("augrc_step", "augrc", "alpha", "step");
  add("failure_auroc", "failure_auroc");
  add("failure_aupr", "failure_aupr");
  add("success_aupr", "success_aupr");
  add("eaurc", "eaurc");
  add("eaugrc", "eaugrc");
  add("naurc", "naurc");
  add("auarc", "auarc");
  add("prr", "prr@1");
  add("prr_half", "prr@0.5");
  add("fpr_at_tpr", "fpr_at_tpr@0.95");
  add("achievable_aurc", "achievable_aurc");
  add("partial_aurc", "partial_aurc@0,0.5");
  add("partial_augrc", "partial_augrc@0.25,1");
  add("risk_at_coverage", "risk_at_coverage", "alpha", "trapezoid", 0.7);
  add("coverage_at_risk", "coverage_at_risk", "alpha", "trapezoid", 0.5,
      0.3);
  std::vector<aurc::MetricSpec> metrics;
  for (const Named& e : named) metrics.push_back(e.spec);
  const std::size_t M = metrics.size();
  for (int binary = 1; binary >= 0; --binary) {
    std::vector<double> score(n * C), loss(n * C);
    for (std::size_t i = 0; i < n * C; ++i) {
      score[i] = std::round(norm(rng) * 2) / 2;  // ties
      const double f = (rng() % 3 == 0) ? 1.0 : 0.0;
      loss[i] = binary ? f : f + std::round(expo(rng) * 4) / 4;  // ties
    }
    std::vector<int> idx(n * B);
    for (auto& v : idx) v = 1 + static_cast<int>(rng() % n);
    for (std::size_t i = 0; i < n; ++i) idx[i] = 1 + int(i % 3);  // heavy dup
    std::vector<aurc::RankingColumn> cols(C), plain(C);
    for (std::size_t c = 0; c < C; ++c) {
      aurc::prepare_column(score.data() + c * n, loss.data() + c * n, n,
                           cols[c]);
      aurc::prepare_column(score.data() + c * n, loss.data() + c * n, n,
                           plain[c]);
      aurc::prepare_loss_order(loss.data() + c * n, n, cols[c]);
      CHECK(cols[c].binary_loss == (binary == 1));
    }
    std::vector<double> out1(B * C * M), out2(B * C * M), out3(B * C * M);
    aurc::bootstrap_metrics(cols, n, idx.data(), B, metrics, 1, out1.data());
    aurc::bootstrap_metrics(cols, n, idx.data(), B, metrics, 2, out2.data());
    aurc::bootstrap_metrics(plain, n, idx.data(), B, metrics, 2, out3.data());
    CHECK(same_values(out1, out2));
    // the same draws as a B x n matrix (one row per replicate)
    std::vector<int> idx_rows(n * B);
    for (std::size_t b = 0; b < B; ++b)
      for (std::size_t i = 0; i < n; ++i) idx_rows[b + i * B] = idx[b * n + i];
    std::vector<double> out4(B * C * M);
    aurc::bootstrap_metrics(cols, n, idx_rows.data(), B, metrics, 2,
                            out4.data(), aurc::NoCheck(), aurc::NoProgress(), true);
    CHECK(same_values(out1, out4));
    for (std::size_t i = 0; i < B * C * M; ++i) {
      const std::size_t m = i / (B * C);
      if (metrics[m].by_loss())
        CHECK(std::isnan(out3[i]));  // no loss order prepared: NaN
      else
        CHECK(out3[i] == out1[i] ||
              (std::isnan(out3[i]) && std::isnan(out1[i])));
    }
    for (std::size_t b = 0; b < B; ++b) {
      std::vector<double> counts(n, 0.0);
      for (std::size_t i = 0; i < n; ++i) counts[idx[b * n + i] - 1] += 1.0;
      for (std::size_t c = 0; c < C; ++c) {
        std::vector<double> s(n), l(n);
        for (std::size_t i = 0; i < n; ++i) {
          const int k = idx[b * n + i] - 1;
          s[i] = score[c * n + k];
          l[i] = loss[c * n + k];
        }
        aurc::SortedLoss sorted, by_loss_sorted;
        aurc::sort_with_loss(s.data(), l.data(), n, sorted);
        aurc::sort_with_loss(l.data(), l.data(), n, by_loss_sorted);
        aurc::GroupVectors gv, lv, single;
        aurc::collect_groups(sorted, gv);
        aurc::collect_groups(by_loss_sorted, lv);
        aurc::replicate_groups(cols[c], counts.data(), single);
        CHECK(single.count == gv.count);
        const aurc::ReplicateGroups fresh{gv, &lv, double(n)};
        auto got = [&](const char* name) {
          for (std::size_t m = 0; m < M; ++m)
            if (std::string(name) == named[m].name)
              return out1[b + B * (c + C * m)];
          return std::numeric_limits<double>::quiet_NaN();
        };
        for (std::size_t m = 0; m < M; ++m) {
          const double ref = aurc::evaluate_metric(metrics[m], fresh);
          const double v = out1[b + B * (c + C * m)];
          CHECK(close(v, ref, 1e-13) || (std::isnan(v) && std::isnan(ref)));
        }
        // independent brute force for the metrics of issue 5b
        const std::vector<double> ones(n, 1.0);
        const double a = brute_alpha(s, l, ones);
        const double opt = brute_oracle_alpha(l);
        double mean = 0;
        for (double x : l) mean += x / double(n);
        CHECK(close(got("eaurc"), a - opt, 1e-12));
        CHECK(got("eaurc") >= -1e-15);
        const double na = (mean - opt > 0) ? (a - opt) / (mean - opt)
                                           : std::nan("");  // equal losses
        CHECK(close(got("naurc"), na, 1e-12) ||
              (std::isnan(na) && std::isnan(got("naurc"))));
        if (binary) {
          CHECK(close(got("eaugrc"), brute_augrc(s, l) - mean * mean / 2,
                      1e-12));
          const double ap = brute_aupr(s, l);
          CHECK(close(got("failure_aupr"), ap, 1e-12) ||
                (std::isnan(ap) && std::isnan(got("failure_aupr"))));
        }
      }
    }
  }
  // equal losses: NAURC undefined (NaN), E-AURC 0
  {
    std::vector<double> s = {1, 2, 2, 3}, l = {0.5, 0.5, 0.5, 0.5};
    std::vector<aurc::RankingColumn> cols(1);
    aurc::prepare_column(s.data(), l.data(), 4, cols[0]);
    aurc::prepare_loss_order(l.data(), 4, cols[0]);
    std::vector<int> id = {1, 2, 2, 4};
    std::vector<aurc::MetricSpec> ms(2);
    CHECK(aurc::make_metric_spec("eaurc", "alpha", "trapezoid", "exact", 0.5,
                                 0.5, ms[0]));
    CHECK(aurc::make_metric_spec("naurc", "alpha", "trapezoid", "exact", 0.5,
                                 0.5, ms[1]));
    std::vector<double> o(2);
    aurc::bootstrap_metrics(cols, 4, id.data(), 1, ms, 1, o.data());
    CHECK(close(o[0], 0.0) && std::isnan(o[1]));
  }
  // the spec of a name with options, and unknown names and estimators
  {
    aurc::MetricSpec s;
    CHECK(aurc::make_metric_spec("partial_aurc@0.25,0.75", "sele", "step",
                                 "asymptotic", 0.3, 0.2, s));
    CHECK(s.kind == aurc::MetricKind::partial_aurc && s.lo == 0.25 &&
          s.hi == 0.75 && s.estimator == aurc::Estimator::sele && s.step &&
          s.asymptotic && s.coverage == 0.3 && s.risk == 0.2);
    CHECK(aurc::make_metric_spec("eaurc", "alpha", "trapezoid", "exact", 0.5,
                                 0.5, s) && s.by_loss());
    CHECK(!aurc::make_metric_spec("no_such_metric", "alpha", "trapezoid",
                                  "exact", 0.5, 0.5, s));
    CHECK(!aurc::make_metric_spec("aurc", "no_such_estimator", "trapezoid",
                                  "exact", 0.5, 0.5, s));
  }
#ifdef _OPENMP
  std::printf("bootstrap: compared 1 and 2 OpenMP threads\n");
#else
  std::printf("bootstrap: compiled without OpenMP (1 thread only)\n");
#endif
}

// Exact signed-rank distribution against brute-force enumeration of the
// 2^n sign patterns.
void test_signed_rank_distribution() {
  for (int n = 1; n <= 12; ++n) {
    const int u = n * (n + 1) / 2;
    std::vector<double> brute(static_cast<std::size_t>(u) + 1, 0.0);
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
      int sum = 0;
      for (int j = 0; j < n; ++j)
        if (mask & (1u << j)) sum += j + 1;
      brute[static_cast<std::size_t>(sum)] += 1.0;
    }
    const aurc::SignedRankDistribution dist(n);
    double cum = 0.0;
    for (int k = 0; k <= u; ++k) {
      CHECK(dist.count(k) == brute[static_cast<std::size_t>(k)]);
      cum += brute[static_cast<std::size_t>(k)];
      CHECK(close(dist.cdf(k, false), cum / std::ldexp(1.0, n), 1e-14));
      CHECK(close(dist.cdf(k, true), 1.0 - cum / std::ldexp(1.0, n), 1e-14));
    }
  }
}

void test_signed_rank_test() {
  aurc::SignedRankWork w;
  // d = 1, 2, -3: V = 1 + 2 = 3; P(V <= 3) = #{0,1,2,3,{1,2}} / 8 = 5/8
  std::vector<double> x = {1, 2, 0}, y = {0, 0, 3};
  auto r = aurc::signed_rank_test(x.data(), y.data(), 3,
                                  aurc::Alternative::less, false, w);
  CHECK(r.exact && r.statistic == 3 && close(r.p_value, 5.0 / 8.0));
  r = aurc::signed_rank_test(x.data(), y.data(), 3,
                             aurc::Alternative::greater, false, w);
  // P(V >= 3) = #{3, {1,2}, {1,3}, {2,3}, {1,2,3}} / 8 = 5/8
  CHECK(close(r.p_value, 5.0 / 8.0));
  // all differences zero: p = 1
  r = aurc::signed_rank_test(x.data(), x.data(), 3, aurc::Alternative::less,
                             false, w);
  CHECK(r.p_value == 1.0 && r.statistic == 0.0);
  // ties among |d|: normal approximation; d = 1, -1, 2: ranks 1.5, 1.5, 3
  // V = 4.5, mean 3, sigma^2 = 3*4*7/24 - (8 - 2)/48 = 3.375
  std::vector<double> a = {1, -1, 2}, z = {0, 0, 0};
  r = aurc::signed_rank_test(a.data(), z.data(), 3, aurc::Alternative::less,
                             false, w);
  CHECK(!r.exact && r.statistic == 4.5);
  CHECK(close(r.p_value, aurc::normal_cdf(1.5 / std::sqrt(3.375))));
  // missing values drop the pair
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> xn = {1, 2, nan, 0}, yn = {0, 0, 1, 3};
  r = aurc::signed_rank_test(xn.data(), yn.data(), 4, aurc::Alternative::less,
                             false, w);
  CHECK(r.n == 3 && close(r.p_value, 5.0 / 8.0));
}

void test_holm() {
  // p sorted: 0.01 (x3), 0.02 (x2), 0.04 (x1) -> 0.03, 0.04, 0.04
  std::vector<double> p = {0.04, 0.01, 0.02}, out(3);
  aurc::holm_adjust(p.data(), 3, out.data());
  CHECK(close(out[0], 0.04) && close(out[1], 0.03) && close(out[2], 0.04));
  // capped at 1, NaN kept and not counted
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> q = {0.6, nan, 0.3}, o2(3);
  aurc::holm_adjust(q.data(), 3, o2.data());
  CHECK(close(o2[0], 0.6) && std::isnan(o2[1]) && close(o2[2], 0.6));
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

void test_input_summary() {
  // hand case: scores 0.1, 0.2, 0.8, 0.9 with losses 0, 1, 1, 0: below 0.5
  // the loss rises with the score (r = 1), above it falls (r = -1)
  const std::vector<double> s = {0.1, 0.2, 0.8, 0.9, NAN};
  const std::vector<double> l = {0, 1, 1, 0, 1};
  auto sum = aurc::summarise_input(
      s.size(), 100, [&](std::size_t i) { return s[i]; },
      [&](std::size_t i) { return l[i]; });
  CHECK(sum.rows == 4);  // the NaN score is left out
  CHECK(std::fabs(sum.low.r() - 1.0) < 1e-12);
  CHECK(std::fabs(sum.high.r() + 1.0) < 1e-12);
  CHECK(std::fabs(sum.all.r()) < 1e-12);
  CHECK(sum.loss_zero_one == 1 && sum.loss_min == 0 && sum.loss_max == 1);
  CHECK(std::fabs(sum.all.mx - 0.5) < 1e-12 && sum.all.my == 0.5);
  CHECK(sum.loss_above_half == 0.5);
  // the spread positions: ends included, strictly increasing, m of them
  auto pos = aurc::spread_positions(1000003, 16384);
  CHECK(pos.size() == 16384 && pos.front() == 0 && pos.back() == 1000002);
  bool increasing = true;
  for (std::size_t k = 1; k < pos.size(); ++k)
    increasing = increasing && pos[k] > pos[k - 1];
  CHECK(increasing);
  CHECK(aurc::spread_positions(5, 16384).size() == 5);
  // huge values: centred sums, no overflow to NaN for r
  const std::vector<double> big = {1e150, 2e150, 3e150, 4e150};
  const std::vector<double> y = {0, 0, 1, 1};
  auto b = aurc::summarise_input(
      4, 10, [&](std::size_t i) { return big[i]; },
      [&](std::size_t i) { return y[i]; });
  CHECK(b.all.r() > 0.89 && b.all.r() < 0.9);
}

void test_edge_bin() {
  // bins given by ascending upper edges: (e[b-1], e[b]], the rest in the last
  using aurc::edge_bin;
  const std::vector<double> e = {0.5, 0.7, 0.9};
  CHECK(edge_bin(0.0, e) == 1);
  CHECK(edge_bin(0.5, e) == 1);
  CHECK(edge_bin(0.50001, e) == 2);
  CHECK(edge_bin(0.7, e) == 2);
  CHECK(edge_bin(0.9, e) == 3);
  CHECK(edge_bin(0.95, e) == 3);
  CHECK(edge_bin(0.3, std::vector<double>{0.3}) == 1);
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

// The helpers on non-integer arguments and runs of any length end and agree
// with sums in long double.
void test_special_real_arguments() {
  const double as[] = {0.25, 1.5, 7.75, 19.9, 20.5, 1234.125, 1e12 + 0.5};
  const double ms[] = {0, 1, 63, 64, 65, 300, 100000};
  for (double a : as) {
    for (double m : ms) {
      long double h = 0, t = 0, e = 0;
      for (long i = long(m) - 1; i >= 0; --i) {
        h += 1.0L / (a + i);
        t += 1.0L / (((long double)a + i) * (a + i));
        e += std::log1p((long double)i / a);
      }
      CHECK(std::fabs(aurc::digamma_diff(a, a + m) - double(h)) <=
            1e-13 * double(h));
      CHECK(std::fabs(aurc::trigamma_diff(a, a + m) - double(t)) <=
            1e-13 * double(t));
      CHECK(std::fabs(aurc::log_rising_excess(a, m) - double(e)) <=
            1e-12 * double(e) + 1e-300);
    }
  }
  // beyond 2^53 the run still ends (the loop counts iterations)
  CHECK(aurc::digamma_diff(1e17, 1e17 + 32) > 0);
  CHECK(aurc::trigamma_diff(1e17, 1e17 + 32) > 0);
  CHECK(aurc::digamma_diff(9e15, 9e15 + 3) > 0);
}

// The strided binomial sum equals the full one, and huge n is fast.
void test_expected_weight_stride() {
  for (auto est : {aurc::Estimator::alpha, aurc::Estimator::alpha_prime,
                   aurc::Estimator::sele}) {
    for (double beta : {0.3, 0.5, 0.97}) {
      const double n = 2e8;
      const double full = aurc::expected_weight(est, beta, n, false);
      const double fast = aurc::expected_weight(est, beta, n, true);
      CHECK(std::fabs(fast - full) <= 1e-12 * std::fabs(full) + 1e-15);
    }
  }
  // n near 2^53: terminates with a bias close to 0 for alpha (unbiased in
  // the limit)
  const double b = aurc::weight_bias(aurc::Estimator::alpha, 0.5, 9e15);
  CHECK(std::isfinite(b) && std::fabs(b) < 1e-9);
  // the log pmf ratio agrees with lgamma in long double at moderate N
  const double N = 5000, beta = 0.3, m = 1500;
  for (double d : {-400.0, -3.0, 5.0, 250.0}) {
    const long double k = m + d;
    const long double ref = std::lgamma((long double)m + 1) -
                            std::lgamma(k + 1) +
                            std::lgamma((long double)N - m + 1) -
                            std::lgamma((long double)N - k + 1) +
                            d * std::log((long double)beta) -
                            d * std::log1p(-(long double)beta);
    CHECK(std::fabs(aurc::binomial_log_ratio(N, beta, m, d) - double(ref)) <=
          1e-9 * std::fabs(double(ref)));
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

// ---- bootstrap intervals (issue 10) --------------------------------------

// The generator: uniform_below() stays in range and is flat; the alias
// method draws in proportion to the weights; Poisson(1) has mean and
// variance 1; streams of different replicates differ.
void test_ci_rng() {
  aurc::Xoshiro256pp g(42);
  std::vector<double> freq(7, 0.0);
  const int draws = 700000;
  for (int i = 0; i < draws; ++i) {
    const std::uint64_t k = aurc::uniform_below(g, 7);
    CHECK(k < 7);
    if (k < 7) freq[k] += 1.0;
  }
  for (double f : freq)  // sd of a cell is about 290: 5 sd
    CHECK(std::fabs(f - draws / 7.0) < 1500.0);
  const std::vector<double> w = {0.0, 1.0, 3.0, 0.5, 5.5};
  aurc::AliasTable t;
  aurc::build_alias(w.data(), w.size(), t);
  std::vector<double> af(w.size(), 0.0);
  for (int i = 0; i < draws; ++i) af[aurc::alias_draw(t, g)] += 1.0;
  CHECK(af[0] == 0.0);
  for (std::size_t i = 1; i < w.size(); ++i) {
    const double p = w[i] / 10.0;
    CHECK(std::fabs(af[i] / draws - p) < 5 * std::sqrt(p * (1 - p) / draws));
  }
  double m = 0.0, m2 = 0.0;
  const aurc::Poisson1& pois = aurc::poisson1();
  for (int i = 0; i < draws; ++i) {
    const double x = pois(g);
    m += x;
    m2 += x * x;
  }
  m /= draws;
  m2 = m2 / draws - m * m;
  CHECK(std::fabs(m - 1.0) < 0.01 && std::fabs(m2 - 1.0) < 0.015);
  aurc::Xoshiro256pp a = aurc::replicate_stream(1, 0),
                     b = aurc::replicate_stream(1, 1),
                     c = aurc::replicate_stream(1, 0);
  const std::uint64_t a1 = a.next();
  CHECK(a1 != b.next());
  CHECK(a1 == c.next());
}

// binomial_draw(): mean and variance over the inversion and BTRS ranges,
// up to n = 2^50 (where the rows of huge weights land), the exact
// probabilities of a small case, and the edges; log_factorial_ratio()
// against lgamma() where both are accurate.
void test_binomial_draw() {
  aurc::Xoshiro256pp g(7);
  struct Case { double n, p; };
  const Case cases[] = {{20, 0.3},  {1000, 0.004}, {1000, 0.5},
                        {1e6, 0.7}, {3e9, 1e-9},   {3e9, 0.2},
                        {1125899906842624.0, 0.37},   // 2^50
                        {1e18, 0.3}, {2.4e21, 0.45}};  // beyond 2^53
  const int draws = 40000;
  for (const Case& c : cases) {
    double m = 0.0, m2 = 0.0;
    bool whole = true, inside = true;
    for (int i = 0; i < draws; ++i) {
      const double x = aurc::binomial_draw(c.n, c.p, g);
      whole = whole && x == std::floor(x);
      inside = inside && x >= 0.0 && x <= c.n;
      const double z = x - c.n * c.p;  // centred: no cancellation
      m += z;
      m2 += z * z;
    }
    CHECK(whole && inside);
    const double var = c.n * c.p * (1.0 - c.p);
    m /= draws;
    m2 = m2 / draws - m * m;
    // mean within 5 standard errors; variance within 5% (its relative
    // standard error is about sqrt(2 / draws) = 0.7%)
    CHECK(std::fabs(m) < 5.0 * std::sqrt(var / draws));
    CHECK(std::fabs(m2 / var - 1.0) < 0.05);
  }
  // Binomial(12, 0.35) (inversion) and Binomial(60, 0.4) (BTRS): every
  // probability within 5 standard errors
  for (const Case& c : {Case{12, 0.35}, Case{60, 0.4}}) {
    const int nn = static_cast<int>(c.n);
    std::vector<double> freq(nn + 1, 0.0);
    const int big = 400000;
    for (int i = 0; i < big; ++i)
      freq[static_cast<int>(aurc::binomial_draw(c.n, c.p, g))] += 1.0;
    for (int k = 0; k <= nn; ++k) {
      const double pk = std::exp(std::lgamma(c.n + 1) - std::lgamma(k + 1.0) -
                                 std::lgamma(c.n - k + 1) +
                                 k * std::log(c.p) +
                                 (c.n - k) * std::log1p(-c.p));
      CHECK(std::fabs(freq[k] / big - pk) <=
            5.0 * std::sqrt(pk * (1 - pk) / big) + 1e-6);
    }
  }
  CHECK(aurc::binomial_draw(0.0, 0.5, g) == 0.0);
  CHECK(aurc::binomial_draw(9.0, 0.0, g) == 0.0);
  CHECK(aurc::binomial_draw(9.0, 1.0, g) == 9.0);
  const double pairs[][2] = {{2e6, 1999000}, {5e6, 5001234}, {3e7, 17},
                             {1048580, 1048570}};
  for (const auto& ab : pairs)
    CHECK(std::fabs(aurc::log_factorial_ratio(ab[0], ab[1], ab[0] - ab[1]) -
                    (std::lgamma(ab[0] + 1) - std::lgamma(ab[1] + 1))) <
          1e-6 * std::fabs(std::lgamma(ab[0] + 1) - std::lgamma(ab[1] + 1)) +
              1e-6);
  // far above lgamma's precision: the exact value of
  // log((m + 1) (m + 2)) = log(m!) ... for neighbours
  const double big_m = 1e15;
  CHECK(std::fabs(aurc::log_factorial_ratio(big_m + 2, big_m, 2.0) -
                  (std::log(big_m + 1) + std::log(big_m + 2))) < 1e-9);
}

// Weighted draws whose rows outnumber the cases (the binomial path): the
// replicate has exactly the rows, cases of weight 0 are never drawn, and
// each case's count has the multinomial mean and variance; the same for
// weights near 2^31 each (rows beyond 2^36) and for weights of 1e300.
void test_ci_draws_binomial() {
  const std::size_t n = 12;
  std::vector<double> w(n);
  for (std::size_t i = 0; i < n; ++i) w[i] = static_cast<double>(i % 4) * 100;
  std::vector<int> stratum(n);
  for (std::size_t i = 0; i < n; ++i) stratum[i] = static_cast<int>(i < 5);
  for (double scale : {1.0, 2147483647.0 / 300.0, 1e298}) {
    std::vector<double> ws(n);
    for (std::size_t i = 0; i < n; ++i) ws[i] = w[i] * scale;
    aurc::ResamplePlan p;
    aurc::make_plan(n, ws.data(), stratum.data(), 2, nullptr, 0, p);
    CHECK(p.weighted && p.binomial[0] && p.binomial[1]);
    std::vector<double> counts(n), mean(n, 0.0), m2(n, 0.0);
    const std::size_t B = 6000;
    for (std::size_t b = 0; b < B; ++b) {
      aurc::replicate_counts(p, 3, b, counts.data());
      double tot[2] = {0.0, 0.0};
      for (std::size_t i = 0; i < n; ++i) {
        tot[stratum[i]] += counts[i];
        if (ws[i] == 0.0) CHECK(counts[i] == 0.0);
        const double e = p.rows[stratum[i] ? 1 : 0] *
                         (ws[i] / p.total[stratum[i] ? 1 : 0]);
        mean[i] += (counts[i] - e) / B;
        m2[i] += (counts[i] - e) * (counts[i] - e) / B;
      }
      for (int s = 0; s < 2; ++s)
        CHECK(std::fabs(tot[s] - p.rows[s]) <= 1e-12 * p.rows[s]);
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (ws[i] == 0.0) continue;
      const int s = stratum[i] ? 1 : 0;
      const double q = ws[i] / p.total[s];
      const double var = p.rows[s] * q * (1 - q);
      if (scale > 1e200) {  // beyond 2^53 rows: the counts are their means
        CHECK(std::fabs(mean[i]) <= 1e-9 * p.rows[s] * q);
        continue;
      }
      CHECK(std::fabs(mean[i]) < 5.0 * std::sqrt(var / B));
      CHECK(std::fabs(m2[i] / var - 1.0) < 0.12);
    }
  }
}

// The draws: every replicate has the stratum sizes (fast path), the rows
// the weights stand for (alias path), whole clusters; a case is drawn
// Binomial(n, 1/n) times on average once.
void test_ci_draws() {
  const std::size_t n = 30;
  std::vector<int> stratum(n), cluster(n);
  std::vector<double> w(n);
  for (std::size_t i = 0; i < n; ++i) {
    stratum[i] = static_cast<int>(i % 3 == 0);
    cluster[i] = static_cast<int>(i / 3);  // 10 clusters of 3
    w[i] = static_cast<double>(i % 4);
  }
  aurc::ResamplePlan plain, strat, weighted, clustered;
  aurc::make_plan(n, nullptr, nullptr, 0, nullptr, 0, plain);
  aurc::make_plan(n, nullptr, stratum.data(), 2, nullptr, 0, strat);
  aurc::make_plan(n, w.data(), nullptr, 0, nullptr, 0, weighted);
  aurc::make_plan(n, nullptr, nullptr, 0, cluster.data(), 10, clustered);
  CHECK(aurc::plan_is_fast(plain) && aurc::plan_is_fast(strat));
  CHECK(!aurc::plan_is_fast(weighted) && !aurc::plan_is_fast(clustered));
  std::vector<double> counts(n), mean(n, 0.0);
  const std::size_t B = 4000;
  double zeros = 0.0;
  for (std::size_t b = 0; b < B; ++b) {
    aurc::replicate_counts(plain, 9, b, counts.data());
    double tot = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      tot += counts[i];
      mean[i] += counts[i] / B;
    }
    CHECK(tot == double(n));
    zeros += (counts[0] == 0.0);
    aurc::replicate_counts(strat, 9, b, counts.data());
    double s1 = 0.0, s0 = 0.0;
    for (std::size_t i = 0; i < n; ++i) (stratum[i] ? s1 : s0) += counts[i];
    CHECK(s1 == 10.0 && s0 == 20.0);
    aurc::replicate_counts(weighted, 9, b, counts.data());
    tot = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
      tot += counts[i];
      if (w[i] == 0.0) CHECK(counts[i] == 0.0);
    }
    double wsum = 0.0;
    for (double x : w) wsum += x;
    CHECK(tot == wsum);  // the rows the weights stand for
    aurc::replicate_counts(clustered, 9, b, counts.data());
    tot = 0.0;
    for (std::size_t i = 0; i < n; i += 3) {
      CHECK(counts[i] == counts[i + 1] && counts[i] == counts[i + 2]);
      tot += counts[i];
    }
    CHECK(tot == 10.0);
  }
  for (double m : mean) CHECK(std::fabs(m - 1.0) < 0.08);  // sd 0.016
  const double p0 = std::pow(1.0 - 1.0 / n, double(n));
  CHECK(std::fabs(zeros / B - p0) < 5 * std::sqrt(p0 * (1 - p0) / B));
}

// The engine: replicate values of drawn counts equal the metrics of the
// counts as case weights; the same for 1 and 2 threads; ECE from the bins
// equals a brute-force ECE.
void test_ci_engine() {
  std::mt19937_64 rng(3);
  const std::size_t n = 80, B = 21;
  std::vector<double> score(n), loss(n);
  for (std::size_t i = 0; i < n; ++i) {
    score[i] = std::round((rng() % 1000) / 100.0) / 10.0;  // ties in [0, 1]
    loss[i] = (rng() % 3 == 0) ? 1.0 : 0.0;
  }
  std::vector<aurc::RankingColumn> cols(1);
  aurc::prepare_column(score.data(), loss.data(), n, cols[0]);
  aurc::prepare_loss_order(loss.data(), n, cols[0]);
  aurc::prepare_bins(score.data(), 4, cols[0]);
  std::vector<aurc::MetricSpec> specs;
  const char* names[] = {"aurc", "augrc", "failure_auroc", "failure_aupr",
                         "eaurc", "eaugrc", "naurc", "risk_at_coverage",
                         "coverage_at_risk", "ece"};
  for (const char* nm : names) {
    aurc::MetricSpec s;
    CHECK(aurc::parse_metric_kind(nm, s.kind));
    s.n_bins = 4;
    s.coverage = 0.4;
    s.risk = 0.2;
    specs.push_back(s);
  }
  const std::size_t M = specs.size();
  aurc::ResamplePlan plan;
  aurc::make_plan(n, nullptr, nullptr, 0, nullptr, 0, plan);
  std::vector<double> o1(B * M), o2(B * M);
  aurc::replicate_metrics(cols, n, B, specs, 1, aurc::PlanFill{plan, 77},
                          o1.data());
  aurc::replicate_metrics(cols, n, B, specs, 2, aurc::PlanFill{plan, 77},
                          o2.data());
  CHECK(same_values(o1, o2));
  std::vector<double> counts(n);
  for (std::size_t b = 0; b < B; ++b) {
    aurc::replicate_counts(plan, 77, b, counts.data());
    aurc::Presorted p;
    aurc::presort(score.data(), n, p);
    aurc::GroupVectors gv, lv;
    aurc::collect_groups(aurc::PresortedGroups{p, loss.data(), counts.data()},
                         gv);
    double fail = 0.0;
    for (std::size_t i = 0; i < n; ++i) fail += counts[i] * loss[i];
    lv.count = {double(n) - fail, fail};
    lv.loss = {0.0, fail};
    const aurc::ReplicateGroups g{gv, &lv, double(n)};
    for (std::size_t m = 0; m + 1 < M; ++m) {
      const double ref = aurc::evaluate_metric(specs[m], g);
      const double v = o1[b + B * m];
      CHECK(close(v, ref, 1e-13) || (std::isnan(v) && std::isnan(ref)));
    }
    // ECE by brute force over 4 equal-width bins
    double bn[4] = {0}, bx[4] = {0}, by[4] = {0};
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t k = aurc::equal_width_bin(score[i], 4) - 1;
      bn[k] += counts[i];
      bx[k] += counts[i] * score[i];
      by[k] += counts[i] * (1.0 - loss[i]);
    }
    double ece = 0.0;
    for (int k = 0; k < 4; ++k)
      if (bn[k] > 0) ece += std::fabs(by[k] - bx[k]) / double(n);
    CHECK(close(o1[b + B * (M - 1)], ece, 1e-12));
  }
}

}  // namespace

// The small-input sorts give exactly the radix sort's order (both stable),
// ties and -0/+0 included, at every size up to and past kSmallSort.
// The validation scans: the first invalid position and the NA flag do not
// depend on the thread count, wherever the bad element sits (first, last,
// at a slice boundary, several in different slices).
void test_scan() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const int na = std::numeric_limits<int>::min();
  const std::size_t sizes[] = {5, aurc::kParallelScan, 300001};
  for (std::size_t n : sizes) {
    const std::size_t spots[] = {0, n / 2, n / 3, n / 4 + 1, n - 1};
    for (int threads = 1; threads <= 4; ++threads) {
      std::vector<double> x(n, 0.5);
      std::vector<int> k(n, 1);
      CHECK(aurc::first_invalid_loss(x.data(), n, threads) == n);
      CHECK(!aurc::any_nan(x.data(), n, threads));
      CHECK(aurc::first_invalid_loss(k.data(), n, na, threads) == n);
      CHECK(!aurc::any_equal(k.data(), n, na, threads));
      // missing values are not invalid losses
      x[n / 3] = nan;
      k[n / 3] = na;
      CHECK(aurc::any_nan(x.data(), n, threads));
      CHECK(aurc::any_equal(k.data(), n, na, threads));
      CHECK(aurc::first_invalid_loss(x.data(), n, threads) == n);
      CHECK(aurc::first_invalid_loss(k.data(), n, na, threads) == n);
      // ... but they are invalid case weights
      CHECK(aurc::first_invalid_weight(x.data(), n, threads) == n / 3);
      CHECK(aurc::first_invalid_weight(k.data(), n, na, threads) == n / 3);
      for (std::size_t at : spots) {
        std::vector<double> y(n, 1.0);
        std::vector<int> j(n, 0);
        y[at] = (at % 2) ? -0.25 : inf;
        j[at] = -1;
        // a later bad element in another slice must not win
        if (at + n / 2 < n) {
          y[at + n / 2] = -inf;
          j[at + n / 2] = -7;
        }
        CHECK(aurc::first_invalid_loss(y.data(), n, threads) == at);
        CHECK(aurc::first_invalid_loss(j.data(), n, na, threads) == at);
        CHECK(aurc::first_invalid_weight(y.data(), n, threads) == at);
        CHECK(aurc::first_invalid_weight(j.data(), n, na, threads) == at);
        CHECK(!aurc::any_nan(y.data(), n, threads));
      }
    }
  }
}

void test_small_sort() {
  std::mt19937 rng(12);
  std::uniform_int_distribution<int> grid(-6, 6);
  for (std::size_t n : {0u, 1u, 2u, 5u, 31u, 32u, 33u, 100u, 256u, 257u, 600u}) {
    std::vector<double> s(n), l(n), w(n);
    for (std::size_t i = 0; i < n; ++i) {
      s[i] = grid(rng) * 0.5;
      if (i % 7 == 3) s[i] = -0.0;
      l[i] = static_cast<double>(i);
      w[i] = 0.5 + (i % 3);
    }
    aurc::SortedLoss a, b;
    aurc::NoCheck nc;
    aurc::sort_with_loss(s.data(), l.data(), n, a);
    aurc::sort_with_loss_any(s.data(), l.data(), n, b, nc);
    CHECK(a.keys == b.keys && a.loss == b.loss);
    aurc::Presorted pa, pb;
    aurc::presort(s.data(), n, pa);
    aurc::presort_any(s.data(), n, pb, nc);
    CHECK(pa.keys == pb.keys && pa.order == pb.order);
    std::vector<double> conf(n), correct(n);
    for (std::size_t i = 0; i < n; ++i) {
      conf[i] = (grid(rng) + 6) / 12.0;
      correct[i] = static_cast<double>(i % 2);
    }
    for (bool desc : {false, true}) {
      for (const double* wp : {static_cast<const double*>(nullptr),
                               static_cast<const double*>(w.data())}) {
        aurc::CalibSorted ca, cb;
        aurc::calib_sort(conf.data(), correct.data(), wp, n, desc, ca);
        aurc::calib_sort_any(conf.data(), correct.data(), wp, n, desc, cb, nc);
        CHECK(ca.x == cb.x && ca.y == cb.y && ca.w == cb.w &&
              ca.descending == cb.descending);
      }
    }
  }
}

// Smooth ECE: the fine recipe against exact kernel sums written out; one
// sign of residuals gives their mean; cancelling residuals give 0.
void test_smooth_ece() {
  using namespace aurc;
  aurc::NoCheck nc;
  std::mt19937 gen(13);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const std::size_t n = 60;
  std::vector<double> f(n), r(n), w(n);
  for (std::size_t i = 0; i < n; ++i) {
    f[i] = u(gen);
    const double y = u(gen) < f[i] * f[i] ? 1.0 : 0.0;
    r[i] = y - f[i];
    w[i] = double(i % 3);
  }
  SmoothData d;
  d.f = f.data();
  d.r = r.data();
  d.w = w.data();
  d.n = n;
  double total = 0;
  for (double x : w) total += x;
  const double sigma = 0.05;
  const double got = smooth_ece_sigma(d, total, sigma, SmoothMethod::fine, nc);
  // exact: trapezoid over G + 1 points of |(1/W) sum w r K(t, f)|
  const std::size_t g = fine_eval_intervals(sigma);
  double s = 0;
  for (std::size_t k = 0; k <= g; ++k) {
    const double t = double(k) / double(g);
    double v = 0;
    for (std::size_t i = 0; i < n; ++i) {
      double kv = 0;
      for (int j = -2; j <= 2; ++j) {
        const double a = (t - f[i] - 2.0 * j) / sigma;
        const double b = (t + f[i] - 2.0 * j) / sigma;
        kv += (std::exp(-0.5 * a * a) + std::exp(-0.5 * b * b)) /
              (kSqrt2Pi * sigma);
      }
      v += w[i] * r[i] * kv;
    }
    v = std::fabs(v / total);
    s += (k == 0 || k == g) ? 0.5 * v : v;
  }
  CHECK(std::fabs(got - s / double(g)) < 7.6e-7);
  // residuals 0.8 and 0.6: mean 0.7 at any bandwidth
  std::vector<double> f2 = {0.2, 0.4}, r2 = {0.8, 0.6};
  SmoothData d2;
  d2.f = f2.data();
  d2.r = r2.data();
  d2.n = 2;
  CHECK(close(smooth_ece_sigma(d2, 2.0, 0.1, SmoothMethod::fine, nc), 0.7));
  // a sample at 1 is its own mirror image: mass kept, mean residual 0.75
  std::vector<double> f4 = {1.0, 0.5}, r4 = {-1.0, -0.5};
  SmoothData d4;
  d4.f = f4.data();
  d4.r = r4.data();
  d4.n = 2;
  CHECK(close(smooth_ece_sigma(d4, 2.0, 0.05, SmoothMethod::fine, nc), 0.75));
  SmoothResult res = smooth_ece_search(d2, 2.0, SmoothMethod::fine, 0.001,
                                       10, nc);
  CHECK(res.sigma == 717.0 / 1024.0);
  std::vector<double> f3 = {0.5, 0.5}, r3 = {0.5, -0.5};
  SmoothData d3;
  d3.f = f3.data();
  d3.r = r3.data();
  d3.n = 2;
  for (SmoothMethod m : {SmoothMethod::fine, SmoothMethod::relplot}) {
    SmoothResult z = smooth_ece_search(d3, 2.0, m, 0.001, 10, nc);
    CHECK(z.value == 0.0);
    CHECK(z.sigma == 1.0 / 512.0);
  }
  // the sparse residual sums (few occupied nodes) are identical to the
  // dense ones, with ties and samples at 0 and 1
  {
    std::vector<double> ft(400), rt(400), wt(400);
    for (std::size_t i = 0; i < ft.size(); ++i) {
      ft[i] = double(gen() % 21) / 20.0;
      rt[i] = (u(gen) < ft[i] ? 1.0 : 0.0) - ft[i];
      wt[i] = double(gen() % 3);
    }
    SmoothData dt;
    dt.f = ft.data();
    dt.r = rt.data();
    dt.w = wt.data();
    dt.n = ft.size();
    for (double sg : {0.01, 0.05, 0.3}) {
      const std::size_t gg = fine_eval_intervals(sg) + 1;
      std::vector<double> a1, b1, a2, b2;
      fine_smooth(dt, sg, gg, a1, b1, false, nc, true);
      fine_smooth(dt, sg, gg, a2, b2, false, nc, false);
      CHECK(a1 == a2);
    }
  }
  CHECK(relplot_grid_nodes(0.05) == 1001);
  CHECK(relplot_grid_nodes(0.001) == 10001);
  CHECK(relplot_eval_points(0.05) == 200);
  CHECK(relplot_eval_points(0.01) == 1000);
}

// PAV: hand case with a tie group and a violator chain; the decomposition
// identity; groups of weight 0 are skipped.
void test_pav() {
  using namespace aurc;
  // confidences .2 .4 .4 .6 .8, outcomes 1 0 1 0 1 (already sorted)
  std::vector<double> x = {0.2, 0.4, 0.4, 0.6, 0.8};
  std::vector<double> y = {1, 0, 1, 0, 1};
  std::vector<double> w;
  TieGroups g;
  tie_groups(x, y, w, g);
  CHECK(g.x.size() == 4);
  CHECK(g.weight[1] == 2.0 && g.sum_y[1] == 1.0);
  PavFit fit;
  pav(g.weight, g.sum_y, fit);
  CHECK(fit.mean.size() == 2);
  CHECK(close(fit.mean[0], 0.5) && close(fit.mean[1], 1.0));
  CHECK(fit.first[0] == 0 && fit.last[0] == 2);
  CorpDecomposition dec =
      corp_decompose(g.x, g.weight, g.sum_y, fit, CorpScore::brier);
  CHECK(close(dec.mean_score, 1.56 / 5));
  CHECK(close(dec.unc, 0.24));
  CHECK(close(dec.mcb, 1.56 / 5 - 0.2));
  CHECK(close(dec.mean_score, dec.mcb - dec.dsc + dec.unc));
  // a group of weight 0 is skipped and takes no part in pooling
  std::vector<double> wt = {1, 0, 1}, sy = {1, 0, 0};
  pav(wt, sy, fit);
  CHECK(fit.mean.size() == 1 && close(fit.mean[0], 0.5));
  // strictly increasing means stay separate; equal means are pooled
  std::vector<double> wt2 = {1, 1, 1}, sy2 = {0, 0, 1};
  pav(wt2, sy2, fit);
  CHECK(fit.mean.size() == 2);
  // the one-pass decomposition equals groups + PAV + decomposition, ties
  // and weights included
  std::mt19937 gen(7);
  std::uniform_int_distribution<int> grid(0, 30);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> xs(500), ys(500), ws(500);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    xs[i] = grid(gen) / 30.0;
    ys[i] = u(gen) < xs[i] * xs[i] ? 1.0 : 0.0;
    ws[i] = double(i % 4);
  }
  std::sort(xs.begin(), xs.end());
  for (CorpScore sc : {CorpScore::brier, CorpScore::log}) {
    tie_groups(xs, ys, ws, g);
    pav(g.weight, g.sum_y, fit);
    const CorpDecomposition a = corp_decompose(g.x, g.weight, g.sum_y, fit, sc);
    const CorpDecomposition b = corp_decompose_sorted(xs, ys, ws, sc);
    CHECK(a.mcb == b.mcb && a.dsc == b.dsc && a.unc == b.unc &&
          a.mean_score == b.mean_score);
  }
}
// Influence values (core/influence.h) against numerical derivatives of the
// point-estimate kernels: sample i's weight grows by h with the total held
// fixed, so the metric moves by IF_i / N * h. Ties and weights included.
double metric_value(aurc::Metric m, aurc::Estimator est,
                    const std::vector<double>& s, const std::vector<double>& l,
                    const std::vector<double>& w) {
  aurc::Presorted p;
  aurc::presort(s.data(), s.size(), p);
  const aurc::PresortedGroups g{p, l.data(), w.data()};
  double n = 0;
  for (double x : w) n += x;
  switch (m) {
    case aurc::Metric::aurc: return aurc::aurc_estimate(est, g, n);
    case aurc::Metric::augrc: return aurc::augrc_trapezoid(g, n);
    case aurc::Metric::failure_auroc: return aurc::failure_auroc(g);
    case aurc::Metric::failure_aupr: return aurc::failure_aupr(g);
    default: return std::nan("");
  }
}

void test_influence() {
  std::mt19937_64 rng(99);
  std::normal_distribution<double> norm;
  std::uniform_real_distribution<double> unif(0, 1);
  const std::size_t n = 45;
  std::vector<double> s(n), l(n), f(n), w(n);
  for (std::size_t i = 0; i < n; ++i) {
    s[i] = std::round(norm(rng) * 4) / 4;  // ties
    l[i] = -std::log(unif(rng));
    f[i] = unif(rng) < 0.35 ? 1.0 : 0.0;
    w[i] = 1.0 + std::floor(unif(rng) * 3);
  }
  struct Case { aurc::Metric m; aurc::Estimator est; bool binary; };
  const Case cases[] = {
      {aurc::Metric::aurc, aurc::Estimator::alpha, false},
      {aurc::Metric::aurc, aurc::Estimator::alpha_prime, false},
      {aurc::Metric::aurc, aurc::Estimator::sele, false},
      {aurc::Metric::aurc, aurc::Estimator::two_sele, false},
      {aurc::Metric::aurc, aurc::Estimator::trapezoid, false},
      {aurc::Metric::augrc, aurc::Estimator::alpha, false},
      {aurc::Metric::failure_auroc, aurc::Estimator::alpha, true},
      {aurc::Metric::failure_aupr, aurc::Estimator::alpha, true}};
  for (const Case& c : cases) {
    const std::vector<double>& loss = c.binary ? f : l;
    aurc::InfluenceOptions o;
    o.estimator = c.est;
    aurc::InfluenceData d;
    aurc::prepare_influence(s.data(), loss.data(), w.data(), n, d);
    std::vector<double> inf(n);
    const double est = aurc::metric_influence(d, c.m, o, inf.data());
    CHECK(close(est, metric_value(c.m, c.est, s, loss, w)));
    double N = 0, sum = 0;
    for (std::size_t i = 0; i < n; ++i) {
      N += w[i];
      sum += w[i] * inf[i];
    }
    CHECK(std::fabs(sum) < 1e-9);
    const double h = 1e-5;
    for (std::size_t i : {std::size_t(0), std::size_t(11), std::size_t(30)}) {
      std::vector<double> up = w, down = w;
      up[i] += h;
      down[i] -= h;
      for (auto& x : up) x *= N / (N + h);
      for (auto& x : down) x *= N / (N - h);
      const double num = (metric_value(c.m, c.est, s, loss, up) -
                          metric_value(c.m, c.est, s, loss, down)) /
                         (2 * h) * N;
      CHECK(std::fabs(num - inf[i]) < 1e-6 * std::max(1.0, std::fabs(num)));
    }
  }
  // DeLong's variance: strata = classes, n_k - 1 denominators
  aurc::InfluenceData d;
  aurc::prepare_influence(s.data(), f.data(), nullptr, n, d);
  std::vector<double> inf(n);
  aurc::InfluenceOptions o;
  const double auc = aurc::metric_influence(d, aurc::Metric::failure_auroc, o,
                                            inf.data());
  double s10 = 0, s01 = 0, m = 0, k = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double v = 0, cnt = 0;
    for (std::size_t j = 0; j < n; ++j) {
      if (f[i] == f[j]) continue;
      const double a = f[i] == 0 ? s[i] : s[j], b = f[i] == 0 ? s[j] : s[i];
      v += (a > b) + 0.5 * (a == b);
      cnt += 1;
    }
    v /= cnt;
    if (f[i] == 0) { s10 += (v - auc) * (v - auc); m += 1; }
    else { s01 += (v - auc) * (v - auc); k += 1; }
  }
  const double delong = s10 / (m - 1) / m + s01 / (k - 1) / k;
  const double se = aurc::influence_se(inf.data(), nullptr, f.data(), n);
  CHECK(close(se * se, delong, 1e-10));
}

// Coverage at risk by test inversion (core/ci_working_point.h), by hand:
// scores 4, 3, 3, 2, 1 with losses 0, 1, 0, 1, 1 and risk 0.4. Coverage
// after each group 0.2, 0.6, 0.8, 1; excess (loss - 0.4 x count) / 5 =
// -0.08, -0.04, 0.08, 0.2; the estimate 0.6 (risk 1/3 at coverage 0.6).
void test_coverage_at_risk_interval() {
  const std::vector<double> s = {3, 1, 4, 2, 3};
  const std::vector<double> loss = {1, 1, 0, 1, 0};
  aurc::InfluenceData d;
  aurc::prepare_influence(s.data(), loss.data(), nullptr, s.size(), d);
  aurc::ExcessCurve curve;
  aurc::coverage_excess_curve(d.groups, d.N, 0.4, curve);
  const std::vector<double> cov = {0.2, 0.6, 0.8, 1.0};
  const std::vector<double> exc = {-0.08, -0.04, 0.08, 0.2};
  CHECK(curve.coverage.size() == 4);
  for (std::size_t k = 0; k < 4 && k < curve.coverage.size(); ++k) {
    CHECK(close(curve.coverage[k], cov[k], 1e-15));
    CHECK(close(curve.excess[k], exc[k], 1e-15));
  }
  CHECK(close(aurc::largest_coverage_within(curve, 0.0), 0.6, 1e-15));
  CHECK(close(aurc::largest_coverage_within(curve, 0.05), 0.6, 1e-15));
  CHECK(close(aurc::largest_coverage_within(curve, 0.1), 0.8, 1e-15));
  CHECK(close(aurc::largest_coverage_within(curve, -0.05), 0.2, 1e-15));
  CHECK(aurc::largest_coverage_within(curve, -0.1) == 0.0);
  // h_i = 1(s_i >= 3) (loss_i - 0.4), mean -0.04, in input order
  aurc::GroupInfluence gi;
  aurc::excess_group_influence(d.groups, d.N, 0.4, gi);
  CHECK(close(gi.estimate, 0.6, 1e-15));
  std::vector<double> h(s.size());
  aurc::scatter_groups(d.by_score, loss.data(), gi, h.data());
  aurc::centre(h.data(), nullptr, h.size(), d.N);
  const std::vector<double> want = {0.64, 0.04, -0.36, 0.04, -0.36};
  for (std::size_t i = 0; i < h.size(); ++i) CHECK(close(h[i], want[i], 1e-15));
  // no coverage qualifies (the top score fails, risk 0): estimate 0, h
  // over the top group only
  const std::vector<double> loss2 = {1, 1, 1, 1, 0};
  aurc::InfluenceData d2;
  aurc::prepare_influence(s.data(), loss2.data(), nullptr, s.size(), d2);
  aurc::excess_group_influence(d2.groups, d2.N, 0.0, gi);
  CHECK(gi.estimate == 0.0);
  CHECK(gi.b[d2.groups.count.size() - 1] == 1.0 && gi.b[0] == 0.0);
}

// The calibration errors of bootstrap replicates (calibration_replicate.h)
// against the rows repeated by their counts: MCE and the debiased l2 error
// by brute force over the bins, the CORP decomposition of
// corp_decompose_sorted() on the repeated rows (exactly), and the smooth ECE
// of smooth_ece_sigma() / smooth_ece_search() on the repeated rows.
void test_ci_calibration() {
  std::mt19937_64 rng(5);
  const std::size_t n = 70, B = 9, K = 5;
  std::vector<double> score(n), loss(n);
  for (std::size_t i = 0; i < n; ++i) {
    score[i] = double(1 + rng() % 19) / 20.0;  // ties; log scores finite
    loss[i] = (rng() % 100) < 100 * (1.0 - score[i]) * 0.8 ? 1.0 : 0.0;
  }
  std::vector<aurc::RankingColumn> cols(1);
  aurc::prepare_column(score.data(), loss.data(), n, cols[0]);
  aurc::prepare_bins(score.data(), K, cols[0]);
  aurc::prepare_cases(score.data(), cols[0]);
  const char* names[] = {"mce", "debiased_l2_ce", "corp_mean_score",
                         "corp_mcb", "corp_dsc", "corp_unc", "smooth_ece",
                         "smooth_ece"};
  std::vector<aurc::MetricSpec> specs;
  for (const char* nm : names) {
    aurc::MetricSpec s;
    CHECK(aurc::parse_metric_kind(nm, s.kind));
    s.n_bins = K;
    s.corp = aurc::CorpScore::log;
    specs.push_back(s);
  }
  specs[6].smooth.sigma = 0.08;  // fixed; specs[7] searches the bandwidth
  const std::size_t M = specs.size();
  aurc::ResamplePlan plan;
  aurc::make_plan(n, nullptr, nullptr, 0, nullptr, 0, plan);
  std::vector<double> o1(B * M), o2(B * M);
  aurc::replicate_metrics(cols, n, B, specs, 1, aurc::PlanFill{plan, 5},
                          o1.data());
  aurc::replicate_metrics(cols, n, B, specs, 2, aurc::PlanFill{plan, 5},
                          o2.data());
  CHECK(same_values(o1, o2));
  std::vector<double> counts(n);
  aurc::NoCheck nocheck;
  for (std::size_t b = 0; b < B; ++b) {
    aurc::replicate_counts(plan, 5, b, counts.data());
    // the rows repeated, in ascending confidence (stable)
    std::vector<std::size_t> idx(n);
    for (std::size_t i = 0; i < n; ++i) idx[i] = i;
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a,
                                                 std::size_t c) {
      return score[a] < score[c];
    });
    std::vector<double> x, y, r, none;
    for (std::size_t i : idx)
      for (int k = 0; k < int(counts[i]); ++k) {
        x.push_back(score[i]);
        y.push_back(1.0 - loss[i]);
        r.push_back(1.0 - loss[i] - score[i]);
      }
    const double total = double(x.size());
    // bins by brute force
    double bn[K] = {0}, bx[K] = {0}, by[K] = {0};
    for (std::size_t j = 0; j < x.size(); ++j) {
      const std::size_t k = aurc::equal_width_bin(x[j], K) - 1;
      bn[k] += 1;
      bx[k] += x[j];
      by[k] += y[j];
    }
    double mce = 0, l2 = 0;
    for (std::size_t k = 0; k < K; ++k) {
      if (bn[k] == 0) continue;
      const double a = by[k] / bn[k], c = bx[k] / bn[k];
      mce = std::max(mce, std::fabs(a - c));
      if (bn[k] >= 2)
        l2 += bn[k] / total * ((c - a) * (c - a) - a * (1 - a) / (bn[k] - 1));
    }
    CHECK(close(o1[b + B * 0], mce, 1e-12));
    CHECK(close(o1[b + B * 1], std::sqrt(std::max(l2, 0.0)), 1e-12));
    const aurc::CorpDecomposition dec =
        aurc::corp_decompose_sorted(x, y, none, aurc::CorpScore::log);
    CHECK(o1[b + B * 2] == dec.mean_score);
    CHECK(o1[b + B * 3] == dec.mcb);
    CHECK(o1[b + B * 4] == dec.dsc);
    CHECK(o1[b + B * 5] == dec.unc);
    CHECK(std::fabs(dec.mean_score - (dec.mcb - dec.dsc + dec.unc)) < 1e-12);
    aurc::SmoothData sd;
    sd.f = x.data();
    sd.r = r.data();
    sd.n = x.size();
    const double fixed = aurc::smooth_ece_sigma(
        sd, total, 0.08, aurc::SmoothMethod::fine, nocheck);
    CHECK(close(o1[b + B * 6], fixed, 1e-10));
    const aurc::SmoothResult found = aurc::smooth_ece_search(
        sd, total, aurc::SmoothMethod::fine, 0.001, 10, nocheck);
    CHECK(close(o1[b + B * 7], found.value, 1e-10));
  }
  // hand-computed: bins {0.2: 1 of 2 correct}, {0.9: 3 of 3 correct}
  aurc::BinVectors bv;
  bv.count = {2, 0, 3};
  bv.sum_x = {0.4, 0, 2.7};
  bv.sum_y = {1, 0, 3};
  CHECK(close(aurc::mce_value(bv), 0.3));
  // (0.2 - 0.5)^2 - 0.25 / 1 = -0.16; (0.9 - 1)^2 - 0 = 0.01
  CHECK(close(aurc::debiased_l2_value(bv),
              std::sqrt(std::max(0.0, 0.4 * -0.16 + 0.6 * 0.01))));
  bv.sum_y = {0, 0, 3};  // (0.2 - 0)^2 - 0 = 0.04
  CHECK(close(aurc::debiased_l2_value(bv), std::sqrt(0.4 * 0.04 + 0.6 * 0.01)));
}

// The fused pass of AURC and AUGRC (stream_block()): every replicate's
// values are exactly those of the stored groups (replicate_groups_block()
// then evaluate_metric()), with ties, fractional counts (case weights,
// clusters) and empty groups; each metric alone too; 1 thread = 2 threads.
// Poisson1::from_top(): the distribution of the draws against the exact
// Poisson(1) probabilities, and replicate counts summing to n.
void test_ci_stream() {
  std::mt19937_64 rng(11);
  const std::size_t n = 300, B = 37;
  std::vector<double> score(n), loss(n), w(n);
  std::vector<int> cluster(n);
  for (std::size_t i = 0; i < n; ++i) {
    score[i] = static_cast<double>(rng() % 60);  // ties
    loss[i] = (rng() % 4 == 0) ? 1.0 : 0.0;
    if (i % 7 == 0) loss[i] = 0.25 * static_cast<double>(rng() % 4);
    w[i] = 0.5 * static_cast<double>(rng() % 5);
    cluster[i] = static_cast<int>(i % 40);
  }
  std::vector<aurc::RankingColumn> cols(2);
  aurc::prepare_column(score.data(), loss.data(), n, cols[0]);
  std::vector<double> score2(score);
  for (double& x : score2) x = -x + static_cast<double>(rng() % 3);
  aurc::prepare_column(score2.data(), loss.data(), n, cols[1]);
  aurc::ResamplePlan plain, weighted, clustered;
  aurc::make_plan(n, nullptr, nullptr, 0, nullptr, 0, plain);
  aurc::make_plan(n, w.data(), nullptr, 0, nullptr, 0, weighted);
  aurc::make_plan(n, w.data(), nullptr, 0, cluster.data(), 40, clustered);
  const aurc::ResamplePlan* plans[] = {&plain, &weighted, &clustered};
  const aurc::MetricSpec a = aurc::metric_spec(aurc::MetricKind::aurc),
                         g = aurc::metric_spec(aurc::MetricKind::augrc);
  const std::vector<std::vector<aurc::MetricSpec>> sets = {
      {a, g}, {g, a}, {a}, {g}};
  for (const aurc::ResamplePlan* plan : plans)
    for (const std::vector<aurc::MetricSpec>& specs : sets) {
      CHECK(aurc::metrics_stream(specs));
      const std::size_t C = cols.size(), M = specs.size();
      std::vector<double> o1(B * C * M), o2(B * C * M);
      aurc::replicate_metrics(cols, n, B, specs, 1,
                              aurc::PlanFill{*plan, 5}, o1.data());
      aurc::replicate_metrics(cols, n, B, specs, 2,
                              aurc::PlanFill{*plan, 5}, o2.data());
      CHECK(same_values(o1, o2));
      std::vector<double> counts(n * aurc::kBlock, 0.0);
      std::vector<aurc::GroupVectors> gv(aurc::kBlock);
      for (std::size_t b0 = 0; b0 < B; b0 += aurc::kBlock) {
        const std::size_t nb = std::min(aurc::kBlock, B - b0);
        aurc::PlanFill{*plan, 5}(b0, nb, counts.data());
        for (std::size_t c = 0; c < C; ++c) {
          aurc::replicate_groups_block(cols[c], counts.data(), gv.data());
          for (std::size_t r = 0; r < nb; ++r) {
            const aurc::ReplicateGroups rg{gv[r], nullptr,
                                           aurc::total_count(gv[r])};
            for (std::size_t m = 0; m < M; ++m) {
              const double ref = aurc::evaluate_metric(specs[m], rg);
              const double v = o1[b0 + r + B * (c + C * m)];
              // bit for bit with whole counts; fractional weights may
              // differ in the last bit of the total
              CHECK(plan == &plain ? v == ref : close(v, ref, 1e-14));
            }
          }
        }
      }
    }
  std::vector<aurc::MetricSpec> mixed = {a, g};
  mixed[0].estimator = aurc::Estimator::sele;
  CHECK(!aurc::metrics_stream(mixed));
  // Poisson(1) from 12-bit pieces: frequencies of 0..5 and of >= 6 against
  // the exact probabilities (5 sd)
  const aurc::Poisson1& pois = aurc::poisson1();
  aurc::Xoshiro256pp gen(8);
  const int words = 400000, K = 7;
  std::vector<double> freq(K, 0.0);
  for (int i = 0; i < words; ++i) {
    std::uint64_t u = gen.next();
    for (int j = 0; j < aurc::Poisson1::kPerWord; ++j) {
      const int x = pois.from_top(u >> (64 - aurc::Poisson1::kBits), gen);
      u <<= aurc::Poisson1::kBits;
      freq[x < K - 1 ? x : K - 1] += 1.0;
    }
  }
  const double draws = double(words) * aurc::Poisson1::kPerWord;
  double p = std::exp(-1.0), tail = 1.0;
  for (int k = 0; k < K; ++k) {
    const double pk = k < K - 1 ? p : tail;
    CHECK(std::fabs(freq[k] / draws - pk) <
          5 * std::sqrt(pk * (1 - pk) / draws));
    tail -= p;
    p /= k + 1;
  }
  // the cells that hold a threshold: every draw there equals the full
  // inversion of the completed uniform
  for (std::uint64_t top = 0; top < (1u << aurc::Poisson1::kBits); ++top) {
    aurc::Xoshiro256pp g1(top), g2(top);
    const int x = pois.from_top(top, g1);
    const std::uint64_t u = (top << (64 - aurc::Poisson1::kBits)) |
                            (g2.next() >> aurc::Poisson1::kBits);
    CHECK(x == pois.full(u));
  }
  // replicate counts of a large fast plan sum to n; lanes = alone
  const std::size_t big = 10007;
  aurc::ResamplePlan bp;
  aurc::make_plan(big, nullptr, nullptr, 0, nullptr, 0, bp);
  std::vector<double> block(big * aurc::kBlock), one(big);
  aurc::draw_fast(bp, 3, 16, aurc::kBlock, block.data(), aurc::kBlock);
  for (std::size_t r = 0; r < aurc::kBlock; ++r) {
    aurc::replicate_counts(bp, 3, 16 + r, one.data());
    double tot = 0.0;
    bool same = true;
    for (std::size_t i = 0; i < big; ++i) {
      tot += one[i];
      same = same && one[i] == block[i * aurc::kBlock + r];
    }
    CHECK(tot == double(big));
    CHECK(same);
  }
}

// Partial areas and PRR (partial.h): hand cases, the oracle's closed form
// against unit by unit, names with parameters (metric_name.h).
void test_partial_and_prr() {
  using aurc::GroupVectors;
  // two samples: scores 0.9 (loss 1), 0.1 (loss 0); groups ascending
  GroupVectors g;
  g.count = {1.0, 1.0};
  g.loss = {0.0, 1.0};
  CHECK(close(aurc::partial_aurc(g, 2.0, 0.0, 1.0), 0.5 + std::log(2.0) / 2));
  CHECK(close(aurc::partial_aurc(g, 2.0, 0.5, 1.0), std::log(2.0) / 2));
  CHECK(close(aurc::partial_augrc(g, 2.0, 0.0, 1.0), 0.375));
  CHECK(std::isnan(aurc::partial_aurc(g, 0.0, 0.0, 1.0)));
  // four outputs, losses 0 1 0 1 by descending score: PRR 4/7; the
  // oracle groups (loss 0: count 2, loss 1: count 2)
  GroupVectors s4, o4;
  s4.count = {1, 1, 1, 1};
  s4.loss = {1, 0, 1, 0};  // ascending score: 0.6, 0.7, 0.8, 0.9
  o4.count = {2, 2};
  o4.loss = {0, 2};
  CHECK(close(aurc::prr_value(s4, o4, 4.0, 1.0), 4.0 / 7.0));
  CHECK(close(aurc::prr_value(s4, o4, 4.0, 0.75), 0.25));
  CHECK(std::isnan(aurc::prr_value(s4, o4, 4.0, 0.0)));
  // tie rules (prr(ties =)): scores 2, 1, 1, 0 with losses 1, 0, 1, 0;
  // group -5/7, random -11/14, position (input order) -4/7
  GroupVectors t4;
  t4.count = {1, 2, 1};
  t4.loss = {0, 1, 1};
  CHECK(close(aurc::prr_value(t4, o4, 4.0, 1.0), -5.0 / 7.0));
  CHECK(close(aurc::prr_value(t4, o4, 4.0, 1.0, aurc::PrrTies::random),
              -11.0 / 14.0));
  // group vectors do not keep the cases: NaN
  CHECK(std::isnan(
      aurc::prr_value(t4, o4, 4.0, 1.0, aurc::PrrTies::position)));
  {
    const double sc[] = {2, 1, 1, 0}, ls[] = {1, 0, 1, 0};
    aurc::SortedLoss sl;
    aurc::sort_with_loss(sc, ls, 4, sl);
    CHECK(close(aurc::prr_value(sl, o4, 4.0, 1.0, aurc::PrrTies::position),
                -4.0 / 7.0));
    CHECK(close(aurc::prr_value(sl, o4, 4.0, 1.0), -5.0 / 7.0));
  }
  // the oracle's long runs in closed form = unit by unit (runs above and
  // below the loop limit, windows cutting units, fractional counts)
  GroupVectors big;
  big.count = {150.0, 90.5, 300.25};
  big.loss = {0.0, 90.5 * 0.4, 300.25};
  const double n = 150.0 + 90.5 + 300.25;
  const double windows[][2] = {{0, n}, {10.3, 200.7}, {149.5, 151.5},
                               {240.2, 240.9}, {0.5, 0.7}, {300, n}};
  for (const auto& wdw : windows) {
    double brute = 0.0, above = 0.0, loss = 0.0;
    aurc::oracle_source(big).descending([&](double c, double sum) {
      const double start = above;
      above += c;
      loss += sum;
      const double ov = std::min(above, wdw[1]) - std::max(start, wdw[0]);
      if (ov > 0) brute += ov * loss / above;
    });
    CHECK(close(aurc::oracle_step_window(big, wdw[0], wdw[1]), brute, 1e-11));
  }
  // names with parameters
  std::string base;
  std::vector<double> p;
  CHECK(aurc::split_metric_name("prr@0.5", base, p) && base == "prr" &&
        p.size() == 1 && p[0] == 0.5);
  CHECK(aurc::split_metric_name("partial_aurc@0.10000000000000001,1", base,
                                p) &&
        p.size() == 2 && p[0] == 0.1 && p[1] == 1.0);
  CHECK(aurc::split_metric_name("aurc", base, p) && p.empty());
  CHECK(!aurc::split_metric_name("prr@x", base, p));
  CHECK(!aurc::split_metric_name("prr@", base, p));
}

// The pool of large buffers (memory.h): a buffer freed by one call is the
// next call's, the limit holds, and a limit of 0 keeps nothing.
void test_workspace_pool() {
  const std::size_t old_limit = aurc::workspace_limit();
  aurc::set_workspace_limit(0);  // empty, whatever earlier tests kept
  CHECK(aurc::workspace_kept() == 0);
  aurc::set_workspace_limit(std::size_t(64) << 20);
  const std::size_t n = (std::size_t(8) << 20) / sizeof(double);  // 8 MB
  const double* first = nullptr;
  {
    aurc::work_vector<double> v;
    aurc::resize_large(v, n);
    first = v.data();
    for (std::size_t i = 0; i < n; ++i) v[i] = double(i);
  }
  CHECK(aurc::workspace_kept() >= n * sizeof(double));
  {
    aurc::work_vector<double> v;
    aurc::resize_large(v, n / 2);  // a smaller request reuses the block
    CHECK(v.data() == first);
    CHECK(v.size() == n / 2 && v[0] == 0.0 && v[n / 2 - 1] == 0.0);
    aurc::work_vector<double> w;  // a second one at once is fresh
    aurc::resize_large(w, n);
    CHECK(w.data() != first);
  }
  CHECK(aurc::workspace_kept() <= (std::size_t(64) << 20));
  CHECK(aurc::workspace_kept() >= 2 * n * sizeof(double));
  // above the limit the oldest kept blocks go first
  aurc::set_workspace_limit(n * sizeof(double) + 1);
  CHECK(aurc::workspace_kept() <= n * sizeof(double) + 1);
  {
    aurc::work_vector<double> big;
    aurc::resize_large(big, 2 * n);  // larger than the limit: never kept
  }
  CHECK(aurc::workspace_kept() <= n * sizeof(double) + 1);
  aurc::set_workspace_limit(0);
  CHECK(aurc::workspace_kept() == 0);
  {
    aurc::work_vector<double> v;
    aurc::resize_large(v, n);
  }
  CHECK(aurc::workspace_kept() == 0);
  // release_kept(): nothing while the pool was used within the idle time,
  // everything kept once it was not (a buffer in use stays with its owner)
  aurc::set_workspace_limit(std::size_t(64) << 20);
  {
    aurc::work_vector<double> v;
    aurc::resize_large(v, n);
  }
  CHECK(aurc::workspace_kept() >= n * sizeof(double));
  CHECK(aurc::release_workspace(3600) == 0);
  CHECK(aurc::workspace_kept() >= n * sizeof(double));
  {
    aurc::work_vector<double> held;
    aurc::resize_large(held, n);  // takes the kept block
    aurc::work_vector<double> other;
    aurc::resize_large(other, n / 2);
  }  // `other` and `held` kept again
  {
    aurc::work_vector<double> held;
    aurc::resize_large(held, n);
    const std::size_t kept = aurc::workspace_kept();
    CHECK(aurc::release_workspace(0) == kept);
    CHECK(aurc::workspace_kept() == 0);
    held[n - 1] = 1.0;  // still usable
  }
  CHECK(aurc::release_workspace(0) >= n * sizeof(double));
  CHECK(aurc::workspace_kept() == 0);
  aurc::set_workspace_limit(0);
  // small vectors never touch the pool
  {
    aurc::work_vector<int> small(10, 3);
    CHECK(small[9] == 3);
  }
  CHECK(aurc::workspace_kept() == 0);
  // a sort through the pool gives the same result as a fresh one
  aurc::set_workspace_limit(std::size_t(256) << 20);
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> x(std::size_t(1) << 20);
  for (double& v : x) v = std::floor(u(gen) * 1000.0) / 1000.0;
  std::vector<std::size_t> first_order;
  for (int rep = 0; rep < 3; ++rep) {
    aurc::Presorted p;
    aurc::presort(x.data(), x.size(), p);
    if (rep == 0) first_order.assign(p.order.begin(), p.order.end());
    CHECK(std::equal(p.order.begin(), p.order.end(), first_order.begin()));
  }
  CHECK(aurc::workspace_kept() > 0);
  aurc::set_workspace_limit(old_limit);
}

// The balanced metrics (balanced.h) against their literal definition: per
// distinct threshold, the accepted cases of each class; with ties, zero
// counts (cases not drawn) and fractional counts.
void test_balanced_metrics() {
  std::mt19937_64 gen(2027);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int rep = 0; rep < 60; ++rep) {
    const std::size_t n = 5 + static_cast<std::size_t>(u(gen) * 40);
    const std::size_t K = 1 + static_cast<std::size_t>(u(gen) * 4);
    std::vector<double> score(n), loss(n), count(n);
    std::vector<int> cls_in(n);
    for (std::size_t i = 0; i < n; ++i) {
      score[i] = std::floor(u(gen) * 8.0) / 8.0;  // ties
      loss[i] = u(gen) < 0.35 ? 1.0 : 0.0;
      cls_in[i] = static_cast<int>(u(gen) * static_cast<double>(K));
      const double r = u(gen);
      count[i] = r < 0.2 ? 0.0 : (rep % 2 ? std::floor(r * 4.0) : r * 3.0);
    }
    // the kernels' inputs: cases sorted ascending with their tie groups
    aurc::RankingColumn col;
    aurc::prepare_column(score.data(), loss.data(), n, col);
    aurc::prepare_classes(cls_in.data(), K, col);
    const aurc::SortedCases d = aurc::sorted_cases(col);
    aurc::BalancedWork w;
    const double got_aurc =
        aurc::aurc_ba_sorted(d, col.cls.data(), K, count.data(), 1, w);
    const double got_augrc =
        aurc::augrc_ba_sorted(d, col.cls.data(), K, count.data(), 1, w);
    // literal
    double N = 0.0;
    std::vector<double> n_c(K, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      N += count[i];
      n_c[static_cast<std::size_t>(cls_in[i])] += count[i];
    }
    if (!(N > 0.0)) {
      CHECK(std::isnan(got_aurc) && std::isnan(got_augrc));
      continue;
    }
    double present = 0.0;
    for (double v : n_c) present += v > 0.0;
    std::vector<double> thr;
    for (std::size_t i = 0; i < n; ++i)
      if (count[i] > 0.0) thr.push_back(score[i]);
    std::sort(thr.begin(), thr.end());
    thr.erase(std::unique(thr.begin(), thr.end()), thr.end());
    double area = 0.0, garea = 0.0, prev_cov = 0.0, prev_risk = 0.0,
           prev_g = 0.0;
    for (std::size_t t = thr.size(); t-- > 0;) {  // highest threshold first
      std::vector<double> a(K, 0.0), e(K, 0.0);
      double acc = 0.0, g = 0.0;
      for (std::size_t i = 0; i < n; ++i) {
        if (score[i] < thr[t] || !(count[i] > 0.0)) continue;
        const std::size_t c = static_cast<std::size_t>(cls_in[i]);
        a[c] += count[i];
        e[c] += count[i] * loss[i];
        acc += count[i];
        g += count[i] * loss[i] * N / (present * n_c[c]);
      }
      double risk = 0.0;
      for (std::size_t c = 0; c < K; ++c)
        if (a[c] > 0.0) risk += e[c] / a[c];
      risk /= present;
      const double cov = acc / N;
      area += (cov - prev_cov) *
              (t + 1 == thr.size() ? risk : 0.5 * (risk + prev_risk));
      garea += (cov - prev_cov) * 0.5 * (g / N + prev_g);
      prev_cov = cov;
      prev_risk = risk;
      prev_g = g / N;
    }
    CHECK(std::fabs(got_aurc - area) < 1e-12);
    CHECK(std::fabs(got_augrc - garea) < 1e-12);
  }
  // one class: the balanced AURC is the trapezoid AURC
  {
    const std::vector<double> score = {0.1, 0.4, 0.4, 0.9}, loss = {1, 0, 1, 0},
                              count = {1, 1, 1, 1};
    const std::vector<int> cls = {0, 0, 0, 0};
    aurc::RankingColumn col;
    aurc::prepare_column(score.data(), loss.data(), 4, col);
    aurc::prepare_classes(cls.data(), 1, col);
    aurc::BalancedWork w;
    // points (1/4, 0), (3/4, 1/3), (1, 1/2): 0 + (1/2)(1/6) + (1/4)(5/12)
    CHECK(std::fabs(aurc::aurc_ba_sorted(aurc::sorted_cases(col),
                                         col.cls.data(), 1, count.data(), 1,
                                         w) -
                    (1.0 / 12.0 + 5.0 / 48.0)) < 1e-15);
  }
}

// Success AUPR (core/failure.h): the hand case of ?failure_auroc (29/36),
// brute force with ties and weights (accepted = s >= t, descending t,
// correct predictions positive), and the identity with failure AUPR of the
// negated score and the complemented failure; NaN for one class.
void test_success_aupr() {
  {
    std::vector<double> s = {0.9, 0.8, 0.8, 0.6, 0.4, 0.3},
                        f = {0, 0, 1, 0, 1, 1};
    aurc::Presorted p;
    aurc::presort(s.data(), s.size(), p);
    const aurc::PresortedGroups src{p, f.data(), nullptr};
    CHECK(close(aurc::success_aupr(src), 29.0 / 36.0, 1e-15));
  }
  std::mt19937_64 rng(29);
  std::normal_distribution<double> norm;
  std::bernoulli_distribution fail(0.35);
  for (std::size_t n : {2, 9, 150}) {
    std::vector<double> s(n), f(n), w(n), neg(n), ok(n);
    for (std::size_t i = 0; i < n; ++i) {
      s[i] = std::round(norm(rng) * 2) / 2;  // ties
      f[i] = fail(rng) ? 1.0 : 0.0;
      w[i] = 0.25 + double(i % 5);
      neg[i] = -s[i];
      ok[i] = 1.0 - f[i];
    }
    f[0] = 1;
    f[1] = 0;
    ok[0] = 0;
    ok[1] = 1;
    std::vector<double> thr(s);
    std::sort(thr.begin(), thr.end());
    thr.erase(std::unique(thr.begin(), thr.end()), thr.end());
    double total_ok = 0, ap = 0, prev_rec = 0;
    for (std::size_t i = 0; i < n; ++i) total_ok += w[i] * ok[i];
    for (auto t = thr.rbegin(); t != thr.rend(); ++t) {
      double tp = 0, acc = 0;
      for (std::size_t i = 0; i < n; ++i)
        if (s[i] >= *t) {
          tp += w[i] * ok[i];
          acc += w[i];
        }
      ap += (tp / total_ok - prev_rec) * tp / acc;
      prev_rec = tp / total_ok;
    }
    aurc::Presorted p, pn;
    aurc::presort(s.data(), n, p);
    aurc::presort(neg.data(), n, pn);
    const aurc::PresortedGroups src{p, f.data(), w.data()};
    const aurc::PresortedGroups flipped{pn, ok.data(), w.data()};
    CHECK(close(aurc::success_aupr(src), ap, 1e-13));
    CHECK(close(aurc::success_aupr(src), aurc::failure_aupr(flipped), 1e-13));
    std::vector<double> all_f(n, 1.0), none(n, 0.0);
    CHECK(std::isnan(aurc::success_aupr(
        aurc::PresortedGroups{p, all_f.data(), w.data()})));
    CHECK(std::isnan(aurc::success_aupr(
        aurc::PresortedGroups{p, none.data(), w.data()})));
  }
}

// Kendall's row sums against the literal double sum over pairs, with ties
// in both columns.
void test_kendall_row_sums() {
  std::mt19937_64 rng(7);
  for (std::size_t n : {1u, 2u, 5u, 40u, 300u}) {
    std::vector<int> x(n), y(n);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = static_cast<int>(rng() % 6);
      y[i] = 1 + static_cast<int>(rng() % 4);
    }
    std::sort(x.begin(), x.end());  // ascending x: groups are the values
    std::vector<double> got(n), got_w(n), w(n);
    for (std::size_t i = 0; i < n; ++i) w[i] = double(rng() % 4);  // counts
    aurc::kendall_row_sums(x.data(), y.data(), n, 4, got.data());
    aurc::kendall_row_sums(x.data(), y.data(), n, 4, got_w.data(), w.data());
    bool ok = true, ok_w = true;
    for (std::size_t i = 0; i < n; ++i) {
      double c = 0.0, cw = 0.0;
      for (std::size_t j = 0; j < n; ++j) {
        const int sx = (x[i] > x[j]) - (x[i] < x[j]);
        const int sy = (y[i] > y[j]) - (y[i] < y[j]);
        c += sx * sy;
        cw += w[j] * sx * sy;
      }
      ok = ok && got[i] == c;
      ok_w = ok_w && got_w[i] == cw;
    }
    CHECK(ok);
    CHECK(ok_w);
  }
}

// The standard error read in sorted order (metric_se_sorted()) equals
// influence_se() of the influence values in input order.
void test_se_sorted() {
  using namespace aurc;
  std::mt19937_64 rng(11);
  const Metric metrics[] = {Metric::aurc, Metric::augrc,
                            Metric::failure_auroc, Metric::eaurc,
                            Metric::naurc, Metric::risk_at_coverage};
  for (std::size_t n : {2u, 9u, 200u}) {
    std::vector<double> score(n), loss(n), inf(n);
    for (std::size_t i = 0; i < n; ++i) {
      score[i] = double(rng() % 7);
      loss[i] = double(rng() % 2);
    }
    for (Metric m : metrics) {
      InfluenceOptions o;
      InfluenceData d;
      prepare_influence(score.data(), loss.data(), nullptr, n, d);
      const double est = metric_influence(d, m, o, inf.data());
      const double se = influence_se(
          inf.data(), nullptr,
          m == Metric::failure_auroc ? loss.data() : nullptr, n);
      SortedLoss sl;
      sort_with_loss(score.data(), loss.data(), n, sl);
      GroupVectors gv;
      collect_groups(sl, gv);
      double se2 = 0.0;
      const double est2 = metric_se_sorted(sl, gv, m, o, se2);
      CHECK((std::isnan(est) && std::isnan(est2)) || est == est2);
      CHECK((std::isnan(se) && std::isnan(se2)) ||
            std::fabs(se - se2) <= 1e-12 * std::fabs(se));
    }
  }
}

// The running AUROC at every end against the literal weighted pair count
// over the first rows, with tied estimates and weights.
void test_running_auroc() {
  std::mt19937_64 rng(5);
  for (std::size_t n : {1u, 2u, 6u, 50u, 400u}) {
    std::vector<double> truth(n), w(n);
    std::vector<int> rank(n), ends;
    for (std::size_t k = 0; k < n; ++k) {
      truth[k] = double(rng() % 2);
      rank[k] = 1 + static_cast<int>(rng() % 5);
      w[k] = 0.5 + double(rng() % 4);
      if (k + 1 == n || rng() % 3 == 0) {
        ends.push_back(static_cast<int>(k + 1));
      }
    }
    std::vector<double> got(ends.size());
    aurc::running_auroc(truth.data(), rank.data(), w.data(), n, ends.data(),
                        ends.size(), 5, got.data(), [] {});
    bool ok = true;
    for (std::size_t g = 0; g < ends.size(); ++g) {
      const std::size_t m = static_cast<std::size_t>(ends[g]);
      double num = 0.0, wp = 0.0, wn = 0.0;
      for (std::size_t i = 0; i < m; ++i) {
        if (truth[i] == 1) wp += w[i]; else wn += w[i];
        for (std::size_t j = 0; j < m; ++j) {
          if (truth[i] != 1 || truth[j] == 1) continue;
          const double s =
              rank[i] > rank[j] ? 1.0 : rank[i] == rank[j] ? 0.5 : 0.0;
          num += w[i] * w[j] * s;
        }
      }
      if (wp > 0 && wn > 0) {
        ok = ok && std::fabs(got[g] - num / (wp * wn)) <= 1e-12;
      } else {
        ok = ok && std::isnan(got[g]);
      }
    }
    CHECK(ok);
  }
}

int main() {
  test_sortable_key();
  test_radix_sort();
  test_radix_sort_threads();
  test_fork_threads();
  test_workspace_pool();
  test_balanced_metrics();
  test_scan();
  test_small_sort();
  test_estimators();
  test_reference_values();
  test_augrc();
  test_interrupt_hook();
  test_failure_and_curve();
  test_success_aupr();
  test_oracle();
  test_constant_loss();
  test_contributions();
  test_scores();
  test_bootstrap_replicates();
  test_ci_rng();
  test_ci_draws();
  test_ci_engine();
  test_ci_stream();
  test_signed_rank_distribution();
  test_signed_rank_test();
  test_holm();
  test_key_roundtrip_and_sort();
  test_equal_width_edges();
  test_edge_bin();
  test_input_summary();
  test_equal_mass();
  test_adaptive_hand();
  test_adaptive_random();
  test_bin_stats();
  test_digamma_trigamma_diff();
  test_special_real_arguments();
  test_expected_weight_stride();
  test_oracle_closed_form();
  test_weight_bias_mse();
  test_batch_study();
  test_smooth_ece();
  test_pav();
  test_influence();
  test_coverage_at_risk_interval();
  test_ci_calibration();
  test_binomial_draw();
  test_ci_draws_binomial();
  test_partial_and_prr();
  test_kendall_row_sums();
  test_se_sorted();
  test_running_auroc();
  std::printf("core: %d of %d checks succeeded\n", n_checks - n_failed,
              n_checks);
  return n_failed == 0 ? 0 : 1;
}
