// Linear_Scatterv: the root sends every block straight to its process, all sends posted at once.
#include "internal.hpp"

using namespace tuw::detail;

extern "C" int Linear_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                               MPI_Datatype sendtype, void* recvbuf, int recvcount,
                               MPI_Datatype recvtype, int root, MPI_Comm comm) {
  CallContext ctx;
  int rc = BeginCollective(comm, root, &ctx);
  if (rc != MPI_SUCCESS) return RaiseError(comm, rc);
  const ScatterArgs args{sendbuf,   sendcounts, displs, sendtype, recvbuf,
                         recvcount, recvtype,   root,   comm};
  std::int64_t own_bytes = 0;
  std::vector<std::int64_t> block_bytes;
  rc = CheckScatterArgs(args, ctx, &own_bytes, &block_bytes);
  if (rc != MPI_SUCCESS) return RaiseError(comm, rc);
  if (ctx.rank != root) {
    if (own_bytes == 0) return MPI_SUCCESS;
    return RaiseError(comm, MPI_Recv(recvbuf, recvcount, recvtype, root, TUWCOLL_TAG_DATA,
                                     ctx.private_comm, MPI_STATUS_IGNORE));
  }
  std::vector<MPI_Request> requests;
  requests.reserve(ctx.size);
  for (int i = 0; i < ctx.size && rc == MPI_SUCCESS; ++i) {
    if (i == root || block_bytes[i] == 0) continue;
    requests.push_back(MPI_REQUEST_NULL);
    rc = MPI_Isend(OffsetBy(sendbuf, displs[i], sendtype), sendcounts[i], sendtype, i,
                   TUWCOLL_TAG_DATA, ctx.private_comm, &requests.back());
  }
  if (rc == MPI_SUCCESS && recvbuf != MPI_IN_PLACE) {
    rc = LocalCopy(OffsetBy(sendbuf, displs[root], sendtype), sendcounts[root], sendtype, recvbuf,
                   recvcount, recvtype, ctx.private_comm, ctx.rank);
  }
  const int wait_rc =
      MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  return RaiseError(comm, rc != MPI_SUCCESS ? rc : wait_rc);
}
