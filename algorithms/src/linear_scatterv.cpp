// Linear_Scatterv: the root sends every block straight to its process, all sends posted at once.
#include "internal.hpp"

namespace tuw::detail {

int LinearScatterReceive(const ScatterArgs& a, MPI_Comm comm, int root, std::int64_t own_bytes) {
  Transfers transfers(comm, Framing::kSizeKnown);
  if (own_bytes <= MaxMessageBytes()) {
    transfers.ReceiveTyped(root, a.recvbuf, a.recvcount, a.recvtype, own_bytes);
    return transfers.Finish();
  }
  if (char* direct = PackedInPlace(a.recvbuf, a.recvcount, a.recvtype)) {
    transfers.Receive(root, direct, own_bytes);
    return transfers.Finish();
  }
  auto packed = TryByteBuffer(own_bytes);
  if (!packed) transfers.Fail(MPI_ERR_NO_MEM);
  transfers.Receive(root, packed.get(), own_bytes);
  if (transfers.Finish() == MPI_SUCCESS) {
    transfers.Fail(UnpackElements(packed.get(), a.recvcount, a.recvtype, a.recvbuf, comm));
  }
  return transfers.error();
}

int LinearScatterAtRoot(const ScatterArgs& a, MPI_Comm comm, int own_rank,
                        const std::vector<std::int64_t>& block_bytes) {
  Transfers transfers(comm, Framing::kSizeKnown);
  std::vector<ByteBuffer> staged;
  for (int i = 0; i < static_cast<int>(block_bytes.size()); ++i) {
    if (i == own_rank || block_bytes[i] == 0) continue;
    const void* block = OffsetBy(a.sendbuf, a.displs[i], a.sendtype);
    if (block_bytes[i] <= MaxMessageBytes()) {
      transfers.SendTyped(i, block, a.sendcounts[i], a.sendtype, block_bytes[i]);
      continue;
    }
    if (const char* direct = PackedInPlace(a.sendbuf, a.sendcounts, a.displs, a.sendtype, i, i)) {
      transfers.Send(i, direct, block_bytes[i]);
      continue;
    }
    // A failure here poisons this block's process (and the ones after it).
    staged.push_back(TryByteBuffer(block_bytes[i]));
    transfers.Fail(staged.back()
                       ? PackElements(block, a.sendcounts[i], a.sendtype, staged.back().get(), comm)
                       : MPI_ERR_NO_MEM);
    transfers.Send(i, staged.back().get(), block_bytes[i]);
  }
  int local = MPI_SUCCESS;
  if (own_rank >= 0 && a.recvbuf != MPI_IN_PLACE) {
    local = LocalCopy(OffsetBy(a.sendbuf, a.displs[own_rank], a.sendtype), a.sendcounts[own_rank],
                      a.sendtype, a.recvbuf, a.recvcount, a.recvtype, comm, own_rank);
  }
  transfers.Finish();
  return local != MPI_SUCCESS ? local : transfers.error();
}

int LinearScatterv(const ScatterArgs& args) {
  const MPI_Comm comm = args.comm;
  const int root = args.root;
  if (IsIntercomm(comm)) return InterScatter(args, TreeAlgorithm::kLinear);
  CallContext ctx;
  int rc = BeginCollective(comm, root, &ctx);
  if (rc != MPI_SUCCESS) return rc;
  std::int64_t own_bytes = 0;
  std::vector<std::int64_t> block_bytes;
  // Bad local arguments: like MPI_Scatterv, only this process can tell (nobody else learns of it).
  rc = CheckScatterArgs(args, ctx, &own_bytes, &block_bytes);
  if (rc != MPI_SUCCESS) return rc;
  if (ctx.rank != root) {
    return LinearScatterReceive(args, ctx.private_comm, root, own_bytes);
  }
  return LinearScatterAtRoot(args, ctx.private_comm, root, block_bytes);
}

}  // namespace tuw::detail
