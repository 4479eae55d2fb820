# A real distributed engine for the tests of DEFINITIONS Sec. 12: two
# ClickHouse servers (Debian's clickhouse-server) that this helper starts
# once per test run, each in a private temporary directory on private
# ports (native protocol only, on 127.0.0.1), with a cluster `aurc_two`
# of two shards, one on each server. ch_distributed() puts half of the
# rows of a data frame in a MergeTree table on each server and returns a
# lazy table of a `Distributed` table over both, read through the first
# server, which sends each query to both shards and merges their partial
# aggregates. The servers stop at the end of the run (testthat's teardown
# environment, also when tests fail). Without clickhouse-server or
# RClickhouse the tests say why and skip (on CI, where both are installed
# by tools/install-deps.sh, they fail instead: db_unavailable()).

ch_state <- new.env(parent = emptyenv())

ch_start <- function() {
  if (!is.null(ch_state$reason)) return(NULL)
  if (!is.null(ch_state$ports)) return(ch_state$ports)
  if (!requireNamespace("RClickhouse", quietly = TRUE)) {
    ch_state$reason <- "RClickhouse is not installed"
    return(NULL)
  }
  bin <- Sys.which("clickhouse-server")
  if (!nzchar(bin) && file.exists("/usr/sbin/clickhouse-server")) {
    bin <- "/usr/sbin/clickhouse-server"
  }
  client <- Sys.which("clickhouse-client")
  if (!nzchar(bin) || !nzchar(client)) {
    ch_state$reason <- paste(
      "no ClickHouse server: clickhouse-server/clickhouse-client not found",
      "(install Debian's clickhouse-server)"
    )
    return(NULL)
  }
  dir <- tempfile("aurc-ch-")
  dir.create(dir, mode = "0700")
  ports <- sample(20000:45000, 2)
  ch_state$dir <- dir
  ch_state$client <- unname(client)
  ch_state$pids <- integer()
  tryCatch(
    withr::defer(ch_stop(), envir = testthat::teardown_env()),
    error = function(e) NULL
  )
  reg.finalizer(ch_state, function(e) ch_stop(), onexit = TRUE)
  ch_state$bin <- unname(bin)
  for (i in 1:2) {
    sdir <- file.path(dir, paste0("s", i))
    dir.create(sdir)
    ch_write_config(sdir, ports[i], ports)
    ch_state$pids[i] <- ch_launch(sdir)
  }
  for (i in 1:2) {
    if (!ch_wait(ports[i])) {
      log <- file.path(dir, paste0("s", i), "err.log")
      ch_state$reason <- paste(
        "clickhouse-server did not start:",
        if (file.exists(log)) paste(utils::tail(readLines(log), 2),
          collapse = " "
        )
      )
      ch_stop()
      return(NULL)
    }
  }
  ch_state$ports <- ports
  ports
}

# Starts the server of the directory `sdir` in the background; its pid.
ch_launch <- function(sdir) {
  pid_file <- file.path(sdir, "pid")
  # exec'd by a background shell: the shell's pid is the server's
  withr::with_envvar(c(LD_PRELOAD = NA), system2("sh", c("-c", shQuote(
    paste0(
      "exec ", shQuote(ch_state$bin), " --config-file=",
      shQuote(file.path(sdir, "config.xml")), " >>",
      shQuote(file.path(sdir, "stdout.log")), " 2>&1 & echo $! >",
      shQuote(pid_file)
    )
  )), wait = TRUE))
  as.integer(readLines(pid_file))
}

# Stops server `i` (as a crash would: SIGTERM, then waits).
ch_kill <- function(i) {
  pid <- ch_state$pids[i]
  tools::pskill(pid)
  for (k in 1:40) {
    if (!ch_running(pid)) break
    Sys.sleep(0.25)
  }
  invisible()
}

