#!/usr/bin/env bash
# Builds the source tarball aurc_VERSION.tar.gz, vignettes included. This is
# the one build of `make demo` and `make test`: the tarball is installed
# (tools/install.sh) and checked (tools/check.sh) as it is. R CMD build
# compiles the package once into a temporary library to knit the vignettes.
# Output goes to .logs/build.log, shown only when the build fails.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/step.sh
. tools/compiler-settings.sh
# every C++ file is compiled through exactly one of the two translation
# units of src/Makevars (src/unity_1.cpp, src/unity_2.cpp): a file left out
# would build, then fail to load with an undefined symbol
for f in src/*.cpp; do
  case "$f" in src/unity_*.cpp) continue ;; esac
  n=$(cat src/unity_*.cpp | grep -c "^#include \"$(basename "$f")\"" || true)
  if [ "$n" != 1 ]; then
    echo "build: $f is included in $n of src/unity_*.cpp (must be 1)" >&2
    exit 1
  fi
done
# ... and listed as a prerequisite of that unit in src/Makevars and
# src/Makevars.win, so that an incremental build compiles the unit again
# when the file changes
for unit in src/unity_*.cpp; do
  u=$(basename "$unit" .cpp)
  for mk in src/Makevars src/Makevars.win; do
    deps=$(awk -v t="$u.o:" '$1 == t { on = 1 } on { print }
      on && !/\\$/ { on = 0 }' "$mk")
    for f in $(sed -n 's/^#include "\(.*\.cpp\)"$/\1/p' "$unit"); do
      case " $(echo $deps | tr -d '\\') " in
        *" $f "*) ;;
        *)
          echo "build: $f is not a prerequisite of $u.o in $mk" >&2
          exit 1
          ;;
      esac
    done
  done
done
version=$(sed -n 's/^Version: //p' DESCRIPTION)
tarball="aurc_${version}.tar.gz"
rm -f aurc_*.tar.gz
step "building $tarball with its vignettes" build.log \
  R CMD build --no-manual .
