// irrmodel's output: the model's completion times (the 2018 paper's Table 1 layout, or tsv) and
// the model beside measurements (table or tsv). Formatting only.
#pragma once

#include <string>
#include <vector>

#include "cost_model.hpp"
#include "predictions.hpp"

namespace irr::model {

// One tree's time on one distribution, for a fixed root ("fixed") or the best ("best").
struct ModelRow {
  std::string dist;
  long long m;
  std::string tree, mode;
  double time;
  int root;
};

struct ModelTableHeading {
  std::string op;
  int p = 0;
  long long b = 0;
  CostParams cost;
  double rho = 0;
  std::string fixed_root;  // the fixed root, or "-" when only best roots were asked for
  std::string model_line;  // another model's parameters (else the linear model's heading)
  std::string bound_column = "lower_bound";
};

// tsv: distribution m tree root_mode time root; table: one line per distribution and root
// mode, one column per tree (`trees` in order, then the lower bound); "skipped" where missing.
std::string ModelTsv(const std::vector<ModelRow>& rows);
std::string ModelTable(const std::vector<ModelRow>& rows, const std::vector<std::string>& trees,
                       const ModelTableHeading& heading);

std::string PredictionsTsv(const std::vector<Prediction>& rows);
std::string PredictionsTable(const std::vector<Prediction>& rows, const FitCosts& costs,
                             const std::string& fit_path);

}  // namespace irr::model
