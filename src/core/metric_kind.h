// The one table of the metrics the C++ engines know (issue 33). Every
// engine names a metric by a MetricKind: the in-memory metrics
// (src/rcpp_metrics.cpp), the bootstrap replicates of the intervals and the
// ranking (replicate_metrics.h) and the influence functions
// (influence_kernels.h). A metric's name here is its name in R's registry
// (R/metric-registry.R, R/metric-catalog.R), which holds everything else
// about it (input, direction, options, forms); its options reach C++ as a
// MetricSpec (replicate_metrics.h).
//
// Adding a metric: one X(name) line below, then its kernel (see
// CONTRIBUTING.md, "Adding a metric").
#ifndef AURC_CORE_METRIC_KIND_H
#define AURC_CORE_METRIC_KIND_H

#include <string>

#define AURC_METRIC_KINDS(X)                                            \
  X(aurc) X(augrc) X(failure_auroc) X(failure_aupr) X(eaurc) X(eaugrc)  \
  X(naurc) X(risk_at_coverage) X(coverage_at_risk) X(ece) X(mce)        \
  X(debiased_l2_ce) X(smooth_ece) X(corp_mean_score) X(corp_mcb)        \
  X(corp_dsc) X(corp_unc) X(mean_loss) X(auarc) X(prr) X(partial_aurc)  \
  X(partial_augrc) X(fpr_at_tpr) X(achievable_aurc) X(aurc_ba)          \
  X(augrc_ba) X(success_aupr)

namespace aurc {

enum class MetricKind {
#define AURC_KIND_ENUM(name) name,
  AURC_METRIC_KINDS(AURC_KIND_ENUM)
#undef AURC_KIND_ENUM
};

// The kind of a metric name; false for an unknown name.
inline bool parse_metric_kind(const std::string& name, MetricKind& out) {
  static const struct {
    const char* name;
    MetricKind kind;
  } table[] = {
#define AURC_KIND_ROW(name) {#name, MetricKind::name},
      AURC_METRIC_KINDS(AURC_KIND_ROW)
#undef AURC_KIND_ROW
  };
  for (const auto& e : table)
    if (name == e.name) {
      out = e.kind;
      return true;
    }
  return false;
}

}  // namespace aurc

#endif
