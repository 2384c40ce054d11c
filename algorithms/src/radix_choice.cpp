// The radix of TUWk_* and Binomialk_* (issue 37): TUWCOLL_RADIX (one radix, or one per family),
// else the LogGP model's choice (tree::ModelRadix) for the group size: of the tree with its
// construction for TUWk_* (built at every call; TUWk_Gatherv's construction carries small cubes'
// data, so its own model and radix), of its data phase alone for TUWk_*_init (built once), of the
// k-nomial tree for Binomialk_*. Every process computes it alike from the same environment and p,
// so no message is needed; the model runs once per (tree, p) and process.
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "../tree/link_greedy_tree.hpp"
#include "../tree/loggp.hpp"
#include "fit_costs.hpp"
#include "fit_file.hpp"
#include "internal.hpp"
#include "radix_record.hpp"

namespace tuw::detail {
namespace {

// The model's costs: the fit file's (its o and g and measured curves where it has them), else the
// built-in ones. False (reported) where TUWCOLL_MODEL_FIT cannot be read.
bool ModelCosts(tree::RadixCosts* costs) {
  *costs = tree::RadixCosts{};
  const char* path = std::getenv("TUWCOLL_MODEL_FIT");
  if (path == nullptr || *path == '\0') return true;
  irr::formats::Fit fit;
  std::vector<std::string> notes;
  std::string error;
  if (!irr::formats::ReadFit(path, &fit, &notes, &error) ||
      !irr::formats::RadixCostsOfFit(fit, path, costs, &error)) {
    std::fprintf(stderr, "libtuwcoll: TUWk/Binomialk: TUWCOLL_MODEL_FIT: %s\n", error.c_str());
    *costs = tree::RadixCosts{};
    return false;
  }
  return true;
}

// Whether `text` is, all of it, a whole number from lo to hi (*value: it): the settings' rule.
bool WholeNumber(const std::string& text, long lo, long hi, int* value) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || errno != 0 || *end != '\0' || v < lo || v > hi) return false;
  *value = static_cast<int>(v);
  return true;
}

// TUWCOLL_RADIX: one radix for every family ("4"), or per family in irrbench's record's form
// (formats/radix_record.hpp; a family left out gets the model's), so that a run's recorded
// radixes can be run again by a build whose model chooses others. *radix: the family's, 0 where
// none is set; false (reported) where the setting is bad.
bool RadixSetting(irr::formats::RadixFamily family, int* radix) {
  *radix = 0;
  const char* text = std::getenv("TUWCOLL_RADIX");
  if (text == nullptr || *text == '\0') return true;
  irr::formats::RadixRecord setting;
  if (!irr::formats::ParseRadixRecord(text, tree::kMaxRadix, &setting)) {
    std::fprintf(stderr,
                 "libtuwcoll: TUWCOLL_RADIX=%s is neither a whole number from 2 to %d nor a "
                 "list like 'TUWk=4 Binomialk=9 TUWk_init=9 TUWk_Gatherv=5' of such numbers\n",
                 text, tree::kMaxRadix);
    return false;
  }
  *radix = setting.Of(family);
  return true;
}

}  // namespace

