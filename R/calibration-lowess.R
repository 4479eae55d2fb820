# The lowess smooth of rms's val.prob() for Eavg (ICI), E90 and Emax
# (issue 36): `smoother = "lowess"` of ici(), e50(), e90(), emax() and
# calibration_summary(), beside the loess smooth of Austin and Steyerberg
# (R/calibration-clinical.R).

ici_smoothers <- c("loess", "lowess")

# The smoother, checked; `span_given`: a warning of class
# aurc_warning_ignored when the loess span is given with lowess, whose
# span is val.prob()'s (f = 2/3).
check_smoother <- function(smoother, span_given, call,
                           arg = "smoother") {
  smoother <- check_choice(smoother, ici_smoothers, arg = arg, call = call)
  if (smoother == "lowess" && isTRUE(span_given)) {
    warn_aurc(
      c(
        "{.arg span} is ignored with {.code {arg} = \"lowess\"}.",
        i = paste(
          "lowess uses the span of {.fn rms::val.prob}, f = 2/3, with no",
          "robustness iterations; {.arg span} is the loess span."
        )
      ),
      class = "aurc_warning_ignored", call = call
    )
  }
  smoother
}

# Case weights the lowess smooth can take: whole numbers (the rows
# repeated), at most this many cases in all.
ici_lowess_max_cases <- 1e8

# |p - s(p)| with val.prob()'s smooth: s = lowess(p, y, iter = 0) (f = 2/3,
# delta = 1% of the range of p), read at every p by approx(ties = mean);
# every confidence the same: s = the proportion right. Integer case
# weights repeat the rows (lowess takes no weights; its neighbourhoods
# count rows).
ici_lowess_distances <- function(input, call) {
  p <- input$confidence
  y <- input$correct
  w <- input$case_weights
  if (length(w)) {
    if (any(w != floor(w))) {
      abort_aurc(
        c(
          paste(
            "{.code smoother = \"lowess\"} takes only whole-number",
            "{.arg case_weights}."
          ),
          x = "lowess has no weights; whole numbers repeat the rows.",
          i = "Use {.code smoother = \"loess\"} for other weights."
        ),
        class = "aurc_error_value", call = call
      )
    }
    if (sum(w) > ici_lowess_max_cases) {
      abort_aurc(
        c(
          "{.arg case_weights} stand for too many rows for lowess.",
          x = paste(
            "They total {format(sum(w))}; lowess repeats the rows, at most",
            "{format(ici_lowess_max_cases)}."
          ),
          i = "Use {.code smoother = \"loess\"}."
        ),
        class = c("aurc_error_value", "aurc_error_size"), call = call
      )
    }
    rows <- rep.int(seq_along(p), w)
    p <- p[rows]
    y <- y[rows]
  }
  if (!length(p)) {
    warn_no_data(call = call)
    return(NULL)
  }
  smooth <- if (all(p == p[1])) {
    rep(mean(y), length(p))
  } else {
    fit <- stats::lowess(p, y, iter = 0)
    stats::approx(fit, xout = p, ties = mean)$y
  }
  list(d = abs(p - smooth), w = double(), counts = NULL)
}

# The smoothed calibration summaries (the catalog's loess kernel).
ici_metrics <- c("ici", "e50", "e90", "emax")
