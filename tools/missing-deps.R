# Prints the R packages that are not installed, one per line.
#
#   Rscript tools/missing-deps.R [required|optional|all]
#
# required: what the package and its demo need to build, install (with its
#   vignettes) and run: Depends, Imports, LinkingTo, and the vignette
#   builders (knitr, rmarkdown).
# optional: the rest of Suggests and tools/extra-packages.txt (tests,
#   sections of the vignettes that are skipped without them, the data
#   scripts).
# all (default): both.
# Base packages are skipped.
what <- commandArgs(trailingOnly = TRUE)
what <- if (length(what)) what[[1]] else "all"
read_field <- function(fields) {
  desc <- read.dcf("DESCRIPTION", fields = fields)
  pkgs <- unlist(strsplit(desc[!is.na(desc)], ","))
  pkgs <- trimws(sub("\\(.*\\)", "", pkgs))
  pkgs[nzchar(pkgs)]
}
base <- rownames(installed.packages(priority = "base"))
required <- union(
  read_field(c("Depends", "Imports", "LinkingTo", "VignetteBuilder")),
  "rmarkdown"
)
# packages the demo or the data script use beyond DESCRIPTION, one a line
extra <- trimws(readLines("tools/extra-packages.txt"))
optional <- setdiff(
  union(read_field("Suggests"), extra[nzchar(extra) & !startsWith(extra, "#")]),
  required
)
pkgs <- switch(what,
  required = required,
  optional = optional,
  all = union(required, optional),
  stop("usage: Rscript tools/missing-deps.R [required|optional|all]")
)
pkgs <- setdiff(pkgs, c("R", base))
have <- rownames(installed.packages())
cat(setdiff(pkgs, have), sep = "\n")
