#include "predictions.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "cli.hpp"
#include "distributions.hpp"
#include "fit_costs.hpp"
#include "fit_file.hpp"
#include "linear_fit.hpp"
#include "link_greedy_tree.hpp"
#include "operation_table.hpp"
#include "radix_record.hpp"
#include "raw_csv.hpp"
#include "run_metadata.hpp"
#include "scatter_trees_record.hpp"
#include "tree_costs.hpp"

namespace irr::model {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Model costs of one problem (blocks in bytes): the DP is computed once and shared.
struct Problem {
  std::vector<std::int64_t> bytes;
  std::unique_ptr<OptimalDp> optimal;
};

// The plain call a persistent op replaces: X for X_init, else TUW's plain call of its family.
std::string PlainCounterpart(const formats::Operation& op) {
  const std::string plain = op.name.substr(0, op.name.size() - std::string("_init").size());
  if (formats::FindOperation(plain) != nullptr) return plain;
  return "TUW_" + plain.substr(plain.find('_') + 1);
}

double CallsToPayOff(double setup, double plain, double persistent) {
  return plain > persistent ? setup / (plain - persistent) : kNaN;
}

void AddBreakEven(std::vector<Prediction>* rows) {
  std::map<std::string, const Prediction*> by_case;  // op/distribution/b
  auto key = [](const std::string& op, const Prediction& r) {
    return op + "/" + r.dist + "/" + std::to_string(r.b);
  };
  for (const auto& r : *rows) by_case[key(r.op, r)] = &r;
  for (auto& r : *rows) {
    r.setup_us = r.break_even_calls = r.model_break_even_calls = kNaN;
    const formats::Operation* op = formats::FindOperation(r.op);
    if (op == nullptr || op->role != "persistent") continue;
    const std::string base = r.op.substr(0, r.op.size() - std::string("_init").size());
    const auto setup = by_case.find(key(base + "_setup", r));
    if (setup == by_case.end()) continue;
    r.setup_us = setup->second->median_us;
    const auto plain = by_case.find(key(PlainCounterpart(*op), r));
    if (plain == by_case.end()) continue;
    const Prediction& p = *plain->second;
    r.break_even_calls = CallsToPayOff(r.setup_us, p.median_us, r.median_us);
    const bool tuw_plain = p.tree == "adaptive";
    r.model_break_even_calls =
        CallsToPayOff(r.setup_us, p.model_us + (tuw_plain ? r.construction_us : 0.0), r.model_us);
  }
}

// How the run's library chose a small TUWk_Scatterv call's tree (ModelScatterStep): on the costs
// and with the rule of its build (params: one level, or two where the run set
// TUWCOLL_RANKS_PER_NODE; measured curves with kEqualNodeRangesBySize), at the call's root; once
// per (p, size class, radix, root) and file, as the library caches it.
struct SmallCallChoices {
  tuw::tree::LogGPParams params;
  tuw::tree::SmallCallRule rule = tuw::tree::SmallCallRule::kGreedy;
  std::map<std::tuple<int, std::int64_t, int, int>, int> chosen;
  // A larger call's radix (tuwcoll_large_scatter_radix): -1 the TUWk radix (no record), 0 the
  // model's per size class (LibraryLargeRadix: on large_params, cached as the library does),
  // else the radix TUWCOLL_RADIX forced.
  int large_radix = -1;
  tuw::tree::LogGPParams large_params;
  std::map<std::tuple<int, std::int64_t, int>, int> large_chosen;
  // A TUWk_*_init request's radix (tuwcoll_init_radix): -1 tuwcoll_radix's TUWk_init (no
  // record), 0 its root's choice on the case's blocks (tree::PlannedRadix on init_params, the
  // library's one-level costs; a gather's edges in the recorded pieces), else the radix
  // TUWCOLL_RADIX forced.
  int init_radix = -1;
  // "model link-greedy ..." (formats::LinkGreedyRule): the root may take that tree, in the
  // layouts the run's build weighed
  formats::LinkGreedyRule init_link_greedy = formats::kNoLinkGreedy;
  // "node-link" and later: the run's nodes and the fit's costs ("node-scatter",
  // "two-level-scatter": and the scatter's trees over nodes, ScatterTreesOfRecord)
  tuw::tree::NodeLinkCosts init_node_link;
  tuw::tree::LogGPParams init_params;
};
int LibraryStep(const std::vector<std::int64_t>& blocks, int root, int radix,
                SmallCallChoices* choices) {
  const int p = static_cast<int>(blocks.size());
  if (!tuw::tree::OneMessageCall(blocks.data(), p, choices->params.one_message_max_bytes) ||
      tuw::tree::SmallCallOnRadixTree(blocks, choices->rule)) {
    return 0;
  }
  const std::int64_t size_class = tuw::tree::ShapeBlockBytes(blocks, choices->rule);
  const auto key = std::make_tuple(p, size_class, radix, root);
  const auto it = choices->chosen.find(key);
  if (it != choices->chosen.end()) return it->second;
  return choices->chosen[key] = tuw::tree::SmallScatterShape(p, size_class, radix, choices->params,
                                                             root, choices->rule);
}

// The radix a run's library took for a TUWk_Scatterv call too large for one message a child
// (tree::LargeScatterRadix where the model chose it), from the small calls' `radix`.
int LibraryLargeRadix(const std::vector<std::int64_t>& blocks, int root, int radix,
                      SmallCallChoices* choices) {
  if (choices->large_radix != 0) return choices->large_radix < 0 ? radix : choices->large_radix;
  const int p = static_cast<int>(blocks.size());
  const std::int64_t size_class = tuw::tree::ShapeBlockBytes(blocks);
  const auto key = std::make_tuple(p, size_class, root);
  const auto it = choices->large_chosen.find(key);
  if (it != choices->large_chosen.end()) return it->second;
  return choices->large_chosen[key] =
             tuw::tree::LargeScatterRadix(p, size_class, choices->large_params, root);
}

// The LogGP model of `tree` (formats/operations.tsv's tree column) for one problem, or NaN
// where it has none; *radix: the radix of a -k tree.
// `planned`: the adaptive tree built before the call (a persistent start): its data phase only.
// small_call_step: TUWk_Scatterv's small call's, recorded, or kModelsStep for the library's
// choice (LibraryStep).
double LogGPTime(const std::string& tree, bool planned, bool scatter,
                 const std::vector<std::int64_t>& blocks, int root, int radix_setting,
                 int small_call_step, SmallCallChoices* choices, const FitCosts& costs,
                 const tuw::tree::LogGPParams& params, int* radix) {
  using tuw::tree::ModelTree;
  const int p = static_cast<int>(blocks.size());
  const bool radix_k = tree == "adaptive-k" || tree == "oblivious-k";
  ModelTree kind;
  if (tree == "adaptive" || tree == "adaptive-k") {
    kind = planned                            ? ModelTree::kPlanned
           : scatter && tree == "adaptive-k"  ? ModelTree::kRootPlanned  // TUWk_Scatterv
           : !scatter && tree == "adaptive-k" ? ModelTree::kCarried      // TUWk_Gatherv
                                              : ModelTree::kAdaptive;
  } else if (tree == "oblivious" || tree == "oblivious-k") {
    kind = ModelTree::kOblivious;
  } else if (tree == "linear") {
    kind = ModelTree::kLinear;
  } else {
    return kNaN;
  }
  *radix = 2;
  if (radix_k) {
    *radix = radix_setting > 0 ? radix_setting
                               : tuw::tree::ModelRadix(kind, p, costs.radix_costs.Params());
  }
  // Only TUWk's gathers (TUWk_Gatherv, TUWk_Gatherv_init's starts) move their data in pieces.
  tuw::tree::LogGPParams priced = params;
  if (scatter || tree != "adaptive-k") priced.gather_pieces = {};
  if (kind == ModelTree::kPlanned && tree == "adaptive-k" && choices->init_radix >= 0) {
    tuw::tree::LogGPParams init_params = choices->init_params;
    init_params.gather_pieces = priced.gather_pieces;
    if (choices->init_radix > 0) {
      *radix = choices->init_radix;
    } else if (choices->init_link_greedy == formats::kNoLinkGreedy) {
      *radix = tuw::tree::PlannedRadix(scatter, blocks, root, init_params);
    } else {  // the root's choice of the two trees, as the run's library made it
      const tuw::tree::PlannedTreeChoice chosen = tuw::tree::PlannedTree(
          scatter, blocks, root, init_params,
          choices->init_link_greedy == formats::kLinkGreedyLayouts ||
              (choices->init_link_greedy >= formats::kLinkGreedyScatterLayouts &&
               tuw::tree::WeighLayouts(scatter)),
          choices->init_link_greedy >= formats::kLinkGreedyNodeLink ? choices->init_node_link
                                                                    : tuw::tree::NodeLinkCosts{});
      *radix = chosen.radix;
      if (chosen.link_greedy) {
        *radix = 0;  // (no radix: the radix column shows none)
        return scatter ? tuw::tree::PlannedScatterTime(chosen.link_greedy_tree, priced)
                       : tuw::tree::PlannedGatherTime(chosen.link_greedy_tree, priced, true);
      }
    }
  }
  if (kind == ModelTree::kRootPlanned &&
      !tuw::tree::OneMessageCall(blocks.data(), p, params.one_message_max_bytes)) {
    *radix = LibraryLargeRadix(blocks, root, *radix, choices);
  } else if (kind == ModelTree::kRootPlanned && small_call_step == tuw::tree::kModelsStep) {
    small_call_step = LibraryStep(blocks, root, *radix, choices);
  }
  return scatter ? tuw::tree::ScatterTime(kind, blocks, root, *radix, priced, small_call_step)
                 : tuw::tree::GatherTime(kind, blocks, root, *radix, priced);
}

// A run's record of a radix its library chose (formats::RadixChoiceRecord), where present (else
// *radix stays as it is): false with *error naming the record where it is not one.
// link_greedy: where the record may say "model link-greedy [layouts]" (a persistent request's),
// which it says.
bool RadixChoiceOf(std::map<std::string, std::string>& meta, const std::string& key, int* radix,
                   std::string* error, formats::LinkGreedyRule* link_greedy = nullptr) {
  if (!meta.count(key)) return true;
  formats::LinkGreedyRule says = formats::kNoLinkGreedy;
  if (formats::ParseRadixChoiceRecord(meta[key], tuw::tree::kMaxRadix, radix, &says) &&
      (link_greedy != nullptr || says == formats::kNoLinkGreedy)) {
    if (link_greedy != nullptr) *link_greedy = says;
    return true;
  }
  *error = "--from-results: " + key + "=" + meta[key] + " is not " +
           formats::ModelChoiceRecords(link_greedy != nullptr) +
           " or 'R TUWCOLL_RADIX' with R in 2.." + std::to_string(tuw::tree::kMaxRadix);
  return false;
}

// A run's record of one of its build's byte limits, where present (else *value stays the
// default): false with *error naming the record and what it means where it is not a number >= lo.
bool ByteLimitRecord(std::map<std::string, std::string>& meta, const std::string& key, long long lo,
                     const char* meaning, long long* value, std::string* error) {
  if (!meta.count(key)) return true;
  const std::string why = irr::cli::ParseInt(meta[key], lo, LLONG_MAX, value);
  if (why.empty()) return true;
  *error = "--from-results: " + key + ": " + why + " (" + meaning + ")";
  return false;
}

}  // namespace

