// The operations irrbench times: each row of the table (formats/operations.tsv) bound to its MPI
// call - the library's regular collectives, Guideline (2)'s Allreduce + regular collective, the
// harness's own Empty and Barrier, and every v-collective of libtuwcoll's registry (the
// library's MPI_Gatherv/MPI_Scatterv among them) - with its buffers and its correctness check.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "operation_table.hpp"
#include "tuwcoll.h"

namespace irr::bench {

// Empty when every row of the table can be called by this irrbench, else the names that
// cannot (a row without a call, e.g. a v-collective missing from libtuwcoll's registry).
std::vector<std::string> UnboundOperations();

// The names --ops accepts: every row except test-only ones (those too with IRRBENCH_TEST_OPS=1).
std::vector<std::string> SelectableOperations(bool with_test_ops);
// The default --ops: the rows marked default.
std::vector<std::string> DefaultOperations();

// One benchmark case: an operation on one problem (block counts identical on every rank).
class Case {
 public:
  // counts: m_0..m_{p-1} in MPI_INT elements (all fit in int: the caller checked).
  // Persistent operations make their request here (collective), once per case.
  Case(const std::string& op, const std::vector<std::int64_t>& counts, int root, MPI_Comm comm);
  ~Case();
  Case(const Case&) = delete;
  Case& operator=(const Case&) = delete;
  // Why `op` cannot run with this MPI library (empty if it can): the native persistent
  // collectives need MPI-4 (MPICH 4) or Open MPI's MPIX_ pcollreq extension.
  static std::string Unavailable(const std::string& op);
  // One call of the operation (collective): for a persistent op a start + wait, for a setup op
  // an init + free.
  int Run();
  // Fills the buffers with a recognisable pattern, runs once, and checks on every rank that every
  // block is where it belongs and nothing outside was written. True on all ranks iff correct.
  bool Validate(std::string* why);
  // Bytes this rank's buffers need for `op` (for the memory guard), before constructing.
  static std::int64_t BytesNeeded(const std::string& op, const std::vector<std::int64_t>& counts,
                                  int root, int rank);

 private:
  int Init();  // the persistent request of this case
  int StartAndWait();
  void FreeRequest();
  int RunRegularOrV(int* send, int* recv);
  void FillForValidation();
  bool CheckAfterValidation(std::string* why) const;
  bool IsGather() const { return op_.family == "gather"; }
  bool IsPadded() const { return op_.padded(); }

  formats::Operation op_;
  int root_, rank_, p_;
  MPI_Comm comm_;
  std::vector<int> counts_, displs_;
  int own_ = 0, max_count_ = 0;
  std::vector<int> send_, recv_;  // with a guard zone at the end of each
  TUW_Request tuw_request_ = TUW_REQUEST_NULL;
  MPI_Request mpi_request_ = MPI_REQUEST_NULL;
  int init_rc_ = MPI_SUCCESS;
};

}  // namespace irr::bench
