// The six functions on an intercommunicator (MPI semantics: in the root's group the root passes
// MPI_ROOT and the others MPI_PROC_NULL; the other group passes the root's rank in the remote
// group; counts and displacements are significant at the root only and index the remote group).
// Trees stay trees: the other group runs the algorithm's own tree over its local group (an
// intracommunicator made once per intercommunicator) with local rank 0 as the tree's root, and
// local rank 0 hands the whole group's data to the root (or gets it from the root) in one
// self-describing transfer over the intercommunicator: ceil(log2 q) + 1 rounds instead of q
// messages at the root. The local root is fixed (not the adaptive "best" root) so that every
// call's hand-over comes from the same process: the root can match it without knowing the
// senders' counts, and two consecutive calls can never be confused. Linear sends every block
// straight across, like a native linear algorithm.
#include <numeric>

#include "internal.hpp"

namespace tuw::detail {
namespace {

constexpr int kLocalRoot = 0;

int RemoteSize(MPI_Comm comm) {
  int q = 0;
  MPI_Comm_remote_size(comm, &q);
  return q;
}

// Which side of the call this process is on, from its root argument.
enum class Side { kRoot, kIdle, kOtherGroup, kBadRoot };
Side SideOf(MPI_Comm comm, int root) {
  if (root == MPI_ROOT) return Side::kRoot;
  if (root == MPI_PROC_NULL) return Side::kIdle;
  return root >= 0 && root < RemoteSize(comm) ? Side::kOtherGroup : Side::kBadRoot;
}

// This process's context in its local group.
CallContext LocalContext(const PrivateComms& comms) {
  CallContext ctx;
  ctx.private_comm = comms.local;
  MPI_Comm_rank(comms.local, &ctx.rank);
  MPI_Comm_size(comms.local, &ctx.size);
  return ctx;
}

// The root's end of the hand-over: the whole remote group's blocks, in rank order.
int ReceiveHandOver(const GatherArgs& a, MPI_Comm comm, const std::vector<std::int64_t>* blocks,
                    int local_error) {
  Transfers transfers(comm, Framing::kSelfDescribing);
  const std::int64_t size = transfers.Probe(kLocalRoot);
  if (size < 0) {  // poisoned: the other group failed
    transfers.Finish();
    return local_error != MPI_SUCCESS ? local_error : transfers.error();
  }
  const int q = RemoteSize(a.comm);
  const std::int64_t total =
      blocks ? std::accumulate(blocks->begin(), blocks->end(), std::int64_t{0}) : -1;
  if (blocks == nullptr || size != total) {
    transfers.Receive(kLocalRoot, nullptr, size);
    transfers.Finish();
    return local_error != MPI_SUCCESS ? local_error : MPI_ERR_TRUNCATE;
  }
  if (size > MaxMessageBytes()) {
    if (char* direct = PackedInPlace(a.recvbuf, a.recvcounts, a.displs, a.recvtype, 0, q - 1)) {
      transfers.Receive(kLocalRoot, direct, size);
      return transfers.Finish();
    }
    auto staging = TryByteBuffer(size);
    if (!staging) transfers.Fail(MPI_ERR_NO_MEM);
    transfers.Receive(kLocalRoot, staging.get(), size);
    if (transfers.Finish() == MPI_SUCCESS) {
      transfers.Fail(UnpackBlocks(staging.get(), a.recvcounts, a.displs, a.recvtype, 0, q - 1,
                                  a.recvbuf, comm));
    }
    return transfers.error();
  }
  MPI_Datatype range_type;
  int rc = MakeRangeType(a.recvcounts, a.displs, a.recvtype, 0, q - 1, &range_type);
  if (rc != MPI_SUCCESS) {
    transfers.Fail(rc);
    transfers.Receive(kLocalRoot, nullptr, size);
    return transfers.Finish();
  }
  transfers.ReceiveTyped(kLocalRoot, a.recvbuf, 1, range_type, size);
  transfers.Finish();
  MPI_Type_free(&range_type);
  return transfers.error();
}

// The root's end of the scatter hand-over (block sizes first for oblivious trees).
int SendHandOver(const ScatterArgs& a, MPI_Comm comm, const std::vector<std::int64_t>* blocks,
                 int local_error, bool headers) {
  Transfers transfers(comm, Framing::kSelfDescribing);
  transfers.Fail(local_error);
  const int q = RemoteSize(a.comm);
  if (headers && q > 1) {  // local rank 0 is an inner node of the local tree
    transfers.SendTyped(kLocalRoot, blocks ? blocks->data() : nullptr, q, MPI_INT64_T, 8 * q);
  }
  if (blocks == nullptr) {
    transfers.SendPoison(kLocalRoot, local_error);
    transfers.Finish();
    return local_error;
  }
  const std::int64_t total = std::accumulate(blocks->begin(), blocks->end(), std::int64_t{0});
  if (total > MaxMessageBytes()) {
    if (const char* direct =
            PackedInPlace(a.sendbuf, a.sendcounts, a.displs, a.sendtype, 0, q - 1)) {
      transfers.Send(kLocalRoot, direct, total);
      return transfers.Finish();
    }
    auto staging = TryByteBuffer(total);
    transfers.Fail(staging ? PackBlocks(a.sendbuf, a.sendcounts, a.displs, a.sendtype, 0, q - 1,
                                        staging.get(), comm)
                           : MPI_ERR_NO_MEM);
    transfers.Send(kLocalRoot, staging.get(), total);
    return transfers.Finish();
  }
  MPI_Datatype range_type = MPI_DATATYPE_NULL;
  transfers.Fail(MakeRangeType(a.sendcounts, a.displs, a.sendtype, 0, q - 1, &range_type));
  transfers.SendTyped(kLocalRoot, a.sendbuf, 1, range_type, total);
  transfers.Finish();
  if (range_type != MPI_DATATYPE_NULL) MPI_Type_free(&range_type);
  return transfers.error();
}

}  // namespace

int InterGather(const GatherArgs& a, TreeAlgorithm algorithm, int radix,
                const tree::NodeView* planned) {
  const Side side = SideOf(a.comm, a.root);
  if (side == Side::kBadRoot) return MPI_ERR_ROOT;
  // Both groups read the radix's setting, so that a bad one fails everywhere alike.
  if (algorithm != TreeAlgorithm::kLinear) {
    int local_size = 1;
    MPI_Comm_size(a.comm, &local_size);
    const int rc = ResolveRadix(algorithm, local_size, &radix);
    if (rc != MPI_SUCCESS) return rc;
  }
  PrivateComms comms;
  int rc = GetPrivateComms(a.comm, &comms);
  if (rc != MPI_SUCCESS || side == Side::kIdle) return rc;

  if (side == Side::kRoot) {
    std::vector<std::int64_t> blocks;
    const int local = RootBlockBytes(a.recvcounts, a.recvtype, RemoteSize(a.comm), &blocks);
    if (algorithm == TreeAlgorithm::kLinear) {
      return local != MPI_SUCCESS ? local : LinearGatherAtRoot(a, comms.comm, -1, blocks);
    }
    return ReceiveHandOver(a, comms.comm, local == MPI_SUCCESS ? &blocks : nullptr, local);
  }

  // The sending group. Its own arguments are checked as a non-root's are.
  const CallContext ctx = LocalContext(comms);
  GatherArgs local_args = a;
  local_args.root = -1;  // nobody in this group is the root; local rank 0 relays
  std::int64_t own_bytes = 0;
  std::vector<std::int64_t> unused;
  const int local = CheckGatherArgs(local_args, ctx, &own_bytes, &unused);
  if (algorithm == TreeAlgorithm::kLinear) {
    return local != MPI_SUCCESS ? local : LinearGatherSend(a, comms.comm, a.root, own_bytes);
  }
  if (local != MPI_SUCCESS) {  // take part with an empty block; the error travels as poison
    own_bytes = 0;
    local_args.sendcount = 0;
  }
  tree::NodeView view;
  ExecuteOptions options;
  if (planned != nullptr) {
    view = *planned;
  } else if (algorithm == TreeAlgorithm::kAdaptive) {
    int error_in_tree = MPI_SUCCESS;
    options.prior_failure = BuildAdaptiveView(ctx.private_comm, ctx.rank, ctx.size, kLocalRoot,
                                              radix, own_bytes, local, &view, &error_in_tree);
    // The local root learns of bad arguments in its group and passes them on to the root.
    if (ctx.rank == kLocalRoot && options.prior_failure == MPI_SUCCESS) {
      options.prior_failure = error_in_tree;
    }
  } else {
    view = tree::ObliviousLocalView(ctx.rank, ctx.size, kLocalRoot, radix);
    view.own_bytes = own_bytes;
    options.framing = Framing::kSelfDescribing;
  }
  if (options.prior_failure == MPI_SUCCESS) options.prior_failure = local;
  if (ctx.rank == kLocalRoot) {
    view.parent = a.root;
    options.parent_comm = comms.comm;
  }
  rc = ExecuteGather(view, local_args, ctx, nullptr, options);
  return local != MPI_SUCCESS ? local : rc;
}

int InterScatter(const ScatterArgs& a, TreeAlgorithm algorithm, int radix,
                 const tree::NodeView* planned) {
  const Side side = SideOf(a.comm, a.root);
  if (side == Side::kBadRoot) return MPI_ERR_ROOT;
  // Both groups read the radix's setting, so that a bad one fails everywhere alike.
  if (algorithm != TreeAlgorithm::kLinear) {
    int local_size = 1;
    MPI_Comm_size(a.comm, &local_size);
    const int rc = ResolveRadix(algorithm, local_size, &radix);
    if (rc != MPI_SUCCESS) return rc;
  }
  PrivateComms comms;
  int rc = GetPrivateComms(a.comm, &comms);
  if (rc != MPI_SUCCESS || side == Side::kIdle) return rc;
  const bool headers = algorithm == TreeAlgorithm::kOblivious;

  if (side == Side::kRoot) {
    std::vector<std::int64_t> blocks;
    const int local = RootBlockBytes(a.sendcounts, a.sendtype, RemoteSize(a.comm), &blocks);
    if (algorithm == TreeAlgorithm::kLinear) {
      return local != MPI_SUCCESS ? local : LinearScatterAtRoot(a, comms.comm, -1, blocks);
    }
    return SendHandOver(a, comms.comm, local == MPI_SUCCESS ? &blocks : nullptr, local, headers);
  }

  // The receiving group.
  const CallContext ctx = LocalContext(comms);
  ScatterArgs local_args = a;
  local_args.root = -1;
  std::int64_t own_bytes = 0;
  std::vector<std::int64_t> unused;
  const int local = CheckScatterArgs(local_args, ctx, &own_bytes, &unused);
  if (algorithm == TreeAlgorithm::kLinear) {
    return local != MPI_SUCCESS ? local : LinearScatterReceive(a, comms.comm, a.root, own_bytes);
  }
  if (local != MPI_SUCCESS) {
    own_bytes = 0;
    local_args.recvcount = 0;
  }
  tree::NodeView view;
  ExecuteOptions options;
  options.headers = headers;
  if (planned != nullptr) {
    view = *planned;
    options.prior_failure = local;
  } else if (algorithm == TreeAlgorithm::kAdaptive) {
    int error_in_tree = MPI_SUCCESS;
    options.prior_failure = BuildAdaptiveView(ctx.private_comm, ctx.rank, ctx.size, kLocalRoot,
                                              radix, own_bytes, local, &view, &error_in_tree);
  } else {
    view = tree::ObliviousLocalView(ctx.rank, ctx.size, kLocalRoot, radix);
    view.own_bytes = own_bytes;
    options.framing = Framing::kSelfDescribing;
    if (options.prior_failure == MPI_SUCCESS) options.prior_failure = local;
  }
  if (ctx.rank == kLocalRoot) {
    view.parent = a.root;
    options.parent_comm = comms.comm;
  }
  rc = ExecuteScatter(view, local_args, ctx, nullptr, MPI_SUCCESS, options);
  return local != MPI_SUCCESS ? local : rc;
}

namespace {

// PlanInterOptimal{Gather,Scatter}: check is CheckGatherArgs or CheckScatterArgs.
template <typename Args>
int PlanInterOptimal(const Args& a,
                     int (*check)(const Args&, const CallContext&, std::int64_t*,
                                  std::vector<std::int64_t>*),
                     tree::NodeView* view) {
  const Side side = SideOf(a.comm, a.root);
  if (side == Side::kBadRoot) return MPI_ERR_ROOT;
  PrivateComms comms;
  int rc = GetPrivateComms(a.comm, &comms);
  if (rc != MPI_SUCCESS || side == Side::kIdle) return rc;
  std::int64_t verdict = MPI_SUCCESS;
  if (side == Side::kRoot) {
    rc = MPI_Recv(&verdict, 1, MPI_INT64_T, kLocalRoot, TUWCOLL_TAG_PLAN, comms.comm,
                  MPI_STATUS_IGNORE);
    return rc != MPI_SUCCESS ? rc : static_cast<int>(verdict);
  }
  const CallContext ctx = LocalContext(comms);
  Args local_args = a;
  local_args.root = -1;  // as at every start: local rank 0 relays
  std::int64_t own_bytes = 0;
  std::vector<std::int64_t> unused;
  const int local = check(local_args, ctx, &own_bytes, &unused);
  verdict = PlanOptimalGroup(ctx, kLocalRoot, own_bytes, local, view);
  if (ctx.rank == kLocalRoot) {
    rc = MPI_Send(&verdict, 1, MPI_INT64_T, a.root, TUWCOLL_TAG_PLAN, comms.comm);
    if (rc != MPI_SUCCESS && verdict == MPI_SUCCESS) verdict = rc;
  }
  return static_cast<int>(verdict);
}

}  // namespace

int PlanInterOptimalGather(const GatherArgs& args, tree::NodeView* view) {
  return PlanInterOptimal(args, CheckGatherArgs, view);
}

int PlanInterOptimalScatter(const ScatterArgs& args, tree::NodeView* view) {
  return PlanInterOptimal(args, CheckScatterArgs, view);
}

}  // namespace tuw::detail
