/* libtuwcoll: irregular gather and scatter for MPI.
 *
 * TUW_Gatherv / TUW_Scatterv implement Traeff's linear-time, fully distributed algorithms
 * (J. L. Traeff, "Practical, Linear-time, Fully Distributed Algorithms for Irregular Gather and
 * Scatter", 2017): a problem-adaptive binomial tree is built in ceil(log2 p) rounds of
 * constant-size messages from local knowledge only, then the data flows along it.
 * Linear_* and Binomial_* are point-to-point baselines (a star; the problem-oblivious, ordered
 * binomial tree).
 * TUWk_* and Binomialk_* are the same trees at radix k: k cubes merge per round, ceil(log_k p)
 * rounds, so that a parent takes k - 1 messages at once (LogGP: one latency, k - 1 overheads).
 * The radix is TUWCOLL_RADIX where set (2 ... 64, the same on every process; another value is
 * MPI_ERR_ARG on every process, with a message), else the LogGP model's best for the group size
 * from the costs in TUWCOLL_MODEL_FIT (irrfit's fit.txt) or built-in ones (see README).
 * TUWk_Gatherv's construction carries a small cube's data (at most 2048 bytes) with its summary,
 * so that a call of small blocks needs no data phase.
 * TUWk_Scatterv on an intracommunicator needs no construction: its root, which knows every
 * count, plans the same tree and sends each child its subtree's sizes ahead of the data. As with
 * MPI_Scatterv, a non-root's bad count is then that process's error only (the root returns
 * MPI_SUCCESS); the root's bad arguments reach every process.
 *
 * All functions are drop-in replacements with exactly the signature and semantics of
 * MPI_Gatherv / MPI_Scatterv: counts and displacements are significant only at the root,
 * MPI_IN_PLACE is accepted at the root, errors are raised through the communicator's error
 * handler. Calls are collective over intra- and intercommunicators (MPI_ROOT / MPI_PROC_NULL in
 * the root's group). Payloads of any size MPI accepts (transfers above 1 GiB go in pieces). An
 * error on one process reaches the others as an error class: no process waits forever, and none
 * returns MPI_SUCCESS with data it did not receive. Under MPI_THREAD_MULTIPLE, threads may call
 * at the same time on different communicators (as for the MPI calls, not on the same one).
 */
#ifndef TUWCOLL_H_
#define TUWCOLL_H_

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

int TUW_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm);
int TUW_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm);

int Linear_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                   MPI_Comm comm);
int Linear_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                    MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                    int root, MPI_Comm comm);

int Binomial_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                     MPI_Comm comm);
int Binomial_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                      MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root, MPI_Comm comm);
int TUWk_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm);
int TUWk_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm);
int Binomialk_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm);
int Binomialk_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm);
/* The radixes TUWk_* and Binomialk_* use on comm (its local group), without communicating:
 * what a tool records beside its measurements. Returns MPI_ERR_ARG (with a message) where
 * TUWCOLL_RADIX or TUWCOLL_MODEL_FIT is bad or a pointer is null, MPI_ERR_COMM for
 * MPI_COMM_NULL; a query: the communicator's error handler is not called. */
int TUWk_Radix(MPI_Comm comm, int *tuwk_radix, int *binomialk_radix);
/* The radix of TUWk_Gatherv's calls on comm: on an intracommunicator its own (its construction
 * carries small cubes' data, which changes the radix the model finds best: TUWCOLL_RADIX's
 * TUWk_Gatherv=R, else its TUWk=R, else the model's), on an intercommunicator (nothing carried)
 * TUWk_Radix's tuwk_radix, which is TUWk_Scatterv's. Errors as TUWk_Radix. */
int TUWk_Radix_gatherv(MPI_Comm comm, int *radix);
/* The radix of the tree TUWk_Gatherv_init / TUWk_Scatterv_init build on comm for 4-byte blocks:
 * on an intracommunicator the model's best for the data phase alone (the tree is built once, at
 * init), which is larger than TUWk_*'s where the construction's rounds cost more than they save;
 * a request's own radix there is its root's choice on its counts at the init (the model's fastest
 * start on them; the root may take the link-greedy tree instead, where the model prices it
 * faster), this one where the root's arguments are bad. On an intercommunicator (trees
 * built at every start) TUWk_Radix's. TUWCOLL_RADIX sets all of them. Errors as TUWk_Radix. */
int TUWk_Radix_init(MPI_Comm comm, int *radix);
/* Whether a TUWk_*_init request on comm runs at the radix its root chooses on its counts
 * (*by_root = 1: an intracommunicator, TUWCOLL_RADIX naming no TUWk_init radix) or at
 * TUWk_Radix_init's (0). What a tool records beside its measurements; errors as TUWk_Radix. */
