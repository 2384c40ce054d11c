// Persistent TUW_Gatherv / TUW_Scatterv (MPI-4 persistent collective semantics, with a request
// type of the library). Init is collective: it checks the arguments, builds the Lemma 3 tree
// once, and agrees on one verdict (the root compares every process's block size with its counts,
// so mismatched counts are an error of init on every process, not of some later start). Each
// start + wait moves the buffers' contents at that time along the stored tree: no construction
// rounds. The data moves inside TUW_Wait (TUW_Start only activates the request), so requests
// must be completed in the same order on every process, as blocking collectives are.
// On an intercommunicator the request stores the arguments and every wait runs TUW_*v whole.
// Optimal_*_init (optimal_plan.cpp) makes the same request with another planner: the tree is
// the cost model's optimal one for the root instead of Lemma 3's. On an intercommunicator the
// non-root group computes its own optimal tree at init (rooted at its local rank 0, which hands
// over to the root, as TUW_*v does there) and every wait runs the intercommunicator algorithm
// along it.
#include <algorithm>
#include <memory>

#include "internal.hpp"

using tuw::detail::Count;

// The derived datatypes a request runs with, duplicated at init and freed with the request. MPI
// lets a program free a datatype once an operation that uses it is set up ("any communication
// that is currently using this datatype will complete normally", MPI_Type_free), and the native
// persistent collectives hold theirs; a request that kept the program's handle would run its
// next start on a freed type. Predefined types cannot be freed and stay as they are.
class RetainedTypes {
 public:
  RetainedTypes() = default;
  ~RetainedTypes() {
    for (MPI_Datatype& type : types_) MPI_Type_free(&type);
  }
  RetainedTypes(const RetainedTypes&) = delete;
  RetainedTypes& operator=(const RetainedTypes&) = delete;
  // Replaces *type by a duplicate held here; leaves it as it is where it is predefined or
  // cannot be duplicated (then the program's handle must stay valid, as before).
  void Retain(MPI_Datatype* type) {
    if (*type == MPI_DATATYPE_NULL) return;
    int integers = 0, addresses = 0, datatypes = 0, combiner = MPI_COMBINER_NAMED;
    if (MPI_Type_get_envelope(*type, &integers, &addresses, &datatypes, &combiner) != MPI_SUCCESS ||
        combiner == MPI_COMBINER_NAMED) {
      return;
    }
    MPI_Datatype duplicate;
    if (MPI_Type_dup(*type, &duplicate) != MPI_SUCCESS) return;
    types_.push_back(duplicate);
    *type = duplicate;
  }

 private:
  std::vector<MPI_Datatype> types_;
};

struct TUW_Request_s {
  enum class Kind { kGather, kScatter } kind;
  bool active = false;
  bool inter = false;
  bool inter_planned = false;  // Optimal on an intercommunicator: the group's tree is in the plan
  MPI_Comm comm = MPI_COMM_NULL;
  tuw::detail::GatherPlan gather;
  tuw::detail::ScatterPlan scatter;
  std::vector<Count> counts, displs;  // the root's arrays, owned (the plan points into them)
  RetainedTypes types;                // the plan's derived types (RetainTypes)
};

