test_that("significance map: cell (i, j) filled where i beats j", {
  set.seed(201)
  d <- ranking_data(n = 40, methods = c("a", "b", "c", "d"))
  set.seed(1)
  rk <- bootstrap_ranking(d, method, case, score, loss, times = 40)
  p <- autoplot(rk, effect = FALSE)
  expect_s3_class(p, "ggplot")
  b <- ggplot2::ggplot_build(p)
  tiles <- b$data[[1]]
  expect_identical(nrow(tiles), nrow(rk$tests))
  # panel 1 is "aurc": axis labels in ranking order, best first on x and
  # at the top of y
  order_aurc <- rk$ranking$method[rk$ranking$metric == "aurc"]
  x_labels <- as.character(b$layout$panel_params[[1]]$x$get_labels())
  y_labels <- as.character(b$layout$panel_params[[1]]$y$get_labels())
  expect_identical(x_labels, order_aurc)
  expect_identical(y_labels, rev(order_aurc))
  t1 <- rk$tests[rk$tests$metric == "aurc", ]
  cells <- tiles[tiles$PANEL == 1, ]
  # x position of method i, y position of versus j (y reversed)
  xi <- match(t1$method, order_aurc)
  yj <- length(order_aurc) + 1 - match(t1$versus, order_aurc)
  hit <- match(paste(xi, yj), paste(cells$x, cells$y))
  expect_false(anyNA(hit))
  filled <- cells$fill[hit] == "#1f4e79"
  expect_identical(filled, t1$significant)
  # crosses exactly on the cells that are not significant
  expect_identical(nrow(b$data[[2]]), sum(!rk$tests$significant))
  ggplot2::ggsave(withr::local_tempfile(fileext = ".png"), p,
    width = 6, height = 4, bg = "white"
  )
})

test_that("blob plot: point size is the share of replicates at each rank", {
  set.seed(202)
  d <- ranking_data(n = 40, methods = c("a", "b", "c"))
  set.seed(2)
  rk <- bootstrap_ranking(d, method, case, score, loss,
    metrics = "augrc",
    times = 30
  )
  p <- autoplot(rk, type = "blob")
  b <- ggplot2::ggplot_build(p)
  pts <- b$data[[1]]
  freq <- rk$rank_frequencies[rk$rank_frequencies$n > 0, ]
  expect_identical(nrow(pts), nrow(freq))
  # y is reversed: rank r drawn at -r
  expect_setequal(paste(pts$x, -pts$y), paste(
    match(freq$method, rk$ranking$method), freq$rank
  ))
  means <- b$data[[2]]
  expect_equal(-means$y, rk$ranking$mean_rank)
  x_labels <- as.character(b$layout$panel_params[[1]]$x$get_labels())
  expect_identical(x_labels, rk$ranking$method)
})

test_that("bump chart: two metrics, changed ranks highlighted, by group", {
  v <- cbind(a = c(1, 2, 1), b = c(2, 1, 2), c = c(3, 3, 3))
  long <- rbind(
    data.frame(
      replicate = rep(1:3, 3), method = rep(colnames(v), each = 3),
      value = as.vector(v), metric = "m1"
    ),
    data.frame(
      replicate = rep(1:3, 3), method = rep(colnames(v), each = 3),
      value = as.vector(v[, c(2, 1, 3)]), metric = "m2"
    )
  )
  rk <- rank_replicates(long)
  p <- autoplot(rk, type = "bump")
  b <- ggplot2::ggplot_build(p)
  lines <- b$data[[1]]
  # a and b swap ranks between m1 and m2; c stays third
  changed <- unique(lines$colour[lines$group != 3])
  expect_identical(changed, "#c0392b")
  expect_identical(unique(lines$colour[-lines$y == 3]), "grey55")
  expect_identical(sort(unique(b$data[[3]]$label)), c("a", "b", "c"))
  grouped <- rbind(cbind(long, group = "g1"), cbind(long, group = "g2"))
  pg <- autoplot(rank_replicates(grouped), type = "bump")
  expect_identical(
    nlevels(ggplot2::ggplot_build(pg)$layout$layout$PANEL), 2L
  )
})

