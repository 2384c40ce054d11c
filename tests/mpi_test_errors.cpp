// Bad arguments: the MPI error class a user expects, raised through the communicator's error
// handler (MPI_ERRORS_RETURN here), never a hang, and the communicator stays usable afterwards.
#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "loggp.hpp"
#include "mpi_test_support.hpp"
#include "tuwcoll_registry.hpp"

namespace {
using namespace irrtest;

int ErrorClass(int rc) {
  int cls = rc;
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
  return cls;
}

class Errors : public ::testing::Test {
 protected:
  void SetUp() override {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    p_ = Size(comm_);
    rank_ = Rank(comm_);
    counts_.assign(p_, 2);
    for (int i = 0; i < p_; ++i) displs_.push_back(2 * i);
    send_ = {rank_ * 10, rank_ * 10 + 1};
    recv_.assign(2 * p_, kFill);
  }
  void TearDown() override {
    MPI_Comm_free(&comm_);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  }
  int Gather(tuw::GathervFn fn, int sendcount, int root) {
    return fn(send_.data(), sendcount, MPI_INT, recv_.data(), counts_.data(), displs_.data(),
              MPI_INT, root, comm_);
  }
  int Scatter(tuw::ScattervFn fn, int recvcount, int root) {
    return fn(recv_.data(), counts_.data(), displs_.data(), MPI_INT, send_.data(), recvcount,
              MPI_INT, root, comm_);
  }
  // TUWk_Scatterv's error class for a scatter of 2 from root 0.
  int TuwkScatterError() {
    for (const auto& alg : tuw::kScattervAlgorithms) {
      if (alg.name == "TUWk_Scatterv") return ErrorClass(Scatter(alg.fn, 2, 0));
    }
    return MPI_ERR_OTHER;
  }
  // Each of `bad` as the setting: TUWk_Scatterv and the step query fail with MPI_ERR_ARG.
  void ExpectSmallScatterSettingRejected(const ScopedEnvironment& setting,
                                         std::initializer_list<const char*> bad) {
    int step = -1, by_model = -1;
    for (const char* value : bad) {
      setting.Set(value);
      EXPECT_EQ(TuwkScatterError(), MPI_ERR_ARG) << value;
      EXPECT_EQ(TUWk_Scatter_step(comm_, 0, &step, &by_model), MPI_ERR_ARG) << value;
    }
  }
  // A correct gather right after an error: no stale message of the failed call interferes.
  // (Buffers of an erroneous call are undefined, as in MPI: refill them.)
  bool GatherStillWorks(tuw::GathervFn fn) {
    send_ = {rank_ * 10, rank_ * 10 + 1};
    counts_.assign(p_, 2);
    recv_.assign(2 * p_, kFill);
    bool ok = Gather(fn, 2, 0) == MPI_SUCCESS;
    if (rank_ == 0) {
      for (int i = 0; i < p_; ++i)
        ok = ok && recv_[2 * i] == 10 * i && recv_[2 * i + 1] == 10 * i + 1;
    }
    return AllRanks(ok, comm_);
  }
  MPI_Comm comm_ = MPI_COMM_NULL;
  int p_ = 0, rank_ = 0;
  std::vector<int> counts_, displs_, send_, recv_;
};

TEST_F(Errors, InvalidRootAndNullCommunicatorEverywhere) {
  for (const auto& alg : tuw::kGathervAlgorithms) {
    if (alg.name == "MPI_Gatherv") continue;
    EXPECT_EQ(ErrorClass(Gather(alg.fn, 2, p_)), MPI_ERR_ROOT) << alg.name;
    EXPECT_EQ(ErrorClass(Gather(alg.fn, 2, -1)), MPI_ERR_ROOT) << alg.name;
    EXPECT_EQ(ErrorClass(alg.fn(send_.data(), 2, MPI_INT, recv_.data(), counts_.data(),
                                displs_.data(), MPI_INT, 0, MPI_COMM_NULL)),
              MPI_ERR_COMM)
        << alg.name;
    EXPECT_TRUE(GatherStillWorks(alg.fn)) << alg.name;
  }
  for (const auto& alg : tuw::kScattervAlgorithms) {
    if (alg.name == "MPI_Scatterv") continue;
    EXPECT_EQ(ErrorClass(Scatter(alg.fn, 2, p_)), MPI_ERR_ROOT) << alg.name;
    EXPECT_EQ(ErrorClass(alg.fn(recv_.data(), counts_.data(), displs_.data(), MPI_INT, send_.data(),
                                2, MPI_INT, 0, MPI_COMM_NULL)),
              MPI_ERR_COMM)
        << alg.name;
  }
}

// A greedy-step setting that is no step: every process of TUWk_Scatterv returns MPI_ERR_ARG
// before any message, and a good one (0: the radix tree; a step; two steps "network/node" where
// TUWCOLL_RANKS_PER_NODE names at least 2 ranks a node) scatters correctly.
TEST_F(Errors, BadScatterStepSettingEverywhere) {
  const ScopedEnvironment setting("TUWCOLL_SCATTER_STEP");
  const ScopedEnvironment ranks_per_node("TUWCOLL_RANKS_PER_NODE");
  ExpectSmallScatterSettingRejected(setting, {"-1", "65", "five", "3x", "1e2", "4/2"});
  ranks_per_node.Set("1");  // one rank a node: no second level
  ExpectSmallScatterSettingRejected(setting, {"4/2", "e4/2", "b4/2"});
  ranks_per_node.Set("2");
  ExpectSmallScatterSettingRejected(
      setting, {"4/", "/2", "4/0", "0/2", "4/65", "4/2/1", "4 /2", "e/2", "e0/2", "e65/2", "ee4/2",
                "x4/2", "4/e2", "b0/2", "be4/2", "4/b2"});
  int two_level = -1, by_model = -1;
  setting.Set("4/2");
  EXPECT_EQ(TuwkScatterError(), MPI_SUCCESS);
  EXPECT_EQ(TUWk_Scatter_step(comm_, 0, &two_level, &by_model), MPI_SUCCESS);
  EXPECT_EQ(two_level, 4 + 128 * 2 + 16384 * 2);  // tuwcoll.h's code for S/N over R = 2
  EXPECT_EQ(by_model, 0);
  setting.Set("e4/2");  // equal node ranges: the same code and 2^30
  EXPECT_EQ(TuwkScatterError(), MPI_SUCCESS);
  EXPECT_EQ(TUWk_Scatter_step(comm_, 0, &two_level, &by_model), MPI_SUCCESS);
  EXPECT_EQ(two_level, 4 + 128 * 2 + 16384 * 2 + (1 << 30));
  setting.Set("b4/2");  // cut at equal bytes: 2^29 more
  EXPECT_EQ(TuwkScatterError(), MPI_SUCCESS);
  EXPECT_EQ(TUWk_Scatter_step(comm_, 0, &two_level, &by_model), MPI_SUCCESS);
  EXPECT_EQ(two_level, 4 + 128 * 2 + 16384 * 2 + (1 << 30) + (1 << 29));
  ranks_per_node.Unset();
  int step = -1;
  for (const char* good : {"0", "1", "4", "64"}) {
    setting.Set(good);
    EXPECT_EQ(TuwkScatterError(), MPI_SUCCESS) << good;
    EXPECT_EQ(TUWk_Scatter_step(comm_, 0, &step, &by_model), MPI_SUCCESS) << good;
    EXPECT_EQ(step, std::atoi(good));
    EXPECT_EQ(by_model, 0);
  }
  setting.Unset();
  EXPECT_EQ(TUWk_Scatter_step(comm_, 0, &step, &by_model), MPI_SUCCESS);
  EXPECT_EQ(by_model, 1);
  EXPECT_TRUE(step >= 0 && step <= 16) << step;  // the model's candidates, or the radix tree
  EXPECT_EQ(TUWk_Scatter_step(comm_, 0, nullptr, &by_model), MPI_ERR_ARG);
  EXPECT_EQ(TUWk_Scatter_step(MPI_COMM_NULL, 0, &step, &by_model), MPI_ERR_COMM);
}

// A ranks-a-node setting that is no count: TUWk_Scatterv (whose root chooses its small call's
// tree on the nodes) returns MPI_ERR_ARG on every process before any message; a good one
// scatters. The step query names a root of the communicator or MPI_ERR_ROOT.
TEST_F(Errors, BadRanksPerNodeSettingEverywhere) {
  const ScopedEnvironment setting("TUWCOLL_RANKS_PER_NODE");
  ExpectSmallScatterSettingRejected(setting, {"0", "-4", "sixteen", "16x", "1e1"});
  int step = -1, by_model = -1;
  for (const char* good : {"1", "2", "16"}) {
    setting.Set(good);
    EXPECT_EQ(TuwkScatterError(), MPI_SUCCESS) << good;
    EXPECT_EQ(TUWk_Scatter_step(comm_, p_ - 1, &step, &by_model), MPI_SUCCESS) << good;
  }
  EXPECT_EQ(TUWk_Scatter_step(comm_, p_, &step, &by_model), MPI_ERR_ROOT);
  EXPECT_EQ(TUWk_Scatter_step(comm_, -1, &step, &by_model), MPI_ERR_ROOT);
}

// A piece size that is none: TUWk_Gatherv and TUWk_Gatherv_init return MPI_ERR_ARG on every
// process before any message; 0 (no pieces) and a size (pieces of it) then gather correctly, and a
// persistent request starts.
TEST_F(Errors, BadGatherPiecesSetting) {
  const ScopedEnvironment setting("TUWCOLL_GATHER_PIECES");
  for (const char* bad : {"-1", "eight", "8k", "1e3", "99999999999"}) {
    setting.Set(bad);
    for (const auto& alg : tuw::kGathervAlgorithms) {
      if (alg.name == "TUWk_Gatherv") {
        EXPECT_EQ(ErrorClass(Gather(alg.fn, 2, 0)), MPI_ERR_ARG) << bad;
      }
    }
    // TUWk_Gatherv_init reads it at the init, whose starts go in the same pieces.
    TUW_Request request = TUW_REQUEST_NULL;
    EXPECT_EQ(
        ErrorClass(TUWk_Gatherv_init(send_.data(), 2, MPI_INT, recv_.data(), counts_.data(),
                                     displs_.data(), MPI_INT, 0, comm_, MPI_INFO_NULL, &request)),
        MPI_ERR_ARG)
        << bad;
    EXPECT_EQ(request, TUW_REQUEST_NULL);
  }
  for (const char* good : {"0", "4", "5"}) {
    setting.Set(good);
    for (const auto& alg : tuw::kGathervAlgorithms) {
      if (alg.name == "TUWk_Gatherv") {
        EXPECT_EQ(Gather(alg.fn, 2, 0), MPI_SUCCESS) << good;
      }
    }
    TUW_Request request = TUW_REQUEST_NULL;
    ASSERT_EQ(TUWk_Gatherv_init(send_.data(), 2, MPI_INT, recv_.data(), counts_.data(),
                                displs_.data(), MPI_INT, 0, comm_, MPI_INFO_NULL, &request),
              MPI_SUCCESS)
        << good;
    EXPECT_EQ(TUW_Start(&request), MPI_SUCCESS) << good;
    EXPECT_EQ(TUW_Wait(&request, MPI_STATUS_IGNORE), MPI_SUCCESS) << good;
    EXPECT_EQ(TUW_Request_free(&request), MPI_SUCCESS) << good;
  }
}

// A radix setting that is no radix: every process of every radix-k row (plain, persistent)
// returns MPI_ERR_ARG before any message (all read the same environment), and the next call
// with a good setting is correct. TUWCOLL_RADIX=3 is what the MPI tests run with (CMake).
TEST_F(Errors, BadRadixSettingEverywhere) {
  const ScopedEnvironment setting("TUWCOLL_RADIX");
  for (const char* bad : {"1", "65", "four", "3x", "-2", "TUWk=1", "TUWk=4 Foo=3", "TUWk",
                          "TUWk=", "Binomialk=9;TUWk=4", "TUWk_Gatherv=1", "TUWk_gatherv=3"}) {
    setting.Set(bad);
    for (const auto& alg : tuw::kGathervAlgorithms) {
      const bool radix_k = alg.name == "TUWk_Gatherv" || alg.name == "Binomialk_Gatherv";
      if (radix_k) {
        EXPECT_EQ(ErrorClass(Gather(alg.fn, 2, 0)), MPI_ERR_ARG) << alg.name << bad;
      }
    }
    for (const auto& alg : tuw::kScattervAlgorithms) {
      const bool radix_k = alg.name == "TUWk_Scatterv" || alg.name == "Binomialk_Scatterv";
      if (radix_k) {
        EXPECT_EQ(ErrorClass(Scatter(alg.fn, 2, 0)), MPI_ERR_ARG) << alg.name << bad;
      }
    }
    TUW_Request request = TUW_REQUEST_NULL;
    EXPECT_EQ(
        ErrorClass(TUWk_Gatherv_init(send_.data(), 2, MPI_INT, recv_.data(), counts_.data(),
                                     displs_.data(), MPI_INT, 0, comm_, MPI_INFO_NULL, &request)),
        MPI_ERR_ARG);
    EXPECT_EQ(request, TUW_REQUEST_NULL);
    int tuwk = 0, binomialk = 0, tuwk_init = 0, tuwk_gatherv = 0;
    EXPECT_EQ(TUWk_Radix(comm_, &tuwk, &binomialk), MPI_ERR_ARG);
    EXPECT_EQ(TUWk_Radix_init(comm_, &tuwk_init), MPI_ERR_ARG);
    int by_root = -1;
    EXPECT_EQ(TUWk_Radix_init_by_root(comm_, &by_root), MPI_ERR_ARG);
    EXPECT_EQ(TUWk_Radix_gatherv(comm_, &tuwk_gatherv), MPI_ERR_ARG);
    int large = 0, by_model = 0;
    EXPECT_EQ(TUWk_Radix_scatter_large(comm_, 0, 4000, &large, &by_model), MPI_ERR_ARG);
  }
  // A large TUWk_Scatterv call's radix: the TUWk radix set, else the model's at its size.
  int large = 0, by_model = -1;
  setting.Set("TUWk=4 Binomialk=6");
  EXPECT_EQ(TUWk_Radix_scatter_large(comm_, 0, 4000, &large, &by_model), MPI_SUCCESS);
  EXPECT_EQ(large, 4);
  EXPECT_EQ(by_model, 0);
  setting.Set("Binomialk=6");
  EXPECT_EQ(TUWk_Radix_scatter_large(comm_, 0, 4000, &large, &by_model), MPI_SUCCESS);
  EXPECT_EQ(by_model, 1);
  const std::vector<int> candidates = tuw::tree::RadixCandidates(p_);
  EXPECT_NE(std::find(candidates.begin(), candidates.end(), large), candidates.end()) << large;
  EXPECT_EQ(TUWk_Radix_scatter_large(comm_, 0, -1, &large, &by_model), MPI_ERR_ARG);
  EXPECT_EQ(TUWk_Radix_scatter_large(comm_, p_, 4000, &large, &by_model), MPI_ERR_ROOT);
  EXPECT_EQ(TUWk_Radix_scatter_large(comm_, 0, 4000, nullptr, &by_model), MPI_ERR_ARG);
  EXPECT_EQ(TUWk_Radix_scatter_large(MPI_COMM_NULL, 0, 4000, &large, &by_model), MPI_ERR_COMM);
  setting.Set("5");
  int tuwk = 0, binomialk = 0, tuwk_init = 0;
  EXPECT_EQ(TUWk_Radix(comm_, &tuwk, &binomialk), MPI_SUCCESS);
  EXPECT_EQ(tuwk, 5);
  EXPECT_EQ(binomialk, 5);
  EXPECT_EQ(TUWk_Radix_init(comm_, &tuwk_init), MPI_SUCCESS);
  EXPECT_EQ(tuwk_init, 5);
  // A request's radix is its root's choice unless the setting names TUWk_init's (here: all).
  int by_root = -1;
  EXPECT_EQ(TUWk_Radix_init_by_root(comm_, &by_root), MPI_SUCCESS);
  EXPECT_EQ(by_root, 0);
  EXPECT_EQ(TUWk_Radix_init_by_root(MPI_COMM_NULL, &by_root), MPI_ERR_COMM);
  EXPECT_EQ(TUWk_Radix_init_by_root(comm_, nullptr), MPI_ERR_ARG);
  EXPECT_EQ(TUWk_Radix(MPI_COMM_NULL, &tuwk, &binomialk), MPI_ERR_COMM);
  EXPECT_EQ(TUWk_Radix_init(MPI_COMM_NULL, &tuwk_init), MPI_ERR_COMM);
  EXPECT_EQ(TUWk_Radix(comm_, &tuwk, nullptr), MPI_ERR_ARG);
  EXPECT_EQ(TUWk_Radix_init(comm_, nullptr), MPI_ERR_ARG);
  int tuwk_gatherv = 0;
  EXPECT_EQ(TUWk_Radix_gatherv(comm_, &tuwk_gatherv), MPI_SUCCESS);
  EXPECT_EQ(tuwk_gatherv, 5);
  EXPECT_EQ(TUWk_Radix_gatherv(MPI_COMM_NULL, &tuwk_gatherv), MPI_ERR_COMM);
  EXPECT_EQ(TUWk_Radix_gatherv(comm_, nullptr), MPI_ERR_ARG);
  // Per family, as irrbench records them; a family left out gets the model's radix, but
  // TUWk_Gatherv TUWk's where that is named (settings before it had its own meant both).
  int model_tuwk = 0, model_binomialk = 0, model_init = 0, model_gatherv = 0;
  setting.Unset();
  EXPECT_EQ(TUWk_Radix(comm_, &model_tuwk, &model_binomialk), MPI_SUCCESS);
  EXPECT_EQ(TUWk_Radix_init(comm_, &model_init), MPI_SUCCESS);
  EXPECT_EQ(TUWk_Radix_init_by_root(comm_, &by_root), MPI_SUCCESS);
  EXPECT_EQ(by_root, 1);
  EXPECT_EQ(TUWk_Radix_gatherv(comm_, &model_gatherv), MPI_SUCCESS);
  setting.Set("TUWk=4,Binomialk=6 TUWk_init=7");
  EXPECT_EQ(TUWk_Radix_init_by_root(comm_, &by_root), MPI_SUCCESS);
  EXPECT_EQ(by_root, 0);
  EXPECT_EQ(TUWk_Radix(comm_, &tuwk, &binomialk), MPI_SUCCESS);
  EXPECT_EQ(TUWk_Radix_init(comm_, &tuwk_init), MPI_SUCCESS);
  EXPECT_EQ(TUWk_Radix_gatherv(comm_, &tuwk_gatherv), MPI_SUCCESS);
  EXPECT_EQ(tuwk, 4);
  EXPECT_EQ(binomialk, 6);
  EXPECT_EQ(tuwk_init, 7);
  EXPECT_EQ(tuwk_gatherv, 4);
  setting.Set("TUWk=4 TUWk_Gatherv=6");
  EXPECT_EQ(TUWk_Radix(comm_, &tuwk, &binomialk), MPI_SUCCESS);
  EXPECT_EQ(TUWk_Radix_gatherv(comm_, &tuwk_gatherv), MPI_SUCCESS);
  EXPECT_EQ(tuwk, 4);
  EXPECT_EQ(tuwk_gatherv, 6);
  EXPECT_TRUE(GatherStillWorks(TUWk_Gatherv));
  setting.Set("Binomialk=11");
  EXPECT_EQ(TUWk_Radix_init_by_root(comm_, &by_root), MPI_SUCCESS);
  EXPECT_EQ(by_root, 1);
  EXPECT_EQ(TUWk_Radix(comm_, &tuwk, &binomialk), MPI_SUCCESS);
  EXPECT_EQ(TUWk_Radix_init(comm_, &tuwk_init), MPI_SUCCESS);
  EXPECT_EQ(TUWk_Radix_gatherv(comm_, &tuwk_gatherv), MPI_SUCCESS);
  EXPECT_EQ(tuwk, model_tuwk);
  EXPECT_EQ(binomialk, 11);
  EXPECT_EQ(tuwk_init, model_init);
  EXPECT_EQ(tuwk_gatherv, model_gatherv);
  EXPECT_TRUE(GatherStillWorks(TUWk_Gatherv));
  EXPECT_TRUE(GatherStillWorks(Binomialk_Gatherv));
  setting.Set("2");
  EXPECT_TRUE(GatherStillWorks(TUWk_Gatherv));
  setting.Unset();  // the model's choice (tested in test_loggp)
  EXPECT_TRUE(GatherStillWorks(TUWk_Gatherv));
  EXPECT_TRUE(GatherStillWorks(Binomialk_Gatherv));
}

// The baselines check their own arguments locally, like MPI_Gatherv: every process passes -1.
TEST_F(Errors, NegativeCountsEverywhereInBaselines) {
  counts_.assign(p_, -1);
  for (const char* name : {"Linear_Gatherv", "Binomial_Gatherv"}) {
    for (const auto& alg : tuw::kGathervAlgorithms) {
      if (alg.name == name) {
        EXPECT_EQ(ErrorClass(Gather(alg.fn, -1, 0)), MPI_ERR_COUNT) << name;
      }
    }
  }
  for (const char* name : {"Linear_Scatterv", "Binomial_Scatterv"}) {
    for (const auto& alg : tuw::kScattervAlgorithms) {
      if (alg.name == name) {
        EXPECT_EQ(ErrorClass(Scatter(alg.fn, -1, 0)), MPI_ERR_COUNT) << name;
      }
    }
  }
}

// TUW_*: a bad count on ONE process is reported there and at the root, nobody hangs, and the
// next call on the same communicator is correct.
TEST_F(Errors, TuwOneNegativeCountNoHang) {
  if (p_ < 2) GTEST_SKIP() << "needs a non-root process";
  const int bad = p_ - 1;
  int rc = Gather(TUW_Gatherv, rank_ == bad ? -3 : 2, 0);
  const int expected = (rank_ == bad || rank_ == 0) ? MPI_ERR_COUNT : MPI_SUCCESS;
  EXPECT_TRUE(AllRanks(ErrorClass(rc) == expected, comm_)) << "rank " << rank_ << " rc " << rc;
  EXPECT_TRUE(GatherStillWorks(TUW_Gatherv));

  // Scatter: the bad process and the root report it; the bad process's subtree gets poison in
  // place of data (the root cannot tell which of its blocks are wrong), so every other process
  // either succeeds with its own block or reports the error too: never success with wrong data.
  recv_.assign(2 * p_, 0);
  for (int i = 0; i < 2 * p_; ++i) recv_[i] = 100 + i;
  send_.assign(2, kFill);
  rc = Scatter(TUW_Scatterv, rank_ == bad ? -3 : 2, 0);
  bool ok = ErrorClass(rc) == expected || (rank_ != bad && rank_ != 0 && rc != MPI_SUCCESS);
  if (rc == MPI_SUCCESS) ok = ok && send_[0] == 100 + 2 * rank_ && send_[1] == 101 + 2 * rank_;
  EXPECT_TRUE(AllRanks(ok, comm_)) << "rank " << rank_ << " rc " << rc;
  EXPECT_TRUE(GatherStillWorks(TUW_Gatherv));
}

TEST_F(Errors, TuwBadRootCountsAndMismatchedSizes) {
  if (p_ < 2) GTEST_SKIP() << "needs a non-root process";
  // A negative recvcount at the root: only the root can tell.
  if (rank_ == 0) counts_[p_ - 1] = -5;
  int rc = Gather(TUW_Gatherv, 2, 0);
  EXPECT_TRUE(AllRanks(ErrorClass(rc) == (rank_ == 0 ? MPI_ERR_COUNT : MPI_SUCCESS), comm_));
  EXPECT_TRUE(GatherStillWorks(TUW_Gatherv));
  // The last process sends 1 int while the root expects 2.
  rc = Gather(TUW_Gatherv, rank_ == p_ - 1 ? 1 : 2, 0);
  EXPECT_TRUE(AllRanks(ErrorClass(rc) == (rank_ == 0 ? MPI_ERR_TRUNCATE : MPI_SUCCESS), comm_))
      << "rank " << rank_ << " rc " << rc;
  EXPECT_TRUE(GatherStillWorks(TUW_Gatherv));
}

// TUWk_Scatterv's root plans the tree and no message goes up: a non-root's bad count is that
// process's error, as in MPI_Scatterv (the root succeeds; in a call this small every child's data
// comes with its sizes, so the bad process's subtree still gets its blocks and succeeds); the
// root's bad counts reach every process (they travel down in place of the sizes). The next call
// is right.
TEST_F(Errors, TuwkScattervReportsWhereMpiScattervDoes) {
  if (p_ < 2) GTEST_SKIP() << "needs a non-root process";
  const int bad = p_ - 1;
  const auto scatter_still_works = [&] {
    counts_.assign(p_, 2);
    for (int i = 0; i < 2 * p_; ++i) recv_[i] = 100 + i;
    send_.assign(2, kFill);
    const int rc = Scatter(TUWk_Scatterv, 2, 0);
    return AllRanks(rc == MPI_SUCCESS && send_[0] == 100 + 2 * rank_ && send_[1] == 101 + 2 * rank_,
                    comm_);
  };
  for (const int own_count : {-3, 1}) {  // a negative count; one int where the root sends two
    for (int i = 0; i < 2 * p_; ++i) recv_[i] = 100 + i;
    send_.assign(2, kFill);
    const int rc = Scatter(TUWk_Scatterv, rank_ == bad ? own_count : 2, 0);
    const int bad_class = own_count < 0 ? MPI_ERR_COUNT : MPI_ERR_TRUNCATE;
    const bool ok = rank_ == bad ? ErrorClass(rc) == bad_class
                                 : rc == MPI_SUCCESS && send_[0] == 100 + 2 * rank_ &&
                                       send_[1] == 101 + 2 * rank_;
    EXPECT_TRUE(AllRanks(ok, comm_)) << "count " << own_count << " rank " << rank_ << " rc " << rc;
    EXPECT_TRUE(scatter_still_works()) << "after count " << own_count;
  }
  if (rank_ == 0) counts_[bad] = -5;
  const int rc = Scatter(TUWk_Scatterv, 2, 0);
  EXPECT_TRUE(AllRanks(ErrorClass(rc) == MPI_ERR_COUNT, comm_)) << "rank " << rank_ << " rc " << rc;
  EXPECT_TRUE(scatter_still_works()) << "after the root's bad count";
}

// A datatype the MPI library itself rejects (never committed) on one process: its send fails
// inside MPI, not in our argument checks. That process and the root report MPI_ERR_TYPE, the
// processes that relay its subtree's poison may too, nobody else fails, nobody hangs, and the
// next call is correct.
TEST_F(Errors, TuwUncommittedTypeOnOneProcess) {
  if (p_ < 2) GTEST_SKIP() << "needs a non-root process";
  const int bad = p_ - 1;
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);  // deliberately not committed
  const int rc = TUW_Gatherv(send_.data(), rank_ == bad ? 1 : 2, rank_ == bad ? pair : MPI_INT,
                             recv_.data(), counts_.data(), displs_.data(), MPI_INT, 0, comm_);
  MPI_Type_free(&pair);
  const int error_class = ErrorClass(rc);
  const bool ok = (rank_ == bad || rank_ == 0)
                      ? error_class == MPI_ERR_TYPE
                      : error_class == MPI_SUCCESS || error_class == MPI_ERR_TYPE;
  EXPECT_TRUE(AllRanks(ok, comm_)) << "rank " << rank_ << " rc " << rc;
  EXPECT_TRUE(GatherStillWorks(TUW_Gatherv));
}

