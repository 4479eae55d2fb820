#' Simultaneous confidence bands for risk-coverage curves
#'
#' A band that holds the whole selective (and generalized) risk-coverage
#' curve at once with probability `conf_level`: over every coverage of a
#' grid, not one coverage at a time. It answers "where can the curve of
#' this model lie?", and two curves whose bands do not overlap at some
#' coverage differ there.
#'
#' @section What the band is over:
#' The curve is read as a function of coverage `c` (the share of
#' predictions accepted), on the grid `coverage`. At `c` the accepted
#' (weighted) count is `a = c n`; the groups of tied scores are accepted in
#' descending score order, and the group where the count `a` falls is
#' accepted in part, as if that share of its cases were drawn at random:
#' with `N_g` and `A_g` the count and loss of the groups before it, and
#' `W_g`, `L_g` its own,
#'
#' * accepted loss `A(c) = A_g + (a - N_g) L_g / W_g`,
#' * `selective_risk(c) = A(c) / a`, `generalized_risk(c) = A(c) / n`.
#'
#' At the coverages of the points of [rc_curve()] these are its values
#' exactly; between them the generalized risk is the straight line that
#' the trapezoid AUGRC integrates. (The tie-closed [risk_at_coverage()]
#' steps instead; a step is not a smooth function of the data and its
#' bootstrap is not consistent at the jumps.) Without ties the two differ
#' by at most one case's loss over `a`.
#'
#' The grid does not start at 0: at a coverage of a few cases the selective
#' risk is the mean loss of those cases, and no band over it is both honest
#' and useful. By default (`coverage = NULL`) it runs in steps of 0.01 from
#' the smallest coverage that accepts 100 cases (the rows frequency weights
#' stand for), and at least 0.1, to 1: from 0.1 for `n >= 1000`, from 0.34
#' for `n = 300`, from 0.5 at most. A grid whose smallest coverage accepts
#' fewer than 100 cases gets a classed warning
#' (`aurc_warning_band_few_cases`): with a few failures among them the
#' band can miss the curve there (see Coverage).
#'
#' @section Method:
#' A bootstrap max-t (studentized sup) band (Montiel Olea and
#' Plagborg-Moller 2019). `times` replicates of the cases are drawn with
#' replacement (within `strata`; whole clusters with `cluster`; or the rows
#' of `indices`), exactly as [selective_ci()] draws them: a replicate is a
#' vector of counts over the presorted tie groups, never a new sort. On the
#' scale `h` of `transform` (`h(r) = sqrt(r)` by default):
#'
#' 1. `se(c)`: the standard deviation of `h(r*_b(c))` over the replicates,
#' 2. `T_b = max_c |h(r*_b(c)) - h(r(c))| / se(c)` for each replicate,
#' 3. `q`: the `conf_level` quantile of the `T_b` (type 7, as
#'    [stats::quantile()]),
#' 4. band: `h^-1(h(r(c)) -+ q se(c))`, cut at 0 below (a risk is never
#'    negative).
#'
#' Coverages where every replicate has the same risk (`se(c) = 0`: no
#' failure among the most confident cases of any replicate, say) get a band
#' of width 0 and do not enter the maximum; a classed warning
#' (`aurc_warning_band_degenerate`) says where.
#'
#' Read against coverage, the generalized risk is `c` times the selective
#' risk, in the data and in every replicate. The two bands therefore have
#' the same `q`, the generalized band is the selective band times `c`, and
#' both hold their whole curves together with probability `conf_level`.
#' (Against the threshold the two curves differ; the band is over coverage,
#' the axis of the plot and of the AURC and AUGRC.)
#'
#' The square root stabilises the variance of a mean of losses near 0,
#' where the selective risk of a good model lies at low coverage: the band
#' on the risk scale itself (`transform = "identity"`) is symmetric and
#' misses the true curve there when few failures were seen.
#'
#' @section Coverage:
#' Measured by `studies/ci-band-coverage.R`: 1000 data sets per model
#' and size, 1000 replicates per band, the default grid (from 0.1 at
#' n >= 1000, from 0.34 at n = 300), and the true curve computed exactly
#' from the model (it agreed with the curve of one sample of 1e7 cases
#' within 5e-4). The share of 95% bands that held the whole true curve,
#' in percent (Monte Carlo standard error 0.7 points), `"sqrt"` (default)
#' / `"identity"`:
#'
#' | model | n = 300 | n = 1000 | n = 4000 |
#' |---|---|---|---|
#' | continuous score, 0/1 loss (1) | 97.4 / 94.6 | 96.6 / 92.4 | 96.1 / 95.0 |
#' | 8 tied score values, 0/1 loss | 96.2 / 92.9 | 96.0 / 92.1 | 94.2 / 93.5 |
#' | continuous score, exp. loss (2) | 95.4 / 95.1 | 96.7 / 97.1 | 94.4 / 94.3 |
#'
#' (1): selective risk 0.05 at coverage 0.1, few failures among the most
#' confident cases. (2): an exponential loss. The same numbers hold for
#' the generalized risk (see above). The default is within 93.5-96.5% or
#' slightly conservative; the symmetric band under-covers with 0/1 losses
#' at n <= 1000. With the grid from 0.1 at n = 300 (30
#' cases at its start) only 85.4% of the bands of the first model held the
#' curve: hence the default grid and the warning below 100 cases.
#'
#' @inheritParams rc_curve
#' @inheritParams selective_ci
#' @param coverage The grid of coverages the band is over: increasing,
#'   in `(0, 1]`, at least 2 values; or `NULL` (default): 0.01 steps from
#'   the smallest coverage that accepts 100 cases, at least 0.1, to 1 (see
#'   What the band is over).
#' @param conf_level The simultaneous confidence level, strictly between 0
#'   and 1.
#' @param times Number of bootstrap replicates (whole, at least 2; with
#'   `coverage`, `times x length(coverage) x 2` values are kept).
#' @param transform `"sqrt"` (default) or `"identity"`: the scale the
#'   studentized maximum is taken on (see Method).
#' @param threads Threads of the one sort (the replicates run on one
#'   thread; the result does not depend on it).
#' @return A tibble of class `aurc_rc_band`, one row per curve type and
#'   grid coverage (after the grouping columns): `type` (`"selective"` or
#'   `"generalized"`), `coverage`, `.estimate` (the risk of the data),
#'   `.lower`, `.upper` (the band), `.std_error` (the bootstrap standard
#'   deviation of the risk). Attributes: `critical_value` (a tibble with
#'   the grouping columns, `type` and `critical_value`, the `q` of each
#'   band), `conf_level`, `times`, `transform`, the curve of the data
#'   (`curve`, an [rc_curve()], drawn by [autoplot.aurc_rc_band()]) and,
#'   for `rc_band_vec()`, the replicate risks (`replicates`, a
#'   `times x length(coverage) x 2` array).
#' @references Montiel Olea, J. L. and Plagborg-Moller, M. (2019).
#'   Simultaneous confidence bands: theory, implementation, and an
#'   application to SVARs. *Journal of Applied Econometrics*, 34(1), 1-17.
#' @seealso [rc_curve()], [selective_ci()] for intervals at one coverage
#'   (`"risk_at_coverage"`).
#' @examples
#' set.seed(1)
#' score <- runif(500)
#' failure <- rbinom(500, 1, 0.4 * (1 - score))
#' band <- rc_band_vec(score, failure, times = 200)
#' band
#' attr(band, "critical_value")
#' ggplot2::autoplot(band)
#' ggplot2::autoplot(band, type = "generalized")
#' @export
rc_band <- function(data, score, loss, ..., coverage = NULL,
                    conf_level = 0.95, times = 1000, transform = "sqrt",
                    strata = NULL, cluster = NULL, indices = NULL,
                    na_rm = FALSE, case_weights = NULL, threads = 1) {
  check_dots(...)
  call <- rlang::current_env()
  spec <- rc_band_spec(coverage, conf_level, transform, call)
  values <- memory_columns(data, list(
    score = rlang::enquo(score), loss = rlang::enquo(loss),
    case_weights = rlang::enquo(case_weights),
    strata = rlang::enquo(strata), cluster = rlang::enquo(cluster)
  ), "A band is", call)
  groups <- data_groups(data)
  if (!is.null(indices) && length(groups$rows) > 1) {
    abort_aurc(
      "{.arg indices} cannot be used with a grouped data frame.",
      class = "aurc_error_value", call = call
    )
  }
  curve <- rc_curve_from_values(values, groups, na_rm, call)
  parts <- lapply(seq_along(groups$rows), function(g) {
    rows <- groups$rows[[g]]
    v <- lapply(values, function(x) {
      if (is.null(x)) NULL else x[rows]
    })
    out <- rc_band_one(spec, v, times, indices, na_rm, threads, call)
    if (!is.null(groups$keys)) {
      for (nm in c("band", "critical")) {
        key <- groups$keys[rep(g, nrow(out[[nm]])), , drop = FALSE]
        out[[nm]] <- tibble::as_tibble(c(key, out[[nm]]))
      }
    }
    out
  })
  new_rc_band(
    do.call(rbind, lapply(parts, `[[`, "band")),
    do.call(rbind, lapply(parts, `[[`, "critical")),
    curve, spec, times = parts[[1]]$times,
    group_vars = names(groups$keys)
  )
}

