// irrmodel: completion times of gather/scatter trees in the linear cost model of Traeff 2018
// (Section 5.1, Table 1) for the block-size distributions of irrbench.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "distributions.hpp"
#include "predictions.hpp"
#include "tree_costs.hpp"

namespace {

using irr::model::CostParams;
using irr::model::Result;
using irr::model::TreeType;

struct Options {
  int p = 2000;
  long long b = 1000;
  CostParams cost{100, 1, 1};
  double rho = 5;
  unsigned long long seed = 1;
  std::string root = "both";  // N, best or both
  std::vector<std::string> dists = irr::dist::AllNames();
  std::vector<std::string> trees = irr::model::TreeNames();
  std::string format = "table";
  std::string op = "gather";
  bool two_blocks_2018 = true;
  irr::model::TreeOptions tree_options;
  double max_mem = 0;
  std::string from_results, alpha_beta;    // predictions for measurements
  std::vector<std::string> problem_flags;  // given flags that --from-results replaces
};

const char* kHelp =
    "irrmodel: gather/scatter tree completion times in the linear cost model (Traeff 2018)\n"
    "usage: irrmodel [options]\n\n"
    "  --p N              processors, >= 1 (default 2000)\n"
    "  --b B              average block size, >= 1 (default 1000)\n"
    "  --alpha A          latency per message, >= 0 (default 100)\n"
    "  --beta B           time per unit, >= 0 (default 1)\n"
    "  --gamma G          local copy time per unit, >= 0 (default 1)\n"
    "  --rho X            spikes factor / skewed count, > 1 (default 5)\n"
    "  --seed S           seed of the random distributions (default 1)\n"
    "  --root N|best|both fixed root N, the best root, or both (default both, N = floor(p/2))\n"
    "  --dists LIST       distributions (default all)\n"
    "  --trees LIST       linear,binary,oblivious,adaptive,optimal (default all)\n"
    "  --op gather|scatter  scatter evaluates the same trees sending top-down (default gather)\n"
    "  --format table|tsv table: the paper's layout; tsv columns\n"
    "                     distribution m tree root_mode time root (tree lower_bound: the bound\n"
    "                     alpha + beta*sum_{i!=r} m_i + gamma*m_r)\n"
    "  --two-blocks 2017|2018  two_blocks as in 2017 (m_0 = m_{p-1} = b) or 2018 (floor(pb/2);\n"
    "                     default, as in the 2018 paper's Table 1)\n"
    "  --oblivious-roots all|paper  best oblivious root over all ranks (default) or over\n"
    "                     0, 2^k-1, p-1 as the 2018 paper's Table 1 did\n"
    "  --dp fast|reference  the optimal tree's DP implementation (default fast)\n"
    "  --max-mem BYTES    memory the DP tables may use (default half of physical memory)\n"
    "  --help\n\n"
    "Predictions for measurements:\n"
    "  irrmodel --from-results raw.csv --alpha-beta fit.txt [--format table|tsv]\n"
    "  For every case irrbench measured: the measured min and median, the model time of the\n"
    "  tree the algorithm uses (TUW: adaptive, Binomial: oblivious, Linear: linear; none for\n"
    "  the library's own), of the optimal tree and the lower bound, at the file's p and root,\n"
    "  in microseconds with alpha, beta, gamma from fit.txt (irrfit's output; sizes in bytes,\n"
    "  4 per MPI_INT). Padded operations (MPI_Gather, Guideline2_*) are held against the\n"
    "  padded problem they move. tsv columns: op distribution b m problem tree\n"
    "  measured_min_us measured_median_us model_us median_over_model optimal_us\n"
    "  lower_bound_us adaptive_us oblivious_us linear_us (the last three: each tree of\n"
    "  libtuwcoll on this case's problem, whichever op was measured)\n\n"
    "Exit status: 0 success, 2 bad arguments.\n";

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  for (char ch : text + ",") {
    if (ch == ',') {
      if (!item.empty()) items.push_back(item);
      item.clear();
    } else {
      item += ch;
    }
  }
  return items;
}

bool ParseDouble(const std::string& s, double* x) {
  char* end = nullptr;
  *x = std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size() && std::isfinite(*x);
}

