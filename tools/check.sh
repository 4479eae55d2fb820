#!/usr/bin/env bash
# R CMD build, then R CMD check --as-cran on the tarball. Fails on any
# ERROR, WARNING or NOTE.
#
# Settings that keep --as-cran from asking the network, which this project's
# machines do not have (each would otherwise be a NOTE that says so):
# - _R_CHECK_CRAN_INCOMING_=false: the CRAN incoming feasibility check looks
#   up the CRAN package database and the package's URLs online.
# The one NOTE that cannot be avoided here, and is allowed:
# - "checking for future file timestamps ... NOTE / unable to verify current
#   time": --as-cran always turns this check on, and it asks a time server.
# --no-manual: the PDF manual needs a LaTeX installation, which is not part of
# the machine; the Rd files are still checked, and the HTML manual is
# validated with tidy.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^Version: //p' DESCRIPTION)
tarball="aurc_${version}.tar.gz"
rm -rf aurc.Rcheck "$tarball"
R CMD build --no-manual . 
export _R_CHECK_CRAN_INCOMING_=false
status=0
R CMD check --as-cran --no-manual "$tarball" || status=$?
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
  exit 1
fi
echo "check: R CMD check --as-cran passed: no errors, no warnings, no notes"
echo "check: (but the time-server NOTE, which needs the network)"
