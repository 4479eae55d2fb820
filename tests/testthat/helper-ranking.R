# Data for test-ranking.R and test-autoplot-ranking.R: long format, one row
# per method, run and case, tied scores, 0/1 loss shared by all methods.
ranking_data <- function(n = 40, methods = c("a", "b", "c"), runs = 1,
                         binary = TRUE, grid = 0.5) {
  truth <- stats::rbinom(n, 1, 0.35)
  rows <- expand.grid(
    case = seq_len(n), run = seq_len(runs), method = methods,
    stringsAsFactors = FALSE
  )
  strength <- match(rows$method, methods)
  rows$score <- round(
    (-truth[rows$case] * strength + stats::rnorm(nrow(rows))) / grid
  ) * grid
  rows$loss <- if (binary) truth[rows$case] else
    truth[rows$case] + stats::rexp(nrow(rows))
  rows
}
