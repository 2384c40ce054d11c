// TUW_Gatherv: Traeff's linear-time irregular gather (2017, Section 2-3). The adaptive tree is
// built by the Lemma 3 protocol from each process's own count only; then data flows along it.
// TUWk_Gatherv: the same at radix k (ceil(log_k p) rounds; the radix from ResolveRadix, its own
// family's), small cubes' data carried by the construction (tree/carried_cubes.hpp).
// Plan (checks + construction) and run (data movement) are apart so that a persistent request
// (TUW_Gatherv_init) plans once and runs at every start. TUWk_Gatherv_init's root may take the
// link-greedy tree instead of the radix tree (RootPlannedRadix), which it hands out whole.
#include <algorithm>

#include "../tree/carried_cubes.hpp"
#include "internal.hpp"

namespace tuw::detail {

int PlanTuwGather(const GatherArgs& call_args, GatherPlan* plan) {
  plan->args = call_args;
  GatherArgs& args = plan->args;
  int rc = BeginCollective(args.comm, args.root, &plan->ctx);
  if (rc == MPI_SUCCESS) rc = ResolveRadix(TreeAlgorithm::kAdaptive, plan->ctx.size, &plan->radix);
  if (rc != MPI_SUCCESS) return rc;
  // A process with bad arguments still takes its place in the tree with an empty block, so that
  // nobody waits for it; the root learns of it through the construction.
  plan->local_error = CheckGatherArgs(args, plan->ctx, &plan->own_bytes, &plan->block_bytes);
  if (plan->local_error != MPI_SUCCESS) {
    plan->own_bytes = 0;
    args.sendcount = 0;
  }
  if (plan->radix == kChooseRadixAtRoot) {
    bool handed_out = false;
    rc = PlanRootsChoice(false, plan->options.pieces, plan, &handed_out);
    if (rc != MPI_SUCCESS || handed_out) return rc;
  }
  CarriedData* carried = nullptr;
  if (plan->carried.max_bytes >= 0) {  // a non-root's own small block rides on its summary
    carried = &plan->carried;
    plan->options.carried = carried;
    // (larger where its first round is the root's group told only)
    const std::int64_t first_limit =
        tree::FirstCarryLimit(plan->ctx.rank, plan->ctx.size, plan->radix, args.root,
                              carried->max_bytes, carried->root_max_bytes);
    if (plan->ctx.rank != args.root && plan->own_bytes <= first_limit) {
      carried->bytes.resize(static_cast<std::size_t>(plan->own_bytes));
      // A block that lies in sendbuf as packed is copied, not packed (no MPI_Pack call).
      const char* in_place = PackedInPlace(args.sendbuf, args.sendcount, args.sendtype);
      int rc = MPI_SUCCESS;
      if (plan->own_bytes > 0 && in_place != nullptr) {
        std::copy(in_place, in_place + plan->own_bytes, carried->bytes.data());
      } else if (plan->own_bytes > 0) {
        rc = PackElements(args.sendbuf, args.sendcount, args.sendtype, carried->bytes.data(),
                          plan->ctx.private_comm);
      }
      if (rc != MPI_SUCCESS) {  // as bad arguments: an empty block in its place
        plan->local_error = rc;
        plan->own_bytes = 0;
        args.sendcount = 0;
        carried->bytes.clear();
      }
    }
  }
  plan->options.prior_failure = BuildAdaptiveView(
      plan->ctx.private_comm, plan->ctx.rank, plan->ctx.size, args.root, plan->radix,
      plan->own_bytes, plan->local_error, &plan->view, &plan->error_in_tree, carried);
  return MPI_SUCCESS;
}

int RunGatherPlan(const GatherPlan& plan) {
  if (plan.carried.done) {  // its data went with the construction
    return plan.local_error != MPI_SUCCESS ? plan.local_error : plan.options.prior_failure;
  }
  int rc =
      ExecuteGather(plan.view, plan.args, plan.ctx,
                    plan.local_error == MPI_SUCCESS ? &plan.block_bytes : nullptr, plan.options);
  // The cause (bad arguments somewhere) outranks its consequences (sizes that do not match).
  if (plan.ctx.rank == plan.args.root && plan.error_in_tree != MPI_SUCCESS) {
    rc = plan.error_in_tree;
  }
  if (plan.local_error != MPI_SUCCESS) rc = plan.local_error;
  return rc;
}

int TuwGathervRadix(const GatherArgs& args, int radix) {
  if (IsIntercomm(args.comm)) {  // its trees carry nothing: TUWk's radix
    return InterGather(args, TreeAlgorithm::kAdaptive,
                       radix == kChooseCarriedRadix ? kChooseRadix : radix);
  }
  GatherPlan plan;
  plan.radix = radix;
  // TUWk_Gatherv carries small cubes' data in the construction; TUW_Gatherv is the paper's.
  if (radix == kChooseCarriedRadix) {
    plan.carried.max_bytes = tree::kCarryMaxBytes;
    plan.carried.root_max_bytes = tree::kCarryToRootMaxBytes;
    const int rc = GatherPieces(&plan.options.pieces);
    if (rc != MPI_SUCCESS) return rc;
  }
  plan.options.scratch = nullptr;  // a plain call: the communicator's kept buffers (CallBuffers)
  const int rc = PlanTuwGather(args, &plan);
  return rc != MPI_SUCCESS ? rc : RunGatherPlan(plan);
}

int TuwGatherv(const GatherArgs& args) { return TuwGathervRadix(args, 2); }
// TUWk_Gatherv: the same construction merging k cubes a round (issue 37).
int TuwkGatherv(const GatherArgs& args) { return TuwGathervRadix(args, kChooseCarriedRadix); }

}  // namespace tuw::detail
