// The gather tree of the LogP bound's schedule (issue 37; pure, no MPI). tree::LogPLowerBound
// runs the root's link backwards from a deadline: the root takes one message every step
// (max(g, o)), latest first, each as large as its sender can have gathered by the time it sends.
// Built as a tree, "can have gathered" is the same rule one level down: A(t), the most ranks one
// process can hold by t, is 1 plus what its own messages, taken latest first from deadline t,
// carry. With no cost per byte this is Karp et al.'s optimal single-item broadcast run backwards
// (the shape of greedy_tree.hpp); with one, a message's size and the link it shares with the others
// cut the late, large messages, and the root takes more, smaller ones early.
//
// Simulated (results/simulated/link-greedy-trees, p = 560, equal blocks, run at the root's plan by
// a patched Optimal_Gatherv_init): b = 1 11.26-11.37 us, 1.04-1.05x the LogP bound
// (TUWk_Gatherv_init 13.68-14.39); b = 10 Same 17.44 us (1.38x; TUWk_Gatherv_init 21.67).
//
// The shape is for p equal blocks; every subtree is a contiguous rank range (an ordered tree, as
// the executors need), its sender its first rank; the root's children lie left and right of it.
#pragma once

#include <cstdint>

#include "loggp.hpp"
#include "sequenced_tree.hpp"

namespace tuw::tree {

// The schedule's time grid (us): A(t) is computed at its points.
constexpr double kLinkGreedyGridUs = 0.01;

struct LinkGreedyTree {
  SequencedTree tree;      // children in the order their messages arrive
  double deadline_us = 0;  // the schedule's time of the whole gather
};

// A message of x bytes costs the network level's measured one-way time where params has a curve
// (made non-decreasing in x: a larger message is never planned as cheaper), else 2o + L + Wire;
// its bytes hold the root's link for that time less the curve's least (or x * G). Without a cost
// per message (o = g = 0) every rank sends straight to the root. Throws std::invalid_argument for
// p < 1, a root outside [0, p) or block_bytes < 0.
LinkGreedyTree BuildLinkGreedyTree(int p, std::int64_t block_bytes, int root,
                                   const LogGPParams& params);

}  // namespace tuw::tree
