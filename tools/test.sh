#!/usr/bin/env bash
# `make test`: builds the tarball once (tools/build.sh) and installs it
# (tools/install.sh); then R CMD check --as-cran of that tarball
# (tools/check.sh, without its test step) and the whole testthat suite, once,
# against the same installation (tools/suite.sh, two processes) run side by
# side: most of the check's steps use one core, so the suite takes the other.
# The C++ core tests (tests/cpp) are compiled and run in the background from
# the start: while R CMD build knits the vignettes it uses one core, and the
# second is free. Every stage runs even if another failed (check and suite
# only when there is an installed tarball); the last line printed is the
# testthat totals ("N passed, N failed[, N skipped]"). Slow tests run only
# with AURC_SLOW_TESTS=true (see tests/testthat/helper-skip.R).
set -u
cd "$(dirname "$0")/.."
. tools/step.sh
status=0
start=$(date +%s)
rm -f .test-totals
make --no-print-directory test-cpp >"$AURC_LOG_DIR/test-cpp.log" 2>&1 &
cpp_pid=$!
if bash tools/build.sh && bash tools/install.sh; then
  # the check's report is held back until the suite has printed its line
  AURC_CHECK_TESTS=false bash tools/check.sh >"$AURC_LOG_DIR/check.out" 2>&1 &
  check_pid=$!
  bash tools/suite.sh || status=1
  wait "$check_pid" || status=1
  cat "$AURC_LOG_DIR/check.out"
else
  status=1
fi
printf 'aurc: C++ core tests (tests/cpp) ... '
if wait "$cpp_pid"; then
  tail -n 1 "$AURC_LOG_DIR/test-cpp.log"
else
  status=1
  printf 'FAILED; last lines of %s:\n' "$AURC_LOG_DIR/test-cpp.log"
  tail -n 30 "$AURC_LOG_DIR/test-cpp.log" | sed 's/^/  | /'
fi
echo "aurc: build, install, tests and check took $(($(date +%s) - start)) s"
if [ -f .test-totals ]; then
  cat .test-totals
else
  echo "0 passed, 1 failed"
  status=1
fi
exit $status
