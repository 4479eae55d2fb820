# Group-conditional certification (issue 35) for certify_threshold(group =)
# and grouped data frames:
# * shared = "none" (Mondrian): the method run within each group at the
#   stated delta (or level, for CRC), one threshold per group.
# * shared = "threshold": one threshold for every group at once. SGR and
#   LTT test, at each candidate t, the null "R_g(t) > target for some
#   group g", a union of the groups' nulls, by an intersection-union test
#   (Berger 1982): it is rejected when every group's null is, each at the
#   full level, so no split of delta over the groups is needed (LTT's rule
#   for several risks: the p-value max_g p_g). CRC takes the largest of the
#   group thresholds (the joint loss is non-increasing in the threshold, so
#   each group's expected risk stays at most alpha).
# The columns are checked and the NA rule applied once on the whole data,
# so that a message names the row of the data, not of a group.

certify_groups <- function(score, failure, group, shared, opts, na_rm,
                           call) {
  method <- opts$method
  check_numeric_vector(score, "score", call = call)
  n <- length(score)
  if (method == "ltt" && opts$p_value == "binomial") {
    check_binary_for_binomial(failure, call)
  }
  certify_check_loss(failure, n,
    bounded = method == "ltt" && opts$p_value == "hoeffding_bentkus",
    loss_bound = if (method == "crc") opts$loss_bound, call = call
  )
  check_bool(na_rm, call = call)
  groups <- certify_group_index(group, n, call)
  incomplete <- is.na(score) | is.na(failure)
  if (any(incomplete) && !na_rm) abort_certify_missing(call)
  keep <- which(!incomplete)
  rows <- split(keep, factor(groups$id[keep], seq_len(nrow(groups$keys))))
  empty <- which(lengths(rows) == 0)
  if (length(empty) > 0) {
    abort_aurc(
      c(
        "Group {group_label(groups$keys, empty[1])} has no complete
         samples to certify a threshold on.",
        i = "Every group needs data; drop the empty groups first."
      ),
      class = "aurc_error_no_data", call = call
    )
  }
  parts <- lapply(rows, function(r) {
    list(score = as.double(score[r]), failure = as.double(failure[r]))
  })
  names(parts) <- NULL
  out <- if (shared == "none") {
    certify_mondrian(parts, groups$keys, opts, call)
  } else {
    switch(method,
      sgr = certify_shared_sgr(parts, groups$keys, opts, call),
      ltt = certify_shared_ltt(parts, groups$keys, opts, call),
      crc = certify_shared_crc(parts, groups$keys, opts, call)
    )
  }
  opts$shared <- shared
  opts$n_groups <- nrow(groups$keys)
  opts$group_vars <- names(groups$keys)
  new_certificate(out, opts)
}

# The columns of a certificate, which a grouping column may not be named.
certificate_columns <- c(
  "n", "threshold", "coverage", "n_accepted", "failures", "risk", "bound",
  "p_value", "target_risk", "max_abstention", "delta", "joint_risk",
  "adjusted_risk", "loss_bound", "step", "certified", "certified_all",
  "p_risk", "p_abstention", "rejected", "rejected_all", "p_value_all",
  "controlled"
)