namespace tuw::detail {
namespace {

// The verdict of init, the same on every process: the first bad arguments or failed
// construction anywhere, else MPI_ERR_TRUNCATE where a process's block differs from the root's
// count for it, else MPI_SUCCESS. One gather and one broadcast (plan_messages.cpp), paid once.
int AgreeOnPlan(const CallContext& ctx, int root, std::int64_t own_bytes, int own_error,
                int error_in_tree, const std::vector<std::int64_t>& block_bytes) {
  const std::int64_t mine[2] = {own_bytes, own_error};
  std::vector<std::int64_t> all;
  int rc = PlanGather(ctx, root, mine, 2, &all);
  std::int64_t verdict = rc;
  if (ctx.rank == root && rc == MPI_SUCCESS) {
    verdict = error_in_tree;
    for (int i = 0; i < ctx.size && verdict == MPI_SUCCESS; ++i) {
      if (all[2 * i + 1] != MPI_SUCCESS) verdict = all[2 * i + 1];
    }
    for (int i = 0; i < ctx.size && verdict == MPI_SUCCESS; ++i) {
      if (all[2 * i] != block_bytes[i]) verdict = MPI_ERR_TRUNCATE;
    }
  }
  rc = PlanBcast(ctx, root, &verdict, 1);
  return rc != MPI_SUCCESS ? rc : static_cast<int>(verdict);
}

// Makes the request hold the datatypes that are significant on this process (RetainedTypes):
// once init has succeeded, so that they are known to be valid. A gather's recvtype and a
// scatter's sendtype count at the root only (MPI_ROOT on an intercommunicator), the own type
// everywhere else and at the root unless it passes MPI_IN_PLACE; nothing on an intercommunicator's
// MPI_PROC_NULL processes.
void RetainTypes(TUW_Request_s* r) {
  const bool gather = r->kind == TUW_Request_s::Kind::kGather;
  const int root = gather ? r->gather.args.root : r->scatter.args.root;
  bool at_root = false, has_own = true;
  if (r->inter) {
    at_root = root == MPI_ROOT;
    has_own = root != MPI_ROOT && root != MPI_PROC_NULL;
  } else {
    at_root = root == (gather ? r->gather.ctx.rank : r->scatter.ctx.rank);
    has_own =
        !at_root || (gather ? r->gather.args.sendbuf : r->scatter.args.recvbuf) != MPI_IN_PLACE;
  }
  MPI_Datatype* root_type = gather ? &r->gather.args.recvtype : &r->scatter.args.sendtype;
  MPI_Datatype* own_type = gather ? &r->gather.args.sendtype : &r->scatter.args.recvtype;
  if (at_root) r->types.Retain(root_type);
  if (has_own) r->types.Retain(own_type);
}

// The root's counts and displacements (int, or MPI_Count and MPI_Aint for _c) as Counts.
template <typename Args, typename C, typename D>
void OwnRootArrays(TUW_Request_s* r, Args* args, const C* counts, const D* displs) {
  const int n = RootArrayLength(args->comm, args->root);
  if (n > 0 && counts != nullptr) r->counts.assign(counts, counts + n);
  if (n > 0 && displs != nullptr) r->displs.assign(displs, displs + n);
}

const Count* DataOrNull(const std::vector<Count>& v) { return v.empty() ? nullptr : v.data(); }

// Which tree a request runs: TUW's (radix 2), TUWk's or the optimal one. TUWk's radix is the one
// its root chooses on its counts for a tree planned at init, except on an intercommunicator, whose
// starts build their trees.
enum class Planner { kTuw, kTuwk, kOptimal };
int RadixOf(Planner planner, bool planned_at_init) {
  if (planner != Planner::kTuwk) return 2;
  return planned_at_init ? kChooseRadixAtRoot : kChooseRadix;
}

template <typename C, typename D>
int InitGather(Planner planner, const GatherArgs& call, const C* recvcounts, const D* displs,
               TUW_Request* request) {
  *request = nullptr;
  auto r = std::make_unique<TUW_Request_s>();
  r->kind = TUW_Request_s::Kind::kGather;
  r->comm = call.comm;
  GatherArgs args = call;
  OwnRootArrays(r.get(), &args, recvcounts, displs);
  args.recvcounts = DataOrNull(r->counts);
  args.displs = DataOrNull(r->displs);
  if (call.comm != MPI_COMM_NULL && IsIntercomm(call.comm)) {
    r->inter = true;
    r->gather.args = args;
    r->gather.radix = RadixOf(planner, false);
    if (planner == Planner::kOptimal) {
      const int rc = PlanInterOptimalGather(args, &r->gather.view);
      if (rc != MPI_SUCCESS) return rc;
      r->inter_planned = true;
    }
    RetainTypes(r.get());
    *request = r.release();
    return MPI_SUCCESS;
  }
  r->gather.radix = RadixOf(planner, true);
  if (planner == Planner::kTuwk) {  // every start's edges in TUWk_Gatherv's pieces (the same rule)
    const int rc = GatherPieces(&r->gather.options.pieces);
    if (rc != MPI_SUCCESS) return rc;
  }
  int rc = planner == Planner::kOptimal ? PlanOptimalGather(args, &r->gather)
                                        : PlanTuwGather(args, &r->gather);
  if (rc != MPI_SUCCESS) return rc;
  const GatherPlan& g = r->gather;
  const int own_error = g.local_error != MPI_SUCCESS ? g.local_error : g.options.prior_failure;
  rc = AgreeOnPlan(g.ctx, args.root, g.own_bytes, own_error, g.error_in_tree, g.block_bytes);
  if (rc != MPI_SUCCESS) return rc;
  RetainTypes(r.get());
  *request = r.release();
  return MPI_SUCCESS;
}

template <typename C, typename D>
int InitScatter(Planner planner, const ScatterArgs& call, const C* sendcounts, const D* displs,
                TUW_Request* request) {
  *request = nullptr;
  auto r = std::make_unique<TUW_Request_s>();
  r->kind = TUW_Request_s::Kind::kScatter;
  r->comm = call.comm;
  ScatterArgs args = call;
  OwnRootArrays(r.get(), &args, sendcounts, displs);
  args.sendcounts = DataOrNull(r->counts);
  args.displs = DataOrNull(r->displs);
  if (call.comm != MPI_COMM_NULL && IsIntercomm(call.comm)) {
    r->inter = true;
    r->scatter.args = args;
    r->scatter.radix = RadixOf(planner, false);
    if (planner == Planner::kOptimal) {
      const int rc = PlanInterOptimalScatter(args, &r->scatter.view);
      if (rc != MPI_SUCCESS) return rc;
      r->inter_planned = true;
    }
    RetainTypes(r.get());
    *request = r.release();
    return MPI_SUCCESS;
  }
  r->scatter.radix = RadixOf(planner, true);
  int rc = planner == Planner::kOptimal ? PlanOptimalScatter(args, &r->scatter)
                                        : PlanTuwScatter(args, &r->scatter);
  if (rc != MPI_SUCCESS) return rc;
  const ScatterPlan& s = r->scatter;
  const int own_error = s.local_error != MPI_SUCCESS ? s.local_error : s.options.prior_failure;
  rc = AgreeOnPlan(s.ctx, args.root, s.own_bytes, own_error, s.error_in_tree, s.block_bytes);
  if (rc != MPI_SUCCESS) return rc;
  RetainTypes(r.get());
  *request = r.release();
  return MPI_SUCCESS;
}

// One start's data movement.
int Run(const TUW_Request_s& r) {
  if (r.kind == TUW_Request_s::Kind::kGather) {
    return r.inter ? InterGather(r.gather.args, TreeAlgorithm::kAdaptive, r.gather.radix,
                                 r.inter_planned ? &r.gather.view : nullptr)
                   : RunGatherPlan(r.gather);
  }
  return r.inter ? InterScatter(r.scatter.args, TreeAlgorithm::kAdaptive, r.scatter.radix,
                                r.inter_planned ? &r.scatter.view : nullptr)
                 : RunScatterPlan(r.scatter);
}

}  // namespace
}  // namespace tuw::detail