bool ParseInt(const std::string& s, long long* x) {
  char* end = nullptr;
  *x = std::strtoll(s.c_str(), &end, 10);
  return !s.empty() && end == s.c_str() + s.size();
}

// Returns an error message, or "" when the options are valid.
std::string Parse(int argc, char** argv, Options* o, bool* help) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      *help = true;
      return "";
    }
    if (i + 1 >= argc)
      return flag.rfind("--", 0) == 0 ? flag + " needs a value"
                                      : "unexpected '" + flag + "'; see --help";
    const std::string v = argv[++i];
    double x = 0;
    long long n = 0;
    if (flag != "--format" && flag != "--max-mem" && flag != "--dp" && flag != "--from-results" &&
        flag != "--alpha-beta") {
      o->problem_flags.push_back(flag);
    }
    if (flag == "--from-results" || flag == "--alpha-beta") {
      if (v.empty()) return flag + ": empty file name";
      (flag == "--from-results" ? o->from_results : o->alpha_beta) = v;
    } else if (flag == "--p") {
      if (!ParseInt(v, &n) || n < 1 || n > 1000000000)
        return "--p: '" + v + "' is not an integer >= 1";
      o->p = static_cast<int>(n);
    } else if (flag == "--b") {
      if (!ParseInt(v, &n) || n < 1) return "--b: '" + v + "' is not an integer >= 1";
      o->b = n;
    } else if (flag == "--alpha" || flag == "--beta" || flag == "--gamma") {
      if (!ParseDouble(v, &x) || x < 0) return flag + ": '" + v + "' is not a number >= 0";
      (flag == "--alpha" ? o->cost.alpha : flag == "--beta" ? o->cost.beta : o->cost.gamma) = x;
    } else if (flag == "--rho") {
      if (!ParseDouble(v, &x) || !(x > 1)) return "--rho: '" + v + "' is not a number > 1";
      o->rho = x;
    } else if (flag == "--seed") {
      if (!ParseInt(v, &n) || n < 0) return "--seed: '" + v + "' is not an integer >= 0";
      o->seed = static_cast<unsigned long long>(n);
    } else if (flag == "--root") {
      if (v != "best" && v != "both" && (!ParseInt(v, &n) || n < 0)) {
        return "--root: '" + v + "' is not a rank >= 0, 'best' or 'both'";
      }
      o->root = v;
    } else if (flag == "--dists" || flag == "--trees") {
      const auto items = SplitList(v);
      const auto& valid = flag == "--dists" ? irr::dist::AllNames() : irr::model::TreeNames();
      std::string all;
      for (const auto& name : valid) all += (all.empty() ? "" : ",") + name;
      if (items.empty()) return flag + ": empty list; valid: " + all;
      for (const auto& item : items) {
        bool known = false;
        for (const auto& name : valid) known = known || name == item;
        if (!known) {
          return flag + ": unknown " + (flag == "--dists" ? "distribution" : "tree") + " '" + item +
                 "'; valid: " + all;
        }
      }
      (flag == "--dists" ? o->dists : o->trees) = items;
    } else if (flag == "--format") {
      if (v != "table" && v != "tsv") return "--format: '" + v + "'; valid: table,tsv";
      o->format = v;
    } else if (flag == "--op") {
      if (v != "gather" && v != "scatter") return "--op: '" + v + "'; valid: gather,scatter";
      o->op = v;
    } else if (flag == "--two-blocks") {
      if (v != "2017" && v != "2018") return "--two-blocks: '" + v + "'; valid: 2017,2018";
      o->two_blocks_2018 = v == "2018";
    } else if (flag == "--oblivious-roots") {
      if (v != "all" && v != "paper") return "--oblivious-roots: '" + v + "'; valid: all,paper";
      o->tree_options.oblivious_roots =
          v == "all" ? irr::model::ObliviousRoots::kAll : irr::model::ObliviousRoots::kPaper;
    } else if (flag == "--dp") {
      if (v != "fast" && v != "reference") return "--dp: '" + v + "'; valid: fast,reference";
      o->tree_options.dp =
          v == "fast" ? irr::model::DpMethod::kFast : irr::model::DpMethod::kReference;
    } else if (flag == "--max-mem") {
      if (!ParseDouble(v, &x) || x <= 0)
        return "--max-mem: '" + v + "' is not a positive byte count";
      o->max_mem = x;
    } else {
      return "unknown option '" + flag + "'; see --help";
    }
  }
  if (!o->from_results.empty() || !o->alpha_beta.empty()) {
    if (o->from_results.empty()) return "--alpha-beta needs --from-results raw.csv";
    if (o->alpha_beta.empty()) {
      return "--from-results needs --alpha-beta FILE (the cost parameters: run irrfit)";
    }
    if (!o->problem_flags.empty()) {
      return "--from-results takes the problem from the file and the costs from --alpha-beta; " +
             o->problem_flags.front() + " cannot be combined with it";
    }
  }
  if (o->root != "best" && o->root != "both" && std::stoll(o->root) >= o->p) {
    return "--root: " + o->root + " is not a rank of p = " + std::to_string(o->p) + " (0.." +
           std::to_string(o->p - 1) + ")";
  }
  if (o->max_mem == 0) {
    o->max_mem = 0.5 * static_cast<double>(sysconf(_SC_PHYS_PAGES)) *
                 static_cast<double>(sysconf(_SC_PAGESIZE));
  }
  return "";
}

