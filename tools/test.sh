#!/usr/bin/env bash
# `make test`: the C++ core tests, the testthat suite, then R CMD check
# --as-cran. Every stage runs even if an earlier one failed; the last line
# printed is the testthat totals ("N passed, N failed[, N skipped]").
set -u
cd "$(dirname "$0")/.."
status=0
make --no-print-directory test-cpp || status=1
make --no-print-directory test-r || status=1
make --no-print-directory check || status=1
if [ -f .test-totals ]; then
  cat .test-totals
else
  echo "0 passed, 1 failed"
  status=1
fi
exit $status
