# Builds the pkgdown site into docs/ from the installed package (make site),
# offline: pkgdown's CRAN and Bioconductor links are skipped
# (pkgdown.internet), and packages the sources name but this machine does
# not have (sparklyr, duckdb, ...) get an empty entry in downlit's cache, so
# code that mentions them is not linked instead of a CRAN look-up.
options(pkgdown.internet = FALSE)
# (downlit keeps its cache under RMARKDOWN_PREVIEW_DIR when set: the
# articles are rendered in child processes, which inherit it)
preview <- tempfile("aurc-site-")
dir.create(preview)
Sys.setenv(RMARKDOWN_PREVIEW_DIR = preview)
cache <- file.path(preview, "downlit")
dir.create(cache, showWarnings = FALSE)
sources <- c(
  list.files("vignettes", "[.]Rmd$", full.names = TRUE),
  list.files("man", "[.]Rd$", full.names = TRUE), "README.md", "NEWS.md"
)
text <- unlist(lapply(sources, readLines, warn = FALSE))
named <- c(
  unlist(regmatches(text, gregexpr("(?<=library\\()[A-Za-z][A-Za-z0-9.]*",
    text, perl = TRUE))),
  unlist(regmatches(text, gregexpr("[A-Za-z][A-Za-z0-9.]*(?=::)", text,
    perl = TRUE)))
)
absent <- unique(named[!vapply(unique(named), function(p) {
  nzchar(system.file(package = p))
}, logical(1))[match(named, unique(named))]])
for (p in absent) saveRDS(NULL, file.path(cache, p))
pkgdown::build_site(".", preview = FALSE, install = FALSE, new_process = FALSE)
