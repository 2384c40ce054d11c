// The C entry points: every algorithm with MPI's int signature and, where the MPI library has the
// MPI-4 large-count API (MPI_VERSION >= 4), with MPI_Count counts and MPI_Aint displacements
// (_c). Both widen their arguments to the library's 64-bit Count and call the same algorithm;
// errors go through the communicator's error handler. Count and displacement arrays are read
// only where MPI says they are significant (the root; MPI_ROOT on an intercommunicator).
#include <vector>

#include "internal.hpp"

namespace tuw::detail {
namespace {

// The root's arrays as Counts (kept alive for the call).
struct Widened {
  std::vector<Count> counts, displs;
  template <typename C, typename D>
  void From(const C* c, const D* d, int n) {
    if (c != nullptr) counts.assign(c, c + n);
    if (d != nullptr) displs.assign(d, d + n);
  }
  const Count* Counts() const { return counts.empty() ? nullptr : counts.data(); }
  const Count* Displs() const { return displs.empty() ? nullptr : displs.data(); }
};

template <typename C, typename D>
int Gather(int (*algorithm)(const GatherArgs&), const void* sendbuf, Count sendcount,
           MPI_Datatype sendtype, void* recvbuf, const C* recvcounts, const D* displs,
           MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Widened wide;
  wide.From(recvcounts, displs, RootArrayLength(comm, root));
  const GatherArgs args{sendbuf,       sendcount, sendtype, recvbuf, wide.Counts(),
                        wide.Displs(), recvtype,  root,     comm};
  return RaiseError(comm, algorithm(args));
}

template <typename C, typename D>
int Scatter(int (*algorithm)(const ScatterArgs&), const void* sendbuf, const C* sendcounts,
            const D* displs, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm) {
  Widened wide;
  wide.From(sendcounts, displs, RootArrayLength(comm, root));
  const ScatterArgs args{sendbuf,   wide.Counts(), wide.Displs(), sendtype, recvbuf,
                         recvcount, recvtype,      root,          comm};
  return RaiseError(comm, algorithm(args));
}

}  // namespace
}  // namespace tuw::detail

using tuw::detail::Gather;
using tuw::detail::Scatter;

// One line per algorithm and API.
#define TUWCOLL_GATHERV(Name, Algorithm)                                                           \
  extern "C" int Name(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,    \
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, \
                      MPI_Comm comm) {                                                             \
    return Gather(tuw::detail::Algorithm, sendbuf, sendcount, sendtype, recvbuf, recvcounts,       \
                  displs, recvtype, root, comm);                                                   \
  }
#define TUWCOLL_SCATTERV(Name, Algorithm)                                                         \
  extern "C" int Name(const void* sendbuf, const int sendcounts[], const int displs[],            \
                      MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, \
                      int root, MPI_Comm comm) {                                                  \
    return Scatter(tuw::detail::Algorithm, sendbuf, sendcounts, displs, sendtype, recvbuf,        \
                   recvcount, recvtype, root, comm);                                              \
  }

TUWCOLL_GATHERV(TUW_Gatherv, TuwGatherv)
TUWCOLL_SCATTERV(TUW_Scatterv, TuwScatterv)
TUWCOLL_GATHERV(Linear_Gatherv, LinearGatherv)
TUWCOLL_SCATTERV(Linear_Scatterv, LinearScatterv)
TUWCOLL_GATHERV(Binomial_Gatherv, BinomialGatherv)
TUWCOLL_SCATTERV(Binomial_Scatterv, BinomialScatterv)
TUWCOLL_GATHERV(TUWk_Gatherv, TuwkGatherv)
TUWCOLL_SCATTERV(TUWk_Scatterv, TuwkScatterv)
TUWCOLL_GATHERV(Binomialk_Gatherv, BinomialkGatherv)
TUWCOLL_SCATTERV(Binomialk_Scatterv, BinomialkScatterv)

#if TUWCOLL_HAVE_LARGE_COUNT
#define TUWCOLL_GATHERV_C(Name, Algorithm)                                                   \
  extern "C" int Name(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,       \
                      void* recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],  \
                      MPI_Datatype recvtype, int root, MPI_Comm comm) {                      \
    return Gather(tuw::detail::Algorithm, sendbuf, sendcount, sendtype, recvbuf, recvcounts, \
                  displs, recvtype, root, comm);                                             \
  }
#define TUWCOLL_SCATTERV_C(Name, Algorithm)                                                       \
  extern "C" int Name(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[], \
                      MPI_Datatype sendtype, void* recvbuf, MPI_Count recvcount,                  \
                      MPI_Datatype recvtype, int root, MPI_Comm comm) {                           \
    return Scatter(tuw::detail::Algorithm, sendbuf, sendcounts, displs, sendtype, recvbuf,        \
                   recvcount, recvtype, root, comm);                                              \
  }

TUWCOLL_GATHERV_C(TUW_Gatherv_c, TuwGatherv)
TUWCOLL_SCATTERV_C(TUW_Scatterv_c, TuwScatterv)
TUWCOLL_GATHERV_C(Linear_Gatherv_c, LinearGatherv)
TUWCOLL_SCATTERV_C(Linear_Scatterv_c, LinearScatterv)
TUWCOLL_GATHERV_C(Binomial_Gatherv_c, BinomialGatherv)
TUWCOLL_SCATTERV_C(Binomial_Scatterv_c, BinomialScatterv)
TUWCOLL_GATHERV_C(TUWk_Gatherv_c, TuwkGatherv)
TUWCOLL_SCATTERV_C(TUWk_Scatterv_c, TuwkScatterv)
TUWCOLL_GATHERV_C(Binomialk_Gatherv_c, BinomialkGatherv)
TUWCOLL_SCATTERV_C(Binomialk_Scatterv_c, BinomialkScatterv)
#endif
