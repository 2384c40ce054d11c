// Optimal ordered binary trees by dynamic programming (Traeff 2018, Section 3.3), homogeneous
// costs.
//
// Figure 7: at most two children; five cases (root left, middle, right with two
// children; root left or right with one). Figure 7's last case reads gamma*m_i for root j: a
// misprint for gamma*m_j (the root copies its own block), which is what reproduces the paper's
// Table 1. For a fixed root only the last step is restricted to r, as the paper describes.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cost_model.hpp"

namespace irr::model {

struct BinaryTables;

class BinaryDp {
 public:
  BinaryDp(const std::vector<std::int64_t>& blocks, const CostParams& c);
  ~BinaryDp();
  BinaryDp(BinaryDp&&) noexcept;
  BinaryDp(const BinaryDp&) = delete;  // owns large tables: move it, do not copy it
  BinaryDp& operator=(const BinaryDp&) = delete;
  Result Best() const { return Fixed(-1); }
  Result Fixed(int root) const;
  SequencedTree Tree(int root) const;

 private:
  std::vector<std::int64_t> blocks_;
  CostParams cost_;
  std::unique_ptr<BinaryTables> tables_;
};

Result BinaryCost(const std::vector<std::int64_t>& blocks, const CostParams& c, int root,
                  SequencedTree* tree = nullptr);

}  // namespace irr::model
