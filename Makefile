# Two commands do all the setup on a fresh machine (see README.md):
#   make demo   install what the package and its demo need (Debian's
#               prebuilt packages; nothing test-only), build the package
#               once (with its vignettes), install it, run the main job
#   make test   install everything the tests need besides (the CRAN-only
#               Suggests, the PostgreSQL server and its second driver), the
#               same build and install, then R CMD check --as-cran of that
#               tarball, with the whole testthat suite and the C++ core
#               tests beside them (tools/test.sh); the last line is the
#               testthat totals
# Each step prints one line; full output is in .logs/, shown on failure.
# LIB=path installs into that library instead of R's default one.
RSCRIPT ?= Rscript
PKG     := aurc
CXX     ?= g++
ifdef LIB
export LIB
export R_LIBS := $(LIB)$(if $(R_LIBS),:$(R_LIBS))
endif

.PHONY: deps deps-test build install demo test test-cpp test-r check document figures bench clean sanitize sanitize-cpp site check-site site-deps

# what the package and its demo need (make demo)
deps:
	@bash tools/install-deps.sh demo

# everything the tests and R CMD check need besides (make test, CI)
deps-test:
	@bash tools/install-deps.sh test

build: deps
	@bash tools/build.sh

install: build
	@bash tools/install.sh

# plots go to demo-output/ (ignored by git and R CMD build)
demo: install
	@AURC_DEMO_DIR=demo-output $(RSCRIPT) -e 'demo("aurc", package = "aurc", ask = FALSE, echo = FALSE)'

# builds and installs itself (tools/test.sh), so the C++ core tests can run
# beside the build
test: deps-test
	@bash tools/test.sh

# the C++ kernels in src/core are tested without R
test-cpp:
	$(CXX) -std=c++14 -O2 -fopenmp -Wall -Wextra -pedantic -Isrc tests/cpp/test_core.cpp -o tests/cpp/test_core
	./tests/cpp/test_core

# C++ core tests and the testthat suite under ASan and UBSan (gcc); the
# package goes to a private library, see tools/sanitize.sh
sanitize:
	bash tools/sanitize.sh

# the C++ core tests alone under ASan and UBSan (CI runs `make sanitize`)
sanitize-cpp:
	bash tools/sanitize.sh cpp

# developer shortcut: the testthat suite alone, against the installed package
test-r:
	NOT_CRAN=true $(RSCRIPT) tools/run-tests.R

check: deps-test install
	@bash tools/check.sh

# developer tools (need roxygen2): regenerate RcppExports, NAMESPACE, man/
document:
	$(RSCRIPT) -e 'Rcpp::compileAttributes(); roxygen2::roxygenise()'

# the figures of README.md: the demo's plots (needs the package installed)
figures:
	$(RSCRIPT) inst/scripts/make-readme-figures.R

bench: install
	for f in inst/bench/*.R; do $(RSCRIPT) "$$f" || exit 1; done

# the pkgdown site in docs/ (Debian's r-cran-pkgdown; built offline), and
# its check in headless Chromium (Debian's chromium): tools/check-site.R.
# Not part of `make test`; CI builds and checks it after the tests.
site-deps:
	@bash tools/install-site-deps.sh

site: install site-deps
	$(RSCRIPT) tools/site.R

check-site: site
	$(RSCRIPT) tools/check-site.R

clean:
	rm -rf $(PKG).Rcheck $(PKG)_*.tar.gz src/*.o src/*.so tests/cpp/test_core tests/cpp/test_core_sanitize .sanitize-lib .test-totals .logs demo-output docs
