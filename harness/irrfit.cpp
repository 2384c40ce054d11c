// irrfit: fits the linear cost model of Traeff 2018 (a message of s bytes costs alpha + beta*s,
// a local copy gamma*s) to this machine and MPI library, from ping-pongs between two ranks over
// a range of sizes and from the self-copies (MPI_Sendrecv to oneself) the algorithms use for
// the root's own block. Writes a key=value file that irrmodel --from-results reads.
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

#include "linear_fit.hpp"

namespace {

struct Options {
  int peer = -1;  // -1: p - 1 (another node when ranks are placed in blocks)
  long long max_bytes = 4 << 20;
  int nrep = 50;
  int warmup = 5;
  std::string out;
  bool help = false;
};

const char* kHelp =
    "irrfit: fit alpha, beta and gamma of the linear cost model from ping-pongs\n"
    "usage: mpirun -np P irrfit [options]   (P >= 2)\n\n"
    "  --peer R         the rank that ping-pongs with rank 0, 1 <= R < P (default P-1)\n"
    "  --max-bytes N    largest message, sizes are powers of two from 4 (default 4194304)\n"
    "  --nrep N         timed round trips per size, >= 3 (default 50)\n"
    "  --warmup N       untimed round trips per size, >= 0 (default 5)\n"
    "  --out FILE       write the fit (key=value lines) to FILE\n"
    "  --help\n\n"
    "Model: a message of s bytes takes alpha + beta*s (half the median round trip), a copy of\n"
    "s bytes to oneself gamma*s (the slope of the median self-copy time). The fit minimizes\n"
    "relative errors, so that small and large messages count alike.\n"
    "Exit status: 0 success, 2 bad arguments.\n";

bool ParseInt(const std::string& s, long long* x) {
  char* end = nullptr;
  *x = std::strtoll(s.c_str(), &end, 10);
  return !s.empty() && *end == '\0';
}

std::string Parse(int argc, char** argv, Options* o) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--help" || flag == "-h") {
      o->help = true;
      continue;
    }
    if (flag != "--peer" && flag != "--max-bytes" && flag != "--nrep" && flag != "--warmup" &&
        flag != "--out") {
      return "unknown option '" + flag + "'; see --help";
    }
    if (i + 1 >= argc) return flag + " needs a value";
    const std::string v = argv[++i];
    long long x = 0;
    if (flag == "--out") {
      if (v.empty()) return "--out: empty file name";
      o->out = v;
    } else if (flag == "--peer") {
      if (!ParseInt(v, &x) || x < 1 || x > 1000000000)
        return "--peer: '" + v + "' is not a rank >= 1";
      o->peer = static_cast<int>(x);
    } else if (flag == "--max-bytes") {
      if (!ParseInt(v, &x) || x < 64 || x > (1LL << 30))
        return "--max-bytes: '" + v + "' is not a size in 64 .. 1073741824";
      o->max_bytes = x;
    } else {
      const long long min = flag == "--nrep" ? 3 : 0;
      if (!ParseInt(v, &x) || x < min || x > 1000000)
        return flag + ": '" + v + "' is not an integer >= " + std::to_string(min);
      (flag == "--nrep" ? o->nrep : o->warmup) = static_cast<int>(x);
    }
  }
  return "";
}

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

std::string ProcessorName() {
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  int length = 0;
  MPI_Get_processor_name(name, &length);
  return std::string(name, strnlen(name, sizeof name));
}

std::string LibraryVersion() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(version, &length);
  std::string s(version, strnlen(version, length));
  return s.substr(0, s.find('\n'));
}

int Fail(int rank, const std::string& message) {
  if (rank == 0) std::fprintf(stderr, "irrfit: error: %s\n", message.c_str());
  MPI_Finalize();
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0, p = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  Options o;
  const std::string error = Parse(argc, argv, &o);
  if (!error.empty()) return Fail(rank, error);
  if (o.help) {
    if (rank == 0) std::fputs(kHelp, stdout);
    MPI_Finalize();
    return 0;
  }
  if (p < 2) return Fail(rank, "a ping-pong needs 2 processes, this run has " + std::to_string(p));
  const int peer = o.peer < 0 ? p - 1 : o.peer;
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

  // Is the peer on rank 0's node? The fit describes that link only.
  std::string name = ProcessorName();
  name.resize(MPI_MAX_PROCESSOR_NAME, '\0');
  std::string peer_name = name;
  if (rank == peer) MPI_Send(name.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, 4, comm);
  if (rank == 0) {
    MPI_Recv(peer_name.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, peer, 4, comm, MPI_STATUS_IGNORE);
  }
  const bool same_node = std::strcmp(name.c_str(), peer_name.c_str()) == 0;

  std::vector<char> buffer(static_cast<std::size_t>(o.max_bytes), 'x');
  std::vector<char> copy(rank == 0 ? buffer.size() : 0);
  std::vector<double> sizes, one_way, copy_sizes, copy_times;
  for (long long bytes = 4; bytes <= o.max_bytes; bytes *= 2) {
    const double t = PingPong(buffer, static_cast<int>(bytes), peer, o, comm);
    if (rank == 0) {
      sizes.push_back(static_cast<double>(bytes));
      one_way.push_back(t);
      copy_sizes.push_back(static_cast<double>(bytes));
      copy_times.push_back(SelfCopy(buffer, copy, static_cast<int>(bytes), o, comm));
    }
  }
  MPI_Barrier(comm);
  if (rank == 0) {
    const irr::fit::Line message = irr::fit::RelativeLeastSquares(sizes, one_way);
    const irr::fit::Line local_copy = irr::fit::RelativeLeastSquares(copy_sizes, copy_times);
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    char stamp[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    std::string text =
        "# irrfit: linear cost model fitted by ping-pong; t(s bytes) = alpha + beta*s, copy "
        "gamma*s\n"
        "# 'point' lines: bytes, measured one-way us, fitted us, measured self-copy us\n";
    auto put = [&](const std::string& key, const std::string& value) {
      text += key + "=" + value + "\n";
    };
    auto num = [](double x) {
      char s[64];
      std::snprintf(s, sizeof s, "%.6g", x);
      return std::string(s);
    };
    put("tool", "irrfit");
    put("library", LibraryVersion());
    put("hostname", host);
    put("date", stamp);
    put("p", std::to_string(p));
    put("peer", std::to_string(peer));
    put("same_node", same_node ? "yes" : "no");
    put("nrep", std::to_string(o.nrep));
    put("alpha_us", num(message.intercept));
    put("beta_us_per_byte", num(message.slope));
    put("gamma_us_per_byte", num(local_copy.slope));
    put("copy_overhead_us", num(local_copy.intercept));
    put("max_relative_residual", num(message.max_relative_residual));
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      put("point", num(sizes[i]) + " " + num(one_way[i]) + " " +
                       num(message.intercept + message.slope * sizes[i]) + " " +
                       num(copy_times[i]));
    }
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
