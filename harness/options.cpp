#include "options.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <sstream>

#include "distributions.hpp"

namespace irr::bench {
namespace {

std::string Join(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& x : items) s += (s.empty() ? "" : ",") + x;
  return s;
}

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) items.push_back(item);
  if (!text.empty() && text.back() == ',') items.push_back("");
  return items;
}

bool ParseInt(const std::string& text, long long* value) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  *value = std::strtoll(text.c_str(), &end, 10);
  return errno == 0 && *end == '\0';
}

bool ParseDouble(const std::string& text, double* value) {
  if (text.empty()) return false;
  char* end = nullptr;
  *value = std::strtod(text.c_str(), &end);
  return *end == '\0';
}

// "64G", "512M", "1000000": bytes.
bool ParseBytes(const std::string& text, std::int64_t* bytes) {
  if (text.empty()) return false;
  std::string digits = text;
  std::int64_t scale = 1;
  const char unit = static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
  if (unit == 'K' || unit == 'M' || unit == 'G' || unit == 'T') {
    digits.pop_back();
    scale = unit == 'K' ? 1LL << 10 : unit == 'M' ? 1LL << 20 : unit == 'G' ? 1LL << 30 : 1LL << 40;
  }
  long long v = 0;
  if (!ParseInt(digits, &v) || v <= 0) return false;
  *bytes = v * scale;
  return true;
}

bool TestOpsEnabled() {
  const char* env = std::getenv("IRRBENCH_TEST_OPS");
  return env != nullptr && std::string(env) == "1";
}

}  // namespace

const std::vector<std::string>& KnownOps() {
  static const std::vector<std::string> ops = {"MPI_Gather",      "MPI_Gatherv",
                                               "TUW_Gatherv",     "Guideline2_Gather",
                                               "Linear_Gatherv",  "Binomial_Gatherv",
                                               "MPI_Scatter",     "MPI_Scatterv",
                                               "TUW_Scatterv",    "Guideline2_Scatter",
                                               "Linear_Scatterv", "Binomial_Scatterv",
                                               "Empty",           "Barrier"};
  return ops;
}

const std::vector<std::string>& TestOnlyOps() {
  static const std::vector<std::string> ops = {"TEST_Broken_Gatherv"};
  return ops;
}

std::string HelpText() {
  std::ostringstream h;
  h << "irrbench: benchmark irregular gather/scatter (Traeff 2017, Section 5)\n"
       "usage: mpirun -np P irrbench [options]\n\n"
       "  --ops LIST        operations (default: the 12 gather/scatter ops)\n"
       "                    valid: "
    << Join(KnownOps())
    << "\n"
       "                    (Empty and Barrier measure the harness itself)\n"
       "  --dists LIST      distributions (default: "
    << Join(dist::PaperNames())
    << ")\n"
       "                    valid: "
    << Join(dist::AllNames())
    << "\n"
       "  --b LIST          average block sizes in MPI_INT elements, each >= 1\n"
       "                    (default: 1,10,100,1000,10000)\n"
       "  --nrep N          timed repetitions per case, >= 1 (default: 75)\n"
       "  --warmup N        untimed calls before them, >= 0 (default: 10)\n"
       "  --root R          root rank, 0 <= R < p (default: floor(p/2))\n"
       "  --seed S          seed of the random distributions (default: 1)\n"
       "  --rho X           spikes factor / skewed count, > 1 (default: 5)\n"
       "  --sync MODE       barrier: MPI_Barrier before each repetition, time = slowest\n"
       "                    process's end - start (default); window: start all processes\n"
       "                    at a common time on offset-corrected clocks, time = latest end -\n"
       "                    common start, late starts flagged in column 'late'\n"
       "  --out FILE        CSV output (default: results/local/<timestamp>/raw.csv)\n"
       "  --resume          skip cases already complete in FILE, append the rest\n"
       "  --no-validate     skip the untimed correctness check before each case\n"
       "  --max-mem BYTES   per-process memory a case may use, e.g. 8G\n"
       "                    (default: a quarter of physical memory)\n"
       "  --help            this text\n\n"
       "Exit status: 0 success, 1 a validation failure, 2 bad arguments.\n";
  return h.str();
}