# Starts server `i` again after a test stopped it (its tables are kept).
ch_restart <- function(i) {
  if (is.null(ch_state$dir) || ch_running(ch_state$pids[i])) return()
  ch_state$pids[i] <- ch_launch(file.path(ch_state$dir, paste0("s", i)))
  ch_wait(ch_state$ports[i])
  invisible()
}

# The configuration of one server: its data under `sdir`, the native
# protocol on `port` (no HTTP), the cluster of both servers, a user
# `default` without password from 127.0.0.1 only.
ch_write_config <- function(sdir, port, ports) {
  shard <- function(p) {
    sprintf(
      "<shard><replica><host>127.0.0.1</host><port>%d</port></replica></shard>",
      p
    )
  }
  path <- function(x) paste0(file.path(sdir, x), "/")
  writeLines(c(
    "<?xml version=\"1.0\"?>", "<yandex>",
    sprintf(
      "<logger><level>warning</level><log>%s</log>%s</logger>",
      file.path(sdir, "server.log"),
      sprintf("<errorlog>%s</errorlog>", file.path(sdir, "err.log"))
    ),
    "<listen_host>127.0.0.1</listen_host>",
    sprintf("<tcp_port>%d</tcp_port>", port),
    sprintf("<path>%s</path>", path("data")),
    sprintf("<tmp_path>%s</tmp_path>", path("tmp")),
    sprintf("<user_files_path>%s</user_files_path>", path("user_files")),
    sprintf("<format_schema_path>%s</format_schema_path>", path("schemas")),
    "<mark_cache_size>67108864</mark_cache_size>",
    "<users_config>users.xml</users_config>",
    "<default_profile>default</default_profile>",
    "<default_database>default</default_database>",
    "<remote_servers><aurc_two>", shard(ports[1]), shard(ports[2]),
    "</aurc_two></remote_servers>",
    "</yandex>"
  ), file.path(sdir, "config.xml"))
  writeLines(c(
    "<?xml version=\"1.0\"?>", "<yandex>",
    "<profiles><default><max_memory_usage>4000000000</max_memory_usage>",
    "</default></profiles>",
    "<users><default><password></password><networks><ip>127.0.0.1</ip>",
    "</networks><profile>default</profile><quota>default</quota>",
    "</default></users>",
    "<quotas><default></default></quotas>", "</yandex>"
  ), file.path(sdir, "users.xml"))
}

# Runs one statement through clickhouse-client; `input` a file for its
# standard input (INSERT ... FORMAT TSV). Returns the exit status.
ch_client <- function(port, query, input = "", output = FALSE) {
  withr::with_envvar(c(LD_PRELOAD = NA), suppressWarnings(system2(
    ch_state$client, c("--host", "127.0.0.1", "--port", port, "--query",
      shQuote(query)),
    stdin = input, stdout = output, stderr = output, timeout = 120
  )))
}

ch_wait <- function(port, seconds = 30) {
  for (i in seq_len(seconds * 4)) {
    if (identical(as.integer(ch_client(port, "SELECT 1")), 0L)) return(TRUE)
    Sys.sleep(0.25)
  }
  FALSE
}

ch_stop <- function() {
  pids <- ch_state$pids
  ch_state$pids <- integer()
  ch_state$ports <- NULL
  for (pid in pids) tools::pskill(pid)
  for (pid in pids) {
    for (i in 1:40) {
      if (!ch_running(pid)) break
      Sys.sleep(0.25)
    }
    if (ch_running(pid)) tools::pskill(pid, tools::SIGKILL)
  }
  if (!is.null(ch_state$dir)) unlink(ch_state$dir, recursive = TRUE)
  ch_state$dir <- NULL
  invisible()
}

ch_running <- function(pid) {
  file.exists(file.path("/proc", pid)) &&
    !any(grepl("^State:\\s+Z", readLines(file.path("/proc", pid, "status"),
      warn = FALSE
    )))
}

