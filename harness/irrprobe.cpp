// irrprobe: which algorithm did the MPI library run? A collective's communication tree shows in
// who has to wait for whom: one rank enters the collective late (by --delay-ms), and every rank
// whose call lasts longer than half that delay was waiting for it, directly or through the
// tree. For each operation and block size, each non-root rank is delayed once; the sets (the
// "signature") tell a linear gather (no one but the root waits) from a binomial one (a delayed
// rank's ancestors wait) from a synchronized linear one (the ranks after it in the root's order
// wait), a binomial scatter (its descendants wait) from a linear one.
// Used to prove that a tuning file makes the library select what it says (irrtune).
//
//   irrprobe [--ops MPI_Gather,MPI_Scatter,MPI_Gatherv,MPI_Scatterv] [--b 1,1000]
//            [--delay-ms 80] [--root R]
// Rank 0 prints, per operation and b: op, b, bytes per process, signature
// ("d>r,r;..." for each delayed non-root rank d the other non-root ranks that waited for it).
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "metadata.hpp"

namespace {

const std::vector<std::string> kOps{"MPI_Gather", "MPI_Scatter", "MPI_Gatherv", "MPI_Scatterv"};

struct Options {
  std::vector<std::string> ops = kOps;
  std::vector<std::int64_t> blocks{1, 1000};
  long long delay_ms = 80;
  long long repeat = 3;  // measurements per delayed rank; a rank waited if it did in most
  long long root = -1;   // default floor(p/2), the paper's root
};

int Fail(int rank, const std::string& message) {
  return irr::bench::FailOnRanks("irrprobe", rank, message);
}

// One call of the operation with b MPI_INT per process (regular counts for the v-forms too).
void run(const std::string& op, int b, int root, std::vector<int>& block, std::vector<int>& all,
         const std::vector<int>& counts, const std::vector<int>& displacements) {
  if (op == "MPI_Gather") {
    MPI_Gather(block.data(), b, MPI_INT, all.data(), b, MPI_INT, root, MPI_COMM_WORLD);
  } else if (op == "MPI_Scatter") {
    MPI_Scatter(all.data(), b, MPI_INT, block.data(), b, MPI_INT, root, MPI_COMM_WORLD);
  } else if (op == "MPI_Gatherv") {
    MPI_Gatherv(block.data(), b, MPI_INT, all.data(), counts.data(), displacements.data(), MPI_INT,
                root, MPI_COMM_WORLD);
  } else {
    MPI_Scatterv(all.data(), counts.data(), displacements.data(), MPI_INT, block.data(), b, MPI_INT,
                 root, MPI_COMM_WORLD);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Options options;
  irr::cli::Parser cli("irrprobe",
                       "irrprobe: which algorithm the MPI library ran - who waits for a late "
                       "rank\nusage: mpirun -np P irrprobe [options]   (P >= 2)");
  cli.Names("--ops", &options.ops, kOps, "operation", "operations to probe (default all four)");
  cli.Ints("--b", &options.blocks, 1, "block size",
           "elements (MPI_INT) per process (default 1,1000)");
  cli.Int("--delay-ms", &options.delay_ms, 5, 10000,
          "how late the delayed rank enters (default 80)");
  cli.Int("--root", &options.root, 0, 1000000000, "the root (default floor(p/2))");
  cli.Int("--repeat", &options.repeat, 1, 99,
          "measurements per delayed rank; a rank counts as waiting when it waited in most of "
          "them (default 3: one late wake-up on a busy machine does not change the signature)");
  std::string output, error;
  const int status = irr::bench::ExitStatusOfParse(cli.Parse(argc, argv, &output, &error),
                                                   "irrprobe", rank, output, error);
  if (status >= 0) return status;
  if (options.root >= size) {
    return Fail(rank, "--root: " + std::to_string(options.root) + " is not a rank of " +
                          std::to_string(size) + " processes");
  }
  if (size < 2) return Fail(rank, "a probe needs 2 processes, this run has 1");
  for (std::int64_t b : options.blocks) {
    if (b > (1 << 24)) {
      return Fail(rank, "--b: " + std::to_string(b) + " is more than 16777216 elements");
    }
  }
  int root = options.root >= 0 ? static_cast<int>(options.root) : size / 2;
  double threshold = options.delay_ms / 2000.0;  // seconds: half the delay
  if (rank == 0) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    std::string first_line(version, std::string(version).find('\n') == std::string::npos
                                        ? std::string(version).size()
                                        : std::string(version).find('\n'));
    std::printf("# irrprobe p=%d root=%d delay_ms=%lld library=%s\n", size, root, options.delay_ms,
                first_line.c_str());
    std::printf("op\tb\tbytes_per_process\tsignature\n");
  }
  for (const auto& op : options.ops) {
    for (std::int64_t b_long : options.blocks) {
      int b = static_cast<int>(b_long);
      std::vector<int> block(b, rank), all(static_cast<size_t>(b) * size, 0);
      std::vector<int> counts(size, b), displacements(size);
      for (int i = 0; i < size; ++i) displacements[i] = i * b;
      // Warm-up: connections and buffers are set up before anything is timed.
      for (int i = 0; i < 3; ++i) {
        run(op, b, root, block, all, counts, displacements);
      }
      std::string signature;
      for (int delayed = 0; delayed < size; ++delayed) {
        // A late root tells nothing about the tree (eager senders need not wait for it) and
        // makes the signature depend on transport buffers: only non-roots are delayed.
        if (delayed == root) continue;
        std::vector<int> waits(size, 0);
        for (long long round = 0; round < options.repeat; ++round) {
          MPI_Barrier(MPI_COMM_WORLD);
          if (rank == delayed) {
            std::this_thread::sleep_for(std::chrono::milliseconds(options.delay_ms));
          }
          double start = MPI_Wtime();
          run(op, b, root, block, all, counts, displacements);
          double waited = MPI_Wtime() - start;
          std::vector<double> times(size);
          MPI_Gather(&waited, 1, MPI_DOUBLE, times.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
          for (int r = 0; rank == 0 && r < size; ++r) waits[r] += times[r] > threshold;
        }
        if (rank == 0) {
          signature += (signature.empty() ? "" : ";") + std::to_string(delayed) + ">";
          std::string waiting;
          for (int r = 0; r < size; ++r) {
            // The root is left out: in a gather it waits for everyone, and in a scatter its
            // waiting depends on transport buffers, not on the tree.
            if (r != delayed && r != root && 2 * waits[r] > options.repeat) {
              waiting += (waiting.empty() ? "" : ",") + std::to_string(r);
            }
          }
          signature += waiting;
        }
      }
      if (rank == 0) {
        std::printf("%s\t%d\t%ld\t%s\n", op.c_str(), b, 4L * b, signature.c_str());
        std::fflush(stdout);
      }
    }
  }
  MPI_Finalize();
  return 0;
}