int ResolveRadix(TreeAlgorithm algorithm, int p, int* radix) {
  if (*radix != kChooseRadix && *radix != kChoosePlannedRadix && *radix != kChooseCarriedRadix) {
    return MPI_SUCCESS;
  }
  using irr::formats::RadixFamily;
  const RadixFamily family = algorithm != TreeAlgorithm::kAdaptive ? RadixFamily::kBinomialk
                             : *radix == kChoosePlannedRadix       ? RadixFamily::kTuwkInit
                             : *radix == kChooseCarriedRadix       ? RadixFamily::kTuwkGatherv
                                                                   : RadixFamily::kTuwk;
  int set = 0;
  if (!RadixSetting(family, &set)) return MPI_ERR_ARG;
  if (set != 0) {
    *radix = set;
    return MPI_SUCCESS;
  }
  const tree::ModelTree model = family == RadixFamily::kBinomialk     ? tree::ModelTree::kOblivious
                                : family == RadixFamily::kTuwkInit    ? tree::ModelTree::kPlanned
                                : family == RadixFamily::kTuwkGatherv ? tree::ModelTree::kCarried
                                                                      : tree::ModelTree::kAdaptive;
  static std::mutex mutex;  // threads may call at once (MPI_THREAD_MULTIPLE)
  static std::map<std::pair<int, int>, int> chosen;
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_pair(static_cast<int>(model), p);
  const auto it = chosen.find(key);
  if (it != chosen.end()) {
    *radix = it->second;
    return MPI_SUCCESS;
  }
  tree::RadixCosts costs;
  if (!ModelCosts(&costs)) return MPI_ERR_ARG;
  // The carried gather on two levels where the nodes are known (TUWCOLL_RANKS_PER_NODE, and a fit
  // with a node's alpha): its root's group, told only, takes k - 1 messages a round, and its first
  // rounds stay inside a node. Simulated p = 560 (35 x 16, radix-560-told-only): one level chose 9,
  // two levels 5, which measured 14.11 us at b = 1 against 9's 16.52.
  int ranks_per_node = 1;
  if (model == tree::ModelTree::kCarried) {
    if (RanksPerNodeSetting(&ranks_per_node) != MPI_SUCCESS) return MPI_ERR_ARG;
    ranks_per_node = std::max(ranks_per_node, 1);
  }
  *radix = chosen[key] = tree::ModelRadix(model, p, costs.Params(ranks_per_node));
  return MPI_SUCCESS;
}

int ScatterStepSetting(int* step) {
  *step = -1;
  const char* text = std::getenv("TUWCOLL_SCATTER_STEP");
  if (text == nullptr || *text == '\0') return MPI_SUCCESS;
  const std::string setting(text);
  const std::size_t slash = setting.find('/');
  if (slash == std::string::npos) {
    if (WholeNumber(setting, 0, tree::kMaxGreedyStep, step)) return MPI_SUCCESS;
  } else {  // network/node: the two-level greedy tree over TUWCOLL_RANKS_PER_NODE's nodes;
            // eK/node: the network split into K equal node ranges, bK/node: of equal bytes
    tree::GreedyShape shape;
    shape.equal_node_ranges = setting[0] == 'e' || setting[0] == 'b';
    shape.by_bytes = setting[0] == 'b';
    const std::size_t from = shape.equal_node_ranges ? 1 : 0;
    int ranks_per_node = 0;
    if (WholeNumber(setting.substr(from, slash - from), 1, tree::kMaxGreedyStep, &shape.step) &&
        WholeNumber(setting.substr(slash + 1), 1, tree::kMaxGreedyStep, &shape.node_step)) {
      if (RanksPerNodeSetting(&ranks_per_node) != MPI_SUCCESS) return MPI_ERR_ARG;
      if (ranks_per_node >= 2 && ranks_per_node <= tree::kMaxShapeRanksPerNode) {
        shape.ranks_per_node = ranks_per_node;
        *step = tree::ShapeCode(shape);
        return MPI_SUCCESS;
      }
      const std::string given = ranks_per_node == 0 ? "unset" : std::to_string(ranks_per_node);
      std::fprintf(stderr,
                   "libtuwcoll: TUWCOLL_SCATTER_STEP=%s names two levels, which need "
                   "TUWCOLL_RANKS_PER_NODE from 2 to %d (it is %s)\n",
                   text, tree::kMaxShapeRanksPerNode, given.c_str());
      *step = -1;
      return MPI_ERR_ARG;
    }
  }
  *step = -1;
  std::fprintf(stderr,
               "libtuwcoll: TUWCOLL_SCATTER_STEP=%s is not a whole number from 0 (the radix "
               "tree) to %d (the greedy tree's step), nor two such steps 'network/node' from 1 "
               "(the two-level greedy tree), the network one with an 'e' for equal node ranges "
               "or a 'b' for node ranges of equal bytes (e.g. e32/4, b32/4)\n",
               text, tree::kMaxGreedyStep);
  return MPI_ERR_ARG;
}

int RanksPerNodeSetting(int* ranks_per_node) {
  *ranks_per_node = 0;
  const char* text = std::getenv("TUWCOLL_RANKS_PER_NODE");
  if (text == nullptr || *text == '\0') return MPI_SUCCESS;
  if (!WholeNumber(text, 1, INT_MAX, ranks_per_node)) {
    *ranks_per_node = 0;
    std::fprintf(stderr,
                 "libtuwcoll: TUWCOLL_RANKS_PER_NODE=%s is not a whole number from 1 to %d "
                 "(consecutive ranks a node)\n",
                 text, INT_MAX);
    return MPI_ERR_ARG;
  }
  return MPI_SUCCESS;
}