#' @rdname rc_band
#' @export
rc_band_vec <- function(score, loss, ..., coverage = NULL,
                        conf_level = 0.95, times = 1000, transform = "sqrt",
                        strata = NULL, cluster = NULL, indices = NULL,
                        na_rm = FALSE, case_weights = NULL, threads = 1) {
  check_dots(...)
  call <- rlang::current_env()
  spec <- rc_band_spec(coverage, conf_level, transform, call)
  values <- list(
    score = score, loss = loss, case_weights = plain_weights(case_weights),
    strata = strata, cluster = cluster
  )
  curve <- rc_curve_from_values(values, list(keys = NULL, rows = NULL),
    na_rm, call
  )
  out <- rc_band_one(spec, values, times, indices, na_rm, threads, call)
  band <- new_rc_band(out$band, out$critical, curve, spec, out$times)
  attr(band, "replicates") <- out$replicates
  band
}

new_rc_band <- function(band, critical, curve, spec, times,
                        group_vars = NULL) {
  band <- tibble::new_tibble(band, class = "aurc_rc_band")
  attr(band, "critical_value") <- critical
  attr(band, "conf_level") <- spec$conf_level
  attr(band, "times") <- times
  attr(band, "transform") <- spec$transform
  attr(band, "curve") <- curve
  attr(band, "group_vars") <- group_vars
  band
}

