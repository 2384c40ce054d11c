// Model predictions beside measurements: for each case of an irrbench raw.csv, the model time
// of the tree the measured algorithm uses, of the optimal tree and the lower bound, with the
// cost parameters irrfit measured on the machine (irrmodel --from-results).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "cost_model.hpp"
#include "dp_trees.hpp"

namespace irr::model {

// A fit file (irrfit's output, or written by hand): key=value lines with alpha_us and
// beta_us_per_byte, optionally gamma_us_per_byte (default: beta, said in *notes). Costs are in
// microseconds per byte. False with *error naming the file and the bad key otherwise.
bool ReadFit(const std::string& path, CostParams* per_byte, std::vector<std::string>* notes,
             std::string* error);

struct Prediction {
  std::string op, dist;
  long long b = 0, m = 0;
  std::string problem;  // "irregular" (the m_i), or "padded" (p blocks of max m_i)
  std::string tree;     // linear, oblivious, adaptive; "" for a library's own algorithm
  double min_us = 0, median_us = 0;
  double model_us, optimal_us, lower_bound_us;  // NaN where not applicable / skipped
  // The three trees of libtuwcoll for this problem, whichever op was measured: what TUW_*,
  // Binomial_* and Linear_* would take here (gather or scatter as the op).
  double adaptive_us, oblivious_us, linear_us;
};

struct PredictOptions {
  DpMethod dp = DpMethod::kFast;
  double max_mem = 0;  // bytes the optimal DP may use; beyond, optimal_us is NaN
};

// One row per measured case with status ok (Empty/Barrier measure the harness: left out).
// The problem is regenerated from the file's p, seed, rho and the case's distribution and b,
// and checked against the m and m' recorded in it. False with *error on an unusable file.
bool Predict(const std::string& raw_csv, const CostParams& per_byte, const PredictOptions& options,
             std::vector<Prediction>* rows, std::vector<std::string>* notes, std::string* error);

}  // namespace irr::model
