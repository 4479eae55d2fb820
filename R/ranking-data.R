# Bootstrap ranking (DEFINITIONS Sec. 7): the long input table, checked and laid
# out per group as a method x case problem, the drawn replicates and the
# replicate values from the C++ kernel.

# ---- data -------------------------------------------------------------------

check_ranking_columns <- function(cols, specs, call) {
  for (arg in c("method", "case")) {
    if (is.null(cols[[arg]])) {
      abort_aurc("{.arg {arg}} must be a column of {.arg data}, not NULL.",
        class = "aurc_error_type", call = call
      )
    }
  }
  n <- length(cols$method)
  if (n == 0) {
    abort_aurc("{.arg data} must have at least one row.",
      class = "aurc_error_length", call = call
    )
  }
  check_numeric_vector(cols$score, "score", call = call)
  check_loss(cols$loss, n, call = call)
  for (arg in c("method", "case", "run", "group", "strata")) {
    v <- cols[[arg]]
    if (is.null(v)) next
    if (!is.null(dim(v)) || !is.atomic(v)) {
      abort_aurc(
        "{.arg {arg}} must be a vector column, not {.obj_type_friendly {v}}.",
        class = "aurc_error_type", call = call
      )
    }
    if (anyNA(v)) {
      abort_aurc(
        c(
          "{.arg {arg}} must not have missing values.",
          x = "Row {which(is.na(v))[1]} is missing."
        ),
        class = "aurc_error_missing", call = call
      )
    }
  }
  for (arg in c("score", "loss")) {
    v <- cols[[arg]]
    if (anyNA(v)) {
      abort_aurc(
        c(
          "{.arg {arg}} must not have missing values.",
          x = "{sum(is.na(v))} row{?s} missing, the first is row
               {which(is.na(v))[1]}.",
          i = "Every method must have a score and loss for every case:
               drop or impute the cases first."
        ),
        class = "aurc_error_missing", call = call
      )
    }
  }
  binary <- vapply(specs, function(s) isTRUE(s$binary), logical(1))
  if (any(binary)) {
    bad <- which(cols$loss != 0 & cols$loss != 1)
    if (length(bad)) {
      abort_aurc(
        c(
          "{.arg loss} must be 0 or 1 for the metric{?s}
           {.val {vapply(specs[binary], function(s) s$name, '')}}.",
          x = "Row {bad[1]} has loss {.val {cols$loss[bad[1]]}}."
        ),
        class = "aurc_error_value", call = call
      )
    }
  }
  invisible()
}

# sorted_levels(x) and the position of each element in them, without
# hashing where possible: factors by their codes, whole numbers over a
# compact range by counting.
level_index <- function(x) {
  if (is.factor(x)) {
    used <- tabulate(as.integer(x), nlevels(x)) > 0
    return(list(
      levels = levels(x)[used], index = cumsum(used)[as.integer(x)]
    ))
  }
  if (is.integer(x) && length(x) > 0) {
    lo <- min(x)
    span <- max(x) - lo + 1
    if (span <= 2 * length(x) + 1e4) {
      k <- x - (lo - 1L)
      present <- tabulate(k, span) > 0
      return(list(
        levels = seq(lo, length.out = span)[present],
        index = cumsum(present)[k]
      ))
    }
  }
  levels <- sorted_levels(x)
  list(levels = levels, index = match(x, levels))
}

sorted_levels <- function(x) {
  if (is.factor(x)) {
    levels(droplevels(x))
  } else {
    sort(unique(x))
  }
}

