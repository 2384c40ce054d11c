// TUW_Scatterv: the scatter counterpart of TUW_Gatherv on the same adaptive tree (Traeff 2017:
// "the linear time gather trees can likewise be used for the irregular scatter problem").
// Plan and run apart, as for TUW_Gatherv (TUW_Scatterv_init plans once). The same at radix k:
// TUWk_Scatterv_init, and TUWk_Scatterv on an intercommunicator (root_planned_scatter.cpp has
// TUWk_Scatterv on an intracommunicator). TUWk_Scatterv_init's root may take the link-greedy tree
// instead of the radix tree (RootPlannedRadix), which it hands out whole.
#include "internal.hpp"

namespace tuw::detail {

int PlanTuwScatter(const ScatterArgs& call_args, ScatterPlan* plan) {
  plan->args = call_args;
  ScatterArgs& args = plan->args;
  int rc = BeginCollective(args.comm, args.root, &plan->ctx);
  if (rc == MPI_SUCCESS) rc = ResolveRadix(TreeAlgorithm::kAdaptive, plan->ctx.size, &plan->radix);
  if (rc != MPI_SUCCESS) return rc;
  plan->local_error = CheckScatterArgs(args, plan->ctx, &plan->own_bytes, &plan->block_bytes);
  if (plan->local_error != MPI_SUCCESS) {
    plan->own_bytes = 0;
    args.recvcount = 0;
  }
  if (plan->radix == kChooseRadixAtRoot) {
    bool handed_out = false;
    rc = PlanRootsChoice(true, nullptr, plan, &handed_out);
    if (rc != MPI_SUCCESS || handed_out) return rc;
  }
  plan->options.prior_failure = BuildAdaptiveView(
      plan->ctx.private_comm, plan->ctx.rank, plan->ctx.size, args.root, plan->radix,
      plan->own_bytes, plan->local_error, &plan->view, &plan->error_in_tree);
  return MPI_SUCCESS;
}

int RunScatterPlan(const ScatterPlan& plan) {
  int rc = ExecuteScatter(plan.view, plan.args, plan.ctx,
                          plan.local_error == MPI_SUCCESS ? &plan.block_bytes : nullptr,
                          plan.local_error, plan.options);
  // The cause (bad arguments somewhere) outranks its consequences (sizes that do not match).
  if (plan.ctx.rank == plan.args.root && plan.error_in_tree != MPI_SUCCESS) {
    rc = plan.error_in_tree;
  }
  if (plan.local_error != MPI_SUCCESS) rc = plan.local_error;
  return rc;
}

int TuwScattervRadix(const ScatterArgs& args, int radix) {
  if (IsIntercomm(args.comm)) return InterScatter(args, TreeAlgorithm::kAdaptive, radix);
  ScatterPlan plan;
  plan.radix = radix;
  plan.options.scratch = nullptr;  // a plain call: the communicator's kept buffers (CallBuffers)
  const int rc = PlanTuwScatter(args, &plan);
  return rc != MPI_SUCCESS ? rc : RunScatterPlan(plan);
}

int TuwScatterv(const ScatterArgs& args) { return TuwScattervRadix(args, 2); }

}  // namespace tuw::detail
