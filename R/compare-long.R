# The long form of compare_scores() (issue 34): one row per model and case,
# as stacking the augment() output of several models on the same test set
# gives. It is reshaped to the wide form (one score column per model, one
# row per case) that compare_scores_run() takes, so every metric, method
# and option works as there. The rows of the models are paired by a case
# id (`case =`) or, without one, by their position within each model.

# The wide data of a long data frame. `quos`: the column selections of
# compare_scores(); `model_quo`, `case_quo`: its `model` and `case`.
# Returns `data` (one row per case), `quos` (the same selections, of the
# columns of `data`), `groups` (those of the long data, with the rows of
# `data`), `models` (the model names), `cols` (their score columns in
# `data`) and `losses` (the names of the losses in the result).
compare_long_data <- function(data, quos, model_quo, case_quo, call) {
  check_data_frame(data, call = call)
  score_col <- select_score_columns(data, quos$scores, call, min = 1)
  if (length(score_col) > 1) {
    abort_aurc(
      c(
        paste(
          "With {.arg model}, {.arg scores} must select one column: the",
          "score of the model of each row."
        ),
        x = "It selects {length(score_col)}: {.val {score_col}}.",
        i = paste(
          "Without {.arg model}, {.arg scores} selects one column per",
          "score, all on the same rows."
        )
      ),
      class = "aurc_error_value", call = call
    )
  }
  score <- data[[score_col]]
  check_numeric_vector(score, score_col, call = call)
  model <- eval_column(data, model_quo, "model", call = call)
  check_key_column(model, "model", call)
  case <- eval_column(data, case_quo, "case", call = call)
  if (!is.null(case)) check_key_column(case, "case", call)
  # (sorted, as bootstrap_ranking() sorts the methods: the result does
  # not depend on the order of the rows)
  lev <- level_index(model)
  models <- as.character(lev$levels)
  m <- lev$index
  k <- length(models)
  n <- nrow(data)
  if (k < 2) {
    abort_aurc(
      c(
        "{.arg model} must name at least two models.",
        x = if (k == 0) "It names none." else "It names only {.val {models}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  # (as many models as rows per model: a comparison of models on one or
  # two cases, as `model` and `case` swapped give; its pairs would number
  # k (k - 1) / 2)
  if (k * k > n) {
    abort_aurc(
      c(
        paste(
          "{.arg model} names {k} models for {n} rows: more models than",
          "rows per model."
        ),
        i = paste(
          "Were {.arg model} and {.arg case} (or {.arg scores}) swapped?",
          "{.arg model} is the model of each row, {.arg case} its case id."
        )
      ),
      class = c("aurc_error_value", "aurc_error_swapped"), call = call
    )
  }
  groups <- data_groups(data)
  model_expr <- rlang::quo_get_expr(model_quo)
  if ((rlang::is_symbol(model_expr) || rlang::is_string(model_expr)) &&
    rlang::as_string(model_expr) %in% names(groups$keys)) {
    abort_aurc(
      c(
        "{.arg data} must not be grouped by {.arg model}.",
        i = paste(
          "The models are compared within each group; group by something",
          "else (or {.fn dplyr::ungroup} the data)."
        )
      ),
      class = "aurc_error_value", call = call
    )
  }
  for (arg in c("loss", "correct", "quality")) {
    q <- quos[[arg]]
    if (!is.null(q) && !rlang::quo_is_null(q) && loss_is_selection(q, data)) {
      abort_aurc(
        c(
          "With {.arg model}, {.arg {arg}} must be one column.",
          i = "Each row holds the {arg} of its own model."
        ),
        class = "aurc_error_value", call = call
      )
    }
  }
  pairs <- lapply(seq_along(groups$rows), function(g) {
    where <- if (is.null(groups$keys)) {
      ""
    } else {
      paste0(" in group \"", group_label(groups$keys, g), "\"")
    }
    rows <- groups$rows[[g]]
    compare_long_pairs(m[rows], if (!is.null(case)) case[rows], rows, k,
      models, where, call
    )
  })
  idx <- do.call(rbind, pairs)
  sizes <- vapply(pairs, nrow, integer(1))
  starts <- cumsum(c(0L, sizes))[seq_along(sizes)]
  wide_groups <- list(
    keys = groups$keys,
    rows = Map(function(s, z) s + seq_len(z), starts, sizes)
  )
  cols <- paste0(".score_", seq_len(k))
  wide <- list()
  for (j in seq_len(k)) wide[[cols[j]]] <- score[idx[, j]]
  # the loss of each model on its rows (one column when every model has
  # the same, as in the wide form with one loss)
  losses <- NULL
  for (arg in c("loss", "correct", "quality")) {
    q <- quos[[arg]]
    if (is.null(q) || rlang::quo_is_null(q)) next
    v <- eval_column(data, q, arg, call = call)
    check_vector_column(v, arg, call)
    per_model <- lapply(seq_len(k), function(j) v[idx[, j]])
    label <- rlang::as_label(q)
    if (arg != "loss") label <- paste("1 -", label)
    if (all(vapply(per_model, identical, logical(1), per_model[[1]]))) {
      name <- paste0(".", arg)
      wide[[name]] <- per_model[[1]]
      losses <- c(losses, label)
    } else {
      name <- paste0(".", arg, "_", seq_len(k))
      wide[name] <- per_model
      losses <- c(losses, paste0(label, " (", models, ")"))
    }
    quos[[arg]] <- rlang::quo(!!name)
  }
  # the columns of the case: the same for every model
  for (arg in c("case_weights", "strata", "cluster", "truth")) {
    q <- quos[[arg]]
    if (is.null(q) || rlang::quo_is_null(q)) next
    # (hardhat's case weights keep their class: frequency or importance)
    v <- eval_column_value(data, q, arg, call = call)
    check_vector_column(v, arg, call)
    compare_long_same(v, arg, idx, models, case, wide_groups, call)
    name <- paste0(".", arg)
    wide[[name]] <- v[idx[, 1]]
    quos[[arg]] <- rlang::quo(!!name)
  }
  quos$scores <- rlang::quo(!!cols)
  list(
    data = structure(wide,
      class = "data.frame", row.names = c(NA, -nrow(idx))
    ),
    quos = quos, groups = wide_groups, models = models, cols = cols,
    losses = losses
  )
}

# The rows of one group as a (cases x models) matrix of row numbers of the
# long data: `m` the model of each row (1 to `k`), `case` its case id (or
# NULL: the position of the row within its model), `rows` the row numbers.
# Cases in the order of their position or id.
compare_long_pairs <- function(m, case, rows, k, models, where, call) {
  if (is.null(case)) {
    at <- positions_within(m, k)
    count <- at$count
    check_equal_rows(count, paste0("\"", models, "\""), "model", "model",
      where, call
    )
    idx <- matrix(NA_integer_, count[1], k)
    idx[cbind(at$pos, m)] <- rows
    return(idx)
  }
  # (cases sorted by id, as in bootstrap_ranking(): the bootstrap's draws
  # do not depend on the order of the rows)
  lev <- level_index(case)
  ci <- lev$index
  lev <- lev$levels
  n_case <- length(lev)
  slot <- (m - 1) * as.double(n_case) + ci
  dup <- anyDuplicated(slot)
  if (dup) {
    abort_aurc(
      c(
        "Each model must have each case of {.arg case} once{where}.",
        x = "Model {.val {models[m[dup]]}} has case
             {.val {as.character(case[dup])}} more than once."
      ),
      class = c("aurc_error_unpaired", "aurc_error_value"), call = call
    )
  }
  count <- tabulate(m, k)
  short <- which(count < n_case)
  if (length(short)) {
    j <- short[1]
    lacking <- setdiff(seq_len(n_case), ci[m == j])
    shown <- as.character(utils::head(lev[lacking], 5))
    abort_aurc(
      c(
        paste(
          "Every model must have every case of {.arg case}{where}: the",
          "models are compared on the same cases."
        ),
        x = "Model {.val {models[j]}} lacks {length(lacking)} of the
             {n_case} case{?s}{if (length(lacking) > 5) ', e.g.' else
             ':'} {.val {shown}}.",
        i = if (length(short) > 1) {
          "{length(short) - 1} other model{?s} lack{?s/} cases too."
        }
      ),
      class = c("aurc_error_unpaired", "aurc_error_value"), call = call
    )
  }
  idx <- matrix(NA_integer_, n_case, k)
  idx[slot] <- rows
  idx
}

# A value of the case (its weight, stratum, cluster or truth) must be the
# same on the rows of every model: a classed error for the first case
# where it is not (rows paired wrongly, most often).
compare_long_same <- function(v, arg, idx, models, case, groups, call) {
  first <- as.vector(unclass(v[idx[, 1]]))
  for (j in seq_len(ncol(idx))[-1]) {
    other <- as.vector(unclass(v[idx[, j]]))
    same <- (first == other) %in% TRUE | (is.na(first) & is.na(other))
    bad <- which(!same)
    if (length(bad) == 0) next
    b <- bad[1]
    g <- which(vapply(groups$rows, function(r) b %in% r, logical(1)))[1]
    where <- if (is.null(groups$keys)) {
      ""
    } else {
      paste0(" in group \"", group_label(groups$keys, g), "\"")
    }
    what <- if (is.null(case)) {
      paste0("Row ", b - groups$rows[[g]][1] + 1L, " of each model")
    } else {
      paste0("Case \"", as.character(case[idx[b, 1]]), "\"")
    }
    shown <- function(x) {
      if (is.factor(x)) as.character(x) else as.vector(unclass(x))
    }
    abort_aurc(
      c(
        "{.arg {arg}} must be the same for every model of a case.",
        x = "{what}{where}: model {.val {models[1]}} has
             {.val {shown(v[idx[b, 1]])}}, model {.val {models[j]}} has
             {.val {shown(v[idx[b, j]])}}.",
        i = if (is.null(case)) {
          paste(
            "Without {.arg case} the k-th row of each model is the same",
            "case: are the rows of the models in the same order? Give",
            "{.arg case} to pair them by a case id."
          )
        }
      ),
      class = "aurc_error_value", call = call
    )
  }
  invisible()
}

# The result of the wide data under the names of the long form: the
# models for the score columns, the losses named by the model.
compare_long_names <- function(res, long) {
  name_of <- function(x) long$models[match(x, long$cols)]
  res$tests$score_a <- name_of(res$tests$score_a)
  res$tests$score_b <- name_of(res$tests$score_b)
  res$estimates$score <- name_of(res$estimates$score)
  res$settings$scores <- long$models
  if (!is.null(long$losses)) res$settings$losses <- long$losses
  res
}

# A column of ids (models, cases): a vector without missing values.
check_key_column <- function(x, arg, call) {
  check_vector_column(x, arg, call)
  if (anyNA(x)) {
    abort_aurc(
      c(
        "{.arg {arg}} must not have missing values.",
        x = "Row {which(is.na(x))[1]} is missing."
      ),
      class = "aurc_error_missing", call = call
    )
  }
  invisible(x)
}

check_vector_column <- function(x, arg, call) {
  if (!is.atomic(x) || is.null(x) || !is.null(dim(x))) {
    abort_aurc(
      "{.arg {arg}} must be a vector column, not {.obj_type_friendly {x}}.",
      class = "aurc_error_type", call = call
    )
  }
  invisible(x)
}

# A classed error unless every model of a long form (a `noun` of the
# column `arg`, `labels` quoted) has as many rows (`count`): without a case
# id, the k-th row of each is the same case. `each`: what must have them.
check_equal_rows <- function(count, labels, arg, noun, where, call,
                             each = noun) {
  if (all(count == count[1])) return(invisible())
  j <- which(count != count[1])[1]
  first <- paste0(toupper(substr(noun, 1, 1)), substring(noun, 2))
  abort_aurc(
    c(
      paste(
        "Every {each} of {.arg {arg}} must have the same number of",
        "rows{where}: without {.arg case}, the k-th row of each is the",
        "same case."
      ),
      x = "{first} {labels[1]} has {count[1]} row{?s}, {noun} {labels[j]}
           has {count[j]}.",
      i = "Give {.arg case} to pair the rows by a case id."
    ),
    class = c("aurc_error_unpaired", "aurc_error_value"), call = call
  )
}

# The position of each row within its key (1, 2, ... in the order of the
# rows) and the number of rows of each key; `key` holds whole numbers from
# 1 to `k`.
positions_within <- function(key, k) {
  count <- tabulate(key, k)
  pos <- integer(length(key))
  pos[order(key, method = "radix")] <- sequence(count)
  list(pos = pos, count = count)
}
