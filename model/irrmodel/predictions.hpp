// The model beside measurements (irrmodel --from-results): for each case of an irrbench
// raw.csv, the model time of the tree the measured operation runs, of the optimal tree and the
// lower bound, with the cost parameters of a fit.txt. The join of the shared file formats
// (formats/) with the model; the model itself knows nothing of files.
#pragma once

#include <string>
#include <vector>

#include "cost_model.hpp"
#include "loggp.hpp"
#include "tree_costs.hpp"

namespace irr::model {

struct Prediction {
  std::string op, dist;
  long long b = 0, m = 0;
  std::string problem;  // "irregular" (the m_i), or "padded" (p blocks of max m_i)
  std::string tree;     // linear, oblivious, adaptive, optimal (optimal-adaptive: an Optimal op
                        // that ran the adaptive tree, optimal-nodes: the node-aware tree); ""
                        // for a library's own algorithm
  double min_us = 0, median_us = 0;
  double model_us, optimal_us, lower_bound_us;  // NaN where not applicable / skipped
  // The three trees of libtuwcoll for this problem, whichever op was measured: what TUW_*,
  // Binomial_* and Linear_* would take here (gather or scatter as the op).
  double adaptive_us, oblivious_us, linear_us;
  // Persistent ops (X_init): the measured median of their setup (X_setup: init + free) in the
  // same file, and after how many calls it pays off against the plain call it replaces (X, or
  // TUW's for Optimal_*_init, which has no plain call): measured, setup / (plain - persistent)
  // medians, and by the model, setup / (model of the plain call - model of the persistent one),
  // where TUW's plain call also pays its ceil(log2 p) construction rounds, alpha + 32 beta each
  // (Lemma 3: constant-size messages, one on each round's critical path). NaN where not
  // applicable or never (the persistent op is not faster).
  double setup_us, break_even_calls, model_break_even_calls;
  double construction_us;  // the model of TUW's construction at this p
  // The LogGP model (algorithms/tree/loggp.hpp; NaN where the fit has no o and g, or for a tree
  // it does not model): the op's tree, step by step per process, two levels where the file
  // gives the nodes, each message at the fit's measured time for its size; and the LogP lower
  // bound of any gather/scatter of this problem at the network's latency (the one-level bound).
  double loggp_us, logp_bound_us;
  int radix = 0;  // the radix of a -k tree (TUWk, Binomialk): the run's TUWCOLL_RADIX or the
                  // model's choice, as libtuwcoll makes it; 0 for others
  bool two_level = false;  // model_us and the trees' times with the costs inside a node
  bool measured = false;   // ... with the measured costs of each message size
};

struct PredictOptions {
  DpMethod dp = DpMethod::kFast;
  double max_mem = 0;      // bytes the optimal DP may use; beyond, optimal_us is NaN
  bool two_level = false;  // messages inside a node at the fit's local costs
  bool measured = false;   // messages at the fit's measured one-way times, not its line
};

// A fit's costs, per byte, in microseconds: across nodes (alpha, beta; gamma the root's copy)
// and, where irrfit measured them, inside a node (shared memory).
struct FitCosts {
  CostParams per_byte;
  bool has_local = false;
  CostParams local;
  // LogGP (fit.txt's overhead_us and gap_us): the radix-choice costs libtuwcoll uses, with the
  // measured one-way times of the point lines (radix_costs.one_way, one_way_local: empty where
  // fewer than two sizes were measured, or none inside a node), and the model's parameters (one
  // level; Predict sets the nodes per file).
  bool has_loggp = false;
  tuw::tree::RadixCosts radix_costs;
  tuw::tree::LogGPParams loggp;
};

// Reads the fit file. False with *error.
bool ReadCosts(const std::string& fit_path, FitCosts* costs, std::vector<std::string>* notes,
               std::string* error);

// options.two_level: tree times with messages inside a node at the fit's local costs (an error
// where the fit has none or the raw file's node_starts does not give every rank's node); the
// optimal DP stays the paper's one-level model, the lower bound takes the cheaper level.
// options.measured: tree times with each message at the fit's measured one-way time for its size
// (with two_level, inside a node at the measured local time; an error where the fit has no such
// points); the optimal DP and the lower bound stay the linear model's.

// One row per measured case with status ok (harness operations are left out). The problem is
// regenerated from the file's p, seed, rho and the case's distribution and b, and checked
// against the m and m' recorded in it. False with *error on an unusable file.
bool Predict(const std::string& raw_csv, const FitCosts& costs, const PredictOptions& options,
             std::vector<Prediction>* rows, std::vector<std::string>* notes, std::string* error);

}  // namespace irr::model
