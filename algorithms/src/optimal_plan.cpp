// The plan of Optimal_Gatherv_init / Optimal_Scatterv_init: the root, which knows every count,
// computes the optimal ordered tree for its rank with the cost model's DP (algorithms/tree,
// the code irrmodel runs) and gives every process its node of it, once. Where the model
// predicts no clear gain over TUW's adaptive tree, that tree runs (tree::OptimalInitTree). The run
// is the same executor as TUW's (RunGatherPlan / RunScatterPlan), along that tree.
//
// Cost parameters (microseconds, per byte): the fit file named by TUWCOLL_MODEL_FIT (irrfit's
// fit.txt), else a ping-pong of the root with one neighbour (8 B and 64 KiB messages) and a
// timed local copy. The root decides and tells the others in the first broadcast, so a
// variable set on some processes only cannot leave a neighbour waiting.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "../tree/optimal_tree.hpp"
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

// The root's cost parameters: from TUWCOLL_MODEL_FIT, or measured with the partner (who calls
// this too, with root = false). Returns an MPI error code.
int CostParameters(const CallContext& ctx, int root, tree::CostParams* cost) {
  const bool is_root = ctx.rank == root;
  std::int64_t source[2] = {0, MPI_SUCCESS};  // {measure?, error reading the fit file}
  if (is_root) {
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
  int rc = PlanBcast(ctx, root, source, 2);
  if (rc != MPI_SUCCESS) return rc;
  if (source[1] != MPI_SUCCESS) return static_cast<int>(source[1]);
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

// TUWCOLL_OPTIMAL_DP (exact, windowed, or auto: the rule irrmodel predicts with). False, with a
// message naming the value and the valid ones, for anything else.
bool ChooseDp(int p, tree::DpMethod* method) {
  const char* choice = std::getenv("TUWCOLL_OPTIMAL_DP");
  const std::string value = choice != nullptr && *choice != '\0' ? choice : "auto";
  if (value == "exact") {
    *method = tree::DpMethod::kFast;
  } else if (value == "windowed") {
    *method = tree::DpMethod::kWindowed;
  } else if (value == "auto") {
    *method = tree::ExecutedDpMethod(p);
  } else {
    std::fprintf(stderr,
                 "libtuwcoll: Optimal_*_init: TUWCOLL_OPTIMAL_DP=%s is not one of exact, "
                 "windowed, auto\n",
                 value.c_str());
    return false;
  }
  return true;
}

// The tree as every process gets it: the root's block sizes (bytes), each rank's parent (-1 at
// the root) and its place in its parent's receive order. Each process rebuilds its own node
// from these 3p words (O(p) work, no per-process messages).
std::vector<std::int64_t> EncodeTree(const tree::Tree& tree,
                                     const std::vector<std::int64_t>& block_bytes) {
  const std::size_t p = block_bytes.size();
  std::vector<std::int64_t> words(3 * p, -1);
  std::copy(block_bytes.begin(), block_bytes.end(), words.begin());
  for (const tree::NodeView& node : tree.nodes) {
    for (std::size_t k = 0; k < node.children.size(); ++k) {
      words[p + node.children[k].child] = node.rank;
      words[2 * p + node.children[k].child] = static_cast<std::int64_t>(k);
    }
  }
  return words;
}

// This process's node of the encoded tree; throws std::invalid_argument if it is not one.
tree::NodeView DecodeNode(const std::int64_t* words, int p, int root, int rank) {
  const std::vector<std::int64_t> block_bytes(words, words + p);
  tree::SequencedTree sequenced;
  sequenced.root = root;
  sequenced.steps.assign(p, {});
  std::vector<std::vector<std::pair<std::int64_t, int>>> children(p);
  for (int v = 0; v < p; ++v) {
    const std::int64_t parent = words[p + v];
    if (v == root) continue;
    if (parent < 0 || parent >= p) throw std::invalid_argument("no parent");
    children[parent].push_back({words[2 * p + v], v});
  }
  for (int v = 0; v < p; ++v) {
    std::sort(children[v].begin(), children[v].end());
    for (const auto& child : children[v]) sequenced.steps[v].push_back(child.second);
  }
  return tree::ToNodeViews(sequenced, block_bytes).nodes[rank];
}

// Everything but the argument checks, the same for gather and scatter. *tree_error (at the root)
// is an error of the root's computation, *node_error one of decoding this process's node;
// `root_ok`: the root's own arguments are good.
int PlanOptimalView(const CallContext& ctx, int root, bool root_ok,
                    const std::vector<std::int64_t>& block_bytes, tree::NodeView* view,
                    int* tree_error, int* node_error) {
  *tree_error = MPI_SUCCESS;
  *node_error = MPI_SUCCESS;
  *view = tree::NodeView{};
  view->rank = ctx.rank;
  tree::CostParams cost;
  int rc = CostParameters(ctx, root, &cost);
  if (rc != MPI_SUCCESS) {
    *tree_error = rc;
    root_ok = false;  // no tree: everybody still takes part in the broadcast below
  }
  const int p = ctx.size;
  // words[0]: MPI_SUCCESS if a tree follows; then EncodeTree's 3p words.
  std::vector<std::int64_t> words(1 + 3 * static_cast<std::size_t>(p), 0);
  words[0] = MPI_ERR_OTHER;
  if (ctx.rank == root && root_ok) {
    tree::DpMethod method;
    if (!ChooseDp(p, &method)) *tree_error = MPI_ERR_ARG;
    if (*tree_error == MPI_SUCCESS) {
      try {
        const tree::ExecutedTree executed = tree::OptimalInitTree(block_bytes, cost, root, method);
        const std::vector<std::int64_t> encoded =
            EncodeTree(tree::ToNodeViews(executed.tree, block_bytes), block_bytes);
        std::copy(encoded.begin(), encoded.end(), words.begin() + 1);
        words[0] = MPI_SUCCESS;
      } catch (const std::bad_alloc&) {
        *tree_error = MPI_ERR_NO_MEM;
      } catch (const std::exception&) {
        *tree_error = MPI_ERR_INTERN;
      }
    }
  }
  rc = PlanBcast(ctx, root, words.data(), static_cast<int>(words.size()));
  if (rc != MPI_SUCCESS) return rc;
  if (words[0] != MPI_SUCCESS) return MPI_SUCCESS;  // no tree: the verdict of init says why
  try {
    *view = DecodeNode(words.data() + 1, p, root, ctx.rank);
  } catch (const std::exception&) {
    *node_error = MPI_ERR_INTERN;
  }
  return MPI_SUCCESS;
}

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
                                      &plan->error_in_tree, &node_error);
  if (plan->local_error == MPI_SUCCESS) plan->local_error = node_error;
  return planned;
}

}  // namespace

int PlanOptimalGather(const GatherArgs& args, GatherPlan* plan) {
  return PlanOptimal(args, plan, CheckGatherArgs);
}

int PlanOptimalScatter(const ScatterArgs& args, ScatterPlan* plan) {
  return PlanOptimal(args, plan, CheckScatterArgs);
}

}  // namespace tuw::detail