# The groups of `group` (a vector, or a data frame of grouping columns):
# `keys`, one row per group in sorted order (as dplyr::group_by()), and
# `id`, the group of each case.
certify_group_index <- function(group, n, call) {
  if (!is.data.frame(group)) {
    if (!is.atomic(group) || !is.null(dim(group))) {
      abort_aurc(
        "{.arg group} must be a vector or a column of {.arg data}, not
         {.obj_type_friendly {group}}.",
        class = "aurc_error_type", call = call
      )
    }
    check_same_length(group, n, "group", call = call)
    group <- list(group = group)
  }
  cols <- as.list(group)
  for (nm in names(cols)) {
    x <- cols[[nm]]
    if (!is.atomic(x) || !is.null(dim(x)) || is.null(x)) {
      abort_aurc(
        "The grouping column {.field {nm}} must be a vector, not
         {.obj_type_friendly {x}}.",
        class = "aurc_error_type", call = call
      )
    }
    check_same_length(x, n, "group", call = call)
    if (anyNA(x)) {
      abort_aurc(
        c(
          "{.arg group} must not have missing values.",
          x = "Row {which(is.na(x))[1]} of {.field {nm}} is missing.",
          i = "A case of unknown group cannot be certified for any group;
               drop it or give it a group of its own."
        ),
        class = "aurc_error_missing", call = call
      )
    }
  }
  clash <- intersect(names(cols), certificate_columns)
  if (length(clash) > 0) {
    abort_aurc(
      c(
        "A grouping column cannot be named {.val {clash[1]}}.",
        i = "It is a column of the result; rename it first."
      ),
      class = "aurc_error_value", call = call
    )
  }
  if (n == 0) {
    abort_aurc(
      "No samples left to certify a threshold on.",
      class = "aurc_error_no_data", call = call
    )
  }
  o <- do.call(order, c(unname(cols), list(method = "radix")))
  sorted <- lapply(cols, function(x) x[o])
  differs <- Reduce(`|`, lapply(sorted, function(x) {
    x[-1] != x[-length(x)]
  }))
  first <- c(TRUE, differs)
  id <- integer(n)
  id[o] <- cumsum(first)
  keys <- tibble::as_tibble(lapply(sorted, function(x) x[first]))
  if (nrow(keys) < 2) {
    abort_aurc(
      c(
        "{.arg group} must have at least two groups.",
        x = "Every case is in group {group_label(keys, 1)}.",
        i = "Drop {.arg group} (or ungroup {.arg data}) to certify one
             threshold."
      ),
      class = "aurc_error_value", call = call
    )
  }
  list(keys = keys, id = id)
}

# A group's key as text, e.g. `a` or `x = a, y = 2`.
group_label <- function(keys, i) {
  vals <- vapply(keys, function(x) format(x[i]), character(1))
  if (length(vals) == 1) return(vals)
  paste(names(vals), vals, sep = " = ", collapse = ", ")
}

# The method on one group's data (complete, checked). A threshold that is
# not certified is reported once for all groups by the caller: the
# warning of a group is muffled and the group noted in `failed`.
certify_one <- function(part, opts, call) {
  switch(opts$method,
    sgr = certify_sgr(part$score, part$failure, opts$target_risk,
      opts$delta, FALSE, call
    ),
    ltt = certify_ltt(part$score, part$failure, opts$target_risk,
      opts$delta, opts$p_value, opts$fwer, opts$max_abstention,
      opts$thresholds, FALSE, call
    ),
    crc = certify_crc(part$score, part$failure, opts$target_risk,
      opts$loss_bound, opts$thresholds, FALSE, call
    )
  )
}

certify_mondrian <- function(parts, keys, opts, call) {
  failed <- logical(length(parts))
  res <- lapply(seq_along(parts), function(g) {
    withCallingHandlers(
      certify_one(parts[[g]], opts, call),
      aurc_warning_not_certified = function(w) {
        failed[g] <<- TRUE
        invokeRestart("muffleWarning")
      }
    )
  })
  if (any(failed)) warn_groups_not_certified(keys, which(failed), opts)
  n <- vapply(parts, function(p) length(p$score), numeric(1))
  out <- bind_group_tables(res, keys, n)
  what <- if (opts$method == "sgr") "steps" else "candidates"
  attr(out, what) <- bind_group_tables(lapply(res, attr, what), keys)
  out
}

# One table of several groups: the key columns, (`n`,) then the columns of
# the groups' tables (each one row or more, the same columns).
bind_group_tables <- function(tables, keys, n = NULL) {
  reps <- vapply(tables, nrow, integer(1))
  nms <- names(tables[[1]])
  cols <- lapply(stats::setNames(nms, nms), function(nm) {
    unlist(lapply(tables, function(t) t[[nm]]), use.names = FALSE)
  })
  idx <- rep(seq_len(nrow(keys)), reps)
  k <- lapply(keys, function(x) x[idx])
  if (!is.null(n)) k$n <- rep(n, reps)
  tibble::new_tibble(c(k, cols), nrow = sum(reps))
}

