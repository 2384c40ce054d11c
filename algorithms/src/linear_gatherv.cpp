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
  // Bad local arguments: like MPI_Gatherv, only this process can tell (nobody else learns of it).
  rc = CheckGatherArgs(args, ctx, &own_bytes, &block_bytes);
  if (rc != MPI_SUCCESS) return RaiseError(comm, rc);
  Transfers transfers(ctx.private_comm, Framing::kSizeKnown);
  if (ctx.rank != root) {
    if (own_bytes <= MaxMessageBytes()) {
      transfers.SendTyped(root, sendbuf, sendcount, sendtype, own_bytes);
      return RaiseError(comm, transfers.Finish());
    }
    auto packed = TryByteBuffer(own_bytes);
    transfers.Fail(packed
                       ? PackElements(sendbuf, sendcount, sendtype, packed.get(), ctx.private_comm)
                       : MPI_ERR_NO_MEM);
    transfers.Send(root, packed.get(), own_bytes);
    return RaiseError(comm, transfers.Finish());
  }
  std::vector<std::pair<int, ByteBuffer>> staged;
  for (int i = 0; i < ctx.size; ++i) {
    if (i == root || block_bytes[i] == 0) continue;
    void* block = OffsetBy(recvbuf, displs[i], recvtype);
    if (block_bytes[i] <= MaxMessageBytes()) {
      transfers.ReceiveTyped(i, block, recvcounts[i], recvtype, block_bytes[i]);
      continue;
    }
    auto packed = TryByteBuffer(block_bytes[i]);
    if (!packed) transfers.Fail(MPI_ERR_NO_MEM);
    transfers.Receive(i, packed.get(), block_bytes[i]);
    if (packed) staged.emplace_back(i, std::move(packed));
  }
  if (sendbuf != MPI_IN_PLACE) {
    transfers.Fail(LocalCopy(sendbuf, sendcount, sendtype,
                             OffsetBy(recvbuf, displs[root], recvtype), recvcounts[root], recvtype,
                             ctx.private_comm, ctx.rank));
  }
  if (transfers.Finish() == MPI_SUCCESS) {
    for (const auto& [i, packed] : staged) {
      transfers.Fail(UnpackElements(packed.get(), recvcounts[i], recvtype,
                                    OffsetBy(recvbuf, displs[i], recvtype), ctx.private_comm));
    }
  }
  return RaiseError(comm, transfers.error());
}