namespace tuw::detail {
namespace {

template <typename C, typename D>
int GatherInit(Planner planner, const void* sendbuf, Count sendcount, MPI_Datatype sendtype,
               void* recvbuf, const C* recvcounts, const D* displs, MPI_Datatype recvtype, int root,
               MPI_Comm comm, TUW_Request* request) {
  if (request == nullptr) return RaiseError(comm, MPI_ERR_ARG);
  const GatherArgs args{sendbuf, sendcount, sendtype, recvbuf, nullptr,
                        nullptr, recvtype,  root,     comm};
  return RaiseError(comm, InitGather(planner, args, recvcounts, displs, request));
}

template <typename C, typename D>
int ScatterInit(Planner planner, const void* sendbuf, const C* sendcounts, const D* displs,
                MPI_Datatype sendtype, void* recvbuf, Count recvcount, MPI_Datatype recvtype,
                int root, MPI_Comm comm, TUW_Request* request) {
  if (request == nullptr) return RaiseError(comm, MPI_ERR_ARG);
  const ScatterArgs args{sendbuf,   nullptr,  nullptr, sendtype, recvbuf,
                         recvcount, recvtype, root,    comm};
  return RaiseError(comm, InitScatter(planner, args, sendcounts, displs, request));
}

}  // namespace
}  // namespace tuw::detail

