#!/usr/bin/env bash
# R CMD check --as-cran of the tarball that tools/build.sh made and
# tools/install.sh installed: the package is not compiled again
# (--install=check:LOG --library=LIB, as CRAN's own check farm does), and the
# install log is still searched for compiler warnings. The check runs the
# examples and the whole testthat suite (NOT_CRAN=true, so snapshot tests
# run too); the vignettes were run by the build. Its totals are written to
# .test-totals as "N passed, N failed[, N skipped]".
#
# With AURC_CHECK_TESTS=false the check leaves the testthat suite out
# (--no-tests): `make test` runs the suite itself, beside the build and the
# check's one-core steps (tools/test.sh, tools/suite.sh).
#
# Fails on any ERROR, WARNING or NOTE. Settings that keep --as-cran from
# asking the network, which this project's machines do not have (each would
# otherwise be a NOTE that says so):
# - _R_CHECK_CRAN_INCOMING_=false: the CRAN incoming feasibility check looks
#   up the CRAN package database and the package's URLs online.
# The one NOTE that cannot be avoided here, and is allowed:
# - "checking for future file timestamps ... NOTE / unable to verify current
#   time": --as-cran always turns this check on, and it asks a time server.
# --no-manual: the PDF manual needs a LaTeX installation, which is not part of
# the machine; the Rd files are still checked, and the HTML manual is
# validated with tidy.
set -uo pipefail
cd "$(dirname "$0")/.."
. tools/step.sh
version=$(sed -n 's/^Version: //p' DESCRIPTION)
tarball="aurc_${version}.tar.gz"
install_log="$AURC_LOG_DIR/install.log"
if [ ! -f "$tarball" ] || [ ! -f "$install_log" ]; then
  echo "check: no $tarball or $install_log; run make install first" >&2
  exit 1
fi
# the library tools/install.sh installed into
lib=${LIB:-$(Rscript -e 'cat(.libPaths()[1])')}
run_tests=${AURC_CHECK_TESTS:-true}
test_args=()
what="examples, tests"
if [ "$run_tests" = "false" ]; then
  test_args=(--no-tests)
  what="examples; the suite runs beside it"
else
  rm -f .test-totals
fi
rm -rf aurc.Rcheck
status=0
# --no-vignettes: `R CMD build` (tools/build.sh) has just run every
# vignette's code, from the same sources, to knit the tarball's vignettes
# (an error there fails the build); running that code a second time here
# ("running R code from vignettes", "re-building of vignette outputs")
# would only double about 90 s. The vignette files themselves are still
# checked. The testthat suite runs on two processes
# (Config/testthat/parallel in DESCRIPTION).
step "R CMD check --as-cran ($what)" check.log \
  env NOT_CRAN=true _R_CHECK_CRAN_INCOMING_=false \
  R CMD check --as-cran --no-manual --no-vignettes "${test_args[@]}" \
  --install="check:$install_log" --library="$lib" "$tarball" || status=$?

# testthat totals from the check's test output (.Rout.fail when it failed)
out=$(ls aurc.Rcheck/tests/testthat.Rout aurc.Rcheck/tests/testthat.Rout.fail \
  2>/dev/null | head -n 1)
summary=""
if [ -n "$out" ] && [ "$run_tests" != "false" ]; then
  summary=$(grep -E '^\[ FAIL [0-9]+ \| WARN [0-9]+ \| SKIP [0-9]+ \| PASS [0-9]+ \]' \
    "$out" | tail -n 1)
fi
if [ -n "$summary" ]; then
  echo "$summary" | awk '{
    line = $12 " passed, " $3 " failed"
    if ($9 > 0) line = line ", " $9 " skipped"
    print line
  }' >.test-totals
fi

log=aurc.Rcheck/00check.log
if [ ! -f "$log" ]; then
  echo "check: no check log" >&2
  exit 1
fi
# every ERROR, WARNING or NOTE with the line after it, less the allowed one
problems=$(grep -E -A1 "^\* .*(ERROR|WARNING|NOTE)$" "$log" |
  grep -v -E "^--$" | paste - - |
  grep -v -F "checking for future file timestamps ... NOTE	unable to verify current time" || true)
if [ -n "$problems" ] || [ "$status" -ne 0 ]; then
  echo "check: R CMD check reported problems:" >&2
  grep -E -A12 "(ERROR|WARNING|NOTE)$" "$log" >&2 || true
  if [ -n "$out" ] && [ "${out%.fail}" != "$out" ]; then
    echo "check: end of the test output ($out):" >&2
    tail -n 40 "$out" >&2
  fi
  exit 1
fi
echo "check: no errors, no warnings, no notes (but the time-server NOTE,"
echo "check: which needs the network)"
