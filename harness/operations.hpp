// The operations irrbench times, each with its buffers, its call and its correctness check.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace irr::bench {

// One benchmark case: an operation on one problem (block counts identical on every rank).
class Case {
 public:
  // counts: m_0..m_{p-1} in MPI_INT elements (all fit in int: the caller checked).
  Case(const std::string& op, const std::vector<std::int64_t>& counts, int root, MPI_Comm comm);
  // One call of the operation (collective).
  int Run();
  // Fills the buffers with a recognisable pattern, runs once, and checks on every rank that every
  // block is where it belongs and nothing outside was written. True on all ranks iff correct.
  bool Validate(std::string* why);
  // Bytes this rank's buffers need for `op` (for the memory guard), before constructing.
  static std::int64_t BytesNeeded(const std::string& op, const std::vector<std::int64_t>& counts,
                                  int root, int rank);

 private:
  void FillForValidation();
  bool CheckAfterValidation(std::string* why) const;
  bool IsGather() const;
  bool IsPadded() const;

  std::string op_;
  int root_, rank_, p_;
  MPI_Comm comm_;
  std::vector<int> counts_, displs_;
  int own_ = 0, max_count_ = 0;
  std::vector<int> send_, recv_;  // with a guard zone at the end of each
};

}  // namespace irr::bench
