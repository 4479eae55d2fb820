#!/usr/bin/env bash
# The whole testthat suite, once, on a package installed from a tarball of
# the sources built without the vignettes, so that `make test` can run the
# suite while R CMD build knits the vignettes (tools/test.sh). Both tarballs
# come from the same sources through the same .Rbuildignore; tools/test.sh
# checks that they hold the same files (but the vignettes' outputs).
#
#   bash tools/suite.sh prepare   build that tarball into .logs/suite/ and
#                                 install it into .logs/suite/lib
#   bash tools/suite.sh run       run its test files against that library
#   bash tools/suite.sh           both
#
# The suite runs on two processes (Config/testthat/parallel). Totals go to
# .test-totals as "N passed, N failed[, N skipped]"; the output to
# .logs/tests.log, shown when a test fails. Slow tests run only with
# AURC_SLOW_TESTS=true.
set -uo pipefail
cd "$(dirname "$0")/.."
. tools/step.sh
AURC_LOG_DIR=$(cd "$AURC_LOG_DIR" && pwd)
dir="$AURC_LOG_DIR/suite"
what=${1:-all}

prepare() {
  rm -rf "$dir"
  mkdir -p "$dir/lib"
  local root=$PWD
  (
    cd "$dir" &&
      step "building a tarball without vignettes for the test suite" \
        suite-build.log R CMD build --no-build-vignettes --no-manual "$root"
  ) || return 1
  (
    . tools/compiler-settings.sh
    step "installing it for the test suite (compiles the C++)" \
      suite-install.log \
      R CMD INSTALL --no-multiarch -l "$dir/lib" "$dir"/aurc_*.tar.gz
  ) || return 1
  tar -xzf "$dir"/aurc_*.tar.gz -C "$dir" aurc/tests aurc/DESCRIPTION
}

run() {
  if [ ! -d "$dir/lib/aurc" ] || [ ! -d "$dir/aurc/tests/testthat" ]; then
    echo "suite: nothing installed in $dir; run tools/suite.sh prepare" >&2
    return 1
  fi
  rm -f .test-totals
  step "testthat suite (two processes)" tests.log \
    env NOT_CRAN=true R_LIBS="$dir/lib${R_LIBS:+:$R_LIBS}" \
    Rscript tools/run-tests.R "$dir/aurc/tests/testthat"
}

case "$what" in
  prepare) prepare ;;
  run) run ;;
  all) prepare && run ;;
  *)
    echo "usage: tools/suite.sh [prepare|run]" >&2
    exit 2
    ;;
esac