# One group's data as an n x C score and loss matrix (cases in sorted order,
# columns method-major with the run fastest), after checking pairing.
ranking_problem <- function(cols, key, call) {
  m_idx <- level_index(cols$method)
  methods <- m_idx$levels
  mi <- m_idx$index
  runs <- 1L
  ri <- rep(1L, length(mi))
  if (!is.null(cols$run)) {
    r_idx <- level_index(cols$run)
    runs <- r_idx$levels
    ri <- r_idx$index
  }
  c_idx <- level_index(cols$case)
  cases <- c_idx$levels
  pos <- c_idx$index
  n <- length(cases)
  n_runs <- length(runs)
  col <- (mi - 1L) * n_runs + ri
  n_col <- length(methods) * n_runs
  slot <- (col - 1) * n + pos
  where <- if (is.null(key)) "" else paste0(" in group ", format(key))
  label <- function(c) {
    m <- methods[(c - 1L) %/% n_runs + 1L]
    r <- runs[(c - 1L) %% n_runs + 1L]
    if (is.null(cols$run)) paste0("Method \"", m, "\"") else
      paste0("Method \"", m, "\", run ", format(r))
  }
  # counting is much cheaper than hashing; duplicated() only on error
  no_dup <- n * n_col < .Machine$integer.max &&
    !any(tabulate(slot, n * n_col) > 1L)
  dup <- if (no_dup) integer() else which(duplicated(slot))
  if (length(dup)) {
    abort_aurc(
      c(
        "Each method and run must hold each case once.",
        x = "{label(col[dup[1]])}{where} has case {.val {cols$case[dup[1]]}}
             more than once."
      ),
      class = "aurc_error_unpaired", call = call
    )
  }
  per_col <- tabulate(col, n_col)
  short <- which(per_col < n)
  if (length(short)) {
    c1 <- short[1]
    missing_cases <- setdiff(seq_len(n), pos[col == c1])
    shown <- utils::head(cases[missing_cases], 5)
    abort_aurc(
      c(
        "Every method and run must hold the same cases (paired data).",
        x = "{label(c1)}{where} lacks {length(missing_cases)} of the {n}
             case{?s}{if (length(missing_cases) > 5) ', for example' else
             ':'} {.val {shown}}.",
        i = if (length(short) > 1) "{length(short) - 1} other method-run
             combination{?s} lack cases too."
      ),
      class = "aurc_error_unpaired", call = call
    )
  }
  # every slot once (checked above): rows already in slot order need no
  # scatter (data sorted by method, run and case, as expand.grid() makes)
  if (!is.unsorted(slot)) {
    score <- matrix(as.double(cols$score), n, n_col)
    loss <- matrix(as.double(cols$loss), n, n_col)
  } else {
    score <- matrix(0, n, n_col)
    loss <- matrix(0, n, n_col)
    score[slot] <- as.double(cols$score)
    loss[slot] <- as.double(cols$loss)
  }
  strata_pos <- NULL
  if (!is.null(cols$strata)) {
    first <- match(seq_len(n), pos)
    case_stratum <- cols$strata[first]
    bad <- which(cols$strata != case_stratum[pos])
    if (length(bad)) {
      abort_aurc(
        c(
          "{.arg strata} must be constant within each case.",
          x = "Case {.val {cols$case[bad[1]]}} is in more than one stratum."
        ),
        class = "aurc_error_value", call = call
      )
    }
    levs <- sorted_levels(case_stratum)
    strata_pos <- lapply(levs, function(l) which(case_stratum == l))
  }
  list(
    score = score, loss = loss, n = n, methods = as.character(methods),
    runs = runs, cases = cases, strata_pos = strata_pos
  )
}

# The index table (cases x replicates) and the values (replicates x columns
# x metrics) must fit the cell budget (max_cells()) before either is built.
check_ranking_size <- function(problem, n_reps, n_metrics, call) {
  check_cells(problem$n * n_reps, "times",
    "the table of drawn cases (cases x replicates)",
    call = call
  )
  check_cells(n_reps * ncol(problem$score) * n_metrics, "times",
    "the replicate values (replicates x methods and runs x metrics)",
    call = call
  )
}

# times x n matrix of case positions (row b = replicate b), the layout of
# a user's `indices`, which the kernel reads directly; `bar`, at `done`
# steps: a progress bar or NULL.
draw_indices <- function(n, times, strata_pos = NULL, bar = NULL, done = 0) {
  out <- matrix(0L, times, n)
  for (b in seq_len(times)) {
    progress_tick(bar, done + b - 1)
    out[b, ] <- if (is.null(strata_pos)) {
      sample.int(n, n, replace = TRUE)
    } else {
      unlist(lapply(strata_pos, function(p) {
        p[sample.int(length(p), length(p), replace = TRUE)]
      }), use.names = FALSE)
    }
  }
  out
}

# `indices` as a list with one entry per group (NULL: draw).
ranking_index_list <- function(indices, group_keys, call) {
  if (is.null(indices)) return(NULL)
  if (is.matrix(indices)) {
    if (length(group_keys) > 1) {
      abort_aurc(
        c(
          "{.arg indices} must be a list of matrices named by group.",
          i = "Each group has its own cases."
        ),
        class = "aurc_error_type", call = call
      )
    }
    return(list(indices))
  }
  if (!is.list(indices) || is.null(names(indices)) ||
    is.null(group_keys[[1]])) {
    abort_aurc(
      "{.arg indices} must be an integer matrix (replicates x cases).",
      class = "aurc_error_type", call = call
    )
  }
  keys <- vapply(group_keys, function(k) as.character(k), character(1))
  absent <- setdiff(keys, names(indices))
  if (length(absent)) {
    abort_aurc(
      "{.arg indices} has no matrix for group{?s} {.val {absent}}.",
      class = "aurc_error_value", call = call
    )
  }
  indices[keys]
}

