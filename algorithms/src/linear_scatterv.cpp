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
  // Bad local arguments: like MPI_Scatterv, only this process can tell (nobody else learns of it).
  rc = CheckScatterArgs(args, ctx, &own_bytes, &block_bytes);
  if (rc != MPI_SUCCESS) return RaiseError(comm, rc);
  Transfers transfers(ctx.private_comm, Framing::kSizeKnown);
  if (ctx.rank != root) {
    if (own_bytes <= MaxMessageBytes()) {
      transfers.ReceiveTyped(root, recvbuf, recvcount, recvtype, own_bytes);
      return RaiseError(comm, transfers.Finish());
    }
    auto packed = TryByteBuffer(own_bytes);
    if (!packed) transfers.Fail(MPI_ERR_NO_MEM);
    transfers.Receive(root, packed.get(), own_bytes);
    if (transfers.Finish() == MPI_SUCCESS) {
      transfers.Fail(UnpackElements(packed.get(), recvcount, recvtype, recvbuf, ctx.private_comm));
    }
    return RaiseError(comm, transfers.error());
  }
  std::vector<ByteBuffer> staged;
  for (int i = 0; i < ctx.size; ++i) {
    if (i == root || block_bytes[i] == 0) continue;
    const void* block = OffsetBy(sendbuf, displs[i], sendtype);
    if (block_bytes[i] <= MaxMessageBytes()) {
      transfers.SendTyped(i, block, sendcounts[i], sendtype, block_bytes[i]);
      continue;
    }
    // A failure here poisons only this block's process (and the ones after it).
    staged.push_back(TryByteBuffer(block_bytes[i]));
    transfers.Fail(staged.back() ? PackElements(block, sendcounts[i], sendtype, staged.back().get(),
                                                ctx.private_comm)
                                 : MPI_ERR_NO_MEM);
    transfers.Send(i, staged.back().get(), block_bytes[i]);
  }
  int local = MPI_SUCCESS;
  if (recvbuf != MPI_IN_PLACE) {
    local = LocalCopy(OffsetBy(sendbuf, displs[root], sendtype), sendcounts[root], sendtype,
                      recvbuf, recvcount, recvtype, ctx.private_comm, ctx.rank);
  }
  transfers.Finish();
  return RaiseError(comm, local != MPI_SUCCESS ? local : transfers.error());
}
