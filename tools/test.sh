#!/usr/bin/env bash
# `make test`, after `make install` built the tarball once and installed it:
# the C++ core tests (compiled and run in the background, on the second
# core, while the check runs), then R CMD check --as-cran of that tarball,
# which runs the whole testthat suite once. Every stage runs even if another
# failed; the last line printed is the testthat totals
# ("N passed, N failed[, N skipped]"). Slow tests run only with
# AURC_SLOW_TESTS=true (see tests/testthat/helper-skip.R).
set -u
cd "$(dirname "$0")/.."
. tools/step.sh
status=0
start=$(date +%s)
make --no-print-directory test-cpp >"$AURC_LOG_DIR/test-cpp.log" 2>&1 &
cpp_pid=$!
bash tools/check.sh || status=1
printf 'aurc: C++ core tests (tests/cpp) ... '
if wait "$cpp_pid"; then
  tail -n 1 "$AURC_LOG_DIR/test-cpp.log"
else
  status=1
  printf 'FAILED; last lines of %s:\n' "$AURC_LOG_DIR/test-cpp.log"
  tail -n 30 "$AURC_LOG_DIR/test-cpp.log" | sed 's/^/  | /'
fi
echo "aurc: tests and check took $(($(date +%s) - start)) s"
if [ -f .test-totals ]; then
  cat .test-totals
else
  echo "0 passed, 1 failed"
  status=1
fi
exit $status