# A connection to server `i` (1 holds the Distributed tables), closed when
# `env` ends.
ch_con <- function(i = 1, env = parent.frame()) {
  if (!requireNamespace("dbplyr", quietly = TRUE)) {
    db_unavailable("dbplyr is not installed")
  }
  ports <- ch_start()
  if (is.null(ports)) db_unavailable(ch_state$reason)
  con <- tryCatch(
    DBI::dbConnect(RClickhouse::clickhouse(), host = "127.0.0.1",
      port = ports[i], user = "default", password = ""
    ),
    error = function(e) e
  )
  if (inherits(con, "error")) {
    db_unavailable(paste("can't connect to ClickHouse:", conditionMessage(con)))
  }
  withr::defer(try(DBI::dbDisconnect(con), silent = TRUE), envir = env)
  con
}

# ClickHouse column types of a data frame's columns: `types` overrides by
# name; otherwise doubles are Nullable(Float64), integers Nullable(Int32),
# logicals Nullable(UInt8), characters String.
ch_types <- function(df, types = character()) {
  out <- vapply(df, function(x) {
    if (is.character(x) || is.factor(x)) return("String")
    base <- if (is.logical(x)) {
      "UInt8"
    } else if (is.integer(x)) {
      "Int32"
    } else {
      "Float64"
    }
    paste0("Nullable(", base, ")")
  }, character(1))
  out[names(types)] <- types
  out
}

# Writes `df` to the table `name` on the server at `port` (created as a
# MergeTree table with the columns of ch_types()) through clickhouse-client
# (tab-separated, \N for NA, nan for NaN, doubles with 17 significant
# digits).
ch_write <- function(port, df, name, types) {
  cols <- paste0("`", names(df), "` ", types, collapse = ", ")
  ch_client(port, paste0("DROP TABLE IF EXISTS ", name))
  st <- ch_client(port, paste0(
    "CREATE TABLE ", name, " (", cols, ") ENGINE = MergeTree() ",
    "ORDER BY tuple()"
  ))
  if (st != 0) stop("can't create the ClickHouse table ", name)
  if (nrow(df) == 0) return(invisible())
  txt <- as.data.frame(lapply(df, function(x) {
    y <- if (is.double(x)) {
      sprintf("%.17g", x)
    } else if (is.logical(x)) {
      as.character(as.integer(x))
    } else {
      as.character(x)
    }
    y[is.na(x)] <- "\\N"
    y[is.nan(x)] <- "nan"
    y
  }), stringsAsFactors = FALSE)
  f <- tempfile(fileext = ".tsv")
  on.exit(unlink(f))
  utils::write.table(txt, f, sep = "\t", quote = FALSE, row.names = FALSE,
    col.names = FALSE
  )
  st <- ch_client(port, paste("INSERT INTO", name, "FORMAT TabSeparated"),
    input = f
  )
  if (st != 0) stop("can't write the ClickHouse table ", name)
  invisible()
}

# Half of the rows of `df` (the first half, or the rows of `split`) on
# each server in `<name>_local`, and a Distributed table `name` over both
# on server 1; a lazy table of it on `con` (a connection to server 1).
ch_distributed <- function(con, df, name = "preds", types = character(),
                           split = NULL) {
  ports <- ch_state$ports
  types <- ch_types(df, types)
  first <- split %||% (seq_len(nrow(df)) <= nrow(df) %/% 2)
  local <- paste0(name, "_local")
  ch_write(ports[1], df[first, , drop = FALSE], local, types)
  ch_write(ports[2], df[!first, , drop = FALSE], local, types)
  ch_client(ports[1], paste0("DROP TABLE IF EXISTS ", name))
  st <- ch_client(ports[1], paste0(
    "CREATE TABLE ", name, " AS ", local,
    " ENGINE = Distributed(aurc_two, default, ", local, ")"
  ))
  if (st != 0) stop("can't create the Distributed table ", name)
  # (RClickhouse notes every unsigned column it reads as a double)
  suppressWarnings(dplyr::tbl(con, name))
}