test_that("plot arguments are checked", {
  rk <- rank_replicates(cbind(a = c(1, 2), b = c(2, 3)), metric = "aurc")
  expect_snapshot(error = TRUE, autoplot(rk, type = "bump"))
  expect_snapshot(error = TRUE, autoplot(rk, type = "pie"))
  expect_snapshot(error = TRUE, autoplot(rk, metrics = "augrc"))
})

test_that("titles and axis labels are short enough not to be clipped", {
  # at 7 x 4 inches the former one-line subtitle of the significance map and
  # the 46-character y label of the bump chart were cut off
  v <- cbind(a = c(1, 2, 1), b = c(2, 1, 2), c = c(3, 3, 3))
  long <- rbind(
    data.frame(replicate = rep(1:3, 3), method = rep(colnames(v), each = 3),
               value = as.vector(v), metric = "aurc"),
    data.frame(replicate = rep(1:3, 3), method = rep(colnames(v), each = 3),
               value = as.vector(v), metric = "augrc")
  )
  rk <- rank_replicates(long)
  for (type in c("significance", "blob", "bump")) {
    labs <- autoplot(rk, type = type)$labels
    text_lines <- unlist(strsplit(
      unlist(labs[c("title", "subtitle", "x")]), "\n", fixed = TRUE
    ))
    expect_true(all(nchar(text_lines) <= 70), label = type)
    expect_true(nchar(labs$y) <= 30, label = type)
  }
})

test_that("adjust_p_values(): 'none' keeps the raw signed-rank p-values", {
  set.seed(211)
  v <- cbind(a = rnorm(30, 0.100, 0.01), b = rnorm(30, 0.104, 0.01),
             c = rnorm(30, 0.108, 0.01), d = rnorm(30, 0.109, 0.01))
  rk <- rank_replicates(v, metric = "m")
  none <- adjust_p_values(rk, p_adjust = "none", alpha = 0.1)
  # 30 differences without ties: the exact test of stats::wilcox.test
  ref <- mapply(function(i, j) {
    stats::wilcox.test(v[, i], v[, j], paired = TRUE, alternative = "less",
                       correct = FALSE)$p.value
  }, none$tests$method, none$tests$versus)
  expect_equal(none$tests$p_adjusted, unname(ref), tolerance = 1e-10)
  expect_identical(none$tests$p_value, rk$tests$p_value)
  expect_identical(none$tests$significant, unname(ref) <= 0.1)
  expect_identical(none$settings$p_adjust, "none")
  expect_identical(none$settings$alpha, 0.1)
  # back to Holm: the ranking as it was made
  expect_equal(adjust_p_values(none), rk)
})

test_that("adjust_p_values(): one family per metric and group", {
  set.seed(212)
  long <- expand.grid(replicate = 1:25, method = c("a", "b", "c"),
                      metric = c("m1", "m2"), group = c("g1", "g2"),
                      stringsAsFactors = FALSE)
  long$value <- rnorm(nrow(long), 0.1 + 0.003 * match(long$method, letters))
  rk <- rank_replicates(long)
  for (adj in c("holm", "BH", "bonferroni", "hommel")) {
    out <- adjust_p_values(rk, p_adjust = adj)
    for (g in c("g1", "g2")) for (m in c("m1", "m2")) {
      t <- out$tests[out$tests$group == g & out$tests$metric == m, ]
      expect_identical(nrow(t), 6L)
      expect_equal(t$p_adjusted, stats::p.adjust(t$p_value, adj),
                   tolerance = 1e-12)
      expect_identical(t$significant, t$p_adjusted <= 0.05)
    }
  }
})

