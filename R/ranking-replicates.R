# rank_replicates() (DEFINITIONS Sec. 7): the replicate x method values a user
# already has, checked and laid out per metric and group.

# ---- rank_replicates input --------------------------------------------------

replicate_table <- function(values, metric, call) {
  if (is.matrix(values) || is.data.frame(values)) {
    if (NROW(values) == 0 || NCOL(values) == 0) {
      abort_aurc(
        "{.arg values} must have at least one row and one column.",
        class = "aurc_error_length", call = call
      )
    }
  }
  if (is.matrix(values)) {
    if (!is.numeric(values)) {
      abort_aurc(
        "{.arg values} must be a numeric matrix, not
         {.obj_type_friendly {values}}.",
        class = "aurc_error_type", call = call
      )
    }
    if (is.null(colnames(values)) || anyDuplicated(colnames(values)) ||
      anyNA(colnames(values))) {
      abort_aurc(
        c(
          "{.arg values} must have distinct column names: the methods.",
          i = "Set them with {.code colnames(values) <- ...}."
        ),
        class = "aurc_error_value", call = call
      )
    }
    if (!rlang::is_string(metric) || !nzchar(metric)) {
      abort_aurc("{.arg metric} must be a single non-empty string.",
        class = "aurc_error_type", call = call
      )
    }
    return(data.frame(
      replicate = rep(seq_len(nrow(values)), times = ncol(values)),
      method = rep(colnames(values), each = nrow(values)),
      value = as.vector(values), metric = metric, stringsAsFactors = FALSE
    ))
  }
  if (!is.data.frame(values)) {
    abort_aurc(
      "{.arg values} must be a numeric matrix or a data frame, not
       {.obj_type_friendly {values}}.",
      class = "aurc_error_type", call = call
    )
  }
  need <- c("replicate", "method", "value")
  absent <- setdiff(need, names(values))
  if (length(absent)) {
    abort_aurc(
      c(
        "{.arg values} must have columns {.field {need}}.",
        x = "Missing: {.field {absent}}."
      ),
      class = "aurc_error_column", call = call
    )
  }
  if (!is.numeric(values$value)) {
    abort_aurc("Column {.field value} of {.arg values} must be numeric.",
      class = "aurc_error_type", call = call
    )
  }
  out <- data.frame(
    replicate = values$replicate, method = as.character(values$method),
    value = as.double(values$value),
    metric = if (is.null(values$metric)) metric else
      as.character(values$metric),
    stringsAsFactors = FALSE
  )
  if (!is.null(values$group)) out$group <- values$group
  out
}

direction_per_metric <- function(direction, metric_names, call) {
  ok <- is.character(direction) && all(direction %in% c("lower", "higher"))
  if (ok && length(direction) == 1 && is.null(names(direction))) {
    return(stats::setNames(as.list(rep(direction == "higher",
      length(metric_names))), metric_names))
  }
  if (!ok || is.null(names(direction)) ||
    !all(metric_names %in% names(direction))) {
    abort_aurc(
      c(
        "{.arg direction} must be {.val lower} or {.val higher}, one value
         or one per metric (named).",
        i = "Metrics: {.val {metric_names}}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  as.list(direction[metric_names] == "higher")
}

replicate_matrix <- function(sub, metric, key, call) {
  methods <- sorted_levels(sub$method)
  reps <- sort(unique(sub$replicate))
  where <- if (is.null(key)) "" else paste0(" in group ", format(key))
  slot <- (match(sub$method, methods) - 1) * length(reps) +
    match(sub$replicate, reps)
  if (anyDuplicated(slot) || length(slot) != length(reps) * length(methods)) {
    abort_aurc(
      c(
        "{.arg values} must hold one value per replicate and method.",
        x = "Metric {.val {metric}}{where} has {length(slot)} rows for
             {length(reps)} replicates and {length(methods)} methods."
      ),
      class = "aurc_error_unpaired", call = call
    )
  }
  out <- matrix(NA_real_, length(reps), length(methods),
    dimnames = list(NULL, methods)
  )
  out[slot] <- sub$value
  out
}

full_value_table <- function(full_values, long, call) {
  if (is.null(full_values)) return(NULL)
  if (is.numeric(full_values) && !is.null(names(full_values)) &&
    is.null(dim(full_values))) {
    return(data.frame(
      method = names(full_values), value = unname(full_values),
      stringsAsFactors = FALSE
    ))
  }
  if (!is.data.frame(full_values) ||
    !all(c("method", "value") %in% names(full_values))) {
    abort_aurc(
      "{.arg full_values} must be a named numeric vector or a data frame
       with columns {.field method} and {.field value}.",
      class = "aurc_error_type", call = call
    )
  }
  full_values
}

full_vector <- function(full, metric, key, methods) {
  if (is.null(full)) return(NULL)
  sel <- rep(TRUE, nrow(full))
  if (!is.null(full$metric)) sel <- sel & full$metric == metric
  if (!is.null(full$group) && !is.null(key)) sel <- sel & full$group == key
  sub <- full[sel, , drop = FALSE]
  unname(as.double(sub$value[match(methods, as.character(sub$method))]))
}