int ModelScatterStep(int p, std::int64_t block_bytes, int radix, int root, int ranks_per_node) {
  static std::mutex mutex;
  static std::map<std::tuple<int, std::int64_t, int, int, int>, int> chosen;
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_tuple(p, block_bytes, radix, root, ranks_per_node);
  const auto it = chosen.find(key);
  if (it != chosen.end()) return it->second;
  // A fit file that cannot be read (the radix, set by TUWCOLL_RADIX, did not read it) is
  // reported; the built-in costs then. With ranks_per_node > 1 and a fit that measured a node's
  // own alpha (alpha_local_us), two levels: ranks_per_node consecutive ranks a node.
  tree::RadixCosts costs;
  ModelCosts(&costs);
  return chosen[key] = tree::SmallScatterShape(p, block_bytes, radix,
                                               costs.SmallCallParams(ranks_per_node), root);
}

int LargeScatterRadix(int p, std::int64_t block_bytes, int root, int ranks_per_node,
                      bool* by_model) {
  int set = 0;  // (a bad setting: ResolveRadix, called first, has refused the call)
  if (RadixSetting(irr::formats::RadixFamily::kTuwk, &set) && set != 0) {
    if (by_model != nullptr) *by_model = false;
    return set;
  }
  if (by_model != nullptr) *by_model = true;
  static std::mutex mutex;
  static std::map<std::tuple<int, std::int64_t, int, int>, int> chosen;
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_tuple(p, block_bytes, root, ranks_per_node);
  const auto it = chosen.find(key);
  if (it != chosen.end()) return it->second;
  tree::RadixCosts costs;
  ModelCosts(&costs);  // as ModelScatterStep: a bad fit file is reported, the built-in costs then
  return chosen[key] =
             tree::LargeScatterRadix(p, block_bytes, costs.SmallCallParams(ranks_per_node), root);
}

namespace {

// The model's costs read once per process (as ModelScatterStep: a bad fit file is reported, the
// built-in costs then), for the choices that keep them: the pieces' rule, the root's radix.
const tree::RadixCosts& CachedModelCosts() {
  static const tree::RadixCosts costs = [] {
    tree::RadixCosts c;
    ModelCosts(&c);
    return c;
  }();
  return costs;
}

}  // namespace

int GatherPieces(const tree::PieceRule** rule, bool* by_model) {
  // The setting is read at every call (as TUWCOLL_RADIX), the model's rule computed once.
  static const tree::PieceRule model = tree::GatherPieceRule(CachedModelCosts().SmallCallParams(1));
  const char* text = std::getenv("TUWCOLL_GATHER_PIECES");
  if (text == nullptr || *text == '\0') {
    *rule = &model;
    if (by_model != nullptr) *by_model = true;
    return MPI_SUCCESS;
  }
  const long largest = static_cast<long>(std::min<std::int64_t>(MaxMessageBytes(), INT_MAX));
  int piece = 0;
  if (!WholeNumber(text, 0, largest, &piece)) {
    std::fprintf(stderr,
                 "libtuwcoll: TUWCOLL_GATHER_PIECES=%s is not a whole number from 0 (no pieces) to "
                 "%ld (the piece size in bytes)\n",
                 text, largest);
    return MPI_ERR_ARG;
  }
  static std::mutex mutex;  // threads may call at once (MPI_THREAD_MULTIPLE)
  static std::map<int, tree::PieceRule> fixed;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = fixed.find(piece);
  if (it == fixed.end()) it = fixed.emplace(piece, tree::FixedPieceRule(piece)).first;
  *rule = &it->second;  // (a map's elements stay where they are)
  if (by_model != nullptr) *by_model = false;
  return MPI_SUCCESS;
}