# SGR with one threshold for every group: the binary search of Algorithm 1
# over the distinct scores of all groups; a candidate passes when its bound
# at delta / k is at most the target in every group. If some group g has
# R_g(t) > target at a tried t, t passes only if g's bound is wrong there
# (probability at most delta / k), whatever the other groups: over the k
# steps, the returned threshold fails in some group with probability at
# most delta, as for one group (an intersection-union test per step).
certify_shared_sgr <- function(parts, keys, opts, call) {
  curves <- lapply(parts, function(p) {
    certify_curve(p$score, p$failure, FALSE, call)
  })
  cand <- sort(unique(unlist(lapply(curves, `[[`, "threshold"))))
  n_thr <- length(cand)
  n_groups <- length(curves)
  k <- sgr_steps(n_thr)
  level <- opts$delta / k
  n <- vapply(curves, `[[`, numeric(1), "n")
  z_min <- 1L
  z_max <- n_thr
  # one row per step and group, by step (filled as plain vectors: a tibble
  # per step cost more than the search)
  cols <- c("threshold", "n_accepted", "failures", "bound", "certified")
  steps <- lapply(stats::setNames(cols, cols), function(c) vector("list", k))
  for (i in seq_len(k)) {
    z <- as.integer(ceiling((z_min + z_max) / 2))
    at <- lapply(curves, curve_at_grid, cand[z])
    m <- vapply(at, `[[`, numeric(1), "n_accepted")
    x <- vapply(at, `[[`, numeric(1), "loss_accepted")
    b <- mapply(binomial_upper_bound, x, m, MoreArgs = list(delta = level))
    ok <- !is.na(b) & b <= opts$target_risk
    steps$threshold[[i]] <- rep(cand[z], n_groups)
    steps$n_accepted[[i]] <- m
    steps$failures[[i]] <- x
    steps$bound[[i]] <- b
    steps$certified[[i]] <- ok
    if (all(ok)) z_max <- z else z_min <- z
  }
  steps <- lapply(steps, unlist, use.names = FALSE)
  g <- rep(seq_len(n_groups), k)
  step <- rep(seq_len(k), each = n_groups)
  certified_all <- as.vector(tapply(steps$certified, step, all))[step]
  steps <- tibble::as_tibble(c(
    as.list(keys[g, , drop = FALSE]),
    list(
      step = step, threshold = steps$threshold,
      coverage = steps$n_accepted / n[g], n_accepted = steps$n_accepted,
      failures = steps$failures, risk = steps$failures / steps$n_accepted,
      bound = steps$bound, certified = steps$certified,
      certified_all = certified_all
    )
  ))
  passed <- steps$threshold[steps$certified_all]
  if (length(passed) == 0) {
    warn_not_certified(opts$target_risk, opts$delta,
      "No threshold tried for every group"
    )
    out <- not_certified_rows(n, opts)
  } else {
    t <- min(passed)
    rows <- steps[steps$threshold == t, , drop = FALSE][seq_len(n_groups), ]
    out <- tibble::tibble(
      n = n, threshold = t, coverage = rows$coverage,
      n_accepted = rows$n_accepted, failures = rows$failures,
      risk = rows$risk, bound = rows$bound,
      target_risk = opts$target_risk, delta = opts$delta
    )
  }
  out <- tibble::as_tibble(c(as.list(keys), out))
  attr(out, "steps") <- steps
  out
}

# The rows of G groups when nothing is certified for them all.
not_certified_rows <- function(n, opts) {
  out <- tibble::tibble(
    n = n, threshold = NA_real_, coverage = 0, n_accepted = 0, failures = 0,
    risk = NA_real_
  )
  if (opts$method == "sgr") {
    out$bound <- NA_real_
    out$target_risk <- opts$target_risk
  } else {
    out$p_value <- NA_real_
    out$target_risk <- opts$target_risk
    out$max_abstention <- opts$max_abstention %||% NA_real_
  }
  out$delta <- opts$delta
  out
}

