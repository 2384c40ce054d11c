// The linear cost model of Traeff 2018 (Section 2; parameters and tree form in
// algorithms/tree/sequenced_tree.hpp): a tree's completion time is Figure 1's: Time += gamma*m_r
// for the copy, and Time = max(Time, Time(child)) + alpha + beta*Size(child) for each child in
// sequence.
#pragma once

#include <cstdint>
#include <vector>

#include "hypercube_tree.hpp"
#include "sequenced_tree.hpp"

namespace irr::model {

// The model's parameters and tree form are the tree library's (algorithms/tree), which the
// algorithms execute.
using tuw::tree::CostParams;
using tuw::tree::Result;
using tuw::tree::SequencedTree;

// Tree times (Figure 1, and its scatter counterpart) and the hypercube trees as sequences
// live with the trees too, as Optimal_*_init compares trees with them.
using tuw::tree::FromHypercube;
using tuw::tree::GatherTime;
using tuw::tree::MeasuredCurve;
using tuw::tree::ScatterTime;
using tuw::tree::TwoLevelCosts;

// Star: the root copies, then receives every other block directly, in rank order.
SequencedTree LinearTree(int p, int root);

// alpha + beta * sum_{i != r} m_i + gamma * m_r (Section 2.3; 0 for p = 1, as every tree); root
// -1: the best over all r.
Result LowerBound(const std::vector<std::int64_t>& blocks, const CostParams& c, int root);

}  // namespace irr::model
