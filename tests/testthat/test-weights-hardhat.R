# hardhat's case weights in every form (issue 32): yardstick and tune hand
# weights over as hardhat::frequency_weights() or importance_weights().
# Every export that takes `case_weights` is called as its valid fuzz-table
# call (helper-fuzz.R) with plain weights, frequency weights and importance
# weights. Frequency weights give exactly the plain result everywhere;
# importance weights give the same point estimates, and differ only in the
# uncertainty of the functions that state one (test-weights-importance.R).
skip_if_not_installed("hardhat")

# Functions whose results include standard errors, intervals, p-values or
# power: under importance weights these differ from counts by design.
weights_uncertainty_fns <- c(
  "selective_ci", "selective_ci_vec", "selective_ci_prob", "compare_scores",
  "compare_scores_prob", "selective_power", "compare_groups", "rc_band",
  "rc_band_vec", "set_metrics", "set_metrics_vec", "set_class_coverage",
  "set_size_coverage", "compare_sets", "compare_sets_vec",
  "selective_curve_ci", "selective_curve_ci_vec", "compare_selective_curves"
)

hardhat_cases <- function() {
  fx <- fuzz_fixtures()
  tab <- fuzz_table()
  fns <- names(tab)[vapply(names(tab), function(fn) {
    "case_weights" %in% names(formals(getExportedValue("aurc", fn)))
  }, logical(1))]
  list(fx = fx, tab = tab, fns = fns)
}

# the call of `fn` with weights `kind` ("plain", "frequency", "importance")
hardhat_call <- function(fn, args, fx, kind) {
  env <- new.env(parent = fx)
  first <- names(formals(getExportedValue("aurc", fn)))[1]
  make <- function(w) {
    switch(kind,
      plain = w,
      frequency = hardhat::frequency_weights(as.integer(w)),
      importance = hardhat::importance_weights(w)
    )
  }
  if (identical(first, "data")) {
    data <- eval(args$data, fx)
    if (!is.data.frame(data)) return(NULL) # a score table: no weight column
    w <- rep(c(1, 2, 3, 1), length.out = nrow(data))
    data$hw <- make(w)
    assign("HWDATA", data, envir = env)
    args$data <- quote(HWDATA)
    args$case_weights <- quote(hw)
  } else {
    n <- NROW(eval(args[[1]], fx))
    assign("HW", make(rep(c(1, 2, 3, 1), length.out = n)), envir = env)
    args$case_weights <- quote(HW)
  }
  list(call = as.call(c(call("::", quote(aurc), as.name(fn)), args)),
       env = env)
}

run_hardhat <- function(x) {
  set.seed(32)
  tryCatch(
    suppressWarnings(suppressMessages(eval(x$call, x$env))),
    error = function(e) e
  )
}

# The same error (class and message) as with plain weights: the weights'
# class made no difference.
same_refusal <- function(got, expected) {
  inherits(got, "error") && inherits(expected, "error") &&
    identical(class(got), class(expected)) &&
    identical(conditionMessage(got), conditionMessage(expected))
}

# Calls every function with weights `kind` and compares with plain weights:
# the same result, or (for the functions that state an uncertainty, under
# importance weights) the same estimates.
check_hardhat_kind <- function(kind) {
  cases <- hardhat_cases()
  expect_gt(length(cases$fns), 80)
  for (fn in cases$fns) {
    plain <- hardhat_call(fn, cases$tab[[fn]], cases$fx, "plain")
    if (is.null(plain)) next
    got <- run_hardhat(hardhat_call(fn, cases$tab[[fn]], cases$fx, kind))
    expected <- run_hardhat(plain)
    if (same_refusal(got, expected)) next
    expect(!inherits(got, "error"), paste0(
      fn, "() refused ", kind, " weights: ",
      if (inherits(got, "error")) conditionMessage(got)
    ))
    if (inherits(got, "error")) next
    if (kind == "importance" && fn %in% weights_uncertainty_fns) {
      est <- function(x) {
        x <- as.data.frame(x)
        x[[intersect(c(".estimate", "estimate", "coverage", "difference"),
          names(x))[1]]]
      }
      if (!identical(fn, "selective_power")) {
        expect(isTRUE(all.equal(est(got), est(expected), tolerance = 1e-12)),
               paste0(fn, "() estimates differ under importance weights"))
      }
    } else {
      expect(isTRUE(all.equal(got, expected, tolerance = 1e-12)),
             paste0(fn, "() with ", kind, " weights differs from plain ones"))
    }
  }
}

test_that("every form accepts hardhat frequency weights as counts", {
  check_hardhat_kind("frequency")
})

test_that("every form accepts hardhat importance weights, with the same estimates", {
  check_hardhat_kind("importance")
})
