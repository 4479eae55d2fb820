# Two commands do all the setup on a fresh machine (see README.md):
#   make demo   install what is missing and the package, run the main job
#   make test   install, run the C++ core tests, the testthat suite, then
#               R CMD check --as-cran; the last line is the testthat totals
RSCRIPT ?= Rscript
PKG     := aurc
VERSION := $(shell sed -n 's/^Version: //p' DESCRIPTION)
TARBALL := $(PKG)_$(VERSION).tar.gz
CXX     ?= g++

.PHONY: deps install demo test test-cpp test-r check document bench clean sanitize

deps:
	bash tools/install-deps.sh

install: deps
	R CMD INSTALL --preclean --no-multiarch .

demo: install
	$(RSCRIPT) -e 'demo("aurc", package = "aurc", ask = FALSE, echo = FALSE)'

test: install
	bash tools/test.sh

# the C++ kernels in src/core are tested without R
test-cpp:
	$(CXX) -std=c++14 -O2 -fopenmp -Wall -Wextra -pedantic -Isrc tests/cpp/test_core.cpp -o tests/cpp/test_core
	./tests/cpp/test_core

# C++ core tests and the testthat suite under ASan and UBSan (gcc); the
# package goes to a private library, see tools/sanitize.sh
sanitize:
	bash tools/sanitize.sh

test-r:
	NOT_CRAN=true $(RSCRIPT) tools/run-tests.R

check:
	bash tools/check.sh

# developer tools (need roxygen2): regenerate RcppExports, NAMESPACE, man/
document:
	$(RSCRIPT) -e 'Rcpp::compileAttributes(); roxygen2::roxygenise()'

bench: install
	for f in inst/bench/*.R; do $(RSCRIPT) "$$f" || exit 1; done

clean:
	rm -rf $(PKG).Rcheck $(PKG)_*.tar.gz src/*.o src/*.so tests/cpp/test_core tests/cpp/test_core_sanitize .sanitize-lib .test-totals