struct Row {
  std::string dist;
  long long m;
  std::string tree, mode;
  double time;
  int root;
};

std::string Number(double t) {
  char buf[64];
  if (t == std::floor(t) && std::fabs(t) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", t);
  } else {
    std::snprintf(buf, sizeof buf, "%.6g", t);
  }
  return buf;
}

std::string Cell(double x, const char* format) {
  if (std::isnan(x)) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

int FromResults(const Options& o) {
  irr::model::CostParams per_byte;
  std::vector<std::string> notes;
  std::string error;
  std::vector<irr::model::Prediction> rows;
  irr::model::PredictOptions options;
  options.dp = o.tree_options.dp;
  options.max_mem = o.max_mem;
  if (!irr::model::ReadFit(o.alpha_beta, &per_byte, &notes, &error) ||
      !irr::model::Predict(o.from_results, per_byte, options, &rows, &notes, &error)) {
    std::fprintf(stderr, "irrmodel: %s\n", error.c_str());
    return 2;
  }
  for (const auto& note : notes) std::fprintf(stderr, "irrmodel: note: %s\n", note.c_str());
  if (o.format == "tsv") {
    std::printf(
        "op\tdistribution\tb\tm\tproblem\ttree\tmeasured_min_us\tmeasured_median_us\tmodel_us"
        "\tmedian_over_model\toptimal_us\tlower_bound_us\tadaptive_us\toblivious_us\tlinear_us\n");
    auto field = [](double x) { return std::isnan(x) ? std::string() : Cell(x, "%.6g"); };
    for (const auto& r : rows) {
      std::printf("%s\t%s\t%lld\t%lld\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.op.c_str(),
                  r.dist.c_str(), r.b, r.m, r.problem.c_str(), r.tree.c_str(),
                  field(r.min_us).c_str(), field(r.median_us).c_str(), field(r.model_us).c_str(),
                  field(r.median_us / r.model_us).c_str(), field(r.optimal_us).c_str(),
                  field(r.lower_bound_us).c_str(), field(r.adaptive_us).c_str(),
                  field(r.oblivious_us).c_str(), field(r.linear_us).c_str());
    }
    return 0;
  }
  std::printf(
      "Measured vs the linear cost model: alpha = %.4g us, beta = %.4g us/byte, gamma = %.4g "
      "us/byte (%s); times in us, m in elements\n",
      per_byte.alpha, per_byte.beta, per_byte.gamma, o.alpha_beta.c_str());
  std::printf("%-18s %-11s %6s %9s %-9s %10s %10s %10s %7s %10s %10s\n", "op", "distribution", "b",
              "m", "tree", "min", "median", "model", "med/mod", "optimal", "bound");
  for (const auto& r : rows) {
    std::printf("%-18s %-11s %6lld %9lld %-9s %10s %10s %10s %7s %10s %10s\n", r.op.c_str(),
                r.dist.c_str(), r.b, r.m, r.tree.empty() ? "-" : r.tree.c_str(),
                Cell(r.min_us, "%.2f").c_str(), Cell(r.median_us, "%.2f").c_str(),
                Cell(r.model_us, "%.2f").c_str(), Cell(r.median_us / r.model_us, "%.2f").c_str(),
                Cell(r.optimal_us, "%.2f").c_str(), Cell(r.lower_bound_us, "%.2f").c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  bool help = false;
  const std::string error = Parse(argc, argv, &o, &help);
  if (help) {
    std::fputs(kHelp, stdout);
    return 0;
  }
  if (!error.empty()) {
    std::fprintf(stderr, "irrmodel: %s\n", error.c_str());
    return 2;
  }
  if (!o.from_results.empty()) return FromResults(o);
  std::vector<std::pair<std::string, int>> modes;  // (root_mode, root)
  if (o.root == "both" || (o.root != "best")) {
    modes.emplace_back("fixed", o.root == "both" ? o.p / 2 : std::stoi(o.root));
  }
  if (o.root == "both" || o.root == "best") modes.emplace_back("best", -1);
  const bool dp_fits = static_cast<double>(irr::model::DpBytes(o.p)) <= o.max_mem;
  std::vector<Row> rows;
  for (const auto& dist : o.dists) {
    irr::dist::Params params;
    params.b = o.b;
    params.rho = o.rho;
    params.seed = o.seed;
    params.two_blocks_2018 = o.two_blocks_2018;
    const std::vector<std::int64_t> blocks = irr::dist::Generate(dist, o.p, params);
    long long m = 0;
    for (auto x : blocks) m += x;
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
                         name.c_str(), o.p, irr::model::DpBytes(o.p) / 1073741824.0,
                         o.max_mem / 1073741824.0);
          }
          continue;
        }
        // The DP tables serve both root modes: compute them once per distribution.
        if (type == TreeType::kOptimal && !optimal) {
          optimal = std::make_unique<irr::model::OptimalDp>(blocks, o.cost, o.tree_options.dp);
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
                  : irr::model::BuildSequencedTree(type, blocks, o.cost, root, o.tree_options);
          r = {irr::model::ScatterTime(tree, blocks, o.cost), tree.root};
        } else if (type == TreeType::kOptimal) {
          r = optimal->Fixed(root);
        } else if (type == TreeType::kBinary) {
          r = binary->Fixed(root);
        } else {
          r = irr::model::TreeCost(type, blocks, o.cost, root, o.tree_options);
        }
        rows.push_back({dist, m, name, mode, r.time, r.root});
      }
      const Result bound = irr::model::LowerBound(blocks, o.cost, root);
      rows.push_back({dist, m, "lower_bound", mode, bound.time, bound.root});
    }
  }
  if (o.format == "tsv") {
    std::printf("distribution\tm\ttree\troot_mode\ttime\troot\n");
    for (const auto& r : rows) {
      std::printf("%s\t%lld\t%s\t%s\t%s\t%d\n", r.dist.c_str(), r.m, r.tree.c_str(), r.mode.c_str(),
                  Number(r.time).c_str(), r.root);
    }
    return 0;
  }
  std::printf(
      "%s completion times, p = %d, b = %lld, alpha = %g, beta = %g, gamma = %g, rho = %g"
      "; fixed root r = %s, best root in brackets\n",
      o.op.c_str(), o.p, o.b, o.cost.alpha, o.cost.beta, o.cost.gamma, o.rho,
      modes.front().first == "fixed" ? std::to_string(modes.front().second).c_str() : "-");
  std::vector<std::string> columns = o.trees;
  columns.push_back("lower_bound");
  std::printf("%-18s %-6s %10s", "distribution", "root", "m");
  for (const auto& c : columns) std::printf(" %20s", c.c_str());
  std::printf("\n");
  for (std::size_t i = 0; i < rows.size();) {
    const std::string dist = rows[i].dist, mode = rows[i].mode;
    std::printf("%-18s %-6s %10lld", dist.c_str(), mode.c_str(), rows[i].m);
    for (const auto& c : columns) {
      std::string cell = "skipped";
      for (std::size_t k = i; k < rows.size() && rows[k].dist == dist && rows[k].mode == mode;
           ++k) {
        if (rows[k].tree == c) {
          cell = Number(rows[k].time) +
                 (mode == "best" ? " (" + std::to_string(rows[k].root) + ")" : "");
        }
      }
      std::printf(" %20s", cell.c_str());
    }
    std::printf("\n");
    while (i < rows.size() && rows[i].dist == dist && rows[i].mode == mode) ++i;
  }
  return 0;
}
