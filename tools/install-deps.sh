#!/usr/bin/env bash
# Installs what aurc needs to build, test, check and run its demo on a fresh
# machine: the R packages named in DESCRIPTION (Imports, LinkingTo, Suggests)
# plus the system tools R CMD check and the vignettes use (pandoc, tidy,
# qpdf) and the PostgreSQL server the database tests start (postgresql).
#
# Debian's prebuilt r-cran-* packages are used when apt-get is usable (root,
# apt present); whatever is still missing then comes from CRAN through R's
# configured repository. Packages already installed are left alone.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=$(Rscript --vanilla tools/missing-deps.R)
if [ -z "$missing" ] && command -v pandoc >/dev/null && command -v tidy >/dev/null && command -v qpdf >/dev/null &&
  { command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; }; then
  echo "install-deps: everything is installed"
  exit 0
fi
echo "install-deps: missing R packages: ${missing:-none}"

if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  debs="pandoc tidy qpdf postgresql"
  for p in $missing; do
    debs="$debs r-cran-$(echo "$p" | tr '[:upper:]' '[:lower:]')"
  done
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq || true
  # install one at a time so a name Debian lacks does not stop the rest
  for d in $debs; do
    apt-get install -y -qq --no-install-recommends "$d" >/dev/null 2>&1 ||
      echo "install-deps: apt has no $d; trying CRAN next"
  done
fi

missing=$(Rscript --vanilla tools/missing-deps.R)
if [ -n "$missing" ]; then
  echo "install-deps: from CRAN: $missing"
  Rscript --vanilla -e 'pkgs <- commandArgs(TRUE); install.packages(pkgs, dependencies = c("Depends", "Imports", "LinkingTo"))' $missing
fi
missing=$(Rscript --vanilla tools/missing-deps.R)
if [ -n "$missing" ]; then
  echo "install-deps: could not install: $missing" >&2
  exit 1
fi
echo "install-deps: done"