# times x n user matrix, checked; returned as an integer matrix.
check_indices <- function(m, n, key, call) {
  where <- if (is.null(key)) "" else paste0(" for group ", format(key))
  if (!is.matrix(m) || !is.numeric(m)) {
    abort_aurc(
      "{.arg indices}{where} must be a numeric matrix, not
       {.obj_type_friendly {m}}.",
      class = "aurc_error_type", call = call
    )
  }
  if (ncol(m) != n || nrow(m) < 1) {
    abort_aurc(
      c(
        "{.arg indices}{where} must have one column per case and at least
         one row.",
        x = "It is {nrow(m)} x {ncol(m)}; there are {n} cases."
      ),
      class = "aurc_error_value", call = call
    )
  }
  # min() and max() are NA when any element is: no copy, no extra pass
  rng <- c(min(m), max(m))
  if (anyNA(rng) || rng[1] < 1 || rng[2] > n ||
    (!is.integer(m) && any(m != trunc(m)))) {
    abort_aurc(
      "{.arg indices}{where} must hold case positions, whole numbers from 1
       to {n}.",
      class = "aurc_error_value", call = call
    )
  }
  if (!is.integer(m)) storage.mode(m) <- "integer"
  m
}

# Passes over the replicates, for the progress bar: one for all kernel
# metrics, one per metric given as an R function.
ranking_passes <- function(specs) {
  kernel <- vapply(specs, function(s) s$kernel, logical(1))
  any(kernel) + sum(!kernel)
}

# The C++ kernel (src/rcpp_ranking.cpp) on the metrics of `specs`
# (ranking_metric_specs(), every one computed in C++): `indices` n x B, or
# B x n with `replicate_rows`. Returns B x C x M values.
ranking_kernel_values <- function(score, loss, indices, specs, threads,
                                  progress = NULL, replicate_rows = FALSE) {
  cpp <- lapply(specs, function(s) s$cpp)
  field <- function(f, type) vapply(cpp, function(x) x[[f]], type)
  ranking_metrics_impl(
    score, loss, indices,
    field("kernel", character(1)), field("estimator", character(1)),
    field("method", character(1)), field("optimum", character(1)),
    field("coverage", numeric(1)), field("risk", numeric(1)),
    threads, progress, replicate_rows
  )
}

# Replicate values (list by metric of times x K matrices, averaged over
# runs) and full-data values (list by metric of K vectors). `bar`: a
# progress bar (progress_bar()) at `done` steps, or NULL.
ranking_values <- function(problem, specs, idx, threads, bar = NULL,
                           done = 0) {
  n_runs <- length(problem$runs)
  n_methods <- length(problem$methods)
  n_reps <- nrow(idx)
  kernel <- vapply(specs, function(s) s$kernel, logical(1))
  names_all <- vapply(specs, function(s) s$name, character(1))
  per_col <- stats::setNames(vector("list", length(specs)), names_all)
  full_col <- per_col
  if (any(kernel)) {
    kn <- names_all[kernel]
    # losses near the largest double: scaled by a power of 2 for the
    # kernel, the values of metrics linear in the loss scaled back
    # (R/weights-scale.R)
    e <- loss_scale_exponent(problem$loss)
    loss <- if (e != 0) times_pow2(problem$loss, -e) else problem$loss
    reps <- ranking_kernel_values(problem$score, loss, idx,
      specs[kernel], threads, progress_callback(bar, done),
      replicate_rows = TRUE
    )
    done <- done + n_reps
    full <- ranking_kernel_values(problem$score, loss,
      matrix(seq_len(problem$n)), specs[kernel], 1L
    )
    if (e != 0) {
      ids <- vapply(specs[kernel], function(s) s$kernel_id, character(1))
      one <- loss_degree_one(ids)
      reps[, , one] <- times_pow2(reps[, , one], e)
      full[, , one] <- times_pow2(full[, , one], e)
    }
    for (k in seq_along(kn)) {
      per_col[[kn[k]]] <- matrix(reps[, , k], n_reps)
      full_col[[kn[k]]] <- full[1, , k]
    }
  }
  for (s in specs[!kernel]) {
    n_cols <- ncol(problem$score)
    vals <- matrix(NA_real_, n_reps, n_cols)
    for (b in seq_len(n_reps)) {
      i <- idx[b, ]
      for (c in seq_len(n_cols)) {
        vals[b, c] <- s$fn(problem$score[i, c], problem$loss[i, c])
      }
      progress_tick(bar, done + b)
    }
    done <- done + n_reps
    per_col[[s$name]] <- vals
    full_col[[s$name]] <- vapply(seq_len(n_cols), function(c) {
      s$fn(problem$score[, c], problem$loss[, c])
    }, numeric(1))
  }
  average_runs <- function(v, nrow) {
    a <- array(v, c(nrow, n_runs, n_methods))
    out <- a[, 1, , drop = TRUE]
    if (n_runs > 1) {
      for (r in 2:n_runs) out <- out + a[, r, ]
      out <- out / n_runs
    }
    matrix(out, nrow, n_methods, dimnames = list(NULL, problem$methods))
  }
  list(
    replicates = lapply(per_col, average_runs, nrow = n_reps),
    full = lapply(full_col, function(v) average_runs(v, 1)[1, ])
  )
}
