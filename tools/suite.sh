#!/usr/bin/env bash
# The whole testthat suite, once, against the package that tools/install.sh
# installed from the tarball: the test files are those of the tarball
# (unpacked into a temporary folder), so this is the suite R CMD check would
# run, on the same installation. `make test` runs it beside the R CMD check
# steps that use one core (tools/test.sh). Totals go to .test-totals as
# "N passed, N failed[, N skipped]"; the output to .logs/tests.log, shown
# when a test fails. Slow tests run only with AURC_SLOW_TESTS=true.
set -uo pipefail
cd "$(dirname "$0")/.."
. tools/step.sh
version=$(sed -n 's/^Version: //p' DESCRIPTION)
tarball="aurc_${version}.tar.gz"
if [ ! -f "$tarball" ]; then
  echo "suite: no $tarball; run make install first" >&2
  exit 1
fi
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
tar -xzf "$tarball" -C "$src" aurc/tests aurc/DESCRIPTION
rm -f .test-totals
step "testthat suite (two processes)" tests.log \
  env NOT_CRAN=true Rscript tools/run-tests.R "$src/aurc/tests/testthat"