int RootPlannedRadix(bool scatter, const std::vector<std::int64_t>& block_bytes, bool root_ok,
                     int root, const CallContext& ctx, const tree::PieceRule* pieces, int* radix,
                     bool* link_greedy, tree::Tree* link_greedy_tree) {
  if (link_greedy != nullptr) *link_greedy = false;
  int set = 0;
  if (!RadixSetting(irr::formats::RadixFamily::kTuwkInit, &set)) return MPI_ERR_ARG;
  if (set != 0) {
    *radix = set;
    return MPI_SUCCESS;
  }
  int ranks_per_node = 0;  // a gather's link-greedy layout weighs the root's node link
  if (RanksPerNodeSetting(&ranks_per_node) != MPI_SUCCESS) return MPI_ERR_ARG;
  std::int64_t chosen[2] = {kChoosePlannedRadix, 0};  // the radix; 1: the link-greedy tree
  if (ctx.rank == root) {
    if (root_ok && static_cast<int>(block_bytes.size()) == ctx.size) {
      tree::LogGPParams params = CachedModelCosts().SmallCallParams(1);
      if (!scatter && pieces != nullptr) params.gather_pieces = *pieces;
      tree::NodeLinkCosts node_link =
          tree::NodeLinkOf(CachedModelCosts(), ranks_per_node, tree::kLibraryScatterTreesOnNodes);
      node_link.greedy_shape = [ranks_per_node](int p, std::int64_t size_class, int radix,
                                                int shape_root) {
        return ModelScatterStep(p, size_class, radix, shape_root, ranks_per_node);
      };
      tree::PlannedTreeChoice choice = tree::PlannedTree(scatter, block_bytes, root, params,
                                                         tree::WeighLayouts(scatter), node_link);
      chosen[0] = choice.radix;
      chosen[1] = choice.link_greedy && link_greedy != nullptr;
      if (chosen[1] != 0 && link_greedy_tree != nullptr) {
        *link_greedy_tree = std::move(choice.link_greedy_tree);
      }
    } else {
      int resolved = kChoosePlannedRadix;
      const int rc = ResolveRadix(TreeAlgorithm::kAdaptive, ctx.size, &resolved);
      chosen[0] = rc == MPI_SUCCESS ? resolved : 2;  // (not reached: the setting was read above)
    }
  }
  // Point-to-point (PlanBcast), as the rest of the init: SMPI loses MPI_Bcast on the private
  // communicator (plan_messages.cpp; here non-roots got 0 at p = 8).
  const int rc = PlanBcast(ctx, root, chosen, 2);
  if (rc != MPI_SUCCESS) return rc;
  *radix = static_cast<int>(chosen[0]);
  if (link_greedy != nullptr) *link_greedy = chosen[1] != 0;
  return MPI_SUCCESS;
}

}  // namespace tuw::detail

// Queries: they return the error, without the communicator's error handler.
namespace {

int QueryRadix(MPI_Comm comm, tuw::detail::TreeAlgorithm algorithm, int choice, int* radix) {
  if (comm == MPI_COMM_NULL) return MPI_ERR_COMM;
  if (radix == nullptr) return MPI_ERR_ARG;
  int p = 1;
  MPI_Comm_size(comm, &p);
  *radix = choice;
  return tuw::detail::ResolveRadix(algorithm, p, radix);
}

}  // namespace

extern "C" int TUWk_Radix(MPI_Comm comm, int* tuwk_radix, int* binomialk_radix) {
  if (comm != MPI_COMM_NULL && (tuwk_radix == nullptr || binomialk_radix == nullptr)) {
    return MPI_ERR_ARG;
  }
  using tuw::detail::TreeAlgorithm;
  const int rc = QueryRadix(comm, TreeAlgorithm::kAdaptive, tuw::detail::kChooseRadix, tuwk_radix);
  return rc != MPI_SUCCESS ? rc
                           : QueryRadix(comm, TreeAlgorithm::kOblivious, tuw::detail::kChooseRadix,
                                        binomialk_radix);
}

extern "C" int TUWk_Radix_gatherv(MPI_Comm comm, int* radix) {
  // An intercommunicator's TUWk_Gatherv carries nothing: TUWk's tree (intercomm.cpp).
  const bool inter = comm != MPI_COMM_NULL && tuw::detail::IsIntercomm(comm);
  return QueryRadix(comm, tuw::detail::TreeAlgorithm::kAdaptive,
                    inter ? tuw::detail::kChooseRadix : tuw::detail::kChooseCarriedRadix, radix);
}