bool ReadCosts(const std::string& fit_path, FitCosts* costs, std::vector<std::string>* notes,
               std::string* error) {
  formats::Fit fit;
  if (!formats::ReadFit(fit_path, &fit, notes, error)) {
    *error = "--alpha-beta: " + *error;
    return false;
  }
  costs->per_byte = {fit.alpha_us, fit.beta_us_per_byte, fit.gamma_us_per_byte};
  costs->has_local = fit.has_local;
  costs->local = {fit.alpha_local_us, fit.beta_local_us_per_byte, fit.gamma_us_per_byte};
  if (!formats::RadixCostsOfFit(fit, fit_path, &costs->radix_costs, error)) {
    *error = "--alpha-beta: " + *error;
    return false;
  }
  costs->has_loggp = fit.has_loggp;
  if (fit.has_loggp) {
    costs->loggp = tuw::tree::LogGPFromLinear(
        fit.alpha_us, fit.beta_us_per_byte, fit.has_local ? fit.alpha_local_us : fit.alpha_us,
        fit.has_local ? fit.beta_local_us_per_byte : fit.beta_us_per_byte, 1, fit.overhead_us,
        fit.gap_us);
    costs->loggp.network.one_way = costs->radix_costs.one_way;
    costs->loggp.node.one_way = costs->radix_costs.one_way_local;
  }
  return true;
}

