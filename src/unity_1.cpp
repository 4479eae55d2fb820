// The package's C++ is compiled as two translation units (src/Makevars,
// OBJECTS): each glue file (rcpp_*.cpp, one concern each) is included in
// one of them. Parsing Rcpp.h took most of the compile time of every small
// glue file: 17 units took about 65 s of CPU to compile, two take about
// 21 s. tools/build.sh checks that every .cpp file is in exactly one unit.
// Anonymous namespaces of the files share the unit: names there must
// differ between files.
#include "rcpp_metrics.cpp"
#include "rcpp_influence.cpp"
#include "rcpp_calibration.cpp"
#include "rcpp_interrupt.cpp"
#include "rcpp_input_checks.cpp"
#include "rcpp_workspace.cpp"
#include "rcpp_threads.cpp"
#include "rcpp_aurc.cpp"
