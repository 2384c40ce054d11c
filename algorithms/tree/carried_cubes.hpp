// TUWk_Gatherv's small cubes carried by the construction (issue 37). The construction already
// sends every cube's summary to the other fixed roots of its group; a cube whose data is small
// and all at its fixed root sends that data with the summary to the group's carrier. Where every
// cube of a group but the root's did so, the group is merged in the construction itself: its
// data is at the carrier (the root's cube: forwarded to the root with the summaries it is told),
// and the data phase has no edge for that round. A call of small blocks thus needs no data phase
// at all, which costs TUW's construction a round trip per level against the oblivious k-nomial
// tree (simulated p = 560, b = 1: 23.16 us against Binomialk's 20.80, radix-560-current).
// Where one cube is not carried the group merges as TUW's, and the carried data sent ahead is
// dropped (at most max_bytes a cube): the tree is TUW's but for the carried rounds, whose winner
// is the carrier (the root's cube, as TUW's, or the last, where TUW would take the heaviest).
#pragma once

#include <cstdint>
#include <vector>

#include "hypercube_tree.hpp"

namespace tuw::tree {

// The largest cube whose data travels with its summary. Simulated at p = 560, radix 4
// (TUWk_Gatherv, medians of 5; 2048 against 4096 and 16384): larger carried messages slow every
// exchange they ride on (Same b = 10: 31.46, 32.58, 35.25 us; TUW_Gatherv 38.32) and, at b = 100,
// the rounds they replace cost less than they do (Decreasing 154.68, 160.21, 158.02; TUW 161.45).
constexpr std::int64_t kCarryMaxBytes = 2048;

// The largest cube whose data its fixed root sends to the root itself, in the root's group told
// directly (RootToldDirectly) where only the root and the group's last fixed root are told
// (CarryLimit). There the data goes where it must go anyway, on no other cube's exchange: the
// LogGP model of simulated p = 560 (radix 5, 35 x 16 ranks, root 280), b = 10: 24.57 us with
// the exchange, 24.14 told only, 20.06 carrying up to 8192 bytes (the top round's 5000-byte cubes
// need no data phase); 8192 and 65536 alike, 8192 the eager-sized buffers the root posts.
constexpr std::int64_t kCarryToRootMaxBytes = 8192;

// A cube's summary on the wire (distributed_tree.cpp): gather root, total and root bytes, error
// class, held flag, as five int64.
constexpr std::int64_t kSummaryBytes = 40;

// The cube of a group (in rank order) whose fixed root receives the carried data: the one that
// holds the root (its gather root, the root, where RootToldDirectly), else the last (whose fixed
// root is the merged cube's).
std::size_t CarrierCube(const std::vector<CubeRange>& group, int root);

// Whether a cube sends its data with its summary: it does not hold the root, all its data is at
// its gather root (`held`), that is its fixed root (its last rank), and it has at most
// max_bytes (max_bytes < 0: nothing is carried).
bool CarriesData(const CubeRange& cube, const CubeSummary& summary, bool held, int root,
                 std::int64_t max_bytes);

// Whether, in the group that holds the root, the other cubes' fixed roots send their summaries
// (and carried data) to the root itself rather than through the fixed root of the root's cube,
// which would forward them with its notice: where the root is not that fixed root, and cubes are
// carried (max_bytes >= 0: TUWk_Gatherv). Saves the root a hop at every level.
bool RootToldDirectly(const std::vector<CubeRange>& group, int root, std::int64_t max_bytes);

// The largest cube of this group that carries its data (CarriesData's max_bytes): max_bytes, or
// in the root's group told directly, where root_max_bytes >= 0 (the root told only: TUWk_Gatherv
// since tuwcoll_carry_to_root=direct-only), the larger of the two. There each other cube's
// fixed root sends the root its summary (with its data where it carries it) and the last cube's
// fixed root its summary where a level follows (that process is the merged cube's fixed root);
// nobody else is told, a carried cube is done even where another one is not (the root keeps
// its data), and the others are the root's children. root_max_bytes < 0: the group's exchange
// as in every other group (tuwcoll_carry_to_root=direct).
std::int64_t CarryLimit(const std::vector<CubeRange>& group, int root, std::int64_t max_bytes,
                        std::int64_t root_max_bytes);
// The CarryLimit of the first round in which `rank` is not alone in its group: the largest own
// block it may carry (where it is still a cube of one), which it packs before the construction.
std::int64_t FirstCarryLimit(int rank, int p, int radix, int root, std::int64_t max_bytes,
                             std::int64_t root_max_bytes);
inline bool RootToldOnly(const std::vector<CubeRange>& group, int root, std::int64_t max_bytes,
                         std::int64_t root_max_bytes) {
  return root_max_bytes >= 0 && RootToldDirectly(group, root, max_bytes);
}

// Whether the group merges in the construction: every cube but the root's carries its data.
// summaries and held are parallel to group.
bool GroupCarried(const std::vector<CubeRange>& group, const std::vector<CubeSummary>& summaries,
                  const std::vector<bool>& held, int root, std::int64_t max_bytes);

// One merge of the carried construction, as the model prices it: the group's cubes, each one's
// gather root and bytes, which of them sent their data with the summary, and whether the group
// merged in the construction (then its carrier's gather root holds the data, and the data phase
// has no edge for it).
struct CarriedGroup {
  int level = 0;
  std::vector<CubeRange> cubes;
  std::vector<int> gather_roots;
  std::vector<std::int64_t> total_bytes;
  std::vector<char> sends_data;  // CarriesData, per cube
  std::size_t carrier = 0;
  bool merged = false;
  int root = -1;                    // the call's root
  bool root_told_directly = false;  // RootToldDirectly: the others' messages go to the root
  bool root_told_only = false;      // RootToldOnly: and to the last cube's fixed root, no more
  bool last_level = false;          // the top round: nobody needs the merged cube's summary
};

// The adaptive tree with carrying (root -1, the construction's choice, only where max_bytes < 0):
// BuildTree's, except that a carried group merges at its carrier with no edge in the tree (the
// carrier's own_bytes then count the data it holds, unless it is the root, which unpacks what is
// carried to it as it comes). *groups (if given): every merge in level order, then rank order.
// *done (if given): per process, whether its part ended in the construction (its cube's data went
// to a carrier). max_bytes < 0: BuildTree's tree. root_max_bytes: CarryLimit's (>= 0: the root's
// group told only, its carried cubes done where others are not, the others the root's children).
Tree BuildCarriedTree(const std::vector<std::int64_t>& block_bytes, int root, int radix,
                      std::int64_t max_bytes, std::vector<CarriedGroup>* groups = nullptr,
                      std::vector<char>* done = nullptr, std::int64_t root_max_bytes = -1);

}  // namespace tuw::tree
