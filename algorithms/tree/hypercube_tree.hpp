// Pure (MPI-free) construction of the ordered hypercube gather/scatter trees of
// Traeff 2017 (Lemmas 1-3) and of the problem-oblivious ordered binomial tree.
//
// Processes 0..p-1 are grouped into ordered (incomplete) hypercubes: at level d the cube with
// index a holds ranks [a*2^d, min((a+1)*2^d, p) - 1]. In round d (d = 0..ceil(log2 p)-1) the
// cubes 2c and 2c+1 merge: the gather root of one sends everything it has gathered to the
// gather root of the other. Which one sends is the only difference between the trees:
//  - adaptive (TUW): the cube with the smaller gather-time estimate T = M - m_g sends
//    (M = bytes in the cube, m_g = bytes of its gather root); ties go to the smaller M, and a
//    full tie lets the left cube send (its root is the lower rank; this reproduces the roots the
//    2018 paper reports, e.g. 1023 for Same at p = 2000);
//  - oblivious: the right cube's root (its last process) wins.
// In both, a cube that holds the externally given root r always wins, so r gathers everything.
//
// Radix k generalises the cubes (issue 37): at level d the cube a holds ranks
// [a*k^d, min((a+1)*k^d, p) - 1], and in round d the (up to) k consecutive cubes of one group
// (the level-(d+1) cube) merge at once: all but the winner send to the winner's gather root, so
// the tree has ceil(log_k p) rounds. The winner is the cube with the largest gather-time estimate
// (ties: the larger M, then the rightmost cube): for k = 2 exactly the rule above.
#pragma once

#include <cstdint>
#include <vector>

