# Sourced by tools/build.sh and tools/install.sh: the compiler settings of
# `make demo` and `make test`, written to a private Makevars in
# $AURC_LOG_DIR (R_MAKEVARS_USER). They are R's own, with two changes:
# - no -g: src/Makevars strips the debug sections from the shared library
#   anyway, and generating them is about a fifth of the compile time of the
#   templated C++ core;
# - ccache in front of the compilers, when it is installed, so the
#   package's C++ is compiled once per change, not once by `R CMD build` (to
#   build the vignettes) and again by `R CMD INSTALL`. The cache lives in
#   .ccache/ (ignored by git and R CMD build). AURC_CCACHE=false turns it
#   off.
# Skipped when the user has a Makevars of their own (R_MAKEVARS_USER or
# ~/.R/Makevars): then their settings apply unchanged.
# Always: two files compile at a time (-j2 in MAKEFLAGS), unless the caller
# chose a number of jobs. Under `make test LIB=...` MAKEFLAGS is not empty
# (it holds " -- LIB=..."), so the flag is added, not set only when empty.
case " ${MAKEFLAGS:-} " in
  *" -j"*) ;;
  *) export MAKEFLAGS="-j2${MAKEFLAGS:+ $MAKEFLAGS}" ;;
esac
if [ -z "${R_MAKEVARS_USER:-}" ] && [ ! -f "$HOME/.R/Makevars" ]; then
  launcher=""
  if [ "${AURC_CCACHE:-true}" != "false" ] && command -v ccache >/dev/null; then
    launcher="ccache "
    export CCACHE_DIR=${CCACHE_DIR:-$PWD/.ccache}
    # R CMD build and INSTALL compile in different temporary folders
    export CCACHE_NOHASHDIR=1
    export CCACHE_BASEDIR=/
  fi
  # R's flags for a compiler setting, without the -g option
  no_debug() {
    R CMD config "$1" | sed -E 's/(^| )-g( |$)/\1/g'
  }
  makevars="$AURC_LOG_DIR/Makevars-aurc"
  {
    echo "CXX = $launcher$(R CMD config CXX)"
    echo "CXX11 = $launcher$(R CMD config CXX11)"
    echo "CXX14 = $launcher$(R CMD config CXX14)"
    echo "CXX17 = $launcher$(R CMD config CXX17)"
    echo "CC = $launcher$(R CMD config CC)"
    echo "CXXFLAGS = $(no_debug CXXFLAGS)"
    echo "CXX11FLAGS = $(no_debug CXX11FLAGS)"
    echo "CXX14FLAGS = $(no_debug CXX14FLAGS)"
    echo "CXX17FLAGS = $(no_debug CXX17FLAGS)"
    echo "CFLAGS = $(no_debug CFLAGS)"
  } >"$makevars"
  case "$makevars" in
    /*) R_MAKEVARS_USER=$makevars ;;
    *) R_MAKEVARS_USER="$PWD/$makevars" ;;
  esac
  export R_MAKEVARS_USER
fi
