// TUW_Gatherv: Traeff's linear-time irregular gather (2017, Section 2-3). The adaptive tree is
// built by the Lemma 3 protocol from each process's own count only; then data flows along it.
#include "internal.hpp"

namespace tuw::detail {

int TuwGatherv(const GatherArgs& call_args) {
  GatherArgs args = call_args;
  const MPI_Comm comm = args.comm;
  const int root = args.root;
  if (IsIntercomm(comm)) return InterGather(args, TreeAlgorithm::kAdaptive);
  CallContext ctx;
  int rc = BeginCollective(comm, root, &ctx);
  if (rc != MPI_SUCCESS) return rc;
  std::int64_t own_bytes = 0;
  std::vector<std::int64_t> block_bytes;
  // A process with bad arguments still takes its place in the tree with an empty block, so that
  // nobody waits for it; the root learns of it through the construction.
  const int local = CheckGatherArgs(args, ctx, &own_bytes, &block_bytes);
  if (local != MPI_SUCCESS) {
    own_bytes = 0;
    args.sendcount = 0;
  }
  tuw::tree::NodeView view;
  int error_in_tree = MPI_SUCCESS;
  ExecuteOptions options;
  options.prior_failure = BuildAdaptiveView(ctx.private_comm, ctx.rank, ctx.size, root, own_bytes,
                                            local, &view, &error_in_tree);
  rc = ExecuteGather(view, args, ctx, local == MPI_SUCCESS ? &block_bytes : nullptr, options);
  // The cause (bad arguments somewhere) outranks its consequences (sizes that do not match).
  if (ctx.rank == root && error_in_tree != MPI_SUCCESS) rc = error_in_tree;
  if (local != MPI_SUCCESS) rc = local;
  return rc;
}

}  // namespace tuw::detail
