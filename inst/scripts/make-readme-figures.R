# make-readme-figures.R
#
# Makes the figures of README.md (man/figures/README-*.png): runs the demo
# of the installed package (demo/aurc.R, the job behind `make demo`) into a
# temporary folder and copies three of its plots, so the README shows
# exactly what the current code draws. Run from the repository root after
# installing the package (`make install`):
#
#   Rscript inst/scripts/make-readme-figures.R      (or: make figures)
#
# The plots: risk-coverage curves of six classifiers, the significance map
# of a bootstrap ranking of four confidence scores of the neural net, and
# its reliability diagram with adaptive bins (bundled data,
# `example_predictions()`).
figures <- file.path("man", "figures")
if (!dir.exists(figures)) {
  stop("Run this script from the root of the aurc repository.")
}
out <- file.path(tempdir(), "aurc-demo")
Sys.setenv(AURC_DEMO_DIR = out)
log <- utils::capture.output(
  demo("aurc", package = "aurc", ask = FALSE, echo = FALSE)
)
for (name in c("risk-coverage", "ranking-significance",
               "reliability-adaptive")) {
  to <- file.path(figures, paste0("README-", name, ".png"))
  if (!file.copy(file.path(out, paste0(name, ".png")), to, overwrite = TRUE)) {
    stop("The demo did not write ", name, ".png")
  }
  # palette PNG (pngquant, when installed): the figures are installed with
  # the help pages, and the package must stay under 5 MB installed
  if (nzchar(Sys.which("pngquant"))) {
    system2("pngquant", c("--force", "--speed=1", "--quality=40-80",
      "--ext", ".png", shQuote(to)))
  }
  cat("Wrote", to, "\n")
}
