// Fitting t = intercept + slope * s to measurements by least squares on relative errors
// (weights 1/t^2): latencies of 1 us and transfers of 1000 us count alike, which an ordinary
// least-squares fit would not do.
#pragma once

#include <vector>

namespace irr::fit {

struct Line {
  double intercept = 0;
  double slope = 0;
  double max_relative_residual = 0;  // max |fit - t| / t over the points
};

// Both coefficients are kept >= 0 (a negative latency or bandwidth term is not a cost): when
// the unconstrained optimum has one negative, that one is 0 and the other is refitted.
// Needs at least two distinct s and every t > 0; throws std::invalid_argument otherwise.
Line RelativeLeastSquares(const std::vector<double>& s, const std::vector<double>& t);

// The median of a non-empty sample (mean of the middle two for an even count).
double Median(std::vector<double> values);

}  // namespace irr::fit
