#!/usr/bin/env bash
# make sanitize: the C++ core tests and the testthat suite under
# AddressSanitizer and UndefinedBehaviorSanitizer (gcc).
#
# R itself is not built with ASan, so the sanitized package is installed
# into a private library (SANITIZE_LIB, default .sanitize-lib) and R is run
# with the ASan runtime preloaded (LD_PRELOAD=libasan.so); leak detection is
# off because R does not free everything at exit. Any ASan report aborts
# the process; UBSan findings are made fatal with
# -fno-sanitize-recover=undefined, so a finding fails this script.
# `tools/sanitize.sh cpp` (make sanitize-cpp) runs the C++ core tests only.
# Tested on Debian 12 with gcc 12 and R 4.2.
set -euo pipefail

CXX=${CXX:-g++}
RSCRIPT=${RSCRIPT:-Rscript}
LIB=${SANITIZE_LIB:-$PWD/.sanitize-lib}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
ASAN_RT=$($CXX -print-file-name=libasan.so)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

echo "== C++ core tests under ASan/UBSan"
$CXX -std=c++14 -O1 -g $SAN -fopenmp -Wall -Isrc tests/cpp/test_core.cpp \
  -o tests/cpp/test_core_sanitize
./tests/cpp/test_core_sanitize
[ "${1:-}" = cpp ] && exit 0

echo "== package built with ASan/UBSan into $LIB"
mkdir -p "$LIB"
MAKEVARS=$(mktemp)
# the next build of the normal package must not reuse sanitized objects,
# even when this script fails half way
trap 'rm -f "$MAKEVARS" src/*.o src/*.so' EXIT
cat > "$MAKEVARS" <<MK
CXXFLAGS = -g -O1 $SAN
CXX14FLAGS = -g -O1 $SAN
LDFLAGS = $SAN
MK
# --no-test-load: the load test would run R without the ASan runtime first
R_MAKEVARS_USER="$MAKEVARS" R CMD INSTALL --preclean --no-multiarch \
  --no-test-load -l "$LIB" .

echo "== testthat suite under ASan/UBSan"
LD_PRELOAD="$ASAN_RT" R_LIBS="$LIB" NOT_CRAN=true "$RSCRIPT" tools/run-tests.R
