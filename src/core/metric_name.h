// Metric names with parameters, as the R side passes them to the kernels:
// "prr@0.5" (max_rejection), "partial_aurc@0.2,0.8" (coverage range). The
// part before '@' names the metric; the numbers after it, comma-separated,
// are its parameters (R/metric-registry.R, metric_kernels()).
#ifndef AURC_CORE_METRIC_NAME_H
#define AURC_CORE_METRIC_NAME_H

#include <cstdlib>
#include <string>
#include <vector>

namespace aurc {

// Splits `name` into its base name and parameters. Returns false when a
// parameter is not a number.
inline bool split_metric_name(const std::string& name, std::string& base,
                              std::vector<double>& params) {
  params.clear();
  const std::size_t at = name.find('@');
  base = name.substr(0, at);
  if (at == std::string::npos) return true;
  std::size_t pos = at + 1;
  while (pos <= name.size()) {
    std::size_t end = name.find(',', pos);
    if (end == std::string::npos) end = name.size();
    const std::string part = name.substr(pos, end - pos);
    char* stop = nullptr;
    const double v = std::strtod(part.c_str(), &stop);
    if (part.empty() || stop != part.c_str() + part.size()) return false;
    params.push_back(v);
    pos = end + 1;
  }
  return true;
}

// The parameter `k` of a split name, or `otherwise` when absent.
inline double metric_param(const std::vector<double>& params, std::size_t k,
                           double otherwise) {
  return k < params.size() ? params[k] : otherwise;
}

}  // namespace aurc

#endif
