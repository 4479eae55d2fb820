#!/usr/bin/env bash
# What the pkgdown site needs beyond the package's own dependencies:
# pkgdown (Debian's r-cran-pkgdown, else CRAN) to build it and Chromium
# (Debian's chromium) to check it. One line per step, as install-deps.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/step.sh
need=""
Rscript --vanilla -e 'quit(status = !requireNamespace("pkgdown", quietly = TRUE))' \
  >/dev/null 2>&1 || need="$need r-cran-pkgdown"
command -v chromium >/dev/null || need="$need chromium"
if [ -z "$need" ]; then
  echo "aurc: site dependencies ... all installed"
  exit 0
fi
if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  step "apt-get update" site-apt-update.log apt-get update -qq || true
  # shellcheck disable=SC2086
  step "installing$need" site-deps.log \
    apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends $need || true
fi
if ! Rscript --vanilla -e 'quit(status = !requireNamespace("pkgdown", quietly = TRUE))' >/dev/null 2>&1; then
  step "installing pkgdown from CRAN" site-cran.log \
    Rscript --no-init-file -e 'install.packages("pkgdown", quiet = TRUE)' || true
fi
Rscript --vanilla -e 'quit(status = !requireNamespace("pkgdown", quietly = TRUE))' >/dev/null 2>&1 ||
  { echo "aurc: pkgdown could not be installed" >&2; exit 1; }
command -v chromium >/dev/null ||
  echo "aurc: no chromium: the site builds, tools/check-site.R cannot run" >&2
echo "aurc: site dependencies ... done"
