# Sourced by the tools/*.sh scripts: run one setup step quietly.
#
#   step "building the package" build.log  R CMD build .
#
# prints "aurc: building the package ... ok (41 s)" and keeps the command's
# whole output in $AURC_LOG_DIR/build.log (default .logs/, ignored by git and
# R CMD build). When the command fails, the last 60 lines of the log are
# shown and the step returns the command's exit status.
AURC_LOG_DIR=${AURC_LOG_DIR:-.logs}
mkdir -p "$AURC_LOG_DIR"

step() {
  local label=$1 log="$AURC_LOG_DIR/$2" start status
  shift 2
  start=$(date +%s)
  printf 'aurc: %s ... ' "$label"
  "$@" >"$log" 2>&1
  status=$?
  if [ "$status" -eq 0 ]; then
    printf 'ok (%d s)\n' "$(($(date +%s) - start))"
  else
    printf 'FAILED (exit %d); last lines of %s:\n' "$status" "$log"
    tail -n 60 "$log" | sed 's/^/  | /'
  fi
  return "$status"
}