# The options shared by every group, checked once.
rc_band_spec <- function(coverage, conf_level, transform, call) {
  conf_level <- check_number(conf_level, 0, 1, open = TRUE, call = call)
  transform <- check_choice(transform, c("sqrt", "identity"), call = call)
  if (!is.null(coverage) && (!is.numeric(coverage) || is.object(coverage) ||
    length(coverage) < 2 ||
    anyNA(coverage) || any(coverage <= 0 | coverage > 1) ||
    any(diff(coverage) <= 0))) {
    abort_aurc(
      c(
        paste(
          "{.arg coverage} must be at least 2 increasing numbers in",
          "(0, 1]."
        ),
        x = "It is {.obj_type_friendly {coverage}}{rc_band_range(coverage)}.",
        i = "{.code NULL} (the default) chooses the grid (see {.help rc_band})."
      ),
      class = "aurc_error_value", call = call
    )
  }
  list(
    coverage = if (!is.null(coverage)) as.double(coverage),
    conf_level = conf_level,
    transform = transform
  )
}

# " with values in [a, b]" for a numeric vector with some finite values
# (or " with missing values").
rc_band_range <- function(x) {
  if (is.numeric(x) && anyNA(x)) return(" with missing values")
  if (!is.numeric(x) || !any(is.finite(x))) return("")
  r <- range(x[is.finite(x)])
  paste0(" with values in [", format(r[1]), ", ", format(r[2]), "]")
}

