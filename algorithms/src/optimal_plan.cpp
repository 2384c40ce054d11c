// The plan of Optimal_Gatherv_init / Optimal_Scatterv_init: the root, which knows every count,
// computes the optimal ordered tree for its rank with the cost model's DP (algorithms/tree,
// the code irrmodel runs) and gives every process its node of it, once. Where the model
// predicts no clear gain over TUW's adaptive tree, that tree runs (tree::OptimalInitTree). The run
// is the same executor as TUW's (RunGatherPlan / RunScatterPlan), along that tree.
//
// Cost parameters (microseconds, per byte): the fit file named by TUWCOLL_MODEL_FIT (irrfit's
// fit.txt), else a ping-pong of the root with one neighbour (8 B and 64 KiB messages) and a
// timed local copy. The processes' nodes (for the node-aware tree, tree/node_tree.hpp):
// MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), or TUWCOLL_RANKS_PER_NODE consecutive ranks per
// node; TUWCOLL_NODE_TREE=auto|always|never chooses. The root reads the variables and tells the
// others in the first broadcast, so a variable set on some processes only cannot leave a
// neighbour waiting.
#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <new>
#include <numeric>
#include <stdexcept>
#include <string>

#include "../tree/node_tree.hpp"
#include "../tree/optimal_tree.hpp"
#include "../tree/tree_words.hpp"
#include "fit_file.hpp"
#include "internal.hpp"

namespace tuw::detail {
namespace {

constexpr std::int64_t kSmallProbe = 8;
constexpr std::int64_t kLargeProbe = 65536;
constexpr int kProbeRepetitions = 10;

// The neighbour the root measures with: the next rank (the previous for the last).
int ProbePartner(int root, int p) { return root + 1 < p ? root + 1 : root - 1; }

// Half the round trip of `bytes`, the fastest of kProbeRepetitions (after one warm-up).
int PingPong(MPI_Comm comm, int partner, bool initiator, std::vector<char>& buffer,
             std::int64_t bytes, double* one_way_us) {
  double best = 1e30;
  const int count = IntCount(bytes);
  for (int rep = 0; rep <= kProbeRepetitions; ++rep) {
    const double start = MPI_Wtime();
    int rc;
    if (initiator) {
      rc = MPI_Send(buffer.data(), count, MPI_BYTE, partner, TUWCOLL_TAG_MEASURE, comm);
      if (rc == MPI_SUCCESS) {
        rc = MPI_Recv(buffer.data(), count, MPI_BYTE, partner, TUWCOLL_TAG_MEASURE, comm,
                      MPI_STATUS_IGNORE);
      }
    } else {
      rc = MPI_Recv(buffer.data(), count, MPI_BYTE, partner, TUWCOLL_TAG_MEASURE, comm,
                    MPI_STATUS_IGNORE);
      if (rc == MPI_SUCCESS) {
        rc = MPI_Send(buffer.data(), count, MPI_BYTE, partner, TUWCOLL_TAG_MEASURE, comm);
      }
    }
    if (rc != MPI_SUCCESS) return rc;
    if (rep > 0) best = std::min(best, (MPI_Wtime() - start) * 1e6 / 2);
  }
  *one_way_us = best;
  return MPI_SUCCESS;
}

// The index of environment variable `name`'s value in `choices`, 0 (the default) where it is
// unset or empty; -1, with a message naming the value and the valid ones, for anything else.
int EnvChoice(const char* name, const std::vector<std::string>& choices) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return 0;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (choices[i] == value) return static_cast<int>(i);
  }
  std::string valid;
  for (const std::string& c : choices) valid += (valid.empty() ? "" : ", ") + c;
  std::fprintf(stderr, "libtuwcoll: Optimal_*_init: %s=%s is not one of %s\n", name, value,
               valid.c_str());
  return -1;
}

// Whether Optimal_*_init runs the node-aware tree: where tree::PreferNodeTree says so, always
// (where the nodes are contiguous rank ranges), or never.
enum class NodeTreeMode : std::int64_t { kAuto, kAlways, kNever };  // EnvChoice's order

// What the root decides at init and every process learns: the cost parameters (at the root
// only) and how the nodes are found.
struct PlanSettings {
  tree::CostParams cost;
  NodeTreeMode node_tree = NodeTreeMode::kAuto;
  std::int64_t ranks_per_node = 0;  // 0: ask MPI (MPI_COMM_TYPE_SHARED)
};

// TUWCOLL_NODE_TREE and TUWCOLL_RANKS_PER_NODE at the root. False, with a message naming the
// value and the valid ones, for anything else.
bool ReadNodeSettings(PlanSettings* settings) {
  const int mode = EnvChoice("TUWCOLL_NODE_TREE", {"auto", "always", "never"});
  if (mode < 0) return false;
  settings->node_tree = static_cast<NodeTreeMode>(mode);
  int per_node = 0;  // 0 where unset: MPI is asked
  if (RanksPerNodeSetting(&per_node) != MPI_SUCCESS) return false;
  settings->ranks_per_node = per_node;
  return true;
}