namespace tuw::tree {

enum class TreeKind { kAdaptive, kOblivious };

// What a cube's gather root and fixed root know about the cube (Lemma 3's exchanged triple).
struct CubeSummary {
  int gather_root = -1;
  std::int64_t total_bytes = 0;  // M: all data in the cube
  std::int64_t root_bytes = 0;   // m_g: the gather root's own block
  std::int64_t GatherTimeEstimate() const { return total_bytes - root_bytes; }
};

// Level-d cube geometry, shared by the pure and the distributed code.
struct CubeRange {
  int lo;
  int hi;  // inclusive
  bool Contains(int rank) const { return lo <= rank && rank <= hi; }
};
CubeRange CubeOf(int rank, int level, int p, int radix = 2);
// The level-d cubes that merge in round d with the one holding `rank` (itself included), in
// rank order: one cube only where it has no partner at this level.
std::vector<CubeRange> GroupOf(int rank, int level, int p, int radix = 2);
// The same into *cubes (cleared first), for loops over every group: no allocation per group.
void GroupOf(int rank, int level, int p, int radix, std::vector<CubeRange>* cubes);
// ceil(log_radix p) for p >= 1, radix >= 2: the number of rounds (std::invalid_argument for a
// radix below 2).
int CeilLog(int p, int radix);
inline int CeilLog2(int p) { return CeilLog(p, 2); }
// The radixes the trees accept: 2 .. kMaxRadix (beyond it a round's k - 1 simultaneous
// receives are a linear gather's).
constexpr int kMaxRadix = 64;

// Decides a merge: the index of the winning cube among `cubes` (a group, in rank order) with
// their summaries. `fixed_root` is the externally given root, or -1 for none (the model's "best
// root" mode, where the adaptive construction picks the root).
std::size_t WinningCube(TreeKind kind, const std::vector<CubeRange>& cubes,
                        const std::vector<CubeSummary>& summaries, int fixed_root);
// The same over n cubes at `cubes` with their summaries at `summaries`.
std::size_t WinningCube(TreeKind kind, const CubeRange* cubes, const CubeSummary* summaries,
                        std::size_t n, int fixed_root);

// One message of an edge that goes in several (node_tree.hpp, EdgeParts): ranks [lo, hi]
// of the child's range, `bytes` in all.
struct EdgePart {
  int lo = 0;
  int hi = -1;
  std::int64_t bytes = 0;
  bool operator==(const EdgePart& o) const { return lo == o.lo && hi == o.hi && bytes == o.bytes; }
};

// One edge of the tree, seen from the parent: the child's rank, the round in which it sends,
// the rank range its message covers (in rank order) and the message size. `parts`: empty where
// the range goes in one message, else its messages in the order the child sends them (gather
// only; a scatter sends the range in one).
struct ChildEdge {
  int child = -1;
  int level = -1;
  int lo = 0;
  int hi = -1;
  std::int64_t bytes = 0;
  std::vector<EdgePart> parts;
  bool operator==(const ChildEdge& o) const {
    return child == o.child && level == o.level && lo == o.lo && hi == o.hi && bytes == o.bytes &&
           parts == o.parts;
  }
};

// A process's view of the tree: everything it needs to execute its part.
struct NodeView {
  int rank = -1;
  int parent = -1;        // -1 at the tree's root
  int parent_level = -1;  // round in which this node sends to its parent
  int lo = 0;             // ranks this node holds when it sends (all ranks at the root)
  int hi = -1;
  std::int64_t bytes = 0;  // total bytes of [lo, hi]
  std::int64_t own_bytes = 0;
  std::vector<ChildEdge> children;     // ascending round (= the order data becomes ready)
  std::vector<EdgePart> parent_parts;  // the edge to the parent's ChildEdge::parts
  bool operator==(const NodeView& o) const {
    return rank == o.rank && parent == o.parent && parent_level == o.parent_level && lo == o.lo &&
           hi == o.hi && bytes == o.bytes && own_bytes == o.own_bytes && children == o.children &&
           parent_parts == o.parent_parts;
  }
};

struct Tree {
  int root = -1;
  std::vector<NodeView> nodes;  // indexed by rank
};

// Builds the whole tree in O(p) time. `block_bytes[i]` >= 0 is process i's block size;
// `fixed_root` in [0, p) or -1 (adaptive only: let the construction choose); radix in
// [2, kMaxRadix].
Tree BuildTree(TreeKind kind, const std::vector<std::int64_t>& block_bytes, int fixed_root,
               int radix = 2);

// One process's node of the adaptive tree (BuildTree(kAdaptive, ...).nodes[rank]) in O(n) time
// and memory, without the other nodes: what the root of TUWk_Scatterv computes for itself from the
// counts. A subtree of that tree is the same construction over its range (an aligned cube, whose
// cubes are the tree's own), so a child sent its range's sizes computes its node with
// block_bytes = the range's sizes, n = its size, fixed_root = -1 and rank relative to the range.
NodeView AdaptiveNodeOf(const std::int64_t* block_bytes, int n, int fixed_root, int radix,
                        int rank);

// TUWk_Scatterv's size message to a child with the n block sizes of its range: a header of four
// int64 (error, lo, hi, width) and each size in the fewest of 1, 2, 4 or 8 little-endian bytes
// that hold the range's largest, or that one size alone where all n are equal (UniformSizes). At
// small blocks the sizes would otherwise outweigh the data (8 bytes a rank against 4; 1 against
// 4 is still a fifth more through the root's link, which carries every block of a small call).
constexpr int kSizeHeaderBytes = 32;
int SizeFieldWidth(std::int64_t largest);
bool UniformSizes(const std::int64_t* sizes, int n);
// The message for these sizes: what EncodeSizes writes and SizeMessageBytes (the model) prices.
struct SizeLayout {
  int width = 1;         // bytes a field
  bool uniform = false;  // one field for all n
  int fields = 0;
  std::int64_t bytes = kSizeHeaderBytes;  // the whole message
};
SizeLayout SizeMessageLayout(const std::int64_t* sizes, int n);
std::int64_t SizeMessageBytes(const std::int64_t* sizes, int n);
// A call whose blocks total at most this (sizes included) sends each child its sizes and its
// data in one message (the child's receive has room for the largest): a size message more per
// edge costs a send and a receive overhead, 19.2 against 17.8 us at p = 560, b = 1 simulated
// (docs/irrmodel.md). Larger calls keep the sizes a level ahead of the data, which then goes in
// pieces as needed. 512 KiB (256 before 2026-11-28): p = 6400, b = 10 of every distribution but
// Same (256 000 bytes of data and a size a rank) is small then, simulated Random 179.2 us on the
// radix tree, 113.8 on equal node ranges (results/simulated/equal-node-ranges).
constexpr std::int64_t kOneMessageMaxBytes = 512 * 1024;
// Whether a call with these n block sizes is small: its blocks and their size message within
// kOneMessageMaxBytes and within max_message_bytes (the library's single-message limit).
bool OneMessageCall(const std::int64_t* sizes, int n, std::int64_t max_message_bytes);

// The order of one round's children in a NodeView (the children of one merge): ascending bytes,
// then rank, so that a scatter, which serves children from the last, sends the largest first.
// Oblivious views carry no bytes: there it is rank order. Shared by every construction, so that
// the distributed views equal BuildTree's.
void OrderRound(std::vector<ChildEdge>::iterator first, std::vector<ChildEdge>::iterator last);

// One process's node of the oblivious tree, in O(log p) without knowing any block size (all
// byte fields are 0): what Binomial_Gatherv/Scatterv compute locally.
NodeView ObliviousLocalView(int rank, int p, int fixed_root, int radix = 2);

// The byte offset of each piece of a node's gathered range, in rank order: the offset of the
// node's own block and of each child's block range inside the node's contiguous buffer.
struct PieceOffsets {
  std::int64_t own = 0;
  std::vector<std::int64_t> child;  // parallel to NodeView::children
};
PieceOffsets ComputePieceOffsets(const NodeView& node);

}  // namespace tuw::tree