test_that("significance map: p_adjust and alpha redraw the cells", {
  set.seed(213)
  v <- cbind(a = rnorm(40, 0.100, 0.01), b = rnorm(40, 0.103, 0.01),
             c = rnorm(40, 0.105, 0.01), d = rnorm(40, 0.106, 0.01))
  rk <- rank_replicates(v, metric = "m")
  # the cells left uncrossed (the crosses are the last layer)
  filled <- function(p) {
    b <- ggplot2::ggplot_build(p)
    nrow(b$data[[1]]) - nrow(b$data[[length(b$data)]])
  }
  raw <- rk$tests$p_value
  expect_identical(filled(autoplot(rk)), sum(rk$tests$significant))
  expect_identical(filled(autoplot(rk, p_adjust = "none")), sum(raw <= 0.05))
  expect_identical(filled(autoplot(rk, p_adjust = "none", alpha = 0.01)),
                   sum(raw <= 0.01))
  holm_01 <- stats::p.adjust(raw, "holm") <= 0.01
  expect_identical(filled(autoplot(rk, alpha = 0.01)), sum(holm_01))
  p <- autoplot(rk, p_adjust = "none")
  expect_match(p$labels$subtitle, "no correction, alpha = 0.05", fixed = TRUE)
  ggplot2::ggsave(withr::local_tempfile(fileext = ".png"), p,
    width = 6, height = 4, bg = "white"
  )
})

test_that("adjust_p_values() and the map's options: bad input", {
  rk <- rank_replicates(cbind(a = c(1, 2, 3), b = c(2, 3, 5)), metric = "m")
  expect_snapshot(error = TRUE, adjust_p_values(data.frame(x = 1)))
  expect_snapshot(error = TRUE, adjust_p_values(rk, p_adjust = "sidak"))
  expect_snapshot(error = TRUE, adjust_p_values(rk, alpha = 2))
  expect_snapshot(error = TRUE, autoplot(rk, p_adjust = "sidak"))
  expect_snapshot(p <- autoplot(rk, type = "blob", alpha = 0.1))
})

test_that("a metric_with() name puts its options on a line of its own in a strip", {
  tab <- data.frame(metric = c("aurc", "partial_aurc[coverage=0-0.5]"),
    group = "g")
  expect_identical(ranking_panel(tab, list()),
    c("aurc", "partial_aurc\n[coverage=0-0.5]"))
  expect_identical(ranking_panel(tab, list(grouped = TRUE)),
    c("g: aurc", "g: partial_aurc\n[coverage=0-0.5]"))
})

# Issue 34: the map shows how often i beats j, not only whether
# significantly.
test_that("significance map: colour is the share of replicates i beats j", {
  set.seed(341)
  d <- ranking_data(n = 60, methods = c("a", "b", "c", "d"))
  set.seed(2)
  rk <- bootstrap_ranking(d, method, case, score, loss,
    metrics = c("aurc", "failure_auroc"), times = 50
  )
  p <- autoplot(rk)
  b <- ggplot2::ggplot_build(p)
  # layers: tiles, the crosses' white halo, the crosses
  expect_identical(
    vapply(p$layers, function(l) class(l$geom)[1], character(1)),
    c("GeomTile", "GeomPoint", "GeomPoint")
  )
  expect_identical(nrow(b$data[[3]]), sum(!rk$tests$significant))
  expect_identical(nrow(b$data[[2]]), nrow(b$data[[3]]))
  # the share by hand: a better value counts 1, a tie 1/2; failure_auroc
  # is better when higher
  reps <- rk$replicates
  by_hand <- mapply(function(m, i, j) {
    vi <- reps$value[reps$metric == m & reps$method == i]
    vj <- reps$value[reps$metric == m & reps$method == j]
    if (m == "failure_auroc") {
      vi <- -vi
      vj <- -vj
    }
    mean(vi < vj) + mean(vi == vj) / 2
  }, rk$tests$metric, rk$tests$method, rk$tests$versus)
  expect_equal(p$data$wins, unname(by_hand))
  # each pair's two cells add up to 1
  back <- match(
    paste(rk$tests$metric, rk$tests$versus, rk$tests$method),
    paste(rk$tests$metric, rk$tests$method, rk$tests$versus)
  )
  expect_equal(p$data$wins + p$data$wins[back], rep(1, nrow(rk$tests)))
  # a stable best method: its cells against all others are mostly blue
  best <- rk$ranking$method[rk$ranking$metric == "aurc"][1]
  expect_true(all(p$data$wins[rk$tests$metric == "aurc" &
    rk$tests$method == best] > 0.5))
  # one diverging scale from 0% to 100% for every panel
  fill <- b$plot$scales$get_scales("fill")
  expect_equal(fill$get_limits(), c(0, 1))
  expect_identical(fill$get_labels(), c("0%", "25%", "50%", "75%", "100%"))
  expect_identical(fill$name, "x beats y in")
  # the cross has a legend key
  shape <- b$plot$scales$get_scales("shape")
  expect_identical(shape$get_labels(), "not significantly better")
  # best first in each panel, as the map without the effect
  for (k in 1:2) {
    m <- c("aurc", "failure_auroc")[k]
    order_m <- rk$ranking$method[rk$ranking$metric == m]
    expect_identical(
      as.character(b$layout$panel_params[[k]]$x$get_labels()), order_m
    )
    expect_identical(
      as.character(b$layout$panel_params[[k]]$y$get_labels()), rev(order_m)
    )
  }
  expect_match(p$labels$subtitle, "share of the 50 replicates", fixed = TRUE)
  expect_match(p$labels$subtitle, "Holm correction, alpha = 0.05",
    fixed = TRUE
  )
})