// The root's cost parameters: from TUWCOLL_MODEL_FIT, or measured with the partner (who calls
// this too, with root = false); the node settings on every process. Returns an MPI error code.
int ReadPlanSettings(const CallContext& ctx, int root, PlanSettings* settings) {
  tree::CostParams* cost = &settings->cost;
  const bool is_root = ctx.rank == root;
  // {measure?, error reading the variables, node tree mode, ranks per node}
  std::int64_t source[4] = {0, MPI_SUCCESS, 0, 0};
  if (is_root) {
    if (!ReadNodeSettings(settings)) source[1] = MPI_ERR_ARG;
    source[2] = static_cast<std::int64_t>(settings->node_tree);
    source[3] = settings->ranks_per_node;
    const char* path = std::getenv("TUWCOLL_MODEL_FIT");
    if (path != nullptr && *path != '\0') {
      irr::formats::Fit fit;
      std::vector<std::string> notes;
      std::string error;
      if (irr::formats::ReadFit(path, &fit, &notes, &error)) {
        *cost = {fit.alpha_us, fit.beta_us_per_byte, fit.gamma_us_per_byte};
      } else {
        std::fprintf(stderr, "libtuwcoll: Optimal_*_init: TUWCOLL_MODEL_FIT: %s\n", error.c_str());
        source[1] = MPI_ERR_OTHER;
      }
    } else {
      source[0] = ctx.size > 1 ? 1 : 0;
    }
  }
  int rc = PlanBcast(ctx, root, source, 4);
  if (rc != MPI_SUCCESS) return rc;
  if (source[1] != MPI_SUCCESS) return static_cast<int>(source[1]);
  settings->node_tree = static_cast<NodeTreeMode>(source[2]);
  settings->ranks_per_node = source[3];
  if (source[0] == 0) return MPI_SUCCESS;
  const int partner = ProbePartner(root, ctx.size);
  if (!is_root && ctx.rank != partner) return MPI_SUCCESS;
  std::vector<char> buffer(kLargeProbe, 1), copy(kLargeProbe, 0);
  double small_us = 0, large_us = 0;
  rc =
      PingPong(ctx.private_comm, is_root ? partner : root, is_root, buffer, kSmallProbe, &small_us);
  if (rc == MPI_SUCCESS) {
    rc = PingPong(ctx.private_comm, is_root ? partner : root, is_root, buffer, kLargeProbe,
                  &large_us);
  }
  if (rc != MPI_SUCCESS || !is_root) return rc;
  double copy_us = 1e30;
  for (int rep = 0; rep <= kProbeRepetitions; ++rep) {
    const double start = MPI_Wtime();
    std::memcpy(copy.data(), buffer.data(), kLargeProbe);
    buffer[rep % kLargeProbe] = copy[(rep + 1) % kLargeProbe];  // keep the copy observable
    if (rep > 0) copy_us = std::min(copy_us, (MPI_Wtime() - start) * 1e6);
  }
  cost->beta = std::max(0.0, (large_us - small_us) / (kLargeProbe - kSmallProbe));
  cost->alpha = std::max(0.0, small_us - cost->beta * kSmallProbe);
  cost->gamma = copy_us / kLargeProbe;
  return MPI_SUCCESS;
}

// TUWCOLL_OPTIMAL_DP (auto: the rule irrmodel predicts with, exact, or windowed). False, with
// EnvChoice's message, for anything else.
bool ChooseDp(int p, tree::DpMethod* method) {
  switch (EnvChoice("TUWCOLL_OPTIMAL_DP", {"auto", "exact", "windowed"})) {
    case 0:
      *method = tree::ExecutedDpMethod(p);
      return true;
    case 1:
      *method = tree::DpMethod::kFast;
      return true;
    case 2:
      *method = tree::DpMethod::kWindowed;
      return true;
    default:
      return false;
  }
}