# One band: the columns of one group (validated by rc_curve_groups()
# already, apart from strata and cluster), the replicates and the max-t
# band of both curve types.
rc_band_one <- function(spec, v, times, indices, na_rm, threads, call) {
  n <- length(v$score)
  strata <- check_grouping(v$strata, n, "strata", call)
  cluster <- check_grouping(v$cluster, n, "cluster", call)
  w <- v$case_weights
  if (na_rm) {
    keep <- !(is.na(v$score) | is.na(v$loss))
    v$score <- v$score[keep]
    v$loss <- v$loss[keep]
    if (!is.null(w)) w <- w[keep]
    if (!is.null(strata)) strata <- strata[keep]
    if (!is.null(cluster)) cluster <- cluster[keep]
  }
  if (weights_kind(w) == "importance") {
    # importance weights: cases resampled, each with its weight (as
    # selective_ci() does)
    if (!is.null(indices)) {
      abort_aurc(
        "{.arg indices} cannot be used with importance weights.",
        class = "aurc_error_value", call = call
      )
    }
    if (is.null(cluster)) cluster <- seq_along(v$score)
  }
  w <- if (is.null(w)) NULL else as.double(w)
  input <- ci_bootstrap_input(
    list(v$score), v$loss, w, "aurc", NULL, times, strata, cluster,
    indices, threads, "percentile", spec$conf_level, NULL, call
  )
  rows <- rc_band_rows(input)
  if (is.null(spec$coverage)) spec$coverage <- rc_band_grid(rows)
  k <- length(spec$coverage)
  rc_band_check_size(input$times, k, call)
  rc_band_warn_few(rows, spec$coverage[1], call)
  e <- loss_scale_exponent(input$loss)
  loss <- if (e != 0) times_pow2(input$loss, -e) else input$loss
  seed <- if (is.null(input$indices)) ci_bootstrap_seed() else c(0, 0)
  idx <- input$indices %||% matrix(0L, 0, 0)
  bar <- progress_bar(input$times, "Bootstrap band")
  res <- rc_band_impl(
    input$score[, 1], loss, input$case_weights, input$strata,
    input$n_strata, input$cluster, input$n_clusters, idx, input$times,
    seed, spec$coverage, input$threads, progress_callback(bar)
  )
  if (e != 0) {
    res$estimate <- times_pow2(res$estimate, e)
    res$replicates <- times_pow2(res$replicates, e)
  }
  types <- c("selective", "generalized")
  bands <- lapply(1:2, function(j) {
    rc_band_maxt(res$estimate[, j], res$replicates[, , j], spec)
  })
  degenerate <- lapply(bands, `[[`, "degenerate")
  rc_band_warn_degenerate(degenerate, spec$coverage, types, call)
  band <- tibble::tibble(
    type = rep(types, each = k),
    coverage = rep(spec$coverage, 2),
    .estimate = c(res$estimate),
    .lower = unlist(lapply(bands, `[[`, "lower")),
    .upper = unlist(lapply(bands, `[[`, "upper")),
    .std_error = unlist(lapply(bands, `[[`, "std_error"))
  )
  dimnames(res$replicates) <- list(NULL, NULL, types)
  list(
    band = band,
    critical = tibble::tibble(
      type = types,
      critical_value = vapply(bands, `[[`, numeric(1), "critical_value")
    ),
    replicates = res$replicates, times = input$times
  )
}

