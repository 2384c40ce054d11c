#include "linear_fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace irr::fit {

Line RelativeLeastSquares(const std::vector<double>& s, const std::vector<double>& t) {
  if (s.size() != t.size() || s.size() < 2) {
    throw std::invalid_argument("a line needs at least two (size, time) points");
  }
  double sw = 0, sws = 0, swss = 0, swt = 0, swst = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!(t[i] > 0)) throw std::invalid_argument("times must be > 0 to weigh by 1/t^2");
    const double w = 1 / (t[i] * t[i]);
    sw += w;
    sws += w * s[i];
    swss += w * s[i] * s[i];
    swt += w * t[i];
    swst += w * s[i] * t[i];
  }
  const double det = sw * swss - sws * sws;
  if (!(det > 1e-12 * sw * swss)) throw std::invalid_argument("a line needs two distinct sizes");
  Line line;
  line.intercept = (swss * swt - sws * swst) / det;
  line.slope = (sw * swst - sws * swt) / det;
  if (line.intercept < 0) {
    line.intercept = 0;
    line.slope = swst / swss;
  } else if (line.slope < 0) {
    line.slope = 0;
    line.intercept = swt / sw;
  }
  for (std::size_t i = 0; i < s.size(); ++i) {
    const double fitted = line.intercept + line.slope * s[i];
    line.max_relative_residual =
        std::max(line.max_relative_residual, std::fabs(fitted - t[i]) / t[i]);
  }
  return line;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace irr::fit