// The entry points, one line per operation and API: MPI's int counts and, where mpi.h has the
// MPI-4 large-count API, MPI_Count counts with MPI_Aint displacements (_c). No info keys are used.
#define TUWCOLL_GATHERV_INIT(Name, Tree, CountT, DisplT)                                           \
  extern "C" int Name(const void* sendbuf, CountT sendcount, MPI_Datatype sendtype, void* recvbuf, \
                      const CountT recvcounts[], const DisplT displs[], MPI_Datatype recvtype,     \
                      int root, MPI_Comm comm, MPI_Info, TUW_Request* request) {                   \
    return tuw::detail::GatherInit(tuw::detail::Planner::Tree, sendbuf, sendcount, sendtype,       \
                                   recvbuf, recvcounts, displs, recvtype, root, comm, request);    \
  }
#define TUWCOLL_SCATTERV_INIT(Name, Tree, CountT, DisplT)                                         \
  extern "C" int Name(const void* sendbuf, const CountT sendcounts[], const DisplT displs[],      \
                      MPI_Datatype sendtype, void* recvbuf, CountT recvcount,                     \
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info,                   \
                      TUW_Request* request) {                                                     \
    return tuw::detail::ScatterInit(tuw::detail::Planner::Tree, sendbuf, sendcounts, displs,      \
                                    sendtype, recvbuf, recvcount, recvtype, root, comm, request); \
  }

TUWCOLL_GATHERV_INIT(TUW_Gatherv_init, kTuw, int, int)
TUWCOLL_SCATTERV_INIT(TUW_Scatterv_init, kTuw, int, int)
TUWCOLL_GATHERV_INIT(TUWk_Gatherv_init, kTuwk, int, int)
TUWCOLL_SCATTERV_INIT(TUWk_Scatterv_init, kTuwk, int, int)
TUWCOLL_GATHERV_INIT(Optimal_Gatherv_init, kOptimal, int, int)
TUWCOLL_SCATTERV_INIT(Optimal_Scatterv_init, kOptimal, int, int)

#if TUWCOLL_HAVE_LARGE_COUNT
TUWCOLL_GATHERV_INIT(TUW_Gatherv_init_c, kTuw, MPI_Count, MPI_Aint)
TUWCOLL_SCATTERV_INIT(TUW_Scatterv_init_c, kTuw, MPI_Count, MPI_Aint)
TUWCOLL_GATHERV_INIT(TUWk_Gatherv_init_c, kTuwk, MPI_Count, MPI_Aint)
TUWCOLL_SCATTERV_INIT(TUWk_Scatterv_init_c, kTuwk, MPI_Count, MPI_Aint)
TUWCOLL_GATHERV_INIT(Optimal_Gatherv_init_c, kOptimal, MPI_Count, MPI_Aint)
TUWCOLL_SCATTERV_INIT(Optimal_Scatterv_init_c, kOptimal, MPI_Count, MPI_Aint)
#endif

// Starting a null (freed) or an already active request is an error (MPI_ERR_REQUEST).
extern "C" int TUW_Start(TUW_Request* request) {
  if (request == nullptr || *request == TUW_REQUEST_NULL) {
    return tuw::detail::RaiseError(MPI_COMM_NULL, MPI_ERR_REQUEST);
  }
  if ((*request)->active) return tuw::detail::RaiseError((*request)->comm, MPI_ERR_REQUEST);
  (*request)->active = true;
  return MPI_SUCCESS;
}

