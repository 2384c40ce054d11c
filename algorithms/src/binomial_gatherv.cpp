// Binomial_Gatherv: the problem-oblivious, ordered binomial tree (each subtree rooted at its last
// process, except the one holding the root). The tree depends on p and root only, so parents
// learn their children's sizes from matched probes and every edge carries a transfer.
// Binomialk_Gatherv: the k-nomial tree (Intel MPI's I_MPI_ADJUST_GATHERV=3 kind), the radix from
// ResolveRadix: the fair baseline of TUWk_Gatherv.
#include "internal.hpp"

namespace tuw::detail {

int BinomialGathervRadix(const GatherArgs& call_args, int radix) {
  GatherArgs args = call_args;
  const MPI_Comm comm = args.comm;
  const int root = args.root;
  if (IsIntercomm(comm)) return InterGather(args, TreeAlgorithm::kOblivious, radix);
  CallContext ctx;
  int rc = BeginCollective(comm, root, &ctx);
  if (rc == MPI_SUCCESS) rc = ResolveRadix(TreeAlgorithm::kOblivious, ctx.size, &radix);
  if (rc != MPI_SUCCESS) return rc;
  std::int64_t own_bytes = 0;
  std::vector<std::int64_t> block_bytes;
  const int local = CheckGatherArgs(args, ctx, &own_bytes, &block_bytes);
  tuw::tree::NodeView view = tuw::tree::ObliviousLocalView(ctx.rank, ctx.size, root, radix);
  ExecuteOptions options;
  options.framing = Framing::kSelfDescribing;
  // A process with bad arguments still takes its place (its parent expects a transfer) and sends
  // poison, so that the root reports the error instead of waiting.
  if (local != MPI_SUCCESS) {
    own_bytes = 0;
    args.sendcount = 0;
    if (ctx.rank != root) options.prior_failure = local;
  }
  view.own_bytes = own_bytes;
  rc = ExecuteGather(view, args, ctx, local == MPI_SUCCESS ? &block_bytes : nullptr, options);
  return local != MPI_SUCCESS ? local : rc;
}

int BinomialGatherv(const GatherArgs& args) { return BinomialGathervRadix(args, 2); }
int BinomialkGatherv(const GatherArgs& args) { return BinomialGathervRadix(args, kChooseRadix); }

}  // namespace tuw::detail
