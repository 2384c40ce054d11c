// Linear_Gatherv: every process sends straight to the root, which posts all receives at once
// (non-blocking, so arrival order does not matter). p - 1 start-ups at the root.
#include "internal.hpp"

namespace tuw::detail {

int LinearGatherSend(const GatherArgs& a, MPI_Comm comm, int root, std::int64_t own_bytes) {
  Transfers transfers(comm, Framing::kSizeKnown);
  if (own_bytes <= MaxMessageBytes()) {
    transfers.SendTyped(root, a.sendbuf, a.sendcount, a.sendtype, own_bytes);
    return transfers.Finish();
  }
  if (const char* direct = PackedInPlace(a.sendbuf, a.sendcount, a.sendtype)) {
    transfers.Send(root, direct, own_bytes);
    return transfers.Finish();
  }
  auto packed = TryByteBuffer(own_bytes);
  transfers.Fail(packed ? PackElements(a.sendbuf, a.sendcount, a.sendtype, packed.get(), comm)
                        : MPI_ERR_NO_MEM);
  transfers.Send(root, packed.get(), own_bytes);
  return transfers.Finish();
}

int LinearGatherAtRoot(const GatherArgs& a, MPI_Comm comm, int own_rank,
                       const std::vector<std::int64_t>& block_bytes) {
  Transfers transfers(comm, Framing::kSizeKnown);
  std::vector<std::pair<int, ByteBuffer>> staged;
  for (int i = 0; i < static_cast<int>(block_bytes.size()); ++i) {
    if (i == own_rank || block_bytes[i] == 0) continue;
    void* block = OffsetBy(a.recvbuf, a.displs[i], a.recvtype);
    if (block_bytes[i] <= MaxMessageBytes()) {
      transfers.ReceiveTyped(i, block, a.recvcounts[i], a.recvtype, block_bytes[i]);
      continue;
    }
    if (char* direct = PackedInPlace(a.recvbuf, a.recvcounts, a.displs, a.recvtype, i, i)) {
      transfers.Receive(i, direct, block_bytes[i]);
      continue;
    }
    auto packed = TryByteBuffer(block_bytes[i]);
    if (!packed) transfers.Fail(MPI_ERR_NO_MEM);
    transfers.Receive(i, packed.get(), block_bytes[i]);
    if (packed) staged.emplace_back(i, std::move(packed));
  }
  if (own_rank >= 0 && a.sendbuf != MPI_IN_PLACE) {
    transfers.Fail(LocalCopy(a.sendbuf, a.sendcount, a.sendtype,
                             OffsetBy(a.recvbuf, a.displs[own_rank], a.recvtype),
                             a.recvcounts[own_rank], a.recvtype, comm, own_rank));
  }
  if (transfers.Finish() == MPI_SUCCESS) {
    for (const auto& [i, packed] : staged) {
      transfers.Fail(UnpackElements(packed.get(), a.recvcounts[i], a.recvtype,
                                    OffsetBy(a.recvbuf, a.displs[i], a.recvtype), comm));
    }
  }
  return transfers.error();
}

int LinearGatherv(const GatherArgs& args) {
  const MPI_Comm comm = args.comm;
  const int root = args.root;
  if (IsIntercomm(comm)) return InterGather(args, TreeAlgorithm::kLinear);
  CallContext ctx;
  int rc = BeginCollective(comm, root, &ctx);
  if (rc != MPI_SUCCESS) return rc;
  std::int64_t own_bytes = 0;
  std::vector<std::int64_t> block_bytes;
  // Bad local arguments: like MPI_Gatherv, only this process can tell (nobody else learns of it).
  rc = CheckGatherArgs(args, ctx, &own_bytes, &block_bytes);
  if (rc != MPI_SUCCESS) return rc;
  if (ctx.rank != root) {
    return LinearGatherSend(args, ctx.private_comm, root, own_bytes);
  }
  return LinearGatherAtRoot(args, ctx.private_comm, root, block_bytes);
}

}  // namespace tuw::detail
