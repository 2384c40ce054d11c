// Binomial_Scatterv: the scatter counterpart of Binomial_Gatherv. Inner nodes do not know the
// block sizes of their subtree, so each inner child first gets them (one int64 per rank).
// Binomialk_Scatterv: the k-nomial tree, the radix from ResolveRadix.
#include "internal.hpp"

namespace tuw::detail {

int BinomialScattervRadix(const ScatterArgs& call_args, int radix) {
  ScatterArgs args = call_args;
  const MPI_Comm comm = args.comm;
  const int root = args.root;
  if (IsIntercomm(comm)) return InterScatter(args, TreeAlgorithm::kOblivious, radix);
  CallContext ctx;
  int rc = BeginCollective(comm, root, &ctx);
  if (rc == MPI_SUCCESS) rc = ResolveRadix(TreeAlgorithm::kOblivious, ctx.size, &radix);
  if (rc != MPI_SUCCESS) return rc;
  std::int64_t own_bytes = 0;
  std::vector<std::int64_t> block_bytes;
  const int local = CheckScatterArgs(args, ctx, &own_bytes, &block_bytes);
  tuw::tree::NodeView view = tuw::tree::ObliviousLocalView(ctx.rank, ctx.size, root, radix);
  ExecuteOptions options;
  options.framing = Framing::kSelfDescribing;
  options.headers = true;
  // A process with bad arguments still takes its place: it forwards poison to its subtree.
  if (local != MPI_SUCCESS) {
    own_bytes = 0;
    args.recvcount = 0;
    if (ctx.rank != root) options.prior_failure = local;
  }
  view.own_bytes = own_bytes;
  if (ctx.rank == root && local == MPI_SUCCESS) {
    for (tuw::tree::ChildEdge& c : view.children) {
      for (int i = c.lo; i <= c.hi; ++i) c.bytes += block_bytes[i];
    }
  }
  rc = ExecuteScatter(view, args, ctx, local == MPI_SUCCESS ? &block_bytes : nullptr, local,
                      options);
  return local != MPI_SUCCESS ? local : rc;
}

int BinomialScatterv(const ScatterArgs& args) { return BinomialScattervRadix(args, 2); }
int BinomialkScatterv(const ScatterArgs& args) { return BinomialScattervRadix(args, kChooseRadix); }

}  // namespace tuw::detail