int TUWk_Radix_init_by_root(MPI_Comm comm, int *by_root);
/* The tree of a small TUWk_Scatterv call on the intracommunicator comm with this root (one
 * message per child, tree::OneMessageCall): *step = the LogP-greedy tree's step (0: the radix
 * tree), or for the two-level tree that TUWCOLL_SCATTER_STEP=S/N names (network step S, node step
 * N, over nodes of TUWCOLL_RANKS_PER_NODE = R ranks) S + 128 N + 16384 R, and 2^30 more where
 * TUWCOLL_SCATTER_STEP=eS/N splits the network into at most S equal node ranges (2^30 + 2^29
 * where bS/N cuts them at equal bytes, as the model's choice does); *by_model = 1
 * where the LogGP model chose it, for 4-byte blocks (larger calls may take another tree, equal
 * node ranges or the radix tree: the model decides per size class; with TUWCOLL_RANKS_PER_NODE
 * the choice depends on the root), 0 where
 * TUWCOLL_SCATTER_STEP set it (every small call). What a tool records beside its measurements;
 * errors as TUWk_Radix, MPI_ERR_ROOT, and a bad TUWCOLL_SCATTER_STEP or TUWCOLL_RANKS_PER_NODE
 * (MPI_ERR_ARG). */
int TUWk_Scatter_step(MPI_Comm comm, int root, int *step, int *by_model);
/* The radix of a TUWk_Scatterv call on the intracommunicator comm with this root too large for one
 * message a child, whose blocks average block_bytes: TUWCOLL_RADIX's TUWk radix where it sets one
 * (*by_model = 0), else the LogGP model's for blocks of that size class (*by_model = 1; the
 * radix chosen for 4-byte blocks, TUWk_Radix's, is the latency-bound case's, and the model
 * prices radix 2 fastest for most large calls). Errors as TUWk_Scatter_step, and MPI_ERR_ARG for
 * a negative block_bytes. */
int TUWk_Radix_scatter_large(MPI_Comm comm, int root, MPI_Aint block_bytes, int *radix,
                             int *by_model);
/* How TUWk_Gatherv (and TUWk_Gatherv_init's starts, from the setting at the init) cuts its edges'
 * transfers on comm: into pieces of *piece_bytes (0: none), which the receiver posts at once.
 * *by_model = 1: the LogGP model's rule on TUWCOLL_MODEL_FIT's measured curve (pieces of its
 * cheapest-per-byte size, for a transfer only where they cost less than one message; none without
 * a fit); 0: TUWCOLL_GATHER_PIECES's size (every transfer above it). Every process must see the
 * same setting and fit: an edge's two ends cut it each from its own, unchecked. Errors as
 * TUWk_Radix, and MPI_ERR_ARG for a bad TUWCOLL_GATHER_PIECES. */
int TUWk_Gather_pieces(MPI_Comm comm, MPI_Aint *piece_bytes, int *by_model);

/* Persistent TUW_Gatherv / TUW_Scatterv (MPI-4 persistent collective semantics; the arguments of
 * MPI_Gatherv_init / MPI_Scatterv_init; no info keys are used). Init is collective: it checks the
 * arguments, builds the adaptive tree once and returns the same verdict on every process
 * (counts at the root that differ from a process's block: MPI_ERR_TRUNCATE everywhere; the
 * request stays TUW_REQUEST_NULL). TUW_Start activates the request; the data (the buffers'
 * contents at that time) moves inside TUW_Wait, so complete requests in the same order on every
 * process, as for blocking collectives. Starting an active or a freed request, or freeing an
 * active one, is MPI_ERR_REQUEST. On an intercommunicator each wait runs TUW_Gatherv whole. */
typedef struct TUW_Request_s *TUW_Request;
#define TUW_REQUEST_NULL ((TUW_Request)0)
int TUW_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                     MPI_Comm comm, MPI_Info info, TUW_Request *request);
int TUW_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                      MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      int root, MPI_Comm comm, MPI_Info info, TUW_Request *request);
/* The same at radix k (the radix chosen at init). */
int TUWk_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                      MPI_Comm comm, MPI_Info info, TUW_Request *request);
int TUWk_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       int root, MPI_Comm comm, MPI_Info info, TUW_Request *request);
/* Persistent gather/scatter along the optimal ordered tree of Traeff 2018 (Section 3.2) for the
 * given root, under the linear cost model alpha + beta*bytes (copy gamma*bytes): at init the
 * root computes the tree from all counts by the model's dynamic program and gives every process
 * its part (parent, children in receive order, their ranges and sizes); each start runs that
 * tree. The cost parameters come from the fit file named by TUWCOLL_MODEL_FIT (irrfit's fit.txt)
 * or, without it, from a ping-pong between the root and one neighbour at init. The DP is exact
 * up to 256 processes and windowed above (within 2 % of the optimum on the paper's
 * distributions; TUWCOLL_OPTIMAL_DP=exact|windowed|auto overrides; see README). On several
 * multi-core nodes with large enough blocks the tree is node-aware: each node gathers to one
 * leader, the leaders form the optimal tree over the nodes (TUWCOLL_NODE_TREE=auto|always|never,
 * TUWCOLL_RANKS_PER_NODE; see README). Same semantics, errors and
 * TUW_Start/TUW_Wait/TUW_Request_free as TUW_*_init. On an intercommunicator the non-root group
 * computes its own optimal tree at init, rooted at its local rank 0, which hands over to the root
 * at every start (as TUW_Gatherv / TUW_Scatterv do there). */
