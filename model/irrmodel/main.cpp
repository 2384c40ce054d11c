// irrmodel: completion times of gather/scatter trees in the linear cost model of Traeff 2018
// (Section 5.1, Table 1) for the block-size distributions of irrbench, and the model beside
// measurements (--from-results raw.csv --alpha-beta fit.txt).
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli.hpp"
#include "distributions.hpp"
#include "link_greedy_tree.hpp"
#include "loggp.hpp"
#include "predictions.hpp"
#include "tables.hpp"
#include "tree_costs.hpp"

namespace {

irr::model::DpMethod DpMethodFromName(const std::string& name) {
  if (name == "fast") return irr::model::DpMethod::kFast;
  if (name == "windowed") return irr::model::DpMethod::kWindowed;
  return irr::model::DpMethod::kReference;
}

using irr::model::CostParams;
using irr::model::Result;
using irr::model::TreeType;

struct Options {
  long long p = 2000;
  long long b = 1000;
  CostParams cost{100, 1, 1};
  double rho = 5;
  long long seed = 1;
  std::string root = "both";  // N, best or both
  std::vector<std::string> dists = irr::dist::AllNames();
  std::vector<std::string> trees = irr::model::TreeNames();
  std::string format = "table";
  std::string op = "gather";
  std::string two_blocks = "2018";
  std::string oblivious_roots = "all";
  std::string dp = "fast";
  std::int64_t max_mem = 0;
  std::string from_results, alpha_beta;  // predictions for measurements
  std::string tsv_out;                   // --from-results: the tsv as well, into this file
  bool two_level = false;
  bool measured = false;
  // --model loggp: the LogGP model of the same trees (algorithms/tree/loggp.hpp)
  std::string model = "linear";
  double overhead = 0, gap = -1;         // gap < 0: the overhead
  long long eager_limit = 0, radix = 0;  // radix 0: the model's choice
  bool barrier_start = false;
};

// The flags that only --model loggp uses.
const std::vector<std::string> kLogGPFlags = {"--overhead", "--gap", "--eager-limit", "--radix",
                                              "--barrier-start"};

// The flags that describe a problem: --from-results takes the problem from its file.
const std::vector<std::string> kProblemFlags = {"--p",
                                                "--b",
                                                "--alpha",
                                                "--beta",
                                                "--gamma",
                                                "--rho",
                                                "--seed",
                                                "--root",
                                                "--dists",
                                                "--trees",
                                                "--op",
                                                "--two-blocks",
                                                "--oblivious-roots",
                                                "--model",
                                                "--overhead",
                                                "--gap",
                                                "--eager-limit",
                                                "--radix",
                                                "--barrier-start"};

const char* kFooter =
    "Model: a message of s units costs alpha + beta*s (nothing when s = 0), a local copy\n"
    "gamma*s, one port per processor. --format tsv columns: distribution m tree root_mode\n"
    "time root (tree lower_bound: alpha + beta*sum_{i!=r} m_i + gamma*m_r).\n\n"
    "--model loggp: the same trees in the LogGP model (algorithms/tree/loggp.hpp), fixed root\n"
    "only: alpha is a ping-pong's one-way time, so L = alpha - 2o; o (--overhead) per message\n"
    "on each side, g (--gap) between two messages of a process, G = beta per unit; messages\n"
    "above --eager-limit units wait for their receive (default 0: all, as SimGrid SMPI);\n"
    "--barrier-start: every process starts when it leaves a dissemination barrier and the\n"
    "time is the slowest process's own (what irrbench measures). linear, oblivious, adaptive\n"
    "as libtuwcoll runs them (adaptive: TUW's construction rounds, then the data; oblivious:\n"
    "children probed), binary and optimal: the linear model's trees as a plan (data only);\n"
    "oblivious-k, adaptive-k, planned-k: Binomialk, TUWk, and TUWk's tree without its\n"
    "construction (a start of TUWk_*_init), each at radix r (--radix, else the model's\n"
    "choice for it, tree::ModelRadix, as libtuwcoll makes it: a gather's adaptive-k on\n"
    "TUWk_Gatherv's tree, whose construction carries small cubes); construction: TUW's rounds\n"
    "alone (radix 2); logp_bound: the LogP lower bound of any gather or scatter\n"
    "(tree::LogPLowerBound). gamma is not modelled.\n\n"
    "Predictions for measurements:\n"
    "  irrmodel --from-results raw.csv --alpha-beta fit.txt [--format table|tsv]\n"
    "  For every case irrbench measured: the measured min and median, the model time of the\n"
    "  tree the operation runs (formats/operations.tsv: TUW adaptive, Binomial oblivious,\n"
    "  Linear linear; none for the library's own), of the optimal tree and the lower bound,\n"
    "  at the file's p and root, in microseconds with alpha, beta, gamma from fit.txt (irrfit's\n"
    "  output; sizes in bytes). Padded operations are held against the padded problem they\n"
    "  move. tsv columns: op distribution b m problem tree measured_min_us measured_median_us\n"
    "  model_us median_over_model optimal_us lower_bound_us adaptive_us oblivious_us\n"
    "  linear_us (each tree of libtuwcoll on the case's problem) setup_us break_even_calls\n"
    "  model_break_even_calls (persistent ops: the median of their X_setup, and after how\n"
    "  many calls it pays off against the plain call, measured and by the model; the plain\n"
    "  TUW call's model adds ceil(log2 p) construction rounds of alpha + 32 beta).\n"
    "  Optimal_*_init: the model of the tree it executes (the exact DP up to p = 256, the\n"
    "  windowed one above, as the library; tree optimal-adaptive where the root ran TUW's\n"
    "  adaptive tree because the model saw less than 5 % gain; optimal-nodes where it ran the\n"
    "  node-aware tree, from the raw file's node_starts; one level: messages inside a node\n"
    "  free).\n"
    "  --two-level: a message between two ranks of one node costs alpha_local + beta_local*s\n"
    "  (fit.txt's alpha_local_us, beta_local_us_per_byte: irrfit with its peer on another\n"
    "  node measures them; nodes from the raw file's contiguous node_starts) in the trees'\n"
    "  model times (model_us, adaptive_us, oblivious_us, linear_us); the lower bound takes the\n"
    "  cheaper level; optimal_us stays the one-level DP's optimum (the 2018 paper's).\n"
    "  --measured-costs: in the same model times a message of s bytes costs irrfit's measured\n"
    "  one-way time at s (fit.txt's point lines, linear between two measured sizes, along the\n"
    "  first or last segment beyond them; with --two-level the fifth column inside a node)\n"
    "  instead of the fitted line: protocol switches and size-dependent bandwidth show;\n"
    "  optimal_us and lower_bound_us stay the linear model's.\n\n"
    "Exit status: 0 success, 2 bad arguments or input.";

int Fail(const std::string& message) {
  std::fprintf(stderr, "irrmodel: %s\n", message.c_str());
  return 2;
}

int FromResults(const Options& o) {
  irr::model::FitCosts costs;
  std::vector<std::string> notes;
  std::string error;
  std::vector<irr::model::Prediction> rows;
  irr::model::PredictOptions options;
  options.dp = DpMethodFromName(o.dp);
  options.max_mem = static_cast<double>(o.max_mem);
  options.two_level = o.two_level;
  options.measured = o.measured;
  if (!irr::model::ReadCosts(o.alpha_beta, &costs, &notes, &error) ||
      !irr::model::Predict(o.from_results, costs, options, &rows, &notes, &error)) {
    return Fail(error);
  }
  for (const auto& note : notes) std::fprintf(stderr, "irrmodel: note: %s\n", note.c_str());
  if (!o.tsv_out.empty()) {  // one run of the model for both forms (hours at p = 6400)
    const std::string tsv = irr::model::PredictionsTsv(rows);
    std::FILE* f = std::fopen(o.tsv_out.c_str(), "w");
    if (f == nullptr || std::fputs(tsv.c_str(), f) < 0 || std::fclose(f) != 0) {
      return Fail("--tsv-out: cannot write '" + o.tsv_out + "'");
    }
  }
  const std::string text = o.format == "tsv"
                               ? irr::model::PredictionsTsv(rows)
                               : irr::model::PredictionsTable(rows, costs, o.alpha_beta);
  std::fputs(text.c_str(), stdout);
  return 0;
}

// The blocks of one distribution as the options define it (both modes use the same).
std::vector<std::int64_t> Blocks(const Options& o, const std::string& dist) {
  irr::dist::Params params;
  params.b = o.b;
  params.rho = o.rho;
  params.seed = static_cast<std::uint64_t>(o.seed);
  params.two_blocks_2018 = o.two_blocks == "2018";
  return irr::dist::Generate(dist, static_cast<int>(o.p), params);
}

irr::model::TreeOptions TreeOptionsOf(const Options& o) {
  irr::model::TreeOptions tree_options;
  tree_options.dp = DpMethodFromName(o.dp);
  tree_options.oblivious_roots = o.oblivious_roots == "all" ? irr::model::ObliviousRoots::kAll
                                                            : irr::model::ObliviousRoots::kPaper;
  return tree_options;
}

// Whether the optimal and binary DPs' tables fit in --max-mem at this p.
bool DpFits(const Options& o) {
  return irr::model::DpBytes(static_cast<int>(o.p)) <= static_cast<std::uint64_t>(o.max_mem);
}

irr::model::ModelTableHeading Heading(const Options& o, const std::string& fixed_root) {
  irr::model::ModelTableHeading heading;
  heading.op = o.op;
  heading.p = static_cast<int>(o.p);
  heading.b = o.b;
  heading.cost = o.cost;
  heading.rho = o.rho;
  heading.fixed_root = fixed_root;
  return heading;
}

int ModelTables(const Options& o) {
  std::vector<std::pair<std::string, int>> modes;  // (root_mode, root)
  if (o.root != "best") {
    modes.emplace_back("fixed", o.root == "both" ? static_cast<int>(o.p / 2) : std::stoi(o.root));
  }
  if (o.root == "both" || o.root == "best") modes.emplace_back("best", -1);
  const irr::model::TreeOptions tree_options = TreeOptionsOf(o);
  const int p = static_cast<int>(o.p);
  const bool dp_fits = DpFits(o);
  std::vector<irr::model::ModelRow> rows;
  for (const auto& dist : o.dists) {
    const std::vector<std::int64_t> blocks = Blocks(o, dist);
    const long long m = std::accumulate(blocks.begin(), blocks.end(), 0LL);
    // The DP tables serve both root modes: computed once per distribution.
    std::unique_ptr<irr::model::OptimalDp> optimal;
    std::unique_ptr<irr::model::BinaryDp> binary;
    for (const auto& [mode, root] : modes) {
      for (const auto& name : o.trees) {
        const TreeType type = irr::model::TreeFromName(name);
        const bool dp = type == TreeType::kOptimal || type == TreeType::kBinary;
        if (dp && !dp_fits) {
          if (mode == modes.front().first) {
            std::fprintf(stderr,
                         "irrmodel: skipping %s for p = %d: its DP tables need %.3g GiB, more "
                         "than --max-mem %.3g GiB\n",
                         name.c_str(), p, irr::model::DpBytes(p) / 1073741824.0,
                         static_cast<double>(o.max_mem) / 1073741824.0);
          }
          continue;
        }
        if (type == TreeType::kOptimal && !optimal) {
          optimal = std::make_unique<irr::model::OptimalDp>(blocks, o.cost, tree_options.dp);
        }
        if (type == TreeType::kBinary && !binary) {
          binary = std::make_unique<irr::model::BinaryDp>(blocks, o.cost);
        }
        Result r;
        if (o.op == "scatter") {
          const auto tree =
              type == TreeType::kOptimal ? optimal->Tree(root)
              : type == TreeType::kBinary
                  ? binary->Tree(root)
                  : irr::model::BuildSequencedTree(type, blocks, o.cost, root, tree_options);
          r = {irr::model::ScatterTime(tree, blocks, o.cost), tree.root};
        } else if (type == TreeType::kOptimal) {
          r = optimal->Fixed(root);
        } else if (type == TreeType::kBinary) {
          r = binary->Fixed(root);
        } else {
          r = irr::model::TreeCost(type, blocks, o.cost, root, tree_options);
        }
        rows.push_back({dist, m, name, mode, r.time, r.root});
      }
      const Result bound = irr::model::LowerBound(blocks, o.cost, root);
      rows.push_back({dist, m, "lower_bound", mode, bound.time, bound.root});
    }
  }
  if (o.format == "tsv") {
    std::fputs(irr::model::ModelTsv(rows).c_str(), stdout);
    return 0;
  }
  const irr::model::ModelTableHeading heading =
      Heading(o, modes.front().first == "fixed" ? std::to_string(modes.front().second) : "-");
  std::fputs(irr::model::ModelTable(rows, o.trees, heading).c_str(), stdout);
  return 0;
}

// --model loggp: one row per tree (fixed root), then the radix-k trees, TUW's construction
// alone and the LogP bound.
int LogGPTables(const Options& o) {
  const int p = static_cast<int>(o.p);
  const int root = o.root == "both" ? p / 2 : std::stoi(o.root);
  tuw::tree::LogGPParams params;
  params.overhead_us = o.overhead;
  params.gap_us = o.gap < 0 ? o.overhead : o.gap;
  params.network = {std::max(0.0, o.cost.alpha - 2 * o.overhead), o.cost.beta, {}};
  params.node = params.network;
  params.eager_limit_bytes = o.eager_limit;
  params.barrier_start = o.barrier_start;
  using tuw::tree::ModelTree;
  const auto radix_of = [&](ModelTree kind) {
    return o.radix > 0 ? static_cast<int>(o.radix) : tuw::tree::ModelRadix(kind, p, params);
  };
  const bool scatter = o.op == "scatter";
  // TUWk_Gatherv's construction carries small cubes' data: its radix is chosen on that tree.
  const int adaptive_radix = radix_of(scatter ? ModelTree::kAdaptive : ModelTree::kCarried);
  const int oblivious_radix = radix_of(ModelTree::kOblivious);
  const int planned_radix = radix_of(ModelTree::kPlanned);
  const auto kind_time = [&](ModelTree kind, const std::vector<std::int64_t>& blocks, int radix) {
    return scatter ? tuw::tree::ScatterTime(kind, blocks, root, radix, params)
                   : tuw::tree::GatherTime(kind, blocks, root, radix, params);
  };
  const irr::model::TreeOptions tree_options = TreeOptionsOf(o);
  const bool dp_fits = DpFits(o);
  std::vector<irr::model::ModelRow> rows;
  for (const auto& dist : o.dists) {
    const std::vector<std::int64_t> blocks = Blocks(o, dist);
    const long long m = std::accumulate(blocks.begin(), blocks.end(), 0LL);
    const auto add = [&](const std::string& tree, double time) {
      rows.push_back({dist, m, tree, "fixed", time, root});
    };
    for (const auto& name : o.trees) {
      const TreeType type = irr::model::TreeFromName(name);
      if (type == TreeType::kLinear) {
        add(name, kind_time(ModelTree::kLinear, blocks, 2));
      } else if (type == TreeType::kOblivious) {
        add(name, kind_time(ModelTree::kOblivious, blocks, 2));
      } else if (type == TreeType::kAdaptive) {
        add(name, kind_time(ModelTree::kAdaptive, blocks, 2));
      } else if (!dp_fits) {
        std::fprintf(stderr, "irrmodel: skipping %s for p = %d: its DP tables need %.3g GiB\n",
                     name.c_str(), p, irr::model::DpBytes(p) / 1073741824.0);
      } else {  // the linear model's binary or optimal tree, as a plan
        tuw::tree::Tree tree;
        try {
          tree = tuw::tree::ToNodeViews(
              irr::model::BuildSequencedTree(type, blocks, o.cost, root, tree_options), blocks);
        } catch (const std::invalid_argument& e) {  // (not a tree of contiguous ranges)
          return Fail("--model loggp: the " + name + " tree of " + dist +
                      " cannot be executed: " + e.what());
        }
        add(name, scatter ? tuw::tree::PlannedScatterTime(tree, params)
                          : tuw::tree::PlannedGatherTime(tree, params));
      }
    }
    add("oblivious-k", kind_time(ModelTree::kOblivious, blocks, oblivious_radix));
    add("adaptive-k",
        kind_time(scatter ? ModelTree::kRootPlanned : ModelTree::kCarried, blocks, adaptive_radix));
    add("planned-k", kind_time(ModelTree::kPlanned, blocks, planned_radix));
    {  // the LogP bound's schedule as a tree (for the mean block), planned
      const tuw::tree::Tree greedy = tuw::tree::LinkGreedyViews(blocks, root, params);
      add("link-greedy", scatter ? tuw::tree::PlannedScatterTime(greedy, params)
                                 : tuw::tree::PlannedGatherTime(greedy, params));
    }
    add("construction", tuw::tree::ConstructionTime(p, blocks, root, 2, params));
    add("logp_bound", tuw::tree::LogPLowerBound(blocks, root, params, params.network));
  }
  if (o.format == "tsv") {
    std::fputs(irr::model::ModelTsv(rows).c_str(), stdout);
    return 0;
  }
  std::vector<std::string> columns = o.trees;
  for (const char* extra :
       {"oblivious-k", "adaptive-k", "planned-k", "link-greedy", "construction"})
    columns.push_back(extra);
  irr::model::ModelTableHeading heading = Heading(o, std::to_string(root));
  char line[512];
  std::snprintf(line, sizeof line,
                "LogGP: L = %g, o = %g, g = %g, G = %g, eager limit %lld, %s; oblivious-k at "
                "radix %d, adaptive-k at radix %d, planned-k at radix %d",
                params.network.latency_us, params.overhead_us, params.gap_us, o.cost.beta,
                o.eager_limit, o.barrier_start ? "barrier start" : "common start", oblivious_radix,
                adaptive_radix, planned_radix);
  heading.model_line = line;
  heading.bound_column = "logp_bound";
  std::fputs(irr::model::ModelTable(rows, columns, heading).c_str(), stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  irr::cli::Parser cli("irrmodel",
                       "irrmodel: gather/scatter tree completion times in the linear cost "
                       "model (Traeff 2018)");
  cli.Int("--p", &o.p, 1, 1000000000, "processors (default 2000)");
  cli.Int("--b", &o.b, 1, 1LL << 40, "average block size (default 1000)");
  cli.Number("--alpha", &o.cost.alpha, 0, false, "latency per message (default 100)");
  cli.Number("--beta", &o.cost.beta, 0, false, "time per unit (default 1)");
  cli.Number("--gamma", &o.cost.gamma, 0, false, "local copy time per unit (default 1)");
  cli.Number("--rho", &o.rho, 1, true, "spikes factor / skewed count (default 5)");
  cli.Int("--seed", &o.seed, 0, 1LL << 62, "seed of the random distributions (default 1)");
  std::string root_text;
  cli.Text("--root", &root_text,
           "N|best|both: fixed root N, the best root, or both (default both, N = floor(p/2))");
  cli.Names("--dists", &o.dists, irr::dist::AllNames(), "distribution",
            "distributions (default all)");
  cli.Names("--trees", &o.trees, irr::model::TreeNames(), "tree", "trees (default all)");
  cli.Choice("--op", &o.op, {"gather", "scatter"}, "operation",
             "scatter evaluates the same trees sending top-down (default gather)");
  cli.Choice("--format", &o.format, {"table", "tsv"}, "format",
             "table: the paper's layout; tsv: one row per value (default table)");
  cli.Choice("--two-blocks", &o.two_blocks, {"2017", "2018"}, "definition",
             "two_blocks as in 2017 (m_0 = m_{p-1} = b) or 2018 (floor(pb/2); default)");
  cli.Choice("--oblivious-roots", &o.oblivious_roots, {"all", "paper"}, "root set",
             "best oblivious root over all ranks (default) or over 0, 2^k-1, p-1 as the 2018 "
             "paper's Table 1 did");
  cli.Choice("--dp", &o.dp, {"fast", "reference", "windowed"}, "method",
             "the optimal DP's implementation (windowed: the approximation Optimal_*_init uses "
             "above TUWCOLL_OPTIMAL_EXACT_P processes)");
  cli.Size("--max-mem", &o.max_mem,
           "memory the DP tables may use, e.g. 8G (default half of physical memory)");
  cli.Text("--from-results", &o.from_results, "an irrbench raw.csv: the model beside it");
  cli.Text("--alpha-beta", &o.alpha_beta, "the fit file (irrfit) for --from-results");
  cli.Text("--tsv-out", &o.tsv_out,
           "--from-results: also write the tsv form to FILE (one model run for both forms)");
  cli.Flag("--two-level", &o.two_level,
           "--from-results: messages inside a node at the fit's alpha_local_us and "
           "beta_local_us_per_byte (irrfit across nodes measures them)");
  cli.Flag("--measured-costs", &o.measured,
           "--from-results: each message at the fit's measured one-way time for its size (its "
           "point lines, interpolated) instead of alpha + beta*s; with --two-level, inside a "
           "node at the measured local time");
  cli.Choice("--model", &o.model, {"linear", "loggp"}, "model",
             "linear: the 2018 paper's (default); loggp: LogGP, fixed root (below)");
  cli.Number("--overhead", &o.overhead, 0, false, "--model loggp: o per message (default 0)");
  cli.Number("--gap", &o.gap, 0, false, "--model loggp: g (default the overhead)");
  cli.Int("--eager-limit", &o.eager_limit, 0, 1LL << 40,
          "--model loggp: messages up to this size leave before their receive (default 0)");
  cli.Int("--radix", &o.radix, 2, tuw::tree::kMaxRadix,
          "--model loggp: the radix of oblivious-k and adaptive-k (default the model's choice)");
  cli.Flag("--barrier-start", &o.barrier_start,
           "--model loggp: start after a barrier, time of the slowest process");
  cli.Footer(kFooter);
  std::string output, error;
  switch (cli.Parse(argc, argv, &output, &error)) {
    case irr::cli::Parser::Outcome::kExitSuccess:
      std::fputs(output.c_str(), stdout);
      return 0;
    case irr::cli::Parser::Outcome::kExitError:
      return Fail(error);
    case irr::cli::Parser::Outcome::kRun:
      break;
  }
  if (cli.Given("--root")) {
    long long r = 0;
    if (root_text != "best" && root_text != "both" &&
        !irr::cli::ParseInt(root_text, 0, 1LL << 30, &r).empty()) {
      return Fail("--root: '" + root_text + "' is not a rank >= 0, 'best' or 'both'");
    }
    o.root = root_text;
  }
  // The flags that only --from-results uses.
  const std::vector<std::string> result_flags = {"--alpha-beta", "--two-level", "--measured-costs",
                                                 "--tsv-out"};
  for (const auto& flag : result_flags) {
    if (cli.Given(flag) && !cli.Given("--from-results")) {
      return Fail(flag + " needs --from-results raw.csv");
    }
  }
  if (o.model != "loggp") {
    for (const auto& flag : kLogGPFlags) {
      if (cli.Given(flag)) return Fail(flag + " needs --model loggp");
    }
  } else if (o.root == "best") {
    return Fail("--root best: --model loggp models a fixed root only (--root N, default p/2)");
  } else if (2 * o.overhead > o.cost.alpha) {
    return Fail("--overhead: " + std::to_string(o.overhead) + " is more than half of --alpha " +
                std::to_string(o.cost.alpha) +
                " (alpha, a ping-pong's one-way time, holds both overheads: L = alpha - 2o)");
  }
  if (cli.Given("--from-results")) {
    if (!cli.Given("--alpha-beta")) {
      return Fail("--from-results needs --alpha-beta FILE (the cost parameters: run irrfit)");
    }
    for (const auto& flag : kProblemFlags) {
      if (cli.Given(flag)) {
        return Fail(
            "--from-results takes the problem from the file and the costs from --alpha-beta; " +
            flag + " cannot be combined with it");
      }
    }
  }
  if (o.root != "best" && o.root != "both" && std::stoll(o.root) >= o.p) {
    return Fail("--root: " + o.root + " is not a rank of p = " + std::to_string(o.p) + " (0.." +
                std::to_string(o.p - 1) + ")");
  }
  if (o.max_mem == 0) {
    o.max_mem = static_cast<std::int64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE) / 2;
  }
  if (!o.from_results.empty()) return FromResults(o);
  return o.model == "loggp" ? LogGPTables(o) : ModelTables(o);
}
