#!/usr/bin/env bash
# Installs what aurc needs on a fresh machine, in one of two modes:
#
#   bash tools/install-deps.sh demo   (make demo)
#   bash tools/install-deps.sh test   (make test, CI; the default)
#
# demo: what the package and its demo need: the packages of Depends,
#   Imports and LinkingTo, knitr and rmarkdown for the vignettes, pandoc,
#   and those Suggests that Debian ships prebuilt (one apt-get call, no
#   compiling; the vignettes' sections that need a missing one are
#   skipped). Nothing is compiled from CRAN unless a required package is
#   missing from Debian.
# test: everything: all of Suggests (the CRAN-only ones, yardstick and
#   reliabilitydiag with their dependencies, compiled from CRAN), the tools
#   R CMD check uses (tidy, qpdf; pngquant keeps the vignettes' figures
#   within R CMD check's installed-size limit), the PostgreSQL server the
#   database tests start (postgresql), the two ClickHouse servers of the
#   distributed tests (Debian's clickhouse-server; RClickhouse, their
#   driver, is a Suggests from CRAN), and RPostgres, the second PostgreSQL
#   driver of the database fault tests (optional: CRAN only).
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

mode=${1:-test}
case "$mode" in
  demo | test) ;;
  *) echo "usage: bash tools/install-deps.sh [demo|test]" >&2; exit 2 ;;
esac
# required: the package and its demo; optional: the rest of Suggests
required=$(Rscript --vanilla tools/missing-deps.R required)
optional=$(Rscript --vanilla tools/missing-deps.R optional)
missing=$(echo $required $optional)
tools_missing=""
tools_wanted="pandoc"
[ "$mode" = test ] && tools_wanted="pandoc tidy qpdf pngquant"
for t in $tools_wanted; do
  command -v "$t" >/dev/null || tools_missing="$tools_missing $t"
done
# the PostgreSQL server the database tests start (Debian's postgresql; it
# ships postgres_fdw, which test-db-postgres-fdw.R uses for a second server)
if [ "$mode" = test ] && ! command -v initdb >/dev/null &&
  ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  tools_missing="$tools_missing postgresql"
fi
# the ClickHouse servers the distributed tests start (Debian's
# clickhouse-server; clickhouse-client, only recommended by it, loads them)
if [ "$mode" = test ]; then
  command -v clickhouse-server >/dev/null || [ -x /usr/sbin/clickhouse-server ] ||
    tools_missing="$tools_missing clickhouse-server"
  command -v clickhouse-client >/dev/null ||
    tools_missing="$tools_missing clickhouse-client"
fi
# ccache (optional): compiles the C++ once for build and install
command -v ccache >/dev/null || tools_missing="$tools_missing ccache"
# Optional, not in DESCRIPTION: RPostgres, the second PostgreSQL driver the
# database fault tests use when it is there (CRAN only; it compiles against
# libpq-dev and wants a newer DBI, which CRAN supplies). A failure is noted
# and not retried on this machine.
optional_failed="$AURC_LOG_DIR/optional-deps-failed"
install_optional() {
  [ "$mode" = test ] || return 0
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

# (demo: done once the required packages are there; the optional ones
# Debian lacks would be compiled from CRAN only for make test)
needed=$missing
[ "$mode" = demo ] && needed=$(echo $required)
if [ -z "$needed" ] && [ -z "$tools_missing" ]; then
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
fi
# from CRAN: in demo mode only what is required (the optional packages
# Debian lacks are compiled only for make test)
if [ "$mode" = demo ]; then
  missing=$(Rscript --vanilla tools/missing-deps.R required)
else
  missing=$(Rscript --vanilla tools/missing-deps.R all)
fi

if [ -n "$missing" ]; then
  # --no-init-file, not --vanilla: R's repository is set in Rprofile.site
  # shellcheck disable=SC2086
  step "installing $(count "$missing") R packages from CRAN" cran.log \
    Rscript --no-init-file -e 'pkgs <- commandArgs(TRUE); install.packages(pkgs, dependencies = c("Depends", "Imports", "LinkingTo"), quiet = TRUE)' $missing || true
fi
if [ "$mode" = demo ]; then
  missing=$(Rscript --vanilla tools/missing-deps.R required)
  skipped=$(Rscript --vanilla tools/missing-deps.R optional)
  [ -z "$skipped" ] || echo "aurc: not needed for the demo (make test installs them):" $skipped
else
  missing=$(Rscript --vanilla tools/missing-deps.R all)
fi
if [ -n "$missing" ]; then
  echo "aurc: could not install:" $missing >&2
  exit 1
fi
install_optional
echo "aurc: dependencies ... done"
