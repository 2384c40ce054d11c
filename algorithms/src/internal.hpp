// Shared internals of libtuwcoll: argument checks, the private communicator, datatype helpers
// and the executors that run a gather/scatter tree (tuw::tree::NodeView) with MPI.
#pragma once

#include <mpi.h>

#include <climits>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "../tree/hypercube_tree.hpp"
#include "../tree/loggp.hpp"
#include "transfer.hpp"
#include "tuwcoll.h"

namespace tuw::tree {
struct PieceRule;  // loggp.hpp
}  // namespace tuw::tree

namespace tuw::detail {

// Counts and displacements inside the library: 64 bits, so that the int API and the MPI-4 large
// count API (_c: MPI_Count counts, MPI_Aint displacements) share every line (api.cpp widens).
using Count = std::int64_t;

struct GatherArgs {
  const void* sendbuf;
  Count sendcount;
  MPI_Datatype sendtype;
  void* recvbuf;
  const Count* recvcounts;
  const Count* displs;
  MPI_Datatype recvtype;
  int root;
  MPI_Comm comm;
};

struct ScatterArgs {
  const void* sendbuf;
  const Count* sendcounts;
  const Count* displs;
  MPI_Datatype sendtype;
  void* recvbuf;
  Count recvcount;
  MPI_Datatype recvtype;
  int root;
  MPI_Comm comm;
};

// Where a call stands after the checks every process can make alike (communicator, root).
// Buffers a process keeps from one call on a communicator to the next (PrivateComms::buffers):
// a buffer allocated and freed at every call can make malloc give the pages back to the kernel
// and take fresh ones at the next call, which then fault in page by page. Measured on 16 real
// cores (Open MPI and MPICH, p = 16, Same, b = 10^4): TUWk_Scatterv's inner nodes freed 416 KiB
// a call (the first message's room and the subtree's data), glibc trimmed its heap each time
// (3 brk a call), and the call took 2.8x TUW_Scatterv's time.
struct CallBuffers {
  KeptBuffer first_message;  // TUWk_Scatterv: a non-root's first message (sizes, data)
  KeptBuffer subtree;        // a non-root's subtree data in ExecuteGather/ExecuteScatter
};

struct CallContext {
  MPI_Comm private_comm = MPI_COMM_NULL;
  int rank = -1;
  int size = 0;
  // This process's count of the calls on the communicator that receive their first message from
  // any source (TUWk_Scatterv), so that each call has its own tag (PrivateComms::calls).
  std::uint32_t* any_source_calls = nullptr;
  // This process's buffers kept between calls on the communicator (nullptr: none kept; the
  // intercommunicator paths allocate per call).
  std::shared_ptr<CallBuffers> buffers;
};

// A communicator's private duplicate, cached as an attribute; for an intercommunicator also its
// local group as an intracommunicator (for intracommunicators local == comm).
struct PrivateComms {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm local = MPI_COMM_NULL;
  // One counter per rank (indexed by rank: a simulator that runs every rank in one process shares
  // the attribute between them), for CallContext::any_source_calls.
  std::shared_ptr<std::vector<std::uint32_t>> calls;
  // Per rank as `calls` (CallContext::buffers).
  std::shared_ptr<std::vector<CallBuffers>> buffers;
};
// Made at the first call on comm (collectively, by every process of comm, both groups of an
// intercommunicator), freed with comm.
int GetPrivateComms(MPI_Comm comm, PrivateComms* comms);

bool IsIntercomm(MPI_Comm comm);

// How many entries this process's root count/displacement arrays have where they are
// significant (the root of an intracommunicator: its size; MPI_ROOT on an intercommunicator: the
// remote size), else 0.
int RootArrayLength(MPI_Comm comm, int root);

// Checks comm (an intra-communicator) and root (the same verdict on every process, so no process
// is left waiting) and fetches the cached private duplicate of comm. Returns MPI_SUCCESS or an
// MPI error code.
int BeginCollective(MPI_Comm comm, int root, CallContext* ctx);

// The algorithms on an intercommunicator: the group that sends (gather) or receives (scatter)
// runs the algorithm's own tree over its local group with local rank 0 as its root, and local
// rank 0 hands the whole group's data to (gets it from) the root in the other group in one
// self-describing transfer; Linear sends every block straight across. Returns an error code.
enum class TreeAlgorithm { kAdaptive, kOblivious, kLinear };

// The two sides of the linear algorithms over `comm` (intra- or intercommunicator). At the root,
// own_rank is the root's rank whose block is copied locally, or -1 (intercommunicator: every
// block comes from the remote group); block_bytes has one entry per sending process.
int LinearGatherSend(const GatherArgs& a, MPI_Comm comm, int root, std::int64_t own_bytes);
int LinearGatherAtRoot(const GatherArgs& a, MPI_Comm comm, int own_rank,
                       const std::vector<std::int64_t>& block_bytes);
int LinearScatterReceive(const ScatterArgs& a, MPI_Comm comm, int root, std::int64_t own_bytes);
int LinearScatterAtRoot(const ScatterArgs& a, MPI_Comm comm, int own_rank,
                        const std::vector<std::int64_t>& block_bytes);
// `planned`: the non-root group's node of a tree made at init (PlanInterOptimal*), instead of
// building the algorithm's tree.
// `radix`: the tree's (2: TUW's and Binomial's own; kChooseRadix: ResolveRadix's; ignored by
// Linear).
int InterGather(const GatherArgs& args, TreeAlgorithm algorithm, int radix = 2,
                const tree::NodeView* planned = nullptr);
int InterScatter(const ScatterArgs& args, TreeAlgorithm algorithm, int radix = 2,
                 const tree::NodeView* planned = nullptr);

// Radix arguments that ask ResolveRadix for one: the radix of a tree built at every call
// (TUWk_*, Binomialk_*), of TUWk's tree built once by TUWk_*_init, where only the data phase
// is repeated (so the construction's cost, which grows with the radix, does not count), or of
// TUWk_Gatherv's tree whose construction carries small cubes' data (tree/carried_cubes.hpp).
constexpr int kChooseRadix = 0;
constexpr int kChoosePlannedRadix = -1;
constexpr int kChooseCarriedRadix = -2;
// TUWk_*_init on an intracommunicator: the radix its root chooses on its counts at the init
// (RootPlannedRadix), unless TUWCOLL_RADIX names TUWk_init's.
constexpr int kChooseRadixAtRoot = -3;
// Replaces a kChoose* *radix by the radix for a (local) group of p processes (radix_choice.cpp):
// TUWCOLL_RADIX where it sets one for the tree's family (a whole number from 2 to
// tree::kMaxRadix for all, or e.g. "TUWk=4 Binomialk=9 TUWk_init=9 TUWk_Gatherv=5",
// formats/radix_record.hpp; the same on every process), else the LogGP model's choice
// (tree::ModelRadix) from the costs in TUWCOLL_MODEL_FIT or the built-in ones; a given radix stays.
// MPI_SUCCESS, or MPI_ERR_ARG with a message naming the bad value (every process reads the same
// environment, so all fail alike, before any message).
int ResolveRadix(TreeAlgorithm algorithm, int p, int* radix);
// The tree of a small TUWk_Scatterv call (tree::OneMessageCall), which its root names in the
// messages: TUWCOLL_SCATTER_STEP where set (0: the adaptive radix tree; 1 to
// tree::kMaxGreedyStep: the LogP-greedy tree of that step, tree/greedy_tree.hpp; S/N: the
// two-level greedy tree over nodes of TUWCOLL_RANKS_PER_NODE ranks, tree::ShapeCode), else the
// LogGP model's choice (tree::SmallScatterShape) for p blocks of tree::ShapeBlockBytes at the
// call's root, computed once per (p, size class, radix, root, ranks a node) and process from the
// same costs as the radix, on two levels where TUWCOLL_RANKS_PER_NODE names the ranks of a node and
// the fit measured a node's alpha (the greedy tree's top ranges fall on other nodes from
// different roots: at p = 560 the simulation measures step 5 best from root 280, which the two
// levels find and one level does not; docs/irrmodel.md). ScatterStepSetting: *step = the
// setting, or -1 where there is none; RanksPerNodeSetting: *ranks_per_node = the setting, or 0;
// MPI_ERR_ARG with a message naming a bad value (every process reads them, so all fail alike,
// before any message).
int ScatterStepSetting(int* step);
int RanksPerNodeSetting(int* ranks_per_node);
int ModelScatterStep(int p, std::int64_t block_bytes, int radix, int root, int ranks_per_node);
// The radix of a TUWk_Scatterv call too large for one message a child, which its root names in
// the size messages: TUWCOLL_RADIX's for TUWk where it sets one (a number, or TUWk=R), else the
// LogGP model's (tree::LargeScatterRadix) for p blocks of tree::ShapeBlockBytes(block_bytes) at
// the call's root, computed once per (p, size class, root, ranks a node) and process from the
// costs of ModelScatterStep. *by_model: whether the model chose it. TUWCOLL_RADIX is read by
// ResolveRadix first, which reports a bad one.
int LargeScatterRadix(int p, std::int64_t block_bytes, int root, int ranks_per_node,
                      bool* by_model = nullptr);
// TUWk_Gatherv's pieces (tree::PieceRule): TUWCOLL_GATHER_PIECES=0 none, =N pieces of N bytes
// for every transfer above N, else the LogGP model's rule from the fit's measured curve
// (tree::GatherPieceRule, computed once per process; none without TUWCOLL_MODEL_FIT). The setting
// is read at every call; a bad value: MPI_ERR_ARG with a message naming it (every process reads
// the same, so all fail alike before any message). *by_model: whether the model's rule applies.
int GatherPieces(const tree::PieceRule** rule, bool* by_model = nullptr);
// kChooseRadixAtRoot's radix, the same on every process: TUWCOLL_RADIX's TUWk_init where it names
// one, else the root's choice on its block_bytes (tree::PlannedRadix on the model's costs, a
// gather's edges in `pieces`; the 4-byte radix where root_ok is false: bad arguments at the root,
// which the construction then reports), broadcast on ctx's communicator. The root also chooses
// between that radix tree and the link-greedy tree (tree::PlannedTree; *link_greedy, where
// link_greedy is not null, and at the root *link_greedy_tree, the tree it priced; never where
// TUWCOLL_RADIX names TUWk_init's radix). Every process
// calls it at the same point of the init, whatever its own arguments; the choice's message is its
// first on TUWCOLL_TAG_PLAN, ahead of the init's verdict.
int RootPlannedRadix(bool scatter, const std::vector<std::int64_t>& block_bytes, bool root_ok,
                     int root, const CallContext& ctx, const tree::PieceRule* pieces, int* radix,
                     bool* link_greedy = nullptr, tree::Tree* link_greedy_tree = nullptr);
// Optimal_*_init on an intercommunicator: the non-root group's optimal tree rooted at its local
// rank 0 (which hands over to the root), from every member's own block size; one verdict (the
// first bad own arguments in the group, or a failed computation) for the group and the root,
// which gets it from local rank 0. MPI_PROC_NULL processes take no part. *view: this process's
// node (non-root group only).
int PlanInterOptimalGather(const GatherArgs& args, tree::NodeView* view);
int PlanInterOptimalScatter(const ScatterArgs& args, tree::NodeView* view);

// The algorithms (one file each), called by the C entry points of api.cpp with widened
// arguments. They return an error code; api.cpp raises it through the error handler.
int TuwGatherv(const GatherArgs& args);
int TuwScatterv(const ScatterArgs& args);
int TuwkGatherv(const GatherArgs& args);
// TUWk_Scatterv (root_planned_scatter.cpp): on an intracommunicator the root plans the tree.
int TuwkScatterv(const ScatterArgs& args);
int BinomialkGatherv(const GatherArgs& args);
int BinomialkScatterv(const ScatterArgs& args);
// The tree algorithms at a given radix (2: TUW_*, Binomial_*; kChooseRadix: TUWk_*, Binomialk_*;
// kChoosePlannedRadix: TUWk_*_init's plan; kChooseCarriedRadix: TUWk_Gatherv's carried tree).
int TuwGathervRadix(const GatherArgs& args, int radix);
int TuwScattervRadix(const ScatterArgs& args, int radix);
int BinomialGathervRadix(const GatherArgs& args, int radix);
int BinomialScattervRadix(const ScatterArgs& args, int radix);
int LinearGatherv(const GatherArgs& args);
int LinearScatterv(const ScatterArgs& args);
int BinomialGatherv(const GatherArgs& args);
int BinomialScatterv(const ScatterArgs& args);

// Runs an MPI call; if it fails (and so did nothing), notes the first failure in *failure and runs
// it once more, so that the peer still gets its message and the tree stays complete.
template <typename Call>
void WithRetry(int* failure, Call call) {
  const int rc = call();
  if (rc == MPI_SUCCESS) return;
  if (*failure == MPI_SUCCESS) *failure = rc;
  call();
}

// The largest count an int-count MPI call takes; IntCount is for counts already checked against it.
constexpr Count kMaxInt = INT_MAX;
inline int IntCount(Count count) { return static_cast<int>(count); }

// Raises `code` through the error handler of `comm` (MPI_COMM_WORLD's if comm is null) and
// returns it, as an MPI function does.
int RaiseError(MPI_Comm comm, int code);

// Size in bytes of `count` elements of `type`'s signature; -1 if the type is invalid.
std::int64_t SignatureBytes(Count count, MPI_Datatype type);

// Checks a root's count/displacement arrays: non-negative counts, and the byte size of every
// block. Fills block_bytes[i]; returns MPI_SUCCESS, MPI_ERR_COUNT or MPI_ERR_TYPE.
int RootBlockBytes(const Count* counts, MPI_Datatype type, int p,
                   std::vector<std::int64_t>* block_bytes);

// The problem-adaptive tree of Lemma 3, built with MPI: ceil(log2 p) rounds of constant-size
// messages between fixed roots (the last rank of each cube) and gather roots. Each process
// knows only own_bytes (and the error class of its own bad arguments, local_error, or
// MPI_SUCCESS). On return `view` is this process's node of the tree (equal to
// tree::BuildTree's) and, at the root, *error_in_tree is the first error class any process
// reported (MPI_SUCCESS if none): bad arguments anywhere never leave a process waiting.
// An MPI call that fails is retried once with the same message, so the tree stays complete and
// consistent; the first such failure is returned (the caller poisons what it sends).
// TUWk_Gatherv's data carried by the construction (tree/carried_cubes.hpp): where a group of
// small cubes merged in the construction, the data it gathered.
struct CarriedData {
  std::int64_t max_bytes = -1;  // the largest cube carried; < 0: none (TUW_*, plans, scatters)
  // In the root's group (told only), the largest cube carried to the root (tree::CarryLimit; less
  // than max_bytes: max_bytes).
  std::int64_t root_max_bytes = -1;
  struct Range {
    int lo, hi;  // ranks, whose blocks lie in rank order at `offset` of `bytes`
    std::int64_t offset, bytes;
  };
  // A non-root: its cube's data while the cube is held (one range, its own block included; at
  // the start its own block, packed, where at most max_bytes). The root: other cubes' ranges.
  std::vector<char> bytes;
  std::vector<Range> ranges;
  bool done = false;  // a non-root whose cube was carried: no part in the data phase
};

int BuildAdaptiveView(MPI_Comm private_comm, int rank, int p, int root, int radix,
                      std::int64_t own_bytes, int local_error, tree::NodeView* view,
                      int* error_in_tree, CarriedData* carried = nullptr);

// Checks this process's own arguments (root: the count array, the own block). Sets own_bytes
// (this process's block in bytes) and, at the root, block_bytes for every rank.
int CheckGatherArgs(const GatherArgs& args, const CallContext& ctx, std::int64_t* own_bytes,
                    std::vector<std::int64_t>* block_bytes);
int CheckScatterArgs(const ScatterArgs& args, const CallContext& ctx, std::int64_t* own_bytes,
                     std::vector<std::int64_t>* block_bytes);

// How an executor runs.
struct ExecuteOptions {
  // kSizeKnown: adaptive trees, where every parent knows its children's sizes. kSelfDescribing:
  // oblivious trees, where non-root parents learn them by probing (gather) or from the block
  // sizes sent ahead (scatter), and every edge carries a transfer, empty or not.
  Framing framing = Framing::kSizeKnown;
  // Oblivious scatter trees: inner nodes get their subtree's block sizes ahead of the data.
  bool headers = false;
  // A failure of this process before the data moves (the construction, or its own arguments in
  // an oblivious tree): it still takes its part, and everything it sends is poisoned.
  int prior_failure = MPI_SUCCESS;
  // Intercommunicators: the root of the local tree is a relay whose parent is the real root in
  // the other group, reached over this communicator (a self-describing hand-over).
  MPI_Comm parent_comm = MPI_COMM_NULL;
  // The ranks of this process's node (shared memory), ascending; empty where not known. A scatter
  // sends to the leaves among them while its network link is busy (tree_executor.cpp).
  std::vector<int> node_ranks;
  // TUWk_Scatterv (root_planned_scatter.cpp): a message every child gets ahead of its data (its
  // subtree's sizes), empty subtrees included; sent by the root right before the child's data, by
  // a non-root as soon as its own receive is posted, so that the sizes run ahead of the data.
  // Returns an MPI error code (then the child's data is poisoned).
  std::function<int(const tree::ChildEdge&)> send_ahead;
  // Where a non-root keeps its subtree's buffer between runs (a plan's, so a persistent
  // request's starts reuse it; nullptr: one per call).
  std::shared_ptr<ScratchBuffer> scratch;
  // TUWk_Gatherv: what the construction carried (a non-root: its range's data, view.own_bytes
  // of it, sent in place of its own block; the root: ranges it unpacks into recvbuf).
  const CarriedData* carried = nullptr;
  // TUWk_Gatherv and TUWk_Gatherv_init's starts on an intracommunicator: the size of the pieces
  // each edge's transfer goes in (GatherPieces, read at the call or the init; nullptr or 0: the
  // default pieces). Both ends of an edge ask it for the same bytes.
  const tree::PieceRule* pieces = nullptr;
};
// The options of a plan: with a buffer kept from one run to the next.
inline ExecuteOptions PlanOptions() {
  ExecuteOptions options;
  options.scratch = std::make_shared<ScratchBuffer>();
  return options;
}

// Runs the gather along `view` (all byte sizes filled in, except in self-describing framing
// where a non-root's child sizes are probed). Root data lands directly in recvbuf through
// indexed datatypes; non-roots use one contiguous intermediate buffer in rank order. Transfers
// above MaxMessageBytes() go in pieces (straight from the buffers where PackedInPlace allows,
// else through a contiguous staging buffer at the root).
// Returns MPI_SUCCESS only if this process's result is complete and correct.
int ExecuteGather(const tree::NodeView& view, const GatherArgs& args, const CallContext& ctx,
                  const std::vector<std::int64_t>* root_block_bytes, const ExecuteOptions& options);

// Runs the scatter along `view`; the mirror image of ExecuteGather (children are served in
// descending round, largest subtree first).
// At the root, root_block_bytes == nullptr means its own arguments are bad (error class
// root_error): its children get poison instead of data.
int ExecuteScatter(const tree::NodeView& view, const ScatterArgs& args, const CallContext& ctx,
                   const std::vector<std::int64_t>* root_block_bytes, int root_error,
                   const ExecuteOptions& options);

// TUW's two halves: the plan (argument checks and the Lemma 3 construction, which depend on the
// counts only) and the run (the data movement along the planned tree). A plain call does both;
// a persistent request plans at init and runs at every start.
struct GatherPlan {
  GatherArgs args{};
  CallContext ctx;
  std::int64_t own_bytes = 0;
  std::vector<std::int64_t> block_bytes;  // at the root
  tree::NodeView view;
  ExecuteOptions options = PlanOptions();
  int local_error = MPI_SUCCESS;    // this process's own arguments
  int error_in_tree = MPI_SUCCESS;  // at the root: the first bad arguments anywhere
  int radix = 2;                    // TUW's tree (and on an intercommunicator, each wait's)
  CarriedData carried;              // set carried.max_bytes before planning to carry
};
struct ScatterPlan {
  ScatterArgs args{};
  CallContext ctx;
  std::int64_t own_bytes = 0;
  std::vector<std::int64_t> block_bytes;
  tree::NodeView view;
  ExecuteOptions options = PlanOptions();
  int local_error = MPI_SUCCESS;
  int error_in_tree = MPI_SUCCESS;
  int radix = 2;
};
// Intracommunicators only. Returns an error (the same on every process) when the call cannot
// even start (communicator, root); argument errors are kept in the plan and reported by the run.
// plan->radix: the tree's radix, set by the caller (2 for TUW_*; a kChoose* one is replaced by
// ResolveRadix's for the communicator's size).
int PlanTuwGather(const GatherArgs& args, GatherPlan* plan);
int PlanTuwScatter(const ScatterArgs& args, ScatterPlan* plan);
// The optimal ordered tree of the cost model for the root (optimal_plan.cpp): computed by the
// root, each process's node handed out once. Used by the persistent requests only.
int PlanOptimalGather(const GatherArgs& args, GatherPlan* plan);
// The optimal tree over ctx's processes rooted at `root`, from each one's own block size (bytes;
// own_error: its own arguments are bad, it counts 0): *view is this process's node. Returns the
// verdict, the same on every process (the first own_error, or the root's failure to compute).
int PlanOptimalGroup(const CallContext& ctx, int root, std::int64_t own_bytes, int own_error,
                     tree::NodeView* view);
int PlanOptimalScatter(const ScatterArgs& args, ScatterPlan* plan);
// TUWk_*_init's link-greedy tree, as its root chose and priced it (RootPlannedRadix's
// link_greedy_tree: `tree`, significant at the root only), handed out as the optimal tree is:
// *view, this process's node; *tree_error (at the root) a failure to encode it, *node_error one to
// decode this process's node. Collective; the root's arguments are good.
int PlanLinkGreedyView(const CallContext& ctx, int root,
                       const std::vector<std::int64_t>& block_bytes, const tree::Tree& tree,
                       tree::NodeView* view, int* tree_error, int* node_error);
// kChooseRadixAtRoot's tree for a TUWk_*_init plan (GatherPlan or ScatterPlan): its root's radix
// (RootPlannedRadix, into plan->radix) or, where the root took the link-greedy tree, that tree
// handed out (PlanLinkGreedyView, into plan->view; *handed_out, and no construction follows).
template <typename Plan>
int PlanRootsChoice(bool scatter, const tree::PieceRule* pieces, Plan* plan, bool* handed_out) {
  *handed_out = false;
  bool link_greedy = false;
  tree::Tree link_greedy_tree;
  int rc = RootPlannedRadix(scatter, plan->block_bytes, plan->local_error == MPI_SUCCESS,
                            plan->args.root, plan->ctx, pieces, &plan->radix, &link_greedy,
                            &link_greedy_tree);
  if (rc != MPI_SUCCESS || !link_greedy) return rc;
  *handed_out = true;  // the init's verdict reports bad arguments
  int node_error = MPI_SUCCESS;
  rc = PlanLinkGreedyView(plan->ctx, plan->args.root, plan->block_bytes, link_greedy_tree,
                          &plan->view, &plan->error_in_tree, &node_error);
  if (plan->local_error == MPI_SUCCESS) plan->local_error = node_error;
  return rc;
}
// A persistent init's own messages (plan_messages.cpp): binomial trees of point-to-point
// messages tagged TUWCOLL_TAG_PLAN on the private communicator. PlanGather: n values from every
// process to the root (*all: p * n values in rank order, at the root only). PlanBcast: n values
// from the root to everyone. Return an MPI error code.
int PlanGather(const CallContext& ctx, int root, const std::int64_t* mine, int n,
               std::vector<std::int64_t>* all);
int PlanBcast(const CallContext& ctx, int root, std::int64_t* data, int n);
// The data movement along a plan's tree (any of the planners above).
int RunGatherPlan(const GatherPlan& plan);
int RunScatterPlan(const ScatterPlan& plan);

// A datatype selecting blocks [lo, hi] of a v-collective's buffer (counts/displs in units of
// `type`'s extent; byte displacements, so any MPI_Aint displacement works; each block's count
// must fit an int, as it does in any range of at most MaxMessageBytes()). The caller frees it
// with MPI_Type_free.
int MakeRangeType(const Count* counts, const Count* displs, MPI_Datatype type, int lo, int hi,
                  MPI_Datatype* range_type);

// A local copy of count1 x type1 at buf1 to count2 x type2 at buf2 (matching signatures).
int LocalCopy(const void* from, Count from_count, MPI_Datatype from_type, void* to, Count to_count,
              MPI_Datatype to_type, MPI_Comm private_comm, int rank);

// Byte offset (in units of `type`'s extent) of element `displ` inside a buffer.
void* OffsetBy(void* base, std::int64_t displ, MPI_Datatype type);
const void* OffsetBy(const void* base, std::int64_t displ, MPI_Datatype type);

// MPI_Pack / MPI_Unpack of `count` elements whose packed size may exceed INT_MAX: done in steps
// of at most MaxMessageBytes(). `packed` holds count * size(type) bytes.
int PackElements(const void* buf, Count count, MPI_Datatype type, char* packed, MPI_Comm comm);
int UnpackElements(const char* packed, Count count, MPI_Datatype type, void* buf, MPI_Comm comm);
// The same for blocks lo..hi of a v-collective's buffer, in rank order.
int PackBlocks(const void* buf, const Count* counts, const Count* displs, MPI_Datatype type, int lo,
               int hi, char* packed, MPI_Comm comm);
int UnpackBlocks(const char* packed, const Count* counts, const Count* displs, MPI_Datatype type,
                 int lo, int hi, void* buf, MPI_Comm comm);

// Where blocks lo..hi of a v-collective's buffer lie in memory exactly as MPI_Pack would write
// them, one after the other (a predefined type without gaps, blocks placed back to back; empty
// blocks anywhere): their first byte, so that a transfer above MaxMessageBytes() goes straight from
// or into the program's buffer. nullptr otherwise (then through a staging copy). A staging copy of
// gigabytes costs as much again in fresh memory, which a new machine hands out slowly (first
// touch).
char* PackedInPlace(void* buf, const Count* counts, const Count* displs, MPI_Datatype type, int lo,
                    int hi);
const char* PackedInPlace(const void* buf, const Count* counts, const Count* displs,
                          MPI_Datatype type, int lo, int hi);
// The same for one block of count elements at buf.
char* PackedInPlace(void* buf, Count count, MPI_Datatype type);
const char* PackedInPlace(const void* buf, Count count, MPI_Datatype type);

}  // namespace tuw::detail