bool Predict(const std::string& raw_csv, const FitCosts& costs, const PredictOptions& options,
             std::vector<Prediction>* rows, std::vector<std::string>* notes, std::string* error) {
  const CostParams& c = costs.per_byte;
  formats::RawFile file;
  if (!formats::ReadRawFile(raw_csv, &file, error)) {
    *error = "--from-results: " + *error;
    return false;
  }
  std::map<std::string, std::string>& meta = file.meta;
  dist::Params params;
  try {
    params.seed = std::stoull(meta.at("seed"));
    params.rho = std::stod(meta.at("rho"));
  } catch (const std::exception&) {
    *error = "--from-results: '" + raw_csv + "' lacks the seed and rho metadata of irrbench";
    return false;
  }
  // irrbench's element is MPI_INT; files that say otherwise carry element_bytes.
  const long long element_bytes =
      meta.count("element_bytes") ? std::atoll(meta["element_bytes"].c_str()) : 4;
  if (element_bytes < 1) {
    *error = "--from-results: element_bytes=" + meta["element_bytes"] + " is not a size >= 1";
    return false;
  }
  // The run's nodes as Optimal_*_init saw them (irrbench's node_starts): rank i's node starts at
  // the last start <= i. Absent (older files) or non-contiguous: no node-aware tree.
  std::vector<int> node_starts;
  if (meta.count("node_starts") && meta["node_starts"] != "non-contiguous") {
    std::istringstream in(meta["node_starts"]);
    for (long long first; in >> first;) node_starts.push_back(static_cast<int>(first));
    if (node_starts.empty() || node_starts.front() != 0 || !in.eof() ||
        !std::is_sorted(node_starts.begin(), node_starts.end())) {
      *error = "--from-results: node_starts='" + meta["node_starts"] +
               "' is not a rising list of ranks from 0";
      return false;
    }
  }
  // Each rank's node (node_tree.hpp's node_first), once for the file's p.
  std::vector<int> node_first;
  const int file_p = meta.count("p") ? std::atoi(meta["p"].c_str()) : 0;
  for (std::size_t k = 0; k < node_starts.size() && node_starts[k] < file_p; ++k) {
    const int end = k + 1 < node_starts.size() ? std::min(node_starts[k + 1], file_p) : file_p;
    node_first.resize(end, node_starts[k]);
  }
  if (options.measured && costs.radix_costs.one_way.empty()) {
    *error =
        "--measured-costs: the fit file has fewer than two point= lines (irrfit writes one per "
        "measured message size)";
    return false;
  }
  if (options.measured && options.two_level && costs.radix_costs.one_way_local.empty()) {
    *error =
        "--measured-costs --two-level: the fit file's point= lines have no fifth column, the "
        "one-way time inside a node (irrfit writes it with alpha_local_us)";
    return false;
  }
  if (options.two_level && !costs.has_local) {
    *error =
        "--two-level: the fit file has no alpha_local_us and beta_local_us_per_byte (irrfit "
        "writes them where its peer is on another node and rank 0's node holds another rank)";
    return false;
  }
  if (options.two_level && (node_first.empty() || static_cast<int>(node_first.size()) != file_p)) {
    *error = "--two-level: '" + raw_csv + "' does not give every rank's node (node_starts=" +
             (meta.count("node_starts") ? meta["node_starts"] : std::string("absent")) +
             "; irrbench records contiguous nodes)";
    return false;
  }
  // The trees' prices other than the line: two levels, or one level with measured costs
  // (every rank its own node, node_first filled per p).
  tuw::tree::TwoLevelCosts two_level{c, costs.local, node_first};
  tuw::tree::TwoLevelCosts one_level_measured{
      c, c, {}, costs.radix_costs.one_way, costs.radix_costs.one_way};
  if (options.measured) {
    two_level.network_measured = costs.radix_costs.one_way;
    two_level.local_measured = costs.radix_costs.one_way_local;
  }
  // LogGP: the run's nodes where they are equal blocks of ranks (else one level), and the
  // radix a -k tree ran with where the run set one.
  tuw::tree::LogGPParams loggp = costs.loggp;
  loggp.barrier_start = meta.count("sync") == 0 || meta["sync"] == "barrier";
  loggp.latency_by_size = true;  // (the library's choice, below, keeps its own costs)
  // Each node's network link shared by its ranks (LogGPParams::node_links): the simulated gathers
  // at b = 10 that pull many small messages into the root's node ran up to 1.6x the one-link price.
  loggp.node_links = true;
  if (node_starts.size() >= 2) {
    const int size = node_starts[1] - node_starts[0];
    bool equal = true;
    for (std::size_t k = 0; k < node_starts.size(); ++k) {
      equal = equal && node_starts[k] == static_cast<int>(k) * size;
    }
    if (equal) loggp.ranks_per_node = size;
  }
  // The radixes the -k trees ran with: irrbench's record, else the run's TUWCOLL_RADIX (one text
  // form, formats/radix_record.hpp); a tree neither names (runs before the record) has no LogGP
  // time - said in a note. A record without TUWk_Gatherv's own radix is from a build whose
  // TUWk_Gatherv ran TUWk's; one without TUWk_init's, whose persistent trees did. A bad
  // TUWCOLL_RADIX names nothing (a run with -k rows stops on it; one without never read it).
  using formats::RadixFamily;
  formats::RadixRecord radixes;
  for (const std::string key : {"tuwcoll_radix", "env.TUWCOLL_RADIX"}) {
    if (meta.count(key) == 0) continue;
    if (!formats::ParseRadixRecord(meta[key], tuw::tree::kMaxRadix, &radixes)) {
      if (key != "tuwcoll_radix") break;
      *error = "--from-results: " + key + "=" + meta[key] + " is not a radix from 2 to " +
               std::to_string(tuw::tree::kMaxRadix) +
               " nor a list like 'TUWk=4 Binomialk=9 TUWk_init=9 TUWk_Gatherv=5' of such";
      return false;
    }
    if (key == "tuwcoll_radix" && radixes.Of(RadixFamily::kTuwkInit) == 0) {
      radixes.named[static_cast<int>(RadixFamily::kTuwkInit)] = radixes.Of(RadixFamily::kTuwk);
    }
    break;
  }
  // TUWk_Scatterv's small calls: on the tree a TUWCOLL_SCATTER_STEP run forced (irrbench records
  // "S TUWCOLL_SCATTER_STEP"), else on the model's choice, recomputed per call as the library
  // makes it: with the rule of the run's build ("S model-heavy-radix": a call with a heavy block
  // on the radix tree, the others as "S model-by-size3-rates": equal node ranges by
  // size classes of three significant bits, on the fit's curves, shared sends at their sizes'
  // rates; "S model-by-size3" the same at the old split; "S model-by-size" on two bits; "S
  // model", or no record: the greedy rule before them, on the fit's line).
  int small_call_step = tuw::tree::kModelsStep;
  int rule_record = 1;
  if (meta.count("tuwcoll_scatter_step")) {
    const std::string& record = meta["tuwcoll_scatter_step"];
    int step = 0;
    bool by_model = true;
    tuw::tree::GreedyShape shape;
    if (!formats::ParseScatterStepRecord(record, &step, &by_model, &rule_record) ||
        (step > 0 && !tuw::tree::ShapeOfCode(step, &shape))) {
      *error = "--from-results: tuwcoll_scatter_step=" + record +
               " is not 'S model-heavy-radix', 'S model-by-size3-rates', 'S model-by-size3', "
               "'S model-by-size', 'S model' or "
               "'S TUWCOLL_SCATTER_STEP' with S in 0..64 "
               "or a two-level tree's code (tuwcoll.h)";
      return false;
    }
    if (!by_model) small_call_step = step;
  }
  // The costs the library chose that step with (one level, or two where the run set
  // TUWCOLL_RANKS_PER_NODE and the fit has a node's alpha).
  long long ranks_per_node = 1;
  if (meta.count("env.TUWCOLL_RANKS_PER_NODE")) {
    const std::string& text = meta["env.TUWCOLL_RANKS_PER_NODE"];
    const std::string why = irr::cli::ParseInt(text, 1, INT_MAX, &ranks_per_node);
    if (!why.empty()) {
      *error = "--from-results: env.TUWCOLL_RANKS_PER_NODE: " + why +
               " (consecutive ranks a node, as libtuwcoll reads it)";
      return false;
    }
  }
  // The build's limits, as recorded (older files: the value before the record).
  long long small_call_max_bytes = 256 * 1024, carry_max_bytes = -1;
  if (!ByteLimitRecord(meta, "tuwcoll_small_call_max_bytes", 1,
                       "the largest TUWk_Scatterv call sent in one message a child",
                       &small_call_max_bytes, error) ||
      !ByteLimitRecord(meta, "tuwcoll_carry_max_bytes", 0,
                       "the largest cube whose data TUWk_Gatherv's construction carries",
                       &carry_max_bytes, error)) {
    return false;
  }
  loggp.one_message_max_bytes = small_call_max_bytes;
  loggp.carry_max_bytes = carry_max_bytes;
  // TUWk_Gatherv's root told directly by its group (tree::RootToldDirectly) since the record;
  // before, through the fixed root of its cube. "direct-only": and nobody else told but the last
  // cube's fixed root (tree::RootToldOnly), up to tuwcoll_carry_to_root_max_bytes carried there.
  loggp.root_told_directly = meta.count("tuwcoll_carry_to_root") > 0;
  const std::string to_root = loggp.root_told_directly ? meta["tuwcoll_carry_to_root"] : "";
  if (loggp.root_told_directly && to_root != "direct" && to_root != "direct-only") {
    *error = "--from-results: tuwcoll_carry_to_root=" + to_root +
             " is not 'direct' or 'direct-only' (how TUWk_Gatherv's root group tells the root)";
    return false;
  }
  long long to_root_max_bytes = -1;
  if (!ByteLimitRecord(meta, "tuwcoll_carry_to_root_max_bytes", 0,
                       "the largest cube TUWk_Gatherv carries to its root told only",
                       &to_root_max_bytes, error)) {
    return false;
  }
  if ((to_root == "direct-only") != (to_root_max_bytes >= 0)) {
    *error = "--from-results: tuwcoll_carry_to_root=" + to_root +
             (to_root_max_bytes >= 0 ? " with" : " without") +
             " tuwcoll_carry_to_root_max_bytes (which goes with 'direct-only' only)";
    return false;
  }
  loggp.carry_to_root_max_bytes = to_root_max_bytes;
  // TUWk_Gatherv's pieces: as the run recorded them (none before the record: one message an edge);
  // "model": the library's rule on the same fit's curve (one level, as the library reads it).
  if (meta.count("tuwcoll_gather_pieces")) {
    const std::string& record = meta["tuwcoll_gather_pieces"];
    long long piece = 0;
    if (!formats::ParseGatherPiecesRecord(record, &piece)) {
      *error = "--from-results: tuwcoll_gather_pieces=" + record +
               " is not 'model' or 'N TUWCOLL_GATHER_PIECES' with N a whole number";
      return false;
    }
    loggp.gather_pieces = piece < 0
                              ? tuw::tree::GatherPieceRule(costs.radix_costs.SmallCallParams(1))
                              : tuw::tree::FixedPieceRule(piece);
  }
  SmallCallChoices step_choices;
  const bool by_size = rule_record >= 2;
  step_choices.params = by_size
                            ? costs.radix_costs.SmallCallParams(static_cast<int>(ranks_per_node))
                            : costs.radix_costs.Params(static_cast<int>(ranks_per_node));
  step_choices.params.one_message_max_bytes = small_call_max_bytes;
  step_choices.rule = tuw::tree::SmallCallRuleOfRecord(rule_record);
  // A larger TUWk_Scatterv call's radix and a persistent request's: as the run recorded them
  // (none before the records: TUWk's, TUWk_init's).
  if (!RadixChoiceOf(meta, "tuwcoll_large_scatter_radix", &step_choices.large_radix, error) ||
      !RadixChoiceOf(meta, "tuwcoll_init_radix", &step_choices.init_radix, error,
                     &step_choices.init_link_greedy)) {
    return false;
  }
  step_choices.large_params = costs.radix_costs.SmallCallParams(static_cast<int>(ranks_per_node));
  step_choices.init_params = costs.radix_costs.SmallCallParams(1);
  step_choices.init_node_link =
      tuw::tree::NodeLinkOf(costs.radix_costs, static_cast<int>(ranks_per_node),
                            formats::ScatterTreesOfRecord(step_choices.init_link_greedy));
  bool radix_noted = false;
  bool dp_skipped_noted = false;
  std::map<std::string, Problem> problems;  // by distribution, b and padding
  for (const auto& mc : file.cases) {
    const formats::Operation* op = formats::FindOperation(mc.op);
    if (op == nullptr) {
      notes->push_back(mc.op +
                       ": not an operation of this version (irrbench --list-ops), no "
                       "prediction");
      continue;
    }
    if (op->family == "harness" || op->role == "test") continue;
    if (mc.status != "ok" || mc.seconds.empty()) {
      notes->push_back(mc.op + " " + mc.dist + " b=" + std::to_string(mc.b) + ": " + mc.status +
                       ", no prediction");
      continue;
    }
    if (!dist::IsKnown(mc.dist) || mc.p < 1 || mc.root < 0 || mc.root >= mc.p) {
      *error = "--from-results: case " + mc.op + " " + mc.dist + " b=" + std::to_string(mc.b) +
               " has an unknown distribution or a root outside 0..p-1";
      return false;
    }
    params.b = mc.b;
    std::vector<std::int64_t> blocks = dist::Generate(mc.dist, mc.p, params);
    const dist::Totals totals = dist::Summarize(blocks);
    if (totals.m != mc.m || totals.m_padded != mc.m_padded) {
      *error = "--from-results: " + mc.dist + " b=" + std::to_string(mc.b) +
               " regenerates to m=" + std::to_string(totals.m) +
               ", m'=" + std::to_string(totals.m_padded) +
               " but the file has m=" + std::to_string(mc.m) +
               ", m'=" + std::to_string(mc.m_padded) + " (made by another version of irrbench?)";
      return false;
    }
    const bool padded = op->padded();
    if (padded) std::fill(blocks.begin(), blocks.end(), totals.max_block);
    for (auto& x : blocks) x *= element_bytes;

    Prediction row;
    row.op = mc.op;
    row.dist = mc.dist;
    row.b = mc.b;
    row.m = mc.m;
    row.problem = padded ? "padded" : "irregular";
    row.tree = op->tree;
    row.min_us = *std::min_element(mc.seconds.begin(), mc.seconds.end()) * 1e6;
    row.median_us = irr::fit::Median(mc.seconds) * 1e6;
    const bool scatter = op->family == "scatter";
    row.two_level = options.two_level && static_cast<int>(node_first.size()) == mc.p;
    row.measured = options.measured;
    if (static_cast<int>(one_level_measured.node_first.size()) != mc.p) {
      one_level_measured.node_first.resize(mc.p);
      std::iota(one_level_measured.node_first.begin(), one_level_measured.node_first.end(), 0);
    }
    const tuw::tree::TwoLevelCosts& priced = row.two_level ? two_level : one_level_measured;
    auto time_of = [&](const SequencedTree& tree) {
      if (row.two_level || row.measured) {
        return scatter ? ScatterTime(tree, blocks, priced) : GatherTime(tree, blocks, priced);
      }
      return scatter ? ScatterTime(tree, blocks, c) : GatherTime(tree, blocks, c);
    };
    auto tree_time = [&](TreeType type) {
      return time_of(BuildSequencedTree(type, blocks, c, mc.root));
    };
    row.adaptive_us = tree_time(TreeType::kAdaptive);
    row.oblivious_us = tree_time(TreeType::kOblivious);
    row.linear_us = tree_time(TreeType::kLinear);
    row.model_us = row.tree == "adaptive"    ? row.adaptive_us
                   : row.tree == "oblivious" ? row.oblivious_us
                   : row.tree == "linear"    ? row.linear_us
                                             : kNaN;
    if (row.tree == "optimal") {  // the tree Optimal_*_init executes, by the library's rule
      const tuw::tree::ExecutedTree executed = tuw::tree::OptimalInitTree(
          blocks, c, mc.root, tuw::tree::ExecutedDpMethod(mc.p),
          static_cast<int>(node_first.size()) == mc.p ? node_first : std::vector<int>{});
      row.model_us = row.two_level || row.measured ? time_of(executed.tree)
                     : scatter                     ? executed.scatter_time
                                                   : executed.time;
      row.tree = executed.nodes     ? "optimal-nodes"
                 : executed.optimal ? "optimal"
                                    : "optimal-adaptive";
    }
    row.construction_us = tuw::tree::CeilLog2(mc.p) *
                          (row.measured ? costs.radix_costs.one_way.Comm(32) : c.Comm(32));
    row.loggp_us = row.logp_bound_us = kNaN;
    if (costs.has_loggp) {
      // A persistent TUW op runs the tree its init built: the data without the construction.
      const bool planned = op->role == "persistent" && op->tree.rfind("adaptive", 0) == 0;
      const RadixFamily family = op->tree == "oblivious-k" ? RadixFamily::kBinomialk
                                 : planned                 ? RadixFamily::kTuwkInit
                                 : scatter                 ? RadixFamily::kTuwk
                                                           : RadixFamily::kTuwkGatherv;
      const int recorded = op->tree.find("-k") != std::string::npos ? radixes.Of(family) : 0;
      const bool unknown_radix = op->tree.find("-k") != std::string::npos && recorded == 0;
      if (unknown_radix && !radix_noted) {
        radix_noted = true;
        notes->push_back(
            "the run does not record the radix its -k trees ran with (irrbench before "
            "tuwcoll_radix, no TUWCOLL_RADIX naming them): no LogGP time for them");
      }
      row.loggp_us = unknown_radix
                         ? kNaN
                         : LogGPTime(op->tree, planned, scatter, blocks, mc.root, recorded,
                                     small_call_step, &step_choices, costs, loggp, &row.radix);
      if (op->tree.find("-k") == std::string::npos) row.radix = 0;
      // A setup (init + free) moves no blocks: no gather's bound applies to it.
      if (op->role != "setup") {
        row.logp_bound_us = tuw::tree::LogPLowerBound(blocks, mc.root, loggp, loggp.network);
      }
    }
    // Gather and scatter trees cost the same (Traeff 2018, Section 2.2): one DP serves both.
    row.optimal_us = kNaN;
    if (static_cast<double>(DpBytes(mc.p)) <= options.max_mem) {
      const std::string key = mc.dist + "/" + std::to_string(mc.b) + (padded ? "/padded" : "");
      Problem& problem = problems[key];
      if (!problem.optimal) {
        problem.optimal = std::make_unique<OptimalDp>(blocks, c, options.dp);
      }
      row.optimal_us = problem.optimal->Fixed(mc.root).time;
    } else if (!dp_skipped_noted) {
      dp_skipped_noted = true;
      notes->push_back("optimal tree skipped: its DP for p = " + std::to_string(mc.p) + " needs " +
                       std::to_string(DpBytes(mc.p) >> 20) + " MiB, more than --max-mem");
    }
    // One port at the root: everything not its own comes in at the cheaper level's costs at best.
    CostParams bound = c;
    if (row.two_level &&
        std::count(node_first.begin(), node_first.end(), node_first[mc.root]) > 1) {
      bound.alpha = std::min(c.alpha, costs.local.alpha);
      bound.beta = std::min(c.beta, costs.local.beta);
    }
    row.lower_bound_us = LowerBound(blocks, bound, mc.root).time;
    rows->push_back(row);
  }
  if (rows->empty()) {
    *error = "--from-results: '" + raw_csv + "' has no measured gather/scatter case";
    return false;
  }
  AddBreakEven(rows);
  return true;
}

}  // namespace irr::model
