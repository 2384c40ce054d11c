// The LogGP costs of irrfit's fit file as libtuwcoll chooses its radixes and small-call trees
// with them (tree::RadixCosts) and irrmodel prices those choices: one place for both. Header-only
// because irrformats does not link the tree code; only libtuwcoll and irrmodel include it.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "fit_file.hpp"
#include "loggp.hpp"

namespace irr::formats {

// alpha and beta (and a node's, where measured), o and g where irrfit measured them (else
// RadixCosts' own), and the point lines' one-way curves. False with *error (a bad point line).
inline bool RadixCostsOfFit(const Fit& fit, const std::string& path, tuw::tree::RadixCosts* costs,
                            std::string* error) {
  costs->alpha_us = fit.alpha_us;
  costs->beta_us_per_byte = fit.beta_us_per_byte;
  if (fit.has_loggp) {
    costs->overhead_us = fit.overhead_us;
    costs->gap_us = fit.gap_us;
  }
  costs->has_local = fit.has_local;
  costs->alpha_local_us = fit.alpha_local_us;
  costs->beta_local_us_per_byte = fit.beta_local_us_per_byte;
  std::vector<FitPoint> points;
  if (!ReadPoints(fit, path, &points, error)) return false;
  if (points.size() < 2) return true;
  std::vector<double> bytes, network, local;
  for (const FitPoint& point : points) {
    bytes.push_back(point.bytes);
    network.push_back(point.one_way_us);
    local.push_back(point.local_one_way_us);
  }
  costs->one_way = tuw::tree::MeasuredCurve(bytes, network);
  if (!std::isnan(local.front())) costs->one_way_local = tuw::tree::MeasuredCurve(bytes, local);
  return true;
}

}  // namespace irr::formats
