#!/usr/bin/env bash
# Installs what aurc needs to build, test, check and run its demo on a fresh
# machine: the R packages named in DESCRIPTION (Imports, LinkingTo, Suggests)
# plus the system tools R CMD check and the vignettes use (pandoc, tidy,
# qpdf; pngquant keeps the vignettes' figures within R CMD check's
# installed-size limit) and the PostgreSQL server the database tests start
# (postgresql).
#
# Debian's prebuilt r-cran-* packages are used when apt-get is usable (root,
# apt present); whatever is still missing then comes from CRAN through R's
# configured repository. Packages already installed are left alone.
# One line per step; the full output is in .logs/install-deps.log.
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/step.sh
log="$AURC_LOG_DIR/install-deps.log"
: >"$log"

missing=$(Rscript --vanilla tools/missing-deps.R)
tools_missing=""
for t in pandoc tidy qpdf pngquant; do
  command -v "$t" >/dev/null || tools_missing="$tools_missing $t"
done
# the PostgreSQL server the database tests start (Debian's postgresql)
if ! command -v initdb >/dev/null && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  tools_missing="$tools_missing postgresql"
fi
# ccache (optional): compiles the C++ once for build and install
command -v ccache >/dev/null || tools_missing="$tools_missing ccache"
# Optional, not in DESCRIPTION: RPostgres, the second PostgreSQL driver the
# database fault tests use when it is there (CRAN only; it compiles against
# libpq-dev and wants a newer DBI, which CRAN supplies). A failure is noted
# and not retried on this machine.
optional_failed="$AURC_LOG_DIR/optional-deps-failed"
install_optional() {
  if Rscript --vanilla -e 'quit(status = !requireNamespace("RPostgres", quietly = TRUE))' >/dev/null 2>&1 ||
    [ -e "$optional_failed" ]; then
    return 0
  fi
  if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ] &&
    ! dpkg -s libpq-dev >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 \
      install -y -qq --no-install-recommends libpq-dev \
      >>"$AURC_LOG_DIR/optional.log" 2>&1 || true
  fi
  step "installing RPostgres from CRAN (optional)" optional.log \
    Rscript --no-init-file -e 'install.packages("RPostgres", dependencies = c("Depends", "Imports", "LinkingTo"), quiet = TRUE); quit(status = !requireNamespace("RPostgres", quietly = TRUE))' ||
    { touch "$optional_failed"; echo "aurc: RPostgres did not install; its tests are skipped"; }
}

if [ -z "$missing" ] && [ -z "$tools_missing" ]; then
  install_optional
  echo "aurc: dependencies ... all installed"
  exit 0
fi
count() { echo "$1" | wc -w | tr -d ' '; }
echo "aurc: dependencies: $(count "$missing") R packages and$( [ -n "$tools_missing" ] && echo "$tools_missing" || echo " no system tools") missing"

if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  debs="$tools_missing"
  for p in $missing; do
    debs="$debs r-cran-$(echo "$p" | tr '[:upper:]' '[:lower:]')"
  done
  export DEBIAN_FRONTEND=noninteractive
  step "apt-get update" apt-update.log apt-get update -qq || true
  # one at a time so a name Debian lacks does not stop the rest
  apt_install() {
    local d
    for d in "$@"; do
      echo "== $d" >>"$log"
      apt-get -o DPkg::Lock::Timeout=900 install -y -qq \
        --no-install-recommends "$d" >>"$log" 2>&1 ||
        echo "apt has no $d; trying CRAN next" >>"$log"
    done
  }
  step "installing $(count "$debs") Debian packages" apt-install.log \
    apt_install $debs || true
  missing=$(Rscript --vanilla tools/missing-deps.R)
fi

if [ -n "$missing" ]; then
  # --no-init-file, not --vanilla: R's repository is set in Rprofile.site
  # shellcheck disable=SC2086
  step "installing $(count "$missing") R packages from CRAN" cran.log \
    Rscript --no-init-file -e 'pkgs <- commandArgs(TRUE); install.packages(pkgs, dependencies = c("Depends", "Imports", "LinkingTo"), quiet = TRUE)' $missing || true
fi
missing=$(Rscript --vanilla tools/missing-deps.R)
if [ -n "$missing" ]; then
  echo "aurc: could not install:" $missing >&2
  exit 1
fi
install_optional
echo "aurc: dependencies ... done"