# The max-t band of one curve type from its estimate (K) and replicates
# (B x K); see the section Method.
rc_band_maxt <- function(estimate, replicates, spec) {
  replicates <- matrix(replicates, ncol = length(estimate))
  h <- if (spec$transform == "sqrt") sqrt else identity
  h_inv <- if (spec$transform == "sqrt") {
    function(x) pmax(x, 0)^2
  } else {
    function(x) pmax(x, 0)
  }
  est_h <- h(estimate)
  rep_h <- h(replicates)
  se_h <- apply(rep_h, 2, stats::sd)
  # (a spread of rounding errors only is no spread)
  scale <- pmax(abs(est_h), apply(abs(rep_h), 2, max))
  live <- se_h > 1e-12 * scale
  t <- abs(sweep(rep_h[, live, drop = FALSE], 2, est_h[live])) /
    rep(se_h[live], each = nrow(rep_h))
  q <- if (any(live)) {
    stats::quantile(apply(t, 1, max), spec$conf_level,
      type = 7,
      names = FALSE
    )
  } else {
    0
  }
  half <- ifelse(live, q * se_h, 0)
  list(
    lower = pmin(h_inv(est_h - half), estimate),
    upper = pmax(h_inv(est_h + half), estimate),
    std_error = apply(replicates, 2, stats::sd),
    critical_value = q, degenerate = !live
  )
}

rc_band_check_size <- function(times, k, call) {
  if (times * k * 2 <= ci_bootstrap_max_cells) return(invisible())
  abort_aurc(
    c(
      "{.arg times} x {.arg coverage} is too large.",
      x = paste(
        "{format(times, big.mark = ',', scientific = FALSE)} replicates x",
        "{k} coverages x 2",
        "curves exceed the limit of",
        "{format(ci_bootstrap_max_cells, big.mark = ',')} values."
      )
    ),
    class = c("aurc_error_size", "aurc_error_value"), call = call
  )
}

# The cases of a band (the rows frequency weights stand for).
rc_band_rows <- function(input) {
  if (length(input$case_weights) && !input$n_clusters) {
    sum(input$case_weights)
  } else {
    input$n
  }
}

# The default grid: steps of 0.01 from the smallest coverage that accepts
# rc_band_min_cases cases, and at least 0.1, to 1 (from 0.5 at most).
rc_band_min_cases <- 100
rc_band_grid <- function(rows) {
  c_min <- max(0.1, ceiling(100 * rc_band_min_cases / rows) / 100)
  seq(min(c_min, 0.5), 1, by = 0.01)
}

# Fewer than rc_band_min_cases cases accepted at the smallest coverage of
# the grid.
rc_band_warn_few <- function(rows, c_min, call) {
  if (c_min * rows >= rc_band_min_cases * (1 - 1e-9)) return(invisible())
  warn_aurc(
    c(
      paste(
        "The band at coverage {format(c_min)} rests on fewer than",
        "{rc_band_min_cases} cases."
      ),
      i = paste(
        "{format(c_min * rows, digits = 3)} of {format(rows, digits = 3)}",
        "cases are accepted there; it may miss the curve (see ?rc_band):",
        "start {.arg coverage} higher."
      )
    ),
    class = "aurc_warning_band_few_cases", call = call
  )
}

rc_band_warn_degenerate <- function(degenerate, coverage, types, call) {
  any_deg <- vapply(degenerate, any, logical(1))
  if (!any(any_deg)) return(invisible())
  where <- unlist(lapply(which(any_deg), function(j) {
    at <- coverage[degenerate[[j]]]
    sprintf("%s risk at %d coverage%s in [%s, %s]", types[j], length(at),
      if (length(at) > 1) "s" else "", format(min(at)), format(max(at))
    )
  }))
  warn_aurc(
    c(
      "Every replicate has the same risk at some coverages.",
      stats::setNames(where, rep("*", length(where))),
      i = paste(
        "The band has width 0 there (no spread was seen, e.g. no failure",
        "among the most confident cases); it is too narrow."
      )
    ),
    class = "aurc_warning_band_degenerate", call = call
  )
}
