// LD_PRELOAD fix for SimGrid 3.32's waitany, used by scripts/simulate --waitany-fix (built by
// scripts/build-smpi-waitany-fix against the installed SimGrid's own source headers).
//
// Why: SimGrid's ActivityWaitanySimcall constructor lists the activities that are ready, for the
// model checker only, by calling test() on every one; test() of a completed communication calls
// CommImpl::finish() again, and each finish() walks the actors' activity lists (std::list::remove).
// SMPI's MPI_Waitall is a loop of n waitany over n requests, so a linear gather's root costs
// O(p^3) list steps: 33 s of wall time per MPI_Waitall at p = 3200 (results/simulated/README.md).
// The list is not read outside the model checker (is_enabled() rebuilds it there), and a
// completed communication has had its finish() when it completed (CommImpl::post), so skipping
// the scan changes no simulated time, only wall time.
//
// This definition replaces the library's: libsimgrid calls the constructor through its PLT.
#include <xbt/config.hpp>

#include "src/kernel/activity/ActivityImpl.hpp"
#include "src/kernel/actor/CommObserver.hpp"

namespace simgrid::kernel::actor {

ActivityWaitanySimcall::ActivityWaitanySimcall(
    ActorImpl* actor, const std::vector<activity::ActivityImpl*>& activities, double timeout)
    : ResultingSimcall(actor, -1), activities_(activities), timeout_(timeout) {
  // A replay of a model-checker trace needs the list as the library builds it.
  if (simgrid::config::get_value<std::string>("model-check/replay").empty()) return;
  for (unsigned i = 0; i < activities_.size(); i++)
    if (activities_[i]->test(get_issuer())) indexes_.push_back(i);
}

}  // namespace simgrid::kernel::actor
