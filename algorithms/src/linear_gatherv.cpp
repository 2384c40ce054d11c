// Linear_Gatherv: every process sends straight to the root, which posts all receives at once
// (non-blocking, so arrival order does not matter). p - 1 start-ups at the root.
#include "internal.hpp"

using namespace tuw::detail;

extern "C" int Linear_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype,
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
  if (ctx.rank != root) {
    if (own_bytes == 0) return MPI_SUCCESS;
    return RaiseError(
        comm, MPI_Send(sendbuf, sendcount, sendtype, root, TUWCOLL_TAG_DATA, ctx.private_comm));
  }
  std::vector<MPI_Request> requests;
  requests.reserve(ctx.size);
  for (int i = 0; i < ctx.size && rc == MPI_SUCCESS; ++i) {
    if (i == root || block_bytes[i] == 0) continue;
    requests.push_back(MPI_REQUEST_NULL);
    rc = MPI_Irecv(OffsetBy(recvbuf, displs[i], recvtype), recvcounts[i], recvtype, i,
                   TUWCOLL_TAG_DATA, ctx.private_comm, &requests.back());
  }
  if (rc == MPI_SUCCESS && sendbuf != MPI_IN_PLACE) {
    rc = LocalCopy(sendbuf, sendcount, sendtype, OffsetBy(recvbuf, displs[root], recvtype),
                   recvcounts[root], recvtype, ctx.private_comm, ctx.rank);
  }
  const int wait_rc =
      MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  return RaiseError(comm, rc != MPI_SUCCESS ? rc : wait_rc);
}