# LTT with one threshold for every group: one family of candidates for all
# groups (the grid `thresholds`, or the distinct scores of all groups) and,
# at each, the null "R_g(t) > target (or A_g(t) > max_abstention) for some
# g", whose p-value is the largest of the groups' (valid: it is at least
# the p-value of a group whose null holds); the FWER procedure runs over
# these at delta.
certify_shared_ltt <- function(parts, keys, opts, call) {
  bounded <- opts$p_value == "hoeffding_bentkus"
  curves <- lapply(parts, function(p) {
    certify_curve(p$score, p$failure, FALSE, call, bounded = bounded)
  })
  cand <- opts$thresholds %||%
    sort(unique(unlist(lapply(curves, `[[`, "threshold"))),
      decreasing = TRUE
    )
  tabs <- lapply(curves, function(cv) {
    ltt_table(curve_at_grid(cv, cand), opts$target_risk,
      opts$max_abstention, opts$p_value
    )
  })
  pmax_of <- function(col) do.call(pmax, lapply(tabs, `[[`, col))
  joint <- list(
    p_value = pmax_of("p_value"), p_risk = pmax_of("p_risk"),
    p_abstention = pmax_of("p_abstention")
  )
  all_rejected <- ltt_reject(joint, opts$delta, opts$fwer,
    two_risks = !is.null(opts$max_abstention)
  )
  n <- vapply(curves, `[[`, numeric(1), "n")
  if (!any(all_rejected)) {
    hint <- if (opts$fwer == "fixed_sequence" && is.null(opts$thresholds)) {
      "Fixed-sequence testing starts at the highest score, which accepts
       one sample: give a grid {.arg thresholds} whose first value accepts
       enough samples in every group, or use {.code fwer = \"holm\"}."
    }
    warn_not_certified(opts$target_risk, opts$delta,
      "No candidate threshold for every group", hint
    )
    out <- not_certified_rows(n, opts)
  } else {
    # decreasing thresholds: the last one rejected has the largest
    # coverage in every group
    j <- max(which(all_rejected))
    rows <- do.call(rbind, lapply(tabs, function(t) t[j, ]))
    out <- tibble::tibble(
      n = n, threshold = cand[j], coverage = rows$coverage,
      n_accepted = rows$n_accepted, failures = rows$failures,
      risk = rows$risk, p_value = rows$p_value,
      target_risk = opts$target_risk,
      max_abstention = opts$max_abstention %||% NA_real_,
      delta = opts$delta
    )
  }
  out <- tibble::as_tibble(c(as.list(keys), out))
  tabs <- lapply(tabs, function(t) {
    t$p_value_all <- joint$p_value
    t$rejected_all <- all_rejected
    t
  })
  attr(out, "candidates") <- bind_group_tables(tabs, keys)
  out
}

# CRC with one threshold for every group: the largest of the group
# thresholds. The loss of a case, loss * 1(score >= lambda), only falls as
# lambda grows, so each group's guarantee E[loss 1(score >= lambda) | g]
# <= alpha holds at any lambda above its own.
certify_shared_crc <- function(parts, keys, opts, call) {
  curves <- lapply(parts, function(p) {
    certify_curve(p$score, p$failure, FALSE, call,
      loss_bound = opts$loss_bound
    )
  })
  if (!is.null(opts$thresholds)) {
    curves_c <- lapply(curves, curve_at_grid, opts$thresholds)
  } else {
    curves_c <- curves
  }
  tabs <- lapply(curves_c, crc_table, opts$target_risk, opts$loss_bound)
  own <- vapply(seq_along(tabs), function(g) {
    crc_result(tabs[[g]], curves[[g]]$n, opts$target_risk,
      opts$loss_bound
    )$threshold
  }, numeric(1))
  lambda <- max(own)
  rows <- lapply(curves, crc_at, lambda, opts$target_risk, opts$loss_bound)
  n <- vapply(curves, `[[`, numeric(1), "n")
  out <- bind_group_tables(rows, keys, n)
  if (!is.finite(lambda)) {
    none <- which(!is.finite(own))
    warn_crc_abstain(opts$target_risk, opts$loss_bound, min(n[none]),
      where = paste0(" in group ", group_label(keys, none[1]))
    )
  }
  attr(out, "candidates") <- bind_group_tables(tabs, keys)
  attr(out, "group_thresholds") <- tibble::as_tibble(
    c(as.list(keys), list(threshold = own))
  )
  out
}

warn_groups_not_certified <- function(keys, failed, opts) {
  labels <- vapply(failed, function(i) group_label(keys, i), character(1))
  k <- length(labels)
  if (opts$method == "crc") {
    warn_aurc(
      c(
        "No threshold controls the expected risk at {opts$target_risk} in
         {cli::qty(k)}group{?s} {.val {labels}}; {?its/their} threshold is
         {.val {Inf}} (abstain on everything).",
        i = "Allow a larger {.arg target_risk} or use more data."
      ),
      class = "aurc_warning_not_certified"
    )
  } else {
    warn_aurc(
      c(
        "No threshold is certified at risk {opts$target_risk} with delta =
         {opts$delta} in {cli::qty(k)}group{?s} {.val {labels}};
         {?its/their} threshold is {.val {NA}}.",
        i = "Allow a larger {.arg target_risk} or {.arg delta}, or use more
             data."
      ),
      class = "aurc_warning_not_certified"
    )
  }
}
