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
version=$(sed -n 's/^Version: //p' DESCRIPTION)
tarball="aurc_${version}.tar.gz"
rm -f aurc_*.tar.gz
step "building $tarball with its vignettes" build.log \
  R CMD build --no-manual .
