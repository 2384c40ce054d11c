// The relative least-squares line of irrfit, against hand-computed cases.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "linear_fit.hpp"

using irr::fit::RelativeLeastSquares;

TEST(LinearFit, RecoversAnExactLine) {
  // t = 2 + 0.5 s at s = 1, 10, 100, 1000: every weighting finds it, residual 0.
  const std::vector<double> s = {1, 10, 100, 1000}, t = {2.5, 7, 52, 502};
  const auto line = RelativeLeastSquares(s, t);
  EXPECT_NEAR(line.intercept, 2, 1e-9);
  EXPECT_NEAR(line.slope, 0.5, 1e-12);
  EXPECT_NEAR(line.max_relative_residual, 0, 1e-12);
}

TEST(LinearFit, WeighsRelativeErrors) {
  // Two points determine the line; a third, off by 10 % at a small size, pulls the intercept
  // far more than an ordinary least-squares fit would (hand-solved normal equations with
  // w = 1/t^2: points (0, 1), (0, 1.1), (100, 101)).
  const std::vector<double> s = {0, 0, 100}, t = {1, 1.1, 101};
  const auto line = RelativeLeastSquares(s, t);
  // Weighted mean of the two s = 0 points: (1/1 * 1 + 1/1.21 * 1.1) / (1 + 1/1.21).
  const double intercept = (1 + 1.1 / 1.21) / (1 + 1 / 1.21);
  EXPECT_NEAR(line.intercept, intercept, 1e-9);
  EXPECT_NEAR(line.slope, (101 - intercept) / 100, 1e-9);
}

TEST(LinearFit, NegativeInterceptIsClampedToZero) {
  // The best unconstrained line through (1, 1) and (2, 3) is -1 + 2 s; a latency cannot be
  // negative, so the fit is s * slope with slope = sum(w s t) / sum(w s^2) = (1 + 2/3)/(1 + 4/9).
  const auto line = RelativeLeastSquares({1, 2}, {1, 3});
  EXPECT_EQ(line.intercept, 0);
  EXPECT_NEAR(line.slope, (1 + 2.0 / 3) / (1 + 4.0 / 9), 1e-12);
}

TEST(LinearFit, NegativeSlopeIsClampedToZero) {
  const auto line = RelativeLeastSquares({1, 2}, {2, 1});
  EXPECT_EQ(line.slope, 0);
  EXPECT_NEAR(line.intercept, (2.0 / 4 + 1.0) / (1.0 / 4 + 1.0), 1e-12);
}

TEST(LinearFit, RejectsUnusableInput) {
  EXPECT_THROW(RelativeLeastSquares({1}, {1}), std::invalid_argument);
  EXPECT_THROW(RelativeLeastSquares({4, 4}, {1, 2}), std::invalid_argument);
  EXPECT_THROW(RelativeLeastSquares({1, 2}, {0, 2}), std::invalid_argument);
  EXPECT_THROW(RelativeLeastSquares({1, 2}, {1}), std::invalid_argument);
}

TEST(Median, OddAndEvenCounts) {
  EXPECT_EQ(irr::fit::Median({3, 1, 2}), 2);
  EXPECT_EQ(irr::fit::Median({4, 1, 3, 2}), 2.5);
}
