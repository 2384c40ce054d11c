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

// Figure 1's completion time of a gather over the tree.
double GatherTime(const SequencedTree& tree, const std::vector<std::int64_t>& blocks,
                  const CostParams& c);
// The same tree used for scatter, simulated forwards: each node, once it holds its segment,
// sends to its children and copies its own block in the reverse of the gather order; the time
// is the last processor's finish. (The 2018 paper states both are equal; the tests check it.)
double ScatterTime(const SequencedTree& tree, const std::vector<std::int64_t>& blocks,
                   const CostParams& c);

// The hypercube trees of libtuwcoll as sequences: each internal node copies its own block
// first (overlapping the children's gathering, Proposition 2) and receives its children in
// round order - the order TUW_Gatherv and Binomial_Gatherv post and complete them.
SequencedTree FromHypercube(const tuw::tree::Tree& tree);
// Star: the root copies, then receives every other block directly, in rank order.
SequencedTree LinearTree(int p, int root);

// alpha + beta * sum_{i != r} m_i + gamma * m_r (Section 2.3); root -1: the best over all r.
Result LowerBound(const std::vector<std::int64_t>& blocks, const CostParams& c, int root);

}  // namespace irr::model