// The lowest rank on this process's node, at the root for every rank (*node_first), and the
// ranks of this process's own node, ascending (*my_node); both empty where the node tree is never
// run. Collective.
int GatherNodes(const CallContext& ctx, int root, const PlanSettings& settings,
                std::vector<int>* node_first, std::vector<int>* my_node) {
  node_first->clear();
  my_node->clear();
  if (settings.node_tree == NodeTreeMode::kNever) return MPI_SUCCESS;
  std::int64_t mine = ctx.rank - ctx.rank % std::max<std::int64_t>(settings.ranks_per_node, 1);
  if (settings.ranks_per_node > 0) {
    const std::int64_t end = std::min<std::int64_t>(mine + settings.ranks_per_node, ctx.size);
    for (std::int64_t r = mine; r < end; ++r) my_node->push_back(static_cast<int>(r));
  } else {
    MPI_Comm node = MPI_COMM_NULL;
    int rc =
        MPI_Comm_split_type(ctx.private_comm, MPI_COMM_TYPE_SHARED, ctx.rank, MPI_INFO_NULL, &node);
    if (rc != MPI_SUCCESS) return rc;
    MPI_Group node_group, group;
    MPI_Comm_group(node, &node_group);
    MPI_Comm_group(ctx.private_comm, &group);
    int node_size = 1;
    MPI_Group_size(node_group, &node_size);
    std::vector<int> node_ranks(node_size);
    std::iota(node_ranks.begin(), node_ranks.end(), 0);
    my_node->assign(node_size, ctx.rank);
    rc =
        MPI_Group_translate_ranks(node_group, node_size, node_ranks.data(), group, my_node->data());
    MPI_Group_free(&node_group);
    MPI_Group_free(&group);
    MPI_Comm_free(&node);
    if (rc != MPI_SUCCESS) {
      my_node->clear();
      return rc;
    }
    std::sort(my_node->begin(), my_node->end());
    mine = my_node->front();
  }
  std::vector<std::int64_t> all;
  const int rc = PlanGather(ctx, root, &mine, 1, &all);
  if (rc == MPI_SUCCESS && ctx.rank == root) node_first->assign(all.begin(), all.end());
  return rc;
}

// The tree Optimal_*_init runs (at the root).
tree::ExecutedTree ChooseTree(const std::vector<std::int64_t>& block_bytes,
                              const PlanSettings& settings, const std::vector<int>& node_first,
                              int root, tree::DpMethod method) {
  if (settings.node_tree == NodeTreeMode::kAlways && tree::ContiguousNodes(node_first)) {
    return tree::ExecutedNodeTree(block_bytes, node_first, settings.cost, root);
  }
  return tree::OptimalInitTree(block_bytes, settings.cost, root, method, node_first);
}

using TreeBuilder = std::function<int(tree::Tree*, std::vector<tree::RankRange>*)>;

// The root's tree sent to every process (point-to-point, PlanBcast) and this process's node of
// it (*view, empty where no tree came). `build` runs at the root only, where root_ok: it fills the
// tree's node views and node parts or returns an error, which goes to *tree_error (as do its
// exceptions); *node_error: a failure to decode this process's node.
int SendTree(const CallContext& ctx, int root, bool root_ok,
             const std::vector<std::int64_t>& block_bytes, const TreeBuilder& build,
             tree::NodeView* view, int* tree_error, int* node_error) {
  *view = tree::NodeView{};
  view->rank = ctx.rank;
  const int p = ctx.size;
  // words[0]: MPI_SUCCESS if a tree follows; then EncodeTree's words.
  std::vector<std::int64_t> words(1 + tree::kTreeWords * static_cast<std::size_t>(p), 0);
  words[0] = MPI_ERR_OTHER;
  if (ctx.rank == root && root_ok) {
    try {
      tree::Tree views;
      std::vector<tree::RankRange> node_parts;
      const int rc = build(&views, &node_parts);
      if (rc != MPI_SUCCESS) {
        *tree_error = rc;
      } else {
        const std::vector<std::int64_t> encoded = tree::EncodeTree(views, block_bytes, node_parts);
        std::copy(encoded.begin(), encoded.end(), words.begin() + 1);
        words[0] = MPI_SUCCESS;
      }
    } catch (const std::bad_alloc&) {
      *tree_error = MPI_ERR_NO_MEM;
    } catch (const std::exception&) {
      *tree_error = MPI_ERR_INTERN;
    }
  }
  const int rc = PlanBcast(ctx, root, words.data(), static_cast<int>(words.size()));
  if (rc != MPI_SUCCESS) return rc;
  if (words[0] != MPI_SUCCESS) return MPI_SUCCESS;  // no tree: the verdict of init says why
  try {
    *view = tree::DecodeNode(words.data() + 1, p, root, ctx.rank);
  } catch (const std::exception&) {
    *node_error = MPI_ERR_INTERN;
  }
  return MPI_SUCCESS;
}

