# The pool of large work buffers kept between calls (src/core/memory.h):
# the option that limits it and its release.

# The option `aurc.workspace`: the most bytes of large work buffers the C++
# core keeps between calls (src/core/memory.h), 512 MiB when unset, 0 to
# keep nothing, Inf for no limit. Applied by every call that sorts (through
# sort_threads()); the C++ limit is only set when the option changed.
workspace_default <- 2^29
apply_workspace_option <- function(call = rlang::caller_env()) {
  arm_workspace_release()
  opt <- getOption("aurc.workspace")
  if (identical(opt, aurc_state$workspace)) {
    return(invisible())
  }
  bytes <- if (is.null(opt)) workspace_default else opt
  ok <- is.numeric(bytes) && length(bytes) == 1 && !is.na(bytes) && bytes >= 0
  if (!ok) {
    abort_aurc(
      c(
        "The option {.code aurc.workspace} must be a number of bytes of at
         least 0.",
        i = "It is {.obj_type_friendly {opt}}; set it with
             {.code options(aurc.workspace = 2^30)}, to 0 to keep no buffers,
             or unset it with {.code options(aurc.workspace = NULL)}."
      ),
      class = "aurc_error_value", call = call
    )
  }
  set_workspace_limit_impl(as.double(bytes))
  aurc_state$workspace <- opt
  invisible()
}

# Memory back to the system (issue 32). Kept buffers live outside R's heap,
# so gc() alone never freed them. Sentinel objects whose finalizers run at
# the garbage collection that collects them free the buffers when the pool
# has been idle for `workspace_idle_seconds` (no buffer taken or given
# back). A loop of calls keeps its buffers (each call uses the pool); the
# first collection after three seconds of rest gives them back, whether R
# or the user (gc()) asked for it (a benchmark that sorts 1e7 values
# between two calls rests about a second). release_workspace() frees them
# at once.
#
# A finalizer must not register another one: R 4.2 unlinks the weak
# references it runs from the head of its list, and a reference registered
# meanwhile at the head was lost when the next one in the list was run in
# the same collection (seen: the release stopped after a few collections
# under testthat). So every sentinel is registered at a safe point, when
# the package loads and at every call that sorts: one unreferenced (the
# next collection runs its finalizer) and `workspace_spares` held in
# `aurc_state$spares`. A finalizer that finds the pool busy lets go of the
# next spare (no allocation of a weak reference), which the collection
# after that finds; a finalizer that finds nothing kept arms nothing, and
# the next call arms again.
workspace_idle_seconds <- 3
workspace_spares <- 4L
new_workspace_sentinel <- function() {
  sentinel <- new.env(parent = emptyenv())
  reg.finalizer(sentinel, workspace_finalizer, onexit = FALSE)
  sentinel
}
arm_workspace_release <- function() {
  if (!isTRUE(aurc_state$release_armed)) return(invisible())
  if (!isTRUE(aurc_state$sentinel_pending)) {
    new_workspace_sentinel()
    aurc_state$sentinel_pending <- TRUE
  }
  missing <- workspace_spares - length(aurc_state$spares)
  if (missing > 0) {
    aurc_state$spares <- c(
      aurc_state$spares, lapply(seq_len(missing), function(i) {
        new_workspace_sentinel()
      })
    )
  }
  invisible()
}
workspace_finalizer <- function(sentinel) {
  if (!isTRUE(aurc_state$release_armed)) return(invisible())
  kept <- tryCatch({
    release_workspace_impl(workspace_idle_seconds)
    workspace_kept_impl()
  }, error = function(e) 0)
  spares <- aurc_state$spares
  if (kept > 0 && length(spares)) {
    aurc_state$spares <- spares[-1] # the next collection finds it
  } else {
    aurc_state$sentinel_pending <- FALSE
  }
  invisible()
}
start_workspace_release <- function() {
  aurc_state$release_armed <- TRUE
  arm_workspace_release()
}
# (.onUnload: the shared library is about to go; no finalizer may call it)
stop_workspace_release <- function() {
  aurc_state$release_armed <- FALSE
  invisible()
}

#' Free the work buffers the package keeps between calls
#'
#' The one sort behind every metric keeps its large work buffers (those of
#' 4 MiB and more) for the next call, so repeated calls on large data take
#' the same time instead of backing fresh memory each time. They are kept
#' outside R's heap, about 32 bytes per sample of the largest input so far
#' (320 MB after a call at n = 1e7), at most the option `aurc.workspace`
#' (512 MiB by default). They go back to the system by themselves at the
#' first garbage collection (R's own, or [gc()]) that comes three seconds or
#' more after the last call that used them; `release_workspace()` frees
#' them at once, and `options(aurc.workspace = 0)` keeps none at all.
#'
#' @return The number of bytes freed, invisibly.
#' @seealso [aurc-package] (section Options).
#' @export
#' @examples
#' x <- runif(1e6)
#' aurc_vec(x, rbinom(1e6, 1, 1 - x))
#' release_workspace()
release_workspace <- function() {
  invisible(release_workspace_impl(0))
}
