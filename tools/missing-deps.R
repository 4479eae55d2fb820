# Prints the R packages that DESCRIPTION needs (Imports, LinkingTo, Suggests)
# and that are not installed, one per line. Base packages are skipped.
fields <- c("Depends", "Imports", "LinkingTo", "Suggests")
desc <- read.dcf("DESCRIPTION", fields = fields)
pkgs <- unlist(strsplit(desc[!is.na(desc)], ","))
pkgs <- trimws(sub("\\(.*\\)", "", pkgs))
base <- rownames(installed.packages(priority = "base"))
pkgs <- setdiff(pkgs[nzchar(pkgs)], c("R", base))
# packages the demo or the data script use beyond DESCRIPTION, one a line
extra <- trimws(readLines("tools/extra-packages.txt"))
pkgs <- union(pkgs, extra[nzchar(extra) & !startsWith(extra, "#")])
have <- rownames(installed.packages())
cat(setdiff(pkgs, have), sep = "\n")