extern "C" int TUWk_Radix_init(MPI_Comm comm, int* radix) {
  // An intercommunicator's persistent request builds its trees at every start (persistent.cpp).
  const bool inter = comm != MPI_COMM_NULL && tuw::detail::IsIntercomm(comm);
  return QueryRadix(comm, tuw::detail::TreeAlgorithm::kAdaptive,
                    inter ? tuw::detail::kChooseRadix : tuw::detail::kChoosePlannedRadix, radix);
}

extern "C" int TUWk_Radix_init_by_root(MPI_Comm comm, int* by_root) {
  if (comm == MPI_COMM_NULL) return MPI_ERR_COMM;
  if (by_root == nullptr) return MPI_ERR_ARG;
  int set = 0;  // the rule of RootPlannedRadix
  if (!tuw::detail::RadixSetting(irr::formats::RadixFamily::kTuwkInit, &set)) return MPI_ERR_ARG;
  // An intercommunicator's requests build their trees at every start, at TUWk's radix.
  *by_root = set == 0 && !tuw::detail::IsIntercomm(comm);
  return MPI_SUCCESS;
}

extern "C" int TUWk_Scatter_step(MPI_Comm comm, int root, int* step, int* by_model) {
  if (comm != MPI_COMM_NULL && (step == nullptr || by_model == nullptr)) return MPI_ERR_ARG;
  int radix = 0;
  int rc =
      QueryRadix(comm, tuw::detail::TreeAlgorithm::kAdaptive, tuw::detail::kChooseRadix, &radix);
  int p = 1;
  if (rc == MPI_SUCCESS) MPI_Comm_size(comm, &p);
  if (rc == MPI_SUCCESS && (root < 0 || root >= p)) rc = MPI_ERR_ROOT;
  int setting = -1, ranks_per_node = 0;
  if (rc == MPI_SUCCESS) rc = tuw::detail::ScatterStepSetting(&setting);
  if (rc == MPI_SUCCESS) rc = tuw::detail::RanksPerNodeSetting(&ranks_per_node);
  if (rc != MPI_SUCCESS) return rc;
  *by_model = setting < 0;
  // The latency-bound case's (4-byte blocks): the step every greedy small call takes.
  *step = setting >= 0 ? setting : tuw::detail::ModelScatterStep(p, 4, radix, root, ranks_per_node);
  return MPI_SUCCESS;
}

extern "C" int TUWk_Radix_scatter_large(MPI_Comm comm, int root, MPI_Aint block_bytes, int* radix,
                                        int* by_model) {
  if (comm != MPI_COMM_NULL && (radix == nullptr || by_model == nullptr || block_bytes < 0)) {
    return MPI_ERR_ARG;
  }
  int small_radix = 0;  // reads (and reports a bad) TUWCOLL_RADIX
  int rc = QueryRadix(comm, tuw::detail::TreeAlgorithm::kAdaptive, tuw::detail::kChooseRadix,
                      &small_radix);
  int p = 1, ranks_per_node = 0;
  if (rc == MPI_SUCCESS) MPI_Comm_size(comm, &p);
  if (rc == MPI_SUCCESS && (root < 0 || root >= p)) rc = MPI_ERR_ROOT;
  if (rc == MPI_SUCCESS) rc = tuw::detail::RanksPerNodeSetting(&ranks_per_node);
  if (rc != MPI_SUCCESS) return rc;
  bool model = true;
  const std::vector<std::int64_t> blocks(1, block_bytes);  // the class of this mean
  *radix = tuw::detail::LargeScatterRadix(p, tuw::tree::ShapeBlockBytes(blocks), root,
                                          ranks_per_node, &model);
  *by_model = model;
  return MPI_SUCCESS;
}

extern "C" int TUWk_Gather_pieces(MPI_Comm comm, MPI_Aint* piece_bytes, int* by_model) {
  if (comm == MPI_COMM_NULL) return MPI_ERR_COMM;
  if (piece_bytes == nullptr || by_model == nullptr) return MPI_ERR_ARG;
  const tuw::tree::PieceRule* rule = nullptr;
  bool model = true;
  const int rc = tuw::detail::GatherPieces(&rule, &model);
  if (rc != MPI_SUCCESS) return rc;
  *piece_bytes = static_cast<MPI_Aint>(rule->piece);
  *by_model = model;
  return MPI_SUCCESS;
}