// Everything but the argument checks, the same for gather and scatter. *tree_error (at the root)
// is an error of the root's computation, *node_error one of decoding this process's node;
// `root_ok`: the root's own arguments are good. *my_node: the ranks of this process's node
// (GatherNodes).
int PlanOptimalView(const CallContext& ctx, int root, bool root_ok,
                    const std::vector<std::int64_t>& block_bytes, tree::NodeView* view,
                    std::vector<int>* my_node, int* tree_error, int* node_error) {
  *tree_error = MPI_SUCCESS;
  *node_error = MPI_SUCCESS;
  PlanSettings settings;
  int rc = ReadPlanSettings(ctx, root, &settings);
  std::vector<int> node_first;
  if (rc == MPI_SUCCESS) rc = GatherNodes(ctx, root, settings, &node_first, my_node);
  if (rc != MPI_SUCCESS) {
    *tree_error = rc;
    root_ok = false;  // no tree: everybody still takes part in the broadcast below
  }
  const auto build = [&](tree::Tree* views, std::vector<tree::RankRange>* node_parts) {
    tree::DpMethod method;
    if (!ChooseDp(ctx.size, &method)) return MPI_ERR_ARG;
    const tree::ExecutedTree executed = ChooseTree(block_bytes, settings, node_first, root, method);
    *views = tree::ToNodeViews(executed.tree, block_bytes);
    *node_parts = executed.nodes ? tree::ChooseNodeParts(*views, node_first)
                                 : std::vector<tree::RankRange>(ctx.size);
    return MPI_SUCCESS;
  };
  return SendTree(ctx, root, root_ok, block_bytes, build, view, tree_error, node_error);
}

}  // namespace

int PlanOptimalGroup(const CallContext& ctx, int root, std::int64_t own_bytes, int own_error,
                     tree::NodeView* view) {
  const std::int64_t mine[2] = {own_error == MPI_SUCCESS ? own_bytes : 0, own_error};
  std::vector<std::int64_t> all;
  int rc = PlanGather(ctx, root, mine, 2, &all);
  if (rc != MPI_SUCCESS) return rc;
  std::vector<std::int64_t> block_bytes;
  std::int64_t verdict = MPI_SUCCESS;
  if (ctx.rank == root) {
    for (int i = 0; i < ctx.size; ++i) {
      block_bytes.push_back(all[2 * i]);
      if (verdict == MPI_SUCCESS) verdict = all[2 * i + 1];
    }
  }
  int tree_error = MPI_SUCCESS, node_error = MPI_SUCCESS;
  std::vector<int> my_node;  // the group's hand-over runs as TUW's does, without it
  rc = PlanOptimalView(ctx, root, verdict == MPI_SUCCESS, block_bytes, view, &my_node, &tree_error,
                       &node_error);
  if (rc != MPI_SUCCESS) return rc;
  if (verdict == MPI_SUCCESS) verdict = tree_error;
  rc = PlanBcast(ctx, root, &verdict, 1);
  if (rc != MPI_SUCCESS) return rc;
  return verdict != MPI_SUCCESS ? static_cast<int>(verdict) : node_error;
}

namespace {

// Gather and scatter alike: the checks of this process's own arguments (CheckGatherArgs or
// CheckScatterArgs), then the tree.
template <typename Args, typename Plan>
int PlanOptimal(const Args& call_args, Plan* plan,
                int (*check)(const Args&, const CallContext&, std::int64_t*,
                             std::vector<std::int64_t>*)) {
  plan->args = call_args;
  const Args& args = plan->args;
  const int rc = BeginCollective(args.comm, args.root, &plan->ctx);
  if (rc != MPI_SUCCESS) return rc;
  plan->local_error = check(args, plan->ctx, &plan->own_bytes, &plan->block_bytes);
  const bool root_ok = plan->ctx.rank != args.root || plan->local_error == MPI_SUCCESS;
  int node_error = MPI_SUCCESS;
  const int planned = PlanOptimalView(plan->ctx, args.root, root_ok, plan->block_bytes, &plan->view,
                                      &plan->options.node_ranks, &plan->error_in_tree, &node_error);
  if (plan->local_error == MPI_SUCCESS) plan->local_error = node_error;
  return planned;
}

}  // namespace

int PlanLinkGreedyView(const CallContext& ctx, int root,
                       const std::vector<std::int64_t>& block_bytes, const tree::Tree& tree,
                       tree::NodeView* view, int* tree_error, int* node_error) {
  *tree_error = MPI_SUCCESS;
  *node_error = MPI_SUCCESS;
  const auto build = [&](tree::Tree* views, std::vector<tree::RankRange>* node_parts) {
    *views = tree;
    node_parts->assign(ctx.size, tree::RankRange{});
    return MPI_SUCCESS;
  };
  return SendTree(ctx, root, true, block_bytes, build, view, tree_error, node_error);
}

int PlanOptimalGather(const GatherArgs& args, GatherPlan* plan) {
  return PlanOptimal(args, plan, CheckGatherArgs);
}

int PlanOptimalScatter(const ScatterArgs& args, ScatterPlan* plan) {
  return PlanOptimal(args, plan, CheckScatterArgs);
}

}  // namespace tuw::detail
