// TUW_Scatterv: the scatter counterpart of TUW_Gatherv on the same adaptive tree (Traeff 2017:
// "the linear time gather trees can likewise be used for the irregular scatter problem").
#include "internal.hpp"

namespace tuw::detail {

int TuwScatterv(const ScatterArgs& call_args) {
  ScatterArgs args = call_args;
  const MPI_Comm comm = args.comm;
  const int root = args.root;
  if (IsIntercomm(comm)) return InterScatter(args, TreeAlgorithm::kAdaptive);
  CallContext ctx;
  int rc = BeginCollective(comm, root, &ctx);
  if (rc != MPI_SUCCESS) return rc;
  std::int64_t own_bytes = 0;
  std::vector<std::int64_t> block_bytes;
  const int local = CheckScatterArgs(args, ctx, &own_bytes, &block_bytes);
  if (local != MPI_SUCCESS) {
    own_bytes = 0;
    args.recvcount = 0;
  }
  tuw::tree::NodeView view;
  int error_in_tree = MPI_SUCCESS;
  ExecuteOptions options;
  options.prior_failure = BuildAdaptiveView(ctx.private_comm, ctx.rank, ctx.size, root, own_bytes,
                                            local, &view, &error_in_tree);
  rc = ExecuteScatter(view, args, ctx, local == MPI_SUCCESS ? &block_bytes : nullptr, local,
                      options);
  // The cause (bad arguments somewhere) outranks its consequences (sizes that do not match).
  if (ctx.rank == root && error_in_tree != MPI_SUCCESS) rc = error_in_tree;
  if (local != MPI_SUCCESS) rc = local;
  return rc;
}

}  // namespace tuw::detail