// MPI_IN_PLACE is the root's: on another process with a block to move it is MPI_ERR_BUFFER
// there and at the root (the error travels as poison), nobody hangs, the next call is right; an
// empty block with MPI_IN_PLACE harms nothing and passes. The linear baselines, which report a
// local error only where it happens (as MPI_Gatherv does), are left out: their root would wait.
TEST_F(Errors, InPlaceOnANonRoot) {
  if (p_ < 2) GTEST_SKIP() << "needs a non-root process";
  const int bad = p_ - 1;
  for (const char* name : {"TUW_Gatherv", "Binomial_Gatherv"}) {
    for (const auto& alg : tuw::kGathervAlgorithms) {
      if (alg.name != name) continue;
      const void* sendbuf = rank_ == bad ? MPI_IN_PLACE : send_.data();
      int rc = alg.fn(sendbuf, 2, MPI_INT, recv_.data(), counts_.data(), displs_.data(), MPI_INT, 0,
                      comm_);
      const int expected = (rank_ == bad || rank_ == 0) ? MPI_ERR_BUFFER : MPI_SUCCESS;
      EXPECT_TRUE(AllRanks(ErrorClass(rc) == expected, comm_))
          << name << " rank " << rank_ << " rc " << rc;
      EXPECT_TRUE(GatherStillWorks(alg.fn)) << name;
      // An empty block: nothing to read, no error.
      if (rank_ == 0) counts_[bad] = 0;
      rc = alg.fn(rank_ == bad ? MPI_IN_PLACE : send_.data(), rank_ == bad ? 0 : 2, MPI_INT,
                  recv_.data(), counts_.data(), displs_.data(), MPI_INT, 0, comm_);
      EXPECT_TRUE(AllRanks(rc == MPI_SUCCESS, comm_)) << name << " empty, rank " << rank_;
      EXPECT_TRUE(GatherStillWorks(alg.fn)) << name;
    }
  }
  // Scatter: the bad process and the root report it; its subtree may get poison in place of
  // data (the root, told of an empty block, poisons the sizes it cannot match: MPI_ERR_TRUNCATE),
  // so every other process succeeds with its own block or reports an error: never success with
  // wrong data.
  for (int i = 0; i < 2 * p_; ++i) recv_[i] = 100 + i;
  send_.assign(2, kFill);
  int rc = TUW_Scatterv(recv_.data(), counts_.data(), displs_.data(), MPI_INT,
                        rank_ == bad ? MPI_IN_PLACE : send_.data(), 2, MPI_INT, 0, comm_);
  bool ok = (rank_ != bad && rank_ != 0) || ErrorClass(rc) == MPI_ERR_BUFFER;
  if (rc == MPI_SUCCESS) ok = ok && send_[0] == 100 + 2 * rank_ && send_[1] == 101 + 2 * rank_;
  EXPECT_TRUE(AllRanks(ok, comm_)) << "scatter rank " << rank_ << " rc " << rc;
  EXPECT_TRUE(GatherStillWorks(TUW_Gatherv));
  // Persistent: one verdict at init, on every process, and no request.
  TUW_Request request = TUW_REQUEST_NULL;
  rc = TUW_Gatherv_init(rank_ == bad ? MPI_IN_PLACE : send_.data(), 2, MPI_INT, recv_.data(),
                        counts_.data(), displs_.data(), MPI_INT, 0, comm_, MPI_INFO_NULL, &request);
  EXPECT_TRUE(AllRanks(ErrorClass(rc) == MPI_ERR_BUFFER && request == TUW_REQUEST_NULL, comm_))
      << "init, rank " << rank_ << " rc " << rc;
}

}  // namespace