std::string ParseOptions(const std::vector<std::string>& args, Options* o) {
  o->ops = {KnownOps().begin(), KnownOps().begin() + 12};
  o->dists = dist::PaperNames();
  std::vector<std::string> valid_ops = KnownOps();
  if (TestOpsEnabled())
    valid_ops.insert(valid_ops.end(), TestOnlyOps().begin(), TestOnlyOps().end());
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    auto value = [&](std::string* v) {
      if (i + 1 >= args.size()) return false;
      *v = args[++i];
      return true;
    };
    std::string v;
    if (flag == "--help" || flag == "-h") {
      o->help = true;
    } else if (flag == "--resume") {
      o->resume = true;
    } else if (flag == "--no-validate") {
      o->validate = false;
    } else if (flag == "--ops" || flag == "--dists" || flag == "--b" || flag == "--nrep" ||
               flag == "--warmup" || flag == "--root" || flag == "--seed" || flag == "--rho" ||
               flag == "--sync" || flag == "--out" || flag == "--max-mem") {
      if (!value(&v)) return flag + " needs a value";
      if (flag == "--ops" || flag == "--dists") {
        const auto& valid = flag == "--ops" ? valid_ops : dist::AllNames();
        std::vector<std::string> items = SplitList(v);
        if (items.empty()) return flag + ": empty list; valid: " + Join(valid);
        for (const auto& item : items) {
          if (std::find(valid.begin(), valid.end(), item) == valid.end()) {
            return flag + ": unknown " + (flag == "--ops" ? "operation" : "distribution") + " '" +
                   item + "'; valid: " + Join(valid);
          }
        }
        (flag == "--ops" ? o->ops : o->dists) = items;
      } else if (flag == "--b") {
        o->b.clear();
        std::vector<std::string> items = SplitList(v);
        if (items.empty()) return "--b: empty list; give block sizes >= 1, e.g. 1,10,100";
        for (const auto& item : items) {
          long long x = 0;
          if (!ParseInt(item, &x) || x < 1) {
            return "--b: '" + item + "' is not a block size >= 1 (list like 1,10,100)";
          }
          o->b.push_back(x);
        }
      } else if (flag == "--nrep" || flag == "--warmup" || flag == "--root") {
        long long x = 0;
        const long long min = flag == "--nrep" ? 1 : 0;
        if (!ParseInt(v, &x) || x < min || x > 100000000) {
          return flag + ": '" + v + "' is not an integer >= " + std::to_string(min);
        }
        if (flag == "--nrep") o->nrep = static_cast<int>(x);
        if (flag == "--warmup") o->warmup = static_cast<int>(x);
        if (flag == "--root") o->root = static_cast<long>(x);
      } else if (flag == "--seed") {
        long long x = 0;
        if (!ParseInt(v, &x) || x < 0) return "--seed: '" + v + "' is not an integer >= 0";
        o->seed = static_cast<std::uint64_t>(x);
      } else if (flag == "--rho") {
        double x = 0;
        if (!ParseDouble(v, &x) || !(x > 1.0)) return "--rho: '" + v + "' is not a number > 1";
        o->rho = x;
      } else if (flag == "--sync") {
        if (v != "barrier" && v != "window") {
          return "--sync: unknown method '" + v + "'; valid: barrier,window";
        }
        o->sync = v;
      } else if (flag == "--out") {
        if (v.empty()) return "--out: empty file name";
        o->out = v;
      } else if (flag == "--max-mem") {
        if (!ParseBytes(v, &o->max_mem)) {
          return "--max-mem: '" + v + "' is not a positive size (bytes, or with K/M/G/T)";
        }
      }
    } else {
      return "unknown option '" + flag + "'; see --help";
    }
  }
  return "";
}

}  // namespace irr::bench
