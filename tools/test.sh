#!/usr/bin/env bash
# `make test`, on two cores:
# 1. tools/suite.sh prepare: a tarball of the sources without the vignettes
#    (one second) is installed into a private library; this compiles the
#    C++, through ccache, so the builds below find it compiled (without
#    ccache, each installation compiles it again).
# 2. Then side by side:
#    - tools/build.sh (the tarball with its vignettes; knitting them uses
#      one core), tools/install.sh, then R CMD check --as-cran of that
#      tarball without its test step (tools/check.sh; most of its steps use
#      one core): one after the other, so they are the critical path;
#    - at a lower priority (nice), so that path keeps its core: the whole
#      testthat suite, once, on that installation (tools/suite.sh run, two
#      processes), with the test files of that tarball, and the C++ core
#      tests (tests/cpp).
# 3. The two tarballs must hold the same files but the vignettes' outputs:
#    the suite tested the package that was checked.
# Every stage runs even if another failed; the last line printed is the
# testthat totals ("N passed, N failed[, N skipped]"). Slow tests run only
# with AURC_SLOW_TESTS=true (see tests/testthat/helper-skip.R).
set -u
cd "$(dirname "$0")/.."
. tools/step.sh
status=0
start=$(date +%s)
rm -f .test-totals
version=$(sed -n 's/^Version: //p' DESCRIPTION)
tarball="aurc_${version}.tar.gz"

suite_pid=""
if bash tools/suite.sh prepare; then
  nice -n 10 bash tools/suite.sh run >"$AURC_LOG_DIR/suite.out" 2>&1 &
  suite_pid=$!
else
  status=1
fi
nice -n 10 make --no-print-directory test-cpp >"$AURC_LOG_DIR/test-cpp.log" 2>&1 &
cpp_pid=$!

if bash tools/build.sh && bash tools/install.sh; then
  AURC_CHECK_TESTS=false bash tools/check.sh || status=1
else
  status=1
fi

if [ -n "$suite_pid" ]; then
  wait "$suite_pid" || status=1
  cat "$AURC_LOG_DIR/suite.out"
fi
printf 'aurc: C++ core tests (tests/cpp) ... '
if wait "$cpp_pid"; then
  tail -n 1 "$AURC_LOG_DIR/test-cpp.log"
else
  status=1
  printf 'FAILED; last lines of %s:\n' "$AURC_LOG_DIR/test-cpp.log"
  tail -n 30 "$AURC_LOG_DIR/test-cpp.log" | sed 's/^/  | /'
fi

# the files of both tarballs, with checksums, less what only the vignette
# build adds or stamps (inst/doc, build/, the Packaged line of DESCRIPTION)
tarball_files() {
  local tmp
  tmp=$(mktemp -d)
  tar -xzf "$1" -C "$tmp"
  (cd "$tmp" && find aurc -type f ! -path 'aurc/inst/doc/*' \
    ! -path 'aurc/build/*' ! -name DESCRIPTION -exec md5sum {} + | sort -k 2)
  grep -v '^Packaged:' "$tmp/aurc/DESCRIPTION" | md5sum
  rm -rf "$tmp"
}
suite_tarball=$(ls "$AURC_LOG_DIR"/suite/aurc_*.tar.gz 2>/dev/null | head -n 1)
if [ -f "$tarball" ] && [ -n "$suite_tarball" ]; then
  if diff <(tarball_files "$tarball") <(tarball_files "$suite_tarball") \
    >"$AURC_LOG_DIR/tarball-diff.log"; then
    echo "aurc: the suite's tarball and $tarball hold the same files"
  else
    status=1
    echo "aurc: the suite's tarball and $tarball differ:"
    sed 's/^/  | /' "$AURC_LOG_DIR/tarball-diff.log" | head -n 20
  fi
fi
echo "aurc: build, install, tests and check took $(($(date +%s) - start)) s"
if [ -f .test-totals ]; then
  cat .test-totals
else
  echo "0 passed, 1 failed"
  status=1
fi
exit $status
