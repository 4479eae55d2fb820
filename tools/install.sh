#!/usr/bin/env bash
# Installs the tarball that tools/build.sh made, so the installed package has
# its vignettes (`vignette(package = "aurc")`). With LIB set (`make install
# LIB=path`) it goes into that library, otherwise into R's default one. The
# compiler output goes to .logs/install.log, shown only when the
# installation fails; tools/check.sh hands the same log to R CMD check.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/step.sh
. tools/compiler-settings.sh
version=$(sed -n 's/^Version: //p' DESCRIPTION)
tarball="aurc_${version}.tar.gz"
if [ ! -f "$tarball" ]; then
  echo "install: no $tarball; run tools/build.sh (make build) first" >&2
  exit 1
fi
# keep the symbol tables of the object files (libs/symbols.rds), as R CMD
# check's own installation does: its "checking compiled code" step needs them
# to check the installed library without compiling again
export _R_SHLIB_BUILD_OBJECTS_SYMBOL_TABLES_=TRUE
lib_args=()
if [ -n "${LIB:-}" ]; then
  mkdir -p "$LIB"
  lib_args=(-l "$LIB")
fi
step "installing $tarball" install.log \
  R CMD INSTALL --no-multiarch "${lib_args[@]}" "$tarball"
