// irrfit: fits the linear cost model of Traeff 2018 (a message of s bytes costs alpha + beta*s,
// a local copy gamma*s) to this machine and MPI library, from ping-pongs between two ranks over
// a range of sizes and from the self-copies (MPI_Sendrecv to oneself) the algorithms use for
// the root's own block. Where the peer is on another node and rank 0's node holds another rank,
// the same ping-pongs with that rank give the costs inside a node (alpha_local_us,
// beta_local_us_per_byte: shared memory), the second level of irrmodel's model on clusters.
// LogGP's o and g (issue 37) from bursts of small messages to the peer: o is the sender's time
// per MPI_Send of 4 bytes in a burst (its CPU, the eager send returning at once), g the time a
// burst of 64 adds per message over a burst of one, measured by the peer's reply (the rate at
// which a process can send, or take, small messages: at least o).
// Writes a key=value file that irrmodel --from-results reads.
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

#include "cli.hpp"
#include "fit_file.hpp"
#include "linear_fit.hpp"
#include "metadata.hpp"

namespace {

struct Options {
  long long peer = -1;  // -1: p - 1 (another node when ranks are placed in blocks)
  std::int64_t max_bytes = 4 << 20;
  long long sizes_per_octave = 1;
  long long nrep = 50;
  long long warmup = 5;
  std::string out;
};

const char* kFooter =
    "Model: a message of s bytes takes alpha + beta*s (half the median round trip), a copy of\n"
    "s bytes to oneself gamma*s (the slope of the median self-copy time). The fit minimizes\n"
    "relative errors, so that small and large messages count alike. When the peer is on another\n"
    "node and rank 0's node holds another rank (the lowest such, local_peer), the ping-pongs\n"
    "with it give alpha_local and beta_local: messages inside a node (irrmodel's second level).\n"
    "LogGP (irrmodel's --loggp): o = the sender's time per 4-byte MPI_Send in a burst of 64,\n"
    "g = what each message of that burst adds to its round trip (at least o); L = alpha - 2o.\n"
    "Exit status: 0 success, 2 bad arguments.";

// Median one-way time (half round trip) in microseconds between rank 0 and `peer`.
double PingPong(std::vector<char>& buffer, int bytes, int peer, const Options& o, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> times;
  for (int k = 0; k < o.warmup + o.nrep; ++k) {
    if (rank == 0) {
      const double start = MPI_Wtime();
      MPI_Send(buffer.data(), bytes, MPI_BYTE, peer, 1, comm);
      MPI_Recv(buffer.data(), bytes, MPI_BYTE, peer, 2, comm, MPI_STATUS_IGNORE);
      if (k >= o.warmup) times.push_back((MPI_Wtime() - start) * 1e6 / 2);
    } else if (rank == peer) {
      MPI_Recv(buffer.data(), bytes, MPI_BYTE, 0, 1, comm, MPI_STATUS_IGNORE);
      MPI_Send(buffer.data(), bytes, MPI_BYTE, 0, 2, comm);
    }
  }
  return rank == 0 ? irr::fit::Median(times) : 0;
}

// Median time in microseconds of copying `bytes` to oneself the way libtuwcoll copies the
// root's own block (MPI_Sendrecv to self).
double SelfCopy(std::vector<char>& from, std::vector<char>& to, int bytes, const Options& o,
                MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<double> times;
  for (int k = 0; k < o.warmup + o.nrep; ++k) {
    const double start = MPI_Wtime();
    MPI_Sendrecv(from.data(), bytes, MPI_BYTE, rank, 3, to.data(), bytes, MPI_BYTE, rank, 3, comm,
                 MPI_STATUS_IGNORE);
    if (k >= o.warmup) times.push_back((MPI_Wtime() - start) * 1e6);
  }
  return irr::fit::Median(times);
}

// LogGP's o and g (see the top) between rank 0 and `peer`, in microseconds (rank 0 only).
struct Burst {
  double overhead_us = 0, gap_us = 0;
};
Burst MeasureBurst(int peer, const Options& o, MPI_Comm comm) {
  constexpr int kLong = 64;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int word = 0;
  // Median round trip of a burst of n messages answered by one, and the sender's time per send.
  auto burst = [&](int n, double* per_send) {
    std::vector<double> round_trips, sends;
    for (int k = 0; k < o.warmup + o.nrep; ++k) {
      MPI_Barrier(comm);
      if (rank == 0) {
        const double start = MPI_Wtime();
        for (int i = 0; i < n; ++i) MPI_Send(&word, 1, MPI_INT, peer, 4, comm);
        const double sent = MPI_Wtime();
        MPI_Recv(&word, 1, MPI_INT, peer, 5, comm, MPI_STATUS_IGNORE);
        if (k >= o.warmup) {
          round_trips.push_back((MPI_Wtime() - start) * 1e6);
          sends.push_back((sent - start) * 1e6 / n);
        }
      } else if (rank == peer) {
        for (int i = 0; i < n; ++i) MPI_Recv(&word, 1, MPI_INT, 0, 4, comm, MPI_STATUS_IGNORE);
        MPI_Send(&word, 1, MPI_INT, 0, 5, comm);
      }
    }
    if (per_send != nullptr) *per_send = rank == 0 ? irr::fit::Median(sends) : 0;
    return rank == 0 ? irr::fit::Median(round_trips) : 0;
  };
  Burst result;
  const double one = burst(1, nullptr);
  const double many = burst(kLong, &result.overhead_us);
  result.gap_us = std::max(result.overhead_us, (many - one) / (kLong - 1));
  return result;
}

// The sizes measured: 4 bytes, then sizes_per_octave geometric steps to each next power of two
// (rounded to bytes), up to max_bytes. More than one step an octave shows where a library's or a
// network's cost per byte changes between two powers of two (a protocol switch; SimGrid's
// smpi/bw-factor steps at 9376 bytes and others), which the LogGP model's measured curve then
// follows (irrmodel, and libtuwcoll's choice of a small TUWk_Scatterv call's tree).
std::vector<long long> MessageSizes(std::int64_t max_bytes, int sizes_per_octave) {
  std::vector<long long> sizes;
  for (long long octave = 4; octave <= max_bytes; octave *= 2) {
    for (int step = 0; step < sizes_per_octave; ++step) {
      const long long bytes =
          std::llround(octave * std::exp2(static_cast<double>(step) / sizes_per_octave));
      if (bytes > max_bytes) break;
      if (sizes.empty() || bytes > sizes.back()) sizes.push_back(bytes);
    }
  }
  return sizes;
}

int Fail(int rank, const std::string& message) {
  return irr::bench::FailOnRanks("irrfit", rank, message);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0, p = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  Options o;
  irr::cli::Parser cli("irrfit",
                       "irrfit: fit alpha, beta and gamma of the linear cost model from "
                       "ping-pongs\nusage: mpirun -np P irrfit [options]   (P >= 2)");
  cli.Int("--peer", &o.peer, 1, 1000000000,
          "the rank that ping-pongs with rank 0, 1 <= R < P (default P-1)");
  cli.Size("--max-bytes", &o.max_bytes,
           "largest message, 64 .. 1G (default 4M); sizes from 4 bytes up to it");
  cli.Int("--sizes-per-octave", &o.sizes_per_octave, 1, 16,
          "sizes measured per doubling, 1 .. 16 (default 1: the powers of two)");
  cli.Int("--nrep", &o.nrep, 3, 1000000, "timed round trips per size (default 50)");
  cli.Int("--warmup", &o.warmup, 0, 1000000, "untimed round trips per size (default 5)");
  cli.Text("--out", &o.out, "write the fit (key=value lines) to FILE");
  cli.Footer(kFooter);
  std::string output, error;
  const int status = irr::bench::ExitStatusOfParse(cli.Parse(argc, argv, &output, &error), "irrfit",
                                                   rank, output, error);
  if (status >= 0) return status;
  if (o.max_bytes < 64 || o.max_bytes > (1LL << 30)) {
    return Fail(rank, "--max-bytes: '" + std::to_string(o.max_bytes) +
                          "' is not a size in 64 .. 1073741824");
  }
  if (p < 2) return Fail(rank, "a ping-pong needs 2 processes, this run has " + std::to_string(p));
  const int peer = o.peer < 0 ? p - 1 : static_cast<int>(o.peer);
  if (peer >= p) {
    return Fail(rank, "--peer: " + std::to_string(peer) + " is not a rank of this run (1.." +
                          std::to_string(p - 1) + ")");
  }
  std::FILE* out = nullptr;
  int bad = 0;
  if (rank == 0 && !o.out.empty()) {
    out = std::fopen(o.out.c_str(), "w");
    bad = out == nullptr;
  }
  MPI_Bcast(&bad, 1, MPI_INT, 0, comm);
  if (bad) return Fail(rank, "--out: cannot write '" + o.out + "': " + std::strerror(errno));

  // Every rank's node (processor name): is the peer on rank 0's node, and which rank shares it?
  std::string name = irr::bench::ProcessorName();
  name.resize(MPI_MAX_PROCESSOR_NAME, '\0');
  std::vector<char> names(static_cast<std::size_t>(p) * MPI_MAX_PROCESSOR_NAME);
  MPI_Allgather(name.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, names.data(), MPI_MAX_PROCESSOR_NAME,
                MPI_CHAR, comm);
  auto on_node_of_0 = [&](int r) {
    return std::strncmp(names.data(),
                        names.data() + static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME,
                        MPI_MAX_PROCESSOR_NAME) == 0;
  };
  const bool same_node = on_node_of_0(peer);
  int local_peer = -1;  // the lowest other rank on rank 0's node, where the peer is not on it
  for (int r = 1; r < p && !same_node && local_peer < 0; ++r) {
    if (on_node_of_0(r)) local_peer = r;
  }

  std::vector<char> buffer(static_cast<std::size_t>(o.max_bytes), 'x');
  std::vector<char> copy(rank == 0 ? buffer.size() : 0);
  std::vector<double> sizes, one_way, local_one_way, copy_times;
  for (const long long bytes : MessageSizes(o.max_bytes, static_cast<int>(o.sizes_per_octave))) {
    const double t = PingPong(buffer, static_cast<int>(bytes), peer, o, comm);
    const double local =
        local_peer > 0 ? PingPong(buffer, static_cast<int>(bytes), local_peer, o, comm) : 0;
    if (rank == 0) {
      sizes.push_back(static_cast<double>(bytes));
      one_way.push_back(t);
      local_one_way.push_back(local);
      copy_times.push_back(SelfCopy(buffer, copy, static_cast<int>(bytes), o, comm));
    }
  }
  const Burst burst = MeasureBurst(peer, o, comm);
  MPI_Barrier(comm);
  if (rank == 0) {
    const irr::fit::Line message = irr::fit::RelativeLeastSquares(sizes, one_way);
    const irr::fit::Line local_copy = irr::fit::RelativeLeastSquares(sizes, copy_times);
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    auto num = [](double x) {
      char text[64];
      std::snprintf(text, sizeof text, "%.6g", x);
      return std::string(text);
    };
    irr::formats::Fit fit;
    fit.alpha_us = message.intercept;
    fit.beta_us_per_byte = message.slope;
    fit.gamma_us_per_byte = local_copy.slope;
    fit.has_gamma = true;
    fit.overhead_us = burst.overhead_us;
    fit.gap_us = burst.gap_us;
    fit.has_loggp = true;
    irr::fit::Line inside_node;
    if (local_peer > 0) {
      inside_node = irr::fit::RelativeLeastSquares(sizes, local_one_way);
      fit.alpha_local_us = inside_node.intercept;
      fit.beta_local_us_per_byte = inside_node.slope;
      fit.has_local = true;
    }
    fit.other = {{"tool", "irrfit"},
                 {"version", irr::cli::VersionLine("irrfit")},
                 {"library", irr::bench::LibraryVersion()},
                 {"hostname", host},
                 {"date", irr::bench::Now()},
                 {"p", std::to_string(p)},
                 {"peer", std::to_string(peer)},
                 {"same_node", same_node ? "yes" : "no"},
                 {"nrep", std::to_string(o.nrep)},
                 {"sizes_per_octave", std::to_string(o.sizes_per_octave)},
                 {"copy_overhead_us", num(local_copy.intercept)},
                 {"max_relative_residual", num(message.max_relative_residual)}};
    if (local_peer > 0) {
      fit.other.emplace_back("local_peer", std::to_string(local_peer));
      fit.other.emplace_back("local_max_relative_residual", num(inside_node.max_relative_residual));
    }
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      irr::formats::FitPoint point{sizes[i], one_way[i],
                                   message.intercept + message.slope * sizes[i], copy_times[i]};
      if (local_peer > 0) point.local_one_way_us = local_one_way[i];
      fit.other.emplace_back("point", irr::formats::FormatPoint(point));
    }
    const std::string text = irr::formats::FormatFit(
        fit,
        "irrfit: linear cost model fitted by ping-pong; t(s bytes) = alpha + beta*s, copy "
        "gamma*s;\nLogGP's o (overhead_us) and g (gap_us) from bursts of 4-byte messages\n'point' "
        "lines: bytes, measured one-way us, fitted us, measured self-copy us" +
            std::string(local_peer > 0 ? ", measured one-way us inside a node (local_peer)" : ""));
    std::fputs(text.c_str(), stdout);
    if (message.max_relative_residual > 0.5) {
      std::fprintf(stderr,
                   "irrfit: note: the line misses a measured size by %.0f%% (protocol switches "
                   "or a busy machine); predictions inherit that error\n",
                   100 * message.max_relative_residual);
    }
    if (out != nullptr) {
      std::fputs(text.c_str(), out);
      std::fclose(out);
      std::fprintf(stderr, "irrfit: wrote %s\n", o.out.c_str());
    }
  }
  MPI_Finalize();
  return 0;
}
