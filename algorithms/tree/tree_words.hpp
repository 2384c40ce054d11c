// The tree Optimal_*_init's root sends every process at init, as words (pure, no MPI): 3p
// int64 words, from which each process rebuilds its own node (O(p) work, no per-process
// messages).
//  - words[0, p): each rank's block (bytes), as the root has it;
//  - words[p + v]: rank v's parent (-1 at the root), in the low 32 bits;
//  - words[2p + v]: v's place in its parent's receive order, in the low 32 bits;
//  - where v's edge goes in parts (node_tree.hpp, ChooseNodeParts), the upper halves of those
//    two words carry v's node range as lo + 1 and hi + 1 (else 0). A fourth word per rank made
//    init 27 us slower at p = 560 (simulated: the broadcast crossed a message size where SMPI's
//    latency grows).
#pragma once

#include <cstdint>
#include <vector>

#include "node_tree.hpp"

namespace tuw::tree {

constexpr int kTreeWords = 3;  // words per rank

// `tree` as ToNodeViews gives it, node_parts one range per rank (empty: one message).
std::vector<std::int64_t> EncodeTree(const Tree& tree, const std::vector<std::int64_t>& block_bytes,
                                     const std::vector<RankRange>& node_parts);
// Rank `rank`'s node of the encoded tree, its edges' parts applied (ApplyNodeParts); throws
// std::invalid_argument if the words are not a tree of p ranks rooted at `root`.
NodeView DecodeNode(const std::int64_t* words, int p, int root, int rank);

}  // namespace tuw::tree
