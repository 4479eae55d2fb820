# The main job behind `make demo`: an end-to-end analysis of real model
# outputs. Prints its tables and writes its plots (PNG) into the folder named
# by the environment variable AURC_DEMO_DIR (default: "aurc-demo" in the
# working directory).
#
# Data: the Pima Indians diabetes data of the MASS package (a real public
# dataset: MASS::Pima.tr for training, MASS::Pima.te as the held-out test
# set). Model: logistic regression. Confidence score: the predicted
# probability of the predicted class; loss: 0/1 error.
library(aurc)
library(ggplot2)

out_dir <- Sys.getenv("AURC_DEMO_DIR", "aurc-demo")
dir.create(out_dir, showWarnings = FALSE, recursive = TRUE)

fit <- stats::glm(type ~ ., family = stats::binomial, data = MASS::Pima.tr)
p_yes <- stats::predict(fit, newdata = MASS::Pima.te, type = "response")
test <- data.frame(
  confidence = pmax(p_yes, 1 - p_yes),
  error = as.numeric((p_yes > 0.5) != (MASS::Pima.te$type == "Yes"))
)
cat(sprintf(
  "Logistic regression on the Pima test set: %d cases, accuracy %.3f\n\n",
  nrow(test), 1 - mean(test$error)
))

estimators <- c("alpha", "alpha_prime", "sele", "2sele", "trapezoid")
table <- do.call(rbind, lapply(estimators, function(e) {
  aurc(test, confidence, error, estimator = e)
}))
cat("AURC of the confidence score under each estimator:\n")
print(table)

# How each estimator weights a sample by the rank of its confidence
weights <- do.call(rbind, lapply(setdiff(estimators, "trapezoid"), function(e) {
  data.frame(
    rank = rank(test$confidence, ties.method = "max") / nrow(test),
    weight = aurc_weights(test$confidence, e),
    estimator = e
  )
}))
plot <- ggplot(weights, aes(rank, weight, colour = estimator)) +
  geom_step(direction = "hv") +
  labs(
    x = "Rank of the confidence score (fraction of samples at or below it)",
    y = "Weight of the sample's loss in the AURC",
    colour = "Estimator",
    title = "AURC estimators as rank-weighted risks",
    subtitle = "Logistic regression, Pima Indians diabetes test set"
  ) +
  theme_minimal(base_size = 12) +
  theme(legend.position = "bottom")
path <- file.path(out_dir, "aurc-weights.png")
ggsave(path, plot, width = 7, height = 5, dpi = 110, bg = "white")
cat("\nWrote", path, "\n")
