# Sourced by tools/build.sh and tools/install.sh: compile through ccache
# when it is installed, so the package's C++ is compiled once per change,
# not once by `R CMD build` (to build the vignettes) and again by
# `R CMD INSTALL`. The cache lives in .ccache/ (ignored by git and
# R CMD build); the compiler settings are R's own, with ccache in front,
# written to a private Makevars in $AURC_LOG_DIR. Skipped when the user has
# a Makevars of their own (R_MAKEVARS_USER or ~/.R/Makevars), or with
# AURC_CCACHE=false.
if [ "${AURC_CCACHE:-true}" != "false" ] && command -v ccache >/dev/null &&
  [ -z "${R_MAKEVARS_USER:-}" ] && [ ! -f "$HOME/.R/Makevars" ]; then
  export CCACHE_DIR=${CCACHE_DIR:-$PWD/.ccache}
  # R CMD build and INSTALL compile in different temporary folders
  export CCACHE_NOHASHDIR=1
  export CCACHE_BASEDIR=/
  cxx=$(R CMD config CXX)
  cc=$(R CMD config CC)
  makevars="$AURC_LOG_DIR/Makevars-ccache"
  {
    echo "CXX = ccache $cxx"
    echo "CXX11 = ccache $(R CMD config CXX11)"
    echo "CXX14 = ccache $(R CMD config CXX14)"
    echo "CXX17 = ccache $(R CMD config CXX17)"
    echo "CC = ccache $cc"
  } >"$makevars"
  R_MAKEVARS_USER="$PWD/$makevars"
  export R_MAKEVARS_USER
fi
