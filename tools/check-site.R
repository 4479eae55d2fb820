# Checks the pkgdown site in docs/ (make check-site), as a reader would see
# it: headless Chromium (Debian's chromium) loads the home page, the
# reference index and one article, and the checks are on what it rendered
# (the DOM after its scripts ran): the headings, the reference sections of
# _pkgdown.yml, the figures. Every image of every page must be a file of
# the site (no broken images), and every reference page linked from the
# index must exist. Prints one line per check; exits 1 on a failure.
chromium <- Sys.which(c("chromium", "chromium-browser", "google-chrome"))
chromium <- chromium[nzchar(chromium)][1]
if (is.na(chromium)) {
  cat("check-site: no Chromium (install Debian's chromium)\n")
  quit(status = 1)
}
site <- normalizePath("docs", mustWork = TRUE)
failures <- 0
check <- function(ok, what) {
  cat(sprintf("check-site: %s %s\n", if (ok) "ok  " else "FAIL", what))
  if (!ok) failures <<- failures + 1
}

# the DOM of a page as Chromium renders it
render <- function(page) {
  out <- system2(chromium, c(
    "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=5000",
    "--dump-dom", shQuote(paste0("file://", file.path(site, page)))
  ), stdout = TRUE, stderr = FALSE)
  xml2::read_html(paste(out, collapse = "\n"))
}
text_of <- function(doc, xpath) xml2::xml_text(xml2::xml_find_all(doc, xpath))
# relative links of a page (src or href), resolved to files of the site
targets <- function(doc, page, xpath, attr) {
  v <- xml2::xml_attr(xml2::xml_find_all(doc, xpath), attr)
  v <- v[!is.na(v) & !grepl("^(https?:|mailto:|#|data:)", v)]
  v <- sub("#.*$", "", v)
  v <- v[nzchar(v)]
  normalizePath(file.path(site, dirname(page), v), mustWork = FALSE)
}

home <- render("index.html")
check(any(grepl("^aurc", text_of(home, "//h1"))), "home page: heading 'aurc'")
check(
  any(grepl("Compared with the tools you know", text_of(home, "//h2"))),
  "home page: the comparison table"
)
imgs <- targets(home, "index.html", "//img", "src")
check(length(imgs) >= 3 && all(file.exists(imgs)),
  sprintf("home page: %d figures, all present", length(imgs))
)

ref <- render("reference/index.html")
sections <- vapply(yaml::read_yaml("_pkgdown.yml")$reference, `[[`,
  character(1), "title")
shown <- text_of(ref, "//h2")
check(all(sections %in% shown),
  sprintf("reference index: the %d sections of _pkgdown.yml", length(sections))
)
pages <- unique(targets(ref, "reference/index.html",
  "//main//a[contains(@href, '.html')]", "href"))
pages <- pages[startsWith(pages, file.path(site, "reference"))]
check(length(pages) >= 40 && all(file.exists(pages)),
  sprintf("reference index: %d reference pages linked, all reachable",
    length(pages))
)

art <- render("articles/aurc.html")
check(any(grepl("aurc", text_of(art, "//h1"), ignore.case = TRUE)),
  "article 'aurc': its title"
)
aimgs <- targets(art, "articles/aurc.html", "//img", "src")
check(length(aimgs) >= 1 && all(file.exists(aimgs)),
  sprintf("article 'aurc': %d figures, all present", length(aimgs))
)

# every image of every page of the site is a file of the site
html <- list.files(site, "[.]html$", recursive = TRUE)
missing <- character()
n_img <- 0
for (page in html) {
  doc <- xml2::read_html(file.path(site, page))
  src <- targets(doc, page, "//img", "src")
  n_img <- n_img + length(src)
  gone <- src[!file.exists(src)]
  if (length(gone)) missing <- c(missing, paste(page, gone))
}
check(length(missing) == 0, sprintf(
  "%d pages, %d images, %d missing%s", length(html), n_img,
  length(missing), if (length(missing)) paste0(": ", missing[1]) else ""
))
if (failures > 0) quit(status = 1)
