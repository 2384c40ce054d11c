#include "tables.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace irr::model {
namespace {

// Exact integers as integers (the paper's tables), anything else with 6 significant digits.
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

std::string Printf(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string Printf(const char* format, ...) {
  char buf[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  return buf;
}

}  // namespace

std::string ModelTsv(const std::vector<ModelRow>& rows) {
  std::string out = "distribution\tm\ttree\troot_mode\ttime\troot\n";
  for (const auto& r : rows) {
    out += r.dist + "\t" + std::to_string(r.m) + "\t" + r.tree + "\t" + r.mode + "\t" +
           Number(r.time) + "\t" + std::to_string(r.root) + "\n";
  }
  return out;
}

std::string ModelTable(const std::vector<ModelRow>& rows, const std::vector<std::string>& trees,
                       const ModelTableHeading& h) {
  std::string out = Printf(
      "%s completion times, p = %d, b = %lld, alpha = %g, beta = %g, gamma = %g, rho = %g"
      "; fixed root r = %s, best root in brackets\n",
      h.op.c_str(), h.p, h.b, h.cost.alpha, h.cost.beta, h.cost.gamma, h.rho, h.fixed_root.c_str());
  if (!h.model_line.empty()) out += h.model_line + "\n";
  std::vector<std::string> columns = trees;
  columns.push_back(h.bound_column);
  out += Printf("%-18s %-6s %10s", "distribution", "root", "m");
  for (const auto& c : columns) out += Printf(" %20s", c.c_str());
  out += "\n";
  for (std::size_t i = 0; i < rows.size();) {
    const std::string dist = rows[i].dist, mode = rows[i].mode;
    out += Printf("%-18s %-6s %10lld", dist.c_str(), mode.c_str(), rows[i].m);
    std::size_t end = i;
    while (end < rows.size() && rows[end].dist == dist && rows[end].mode == mode) ++end;
    for (const auto& c : columns) {
      std::string cell = "skipped";
      for (std::size_t k = i; k < end; ++k) {
        if (rows[k].tree == c) {
          cell = Number(rows[k].time) +
                 (mode == "best" ? " (" + std::to_string(rows[k].root) + ")" : "");
        }
      }
      out += Printf(" %20s", cell.c_str());
    }
    out += "\n";
    i = end;
  }
  return out;
}

std::string PredictionsTsv(const std::vector<Prediction>& rows) {
  std::string out =
      "op\tdistribution\tb\tm\tproblem\ttree\tmeasured_min_us\tmeasured_median_us\tmodel_us"
      "\tmedian_over_model\toptimal_us\tlower_bound_us\tadaptive_us\toblivious_us\tlinear_us"
      "\tsetup_us\tbreak_even_calls\tmodel_break_even_calls\tloggp_us\tmedian_over_loggp"
      "\tlogp_bound_us\tradix\n";
  auto field = [](double x) { return std::isnan(x) ? std::string() : Cell(x, "%.6g"); };
  for (const auto& r : rows) {
    out += r.op + "\t" + r.dist + "\t" + std::to_string(r.b) + "\t" + std::to_string(r.m) + "\t" +
           r.problem + "\t" + r.tree + "\t" + field(r.min_us) + "\t" + field(r.median_us) + "\t" +
           field(r.model_us) + "\t" + field(r.median_us / r.model_us) + "\t" + field(r.optimal_us) +
           "\t" + field(r.lower_bound_us) + "\t" + field(r.adaptive_us) + "\t" +
           field(r.oblivious_us) + "\t" + field(r.linear_us) + "\t" + field(r.setup_us) + "\t" +
           field(r.break_even_calls) + "\t" + field(r.model_break_even_calls) + "\t" +
           field(r.loggp_us) + "\t" + field(r.median_us / r.loggp_us) + "\t" +
           field(r.logp_bound_us) + "\t" + (r.radix > 0 ? std::to_string(r.radix) : "") + "\n";
  }
  return out;
}

std::string PredictionsTable(const std::vector<Prediction>& rows, const FitCosts& costs,
                             const std::string& fit_path) {
  const CostParams& per_byte = costs.per_byte;
  std::string out = Printf(
      "Measured vs the linear cost model: alpha = %.4g us, beta = %.4g us/byte, gamma = %.4g "
      "us/byte (%s); times in us, m in elements\n",
      per_byte.alpha, per_byte.beta, per_byte.gamma, fit_path.c_str());
  if (std::any_of(rows.begin(), rows.end(), [](const Prediction& r) { return r.two_level; })) {
    out += Printf(
        "Two levels: inside a node alpha = %.4g us, beta = %.4g us/byte (optimal: the one-level "
        "DP's)\n",
        costs.local.alpha, costs.local.beta);
  }
  if (std::any_of(rows.begin(), rows.end(), [](const Prediction& r) { return r.measured; })) {
    out +=
        "Measured costs: each message at the fit's measured one-way time for its size (point "
        "lines, interpolated); optimal and bound: the linear model's\n";
  }
  const bool loggp = std::any_of(rows.begin(), rows.end(),
                                 [](const Prediction& r) { return !std::isnan(r.logp_bound_us); });
  if (loggp) {
    const tuw::tree::LogGPParams& g = costs.loggp;
    out += Printf(
        "LogGP: o = %.3g us, g = %.3g us, L = %.3g us across nodes and %.3g us inside one, "
        "messages at their measured times%s; loggp: the op's tree (-k: at radix r), logp: "
        "the LogP lower bound at the network's L\n",
        g.overhead_us, g.gap_us, g.network.latency_us, g.node.latency_us,
        g.eager_limit_bytes > 0 ? ", eager up to the limit"
                                : ", each starting when its receive is posted");
  }
  out += Printf("%-18s %-11s %6s %9s %-11s %10s %10s %10s %7s %10s %10s%s %s\n", "op",
                "distribution", "b", "m", "tree", "min", "median", "model", "med/mod", "optimal",
                "bound", loggp ? Printf(" %10s %7s %10s", "loggp", "med/lgp", "logp").c_str() : "",
                "  setup break-even calls (measured/model)");
  for (const auto& r : rows) {
    const std::string setup =
        std::isnan(r.setup_us)
            ? ""
            : Printf("  %.2f %s/%s", r.setup_us, Cell(r.break_even_calls, "%.1f").c_str(),
                     Cell(r.model_break_even_calls, "%.1f").c_str());
    const std::string tree = (r.tree.empty() ? "-" : r.tree) +
                             (r.radix > 0 ? " r" + std::to_string(r.radix) : std::string());
    const std::string loggp_cells = loggp
                                        ? Printf(" %10s %7s %10s", Cell(r.loggp_us, "%.2f").c_str(),
                                                 Cell(r.median_us / r.loggp_us, "%.2f").c_str(),
                                                 Cell(r.logp_bound_us, "%.2f").c_str())
                                        : "";
    out +=
        Printf("%-18s %-11s %6lld %9lld %-11s %10s %10s %10s %7s %10s %10s%s%s\n", r.op.c_str(),
               r.dist.c_str(), r.b, r.m, tree.c_str(), Cell(r.min_us, "%.2f").c_str(),
               Cell(r.median_us, "%.2f").c_str(), Cell(r.model_us, "%.2f").c_str(),
               Cell(r.median_us / r.model_us, "%.2f").c_str(), Cell(r.optimal_us, "%.2f").c_str(),
               Cell(r.lower_bound_us, "%.2f").c_str(), loggp_cells.c_str(), setup.c_str());
  }
  return out;
}

}  // namespace irr::model