test_that("significance map: grouped rankings, missing values, no replicates", {
  set.seed(342)
  long <- expand.grid(replicate = 1:20, method = c("a", "b", "c"),
    group = c("g1", "g2"), stringsAsFactors = FALSE
  )
  long$value <- round(stats::rnorm(nrow(long),
    0.1 + 0.01 * match(long$method, letters)
  ), 2)
  # a missing replicate value is left out of its pairs
  long$value[long$group == "g2" & long$method == "a" & long$replicate == 1] <-
    NA
  rk <- suppressWarnings(rank_replicates(long, metric = "m"))
  p <- autoplot(rk)
  for (k in seq_len(nrow(rk$tests))) {
    t <- rk$tests[k, ]
    in_g <- long$group == t$group
    vi <- long$value[in_g & long$method == t$method]
    vj <- long$value[in_g & long$method == t$versus]
    ok <- !is.na(vi - vj)
    expect_equal(p$data$wins[k],
      mean(vi[ok] < vj[ok]) + mean(vi[ok] == vj[ok]) / 2
    )
  }
  expect_identical(nlevels(p$data$panel), 2L)
  # without replicate values: which is better on the full data
  full <- data.frame(
    method = rep(c("a", "b", "c"), 2), group = rep(c("g1", "g2"), each = 3),
    value = c(0.1, 0.2, 0.2, 0.3, 0.2, 0.1)
  )
  rk2 <- suppressWarnings(rank_replicates(long, metric = "m",
    full_values = full
  ))
  rk2$replicates <- NULL
  p2 <- autoplot(rk2)
  t2 <- rk2$tests
  fv <- full$value[match(paste(t2$group, t2$method),
    paste(full$group, full$method))]
  fw <- full$value[match(paste(t2$group, t2$versus),
    paste(full$group, full$method))]
  expect_equal(p2$data$wins, ifelse(fv < fw, 1, ifelse(fv == fw, 0.5, 0)))
  expect_match(p2$labels$subtitle, "better on the full data")
  fill <- ggplot2::ggplot_build(p2)$plot$scales$get_scales("fill")
  expect_identical(fill$get_labels(), c("worse", "tie", "better"))
})

test_that("`effect` is checked, and ignored with a warning off the map", {
  rk <- rank_replicates(cbind(a = c(1, 2, 3), b = c(2, 3, 5)), metric = "m")
  expect_snapshot(error = TRUE, autoplot(rk, effect = "yes"))
  expect_snapshot(p <- autoplot(rk, type = "blob", effect = FALSE))
  expect_s3_class(p, "ggplot")
  classic <- ggplot2::ggplot_build(autoplot(rk, effect = FALSE))
  expect_identical(classic$plot$scales$get_scales("fill")$get_limits(),
    c("significant", "not significant")
  )
})