namespace tuw::detail {
namespace {

// Completes an active request (the data moves here); an inactive or null request returns at
// once. The status is MPI's empty status with the result in MPI_ERROR; the communicator's error
// handler is left to the caller.
int Complete(TUW_Request* request, MPI_Status* status) {
  int rc = MPI_SUCCESS;
  if (request != nullptr && *request != TUW_REQUEST_NULL && (*request)->active) {
    rc = Run(**request);
    (*request)->active = false;
  }
  if (status != MPI_STATUS_IGNORE) {
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = rc;
    MPI_Status_set_elements(status, MPI_BYTE, 0);
  }
  return rc;
}

}  // namespace
}  // namespace tuw::detail

extern "C" int TUW_Wait(TUW_Request* request, MPI_Status* status) {
  const MPI_Comm comm =
      request != nullptr && *request != TUW_REQUEST_NULL ? (*request)->comm : MPI_COMM_NULL;
  const int rc = tuw::detail::Complete(request, status);
  return rc == MPI_SUCCESS ? rc : tuw::detail::RaiseError(comm, rc);
}

// Frees an inactive request and sets it to TUW_REQUEST_NULL; freeing an active one is an error
// (as for MPI's persistent collectives: wait first).
extern "C" int TUW_Request_free(TUW_Request* request) {
  if (request == nullptr || *request == TUW_REQUEST_NULL) {
    return tuw::detail::RaiseError(MPI_COMM_NULL, MPI_ERR_REQUEST);
  }
  if ((*request)->active) return tuw::detail::RaiseError((*request)->comm, MPI_ERR_REQUEST);
  delete *request;
  *request = TUW_REQUEST_NULL;
  return MPI_SUCCESS;
}

// Starts all, or none: a null, active or repeated request is MPI_ERR_REQUEST and activates
// nothing, so no process is left with some of its requests started and others not.
extern "C" int TUW_Startall(int count, TUW_Request requests[]) {
  if (count < 0) return tuw::detail::RaiseError(MPI_COMM_NULL, MPI_ERR_COUNT);
  if (count > 0 && requests == nullptr) {
    return tuw::detail::RaiseError(MPI_COMM_NULL, MPI_ERR_REQUEST);
  }
  std::vector<TUW_Request> seen;
  seen.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    TUW_Request r = requests[i];
    if (r == TUW_REQUEST_NULL) return tuw::detail::RaiseError(MPI_COMM_NULL, MPI_ERR_REQUEST);
    if (r->active || std::find(seen.begin(), seen.end(), r) != seen.end()) {
      return tuw::detail::RaiseError(r->comm, MPI_ERR_REQUEST);
    }
    seen.push_back(r);
  }
  for (TUW_Request r : seen) r->active = true;
  return MPI_SUCCESS;
}

// Completes the requests in array order (the data moves here, so the order must be the same on
// every process), each as TUW_Wait; null and inactive ones return at once. All are completed even
// after a failure, so that no other process waits for this one; then, as MPI_Waitall, the result
// is MPI_ERR_IN_STATUS with each request's class in statuses[i].MPI_ERROR.
extern "C" int TUW_Waitall(int count, TUW_Request requests[], MPI_Status* statuses) {
  if (count < 0) return tuw::detail::RaiseError(MPI_COMM_NULL, MPI_ERR_COUNT);
  if (count > 0 && requests == nullptr) {
    return tuw::detail::RaiseError(MPI_COMM_NULL, MPI_ERR_REQUEST);
  }
  MPI_Comm failed_comm = MPI_COMM_NULL;
  bool failed = false;
  for (int i = 0; i < count; ++i) {
    MPI_Status status;
    const MPI_Comm comm = requests[i] != TUW_REQUEST_NULL ? requests[i]->comm : MPI_COMM_NULL;
    const int rc = tuw::detail::Complete(&requests[i], &status);
    if (statuses != MPI_STATUSES_IGNORE) statuses[i] = status;
    if (rc != MPI_SUCCESS && !failed) {
      failed = true;
      failed_comm = comm;
    }
  }
  return failed ? tuw::detail::RaiseError(failed_comm, MPI_ERR_IN_STATUS) : MPI_SUCCESS;
}
