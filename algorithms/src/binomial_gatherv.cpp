// Binomial_Gatherv: the problem-oblivious, ordered binomial tree (each subtree rooted at its last
// process, except the one holding the root). The tree depends on p and root only, so non-root
// parents learn their children's sizes from matched probes and every edge carries a message.
#include "internal.hpp"

using namespace tuw::detail;

extern "C" int Binomial_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                                void* recvbuf, const int recvcounts[], const int displs[],
                                MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CallContext ctx;
  int rc = BeginCollective(comm, root, &ctx);
  if (rc != MPI_SUCCESS) return RaiseError(comm, rc);
  const GatherArgs args{sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                        displs,  recvtype,  root,     comm};
  std::int64_t own_bytes = 0;
  std::vector<std::int64_t> block_bytes;
  rc = CheckGatherArgs(args, ctx, &own_bytes, &block_bytes);
  if (rc != MPI_SUCCESS) return RaiseError(comm, rc);
  tuw::tree::NodeView view = tuw::tree::ObliviousLocalView(ctx.rank, ctx.size, root);
  view.own_bytes = own_bytes;
  ExecuteOptions options;
  options.sizes_known_to_parents = false;
  return RaiseError(comm, ExecuteGather(view, args, ctx, &block_bytes, options));
}
