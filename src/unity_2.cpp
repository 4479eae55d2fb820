// The second translation unit (see unity_1.cpp). RcppExports.cpp comes
// first: it includes RcppArmadillo.h, which must precede Rcpp.h.
#include "RcppExports.cpp"
#include "rcpp_scores.cpp"
#include "rcpp_ranking.cpp"
#include "rcpp_ci_bootstrap.cpp"
#include "rcpp_estimator_stats.cpp"
#include "rcpp_llm_correlation.cpp"
#include "rcpp_calibration_corp.cpp"
#include "rcpp_calibration_smooth.cpp"
#include "rcpp_running_auroc.cpp"