int Optimal_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         int root, MPI_Comm comm, MPI_Info info, TUW_Request *request);
int Optimal_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                          MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                          TUW_Request *request);
int TUW_Start(TUW_Request *request);
int TUW_Wait(TUW_Request *request, MPI_Status *status);
int TUW_Request_free(TUW_Request *request);
/* As MPI_Startall / MPI_Waitall over TUW requests. TUW_Startall starts all or none (a null,
 * active or repeated request: MPI_ERR_REQUEST). TUW_Waitall completes them in array order (the
 * data moves there: the same order on every process), all of them even after a failure, and then
 * returns MPI_ERR_IN_STATUS with each request's class in statuses[i].MPI_ERROR. There is no
 * TUW_Test: a request completes only by moving its data with the other processes, which a test,
 * being local, may not wait for. */
int TUW_Startall(int count, TUW_Request requests[]);
int TUW_Waitall(int count, TUW_Request requests[], MPI_Status *statuses);

/* MPI-4 large counts: the same algorithms with MPI_Count counts and MPI_Aint displacements,
 * where the MPI library has the large-count API (MPI_Gatherv_c: MPICH 4.0 and later; not Open
 * MPI 4.1, where they are compiled out). */
#if defined(MPI_VERSION) && MPI_VERSION >= 4
#define TUWCOLL_HAVE_LARGE_COUNT 1
int TUW_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                  const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                  int root, MPI_Comm comm);
int TUW_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                   MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                   int root, MPI_Comm comm);
int Linear_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                     int root, MPI_Comm comm);
int Linear_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                      MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm);
int Binomial_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, int root, MPI_Comm comm);
int Binomial_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                        MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm);
int TUWk_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype,
                   int root, MPI_Comm comm);
int TUWk_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                    MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                    MPI_Datatype recvtype, int root, MPI_Comm comm);
int Binomialk_Gatherv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm);
int Binomialk_Scatterv_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm);
/* The persistent operations with large counts (MPI_Gatherv_init_c's signature); the requests
 * are TUW_Request as above. */
int TUW_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                       MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       TUW_Request *request);
int TUW_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                        MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        TUW_Request *request);
int TUWk_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                        MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        TUW_Request *request);
int TUWk_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[], const MPI_Aint displs[],
                         MPI_Datatype sendtype, void *recvbuf, MPI_Count recvcount,
                         MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                         TUW_Request *request);
int Optimal_Gatherv_init_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const MPI_Count recvcounts[], const MPI_Aint displs[],
                           MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                           TUW_Request *request);
int Optimal_Scatterv_init_c(const void *sendbuf, const MPI_Count sendcounts[],
                            const MPI_Aint displs[], MPI_Datatype sendtype, void *recvbuf,
                            MPI_Count recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                            MPI_Info info, TUW_Request *request);
#else
#define TUWCOLL_HAVE_LARGE_COUNT 0
#endif

/* The tags libtuwcoll uses on its private duplicate of the user's communicator. User traffic
 * never shares that communicator; the values are public so that PMPI tools can tell the
 * construction messages (TUWCOLL_TAG_CONSTRUCT, TUWCOLL_TAG_INFORM) from data messages.
 * A transfer above 1 GiB goes in pieces (TUWCOLL_TAG_SIZE announces its size where the receiver
 * does not know it); a process that cannot deliver valid data sends an empty message tagged
 * TUWCOLL_TAG_POISON_BASE + the MPI error class instead, so that the receiver returns that error
 * rather than waiting or reporting success. TUWk_Scatterv's root sends each child its subtree's
 * block sizes first; the child does not know its parent, so it receives from any source with a
 * tag of its own for each call: TUWCOLL_TAG_TREE_BASE + (the call's number on the communicator
 * modulo TUWCOLL_TREE_TAGS). */
enum {
  TUWCOLL_TAG_CONSTRUCT = 7501,
  TUWCOLL_TAG_INFORM = 7502,
  TUWCOLL_TAG_DATA = 7503,
  TUWCOLL_TAG_SELF = 7505,
  TUWCOLL_TAG_SIZE = 7506,
  TUWCOLL_TAG_MEASURE = 7507, /* Optimal_*_init's ping-pong when no fit file is named */
  TUWCOLL_TAG_PLAN = 7508,    /* a persistent init's verdict and (Optimal) the tree handed out */
  TUWCOLL_TAG_POISON_BASE = 8000,
  TUWCOLL_TAG_TREE_BASE = 16384,
  TUWCOLL_TREE_TAGS = 16384 /* up to 32767, the smallest MPI_TAG_UB the standard allows */
};

#ifdef __cplusplus
}
#endif

#endif /* TUWCOLL_H_ */
