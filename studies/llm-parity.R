# Parity of prr(ties = "lm_polygraph") with LM-Polygraph and of
# rank_calibration_error_vec() with the Rank-Calibration code, run against
# the authors' own Python (issue 36, item 4). Needs python3 with NumPy and
# clones of github.com/IINemo/lm-polygraph and
# github.com/shuoli90/Rank-Calibration; their paths in LM_POLYGRAPH and
# RANK_CALIBRATION. The Python side imports the authors' files as they
# are (PredictionRejectionArea; plugin_RCE_est() and
# regressed_correctness_vs_uncertainty_cdf() read out of
# metrics/calibration.py, whose other imports need SciPy and scikit-learn).
# STABLE=1 makes np.argsort() stable (the tie order aurc uses); without it
# NumPy's default introsort orders ties its own way beyond 16 values.
# Run: R_LIBS=<lib> LM_POLYGRAPH=... RANK_CALIBRATION=... Rscript \
#   studies/llm-parity.R
library(aurc)
dir <- tempfile("llm-parity")
dir.create(dir)
set.seed(11)
rows <- list()
for (k in 1:30) {
  n <- sample(c(5, 9, 16, 40, 150, 1000), 1)
  unc <- if (k %% 2) round(rexp(n), 1) else rexp(n)
  q <- round(10 * pmin(1, pmax(0, 0.9 - 0.3 * unc + rnorm(n, sd = 0.3)))) / 10
  rows[[k]] <- data.frame(set = k, unc = unc, q = q)
}
d <- do.call(rbind, rows)
utils::write.csv(d, file.path(dir, "data.csv"), row.names = FALSE)
py <- sprintf('
import sys, os, csv, numpy as np
if os.environ.get("STABLE") == "1":
    _argsort = np.argsort
    np.argsort = lambda a, *x, **k: _argsort(a, kind="stable")
import types
# the ue_metrics folder as a package whose __init__ is not run (it imports
# every metric, and so scikit-learn and SciPy)
pkg = types.ModuleType("uem")
pkg.__path__ = [os.path.join(os.environ["LM_POLYGRAPH"], "src",
                             "lm_polygraph", "ue_metrics")]
sys.modules["uem"] = pkg
from uem.pred_rej_area import PredictionRejectionArea
src = open(os.path.join(os.environ["RANK_CALIBRATION"],
                        "metrics", "calibration.py")).read()
def grab(name):
    i = src.index("def " + name); j = src.index("\\ndef ", i + 1)
    return src[i:j]
ns = {"np": np}
exec(grab("regressed_correctness_vs_uncertainty_cdf"), ns)
exec(grab("plugin_RCE_est"), ns)
d = {}
for r in csv.DictReader(open("%s/data.csv")):
    d.setdefault(int(r["set"]), []).append((float(r["unc"]), float(r["q"])))
out = open("%s/py.csv", "w")
out.write("set,B,p,rce,prr1\\n")
for k, v in d.items():
    u = np.array([a for a, b in v]); q = np.array([b for a, b in v])
    m = PredictionRejectionArea(max_rejection=1.0)
    t = (q - q.min()) / (q.max() - q.min())
    prr = (m(u, q) - t.mean()) / (m(-q, q) - t.mean())
    for B in (3, 20):
        for p in (1, 2):
            rce = ns["plugin_RCE_est"](q, u, num_bins=B, p=p)
            out.write(f"{k},{B},{p},{rce!r},{prr!r}\\n")
out.close()
', dir, dir)
writeLines(py, file.path(dir, "parity.py"))
stopifnot(system2("python3", file.path(dir, "parity.py")) == 0)
res <- utils::read.csv(file.path(dir, "py.csv"))
diff <- t(vapply(seq_len(nrow(res)), function(i) {
  x <- d[d$set == res$set[i], ]
  c(
    rce = rank_calibration_error_vec(-x$unc, x$q, n_bins = res$B[i],
      p = res$p[i]) - res$rce[i],
    prr = prr_vec(-x$unc, x$q, ties = "lm_polygraph") - res$prr1[i]
  )
}, numeric(2)))
cat("largest |difference| over", nrow(res), "cases:\n")
print(apply(abs(diff), 2, max))
