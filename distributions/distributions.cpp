#include "distributions.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace irr::dist {
namespace {

// SplitMix64: tiny, fully specified, identical everywhere.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi], without modulo bias.
  std::int64_t Uniform(std::int64_t lo, std::int64_t hi) {
    const std::uint64_t range = static_cast<std::uint64_t>(hi - lo) + 1;
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % range;
    std::uint64_t x;
    do x = Next();
    while (x >= limit);
    return lo + static_cast<std::int64_t>(x % range);
  }
  // True with probability 1/rho.
  bool OneIn(double rho) { return (Next() >> 11) * 0x1.0p-53 < 1.0 / rho; }

 private:
  std::uint64_t state_;
};

std::uint64_t SeedFor(const std::string& name, std::uint64_t seed) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a: a different stream per distribution
  for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  return h ^ (seed * 0x9e3779b97f4a7c15ULL);
}

}  // namespace

const std::vector<std::string>& AllNames() {
  static const std::vector<std::string> names = {"same",
                                                 "random",
                                                 "spikes",
                                                 "decreasing",
                                                 "increasing",
                                                 "alternating",
                                                 "two_blocks",
                                                 "random_increasing",
                                                 "random_decreasing",
                                                 "bucket",
                                                 "skewed"};
  return names;
}

const std::vector<std::string>& PaperNames() {
  static const std::vector<std::string> names = {"same",       "random",      "spikes",
                                                 "decreasing", "alternating", "two_blocks"};
  return names;
}

bool IsKnown(const std::string& name) {
  const auto& all = AllNames();
  return std::find(all.begin(), all.end(), name) != all.end();
}

std::vector<std::int64_t> Generate(const std::string& name, int p, const Params& params) {
  if (!IsKnown(name)) throw std::invalid_argument("unknown distribution '" + name + "'");
  if (p < 1) throw std::invalid_argument("p must be >= 1, got " + std::to_string(p));
  const std::int64_t b = params.b;
  if (b < 1) throw std::invalid_argument("b must be >= 1, got " + std::to_string(b));
  if (!(params.rho > 1.0)) {
    throw std::invalid_argument("rho must be > 1, got " + std::to_string(params.rho));
  }
  Rng rng(SeedFor(name, params.seed));
  std::vector<std::int64_t> m(p, 0);
  for (int i = 0; i < p; ++i) {
    if (name == "same") {
      m[i] = b;
    } else if (name == "random" || name == "random_increasing" || name == "random_decreasing") {
      m[i] = rng.Uniform(1, 2 * b);
    } else if (name == "spikes") {
      m[i] = rng.OneIn(params.rho) ? static_cast<std::int64_t>(std::llround(params.rho * b)) : 1;
    } else if (name == "decreasing") {
      m[i] = (2 * b * (p - i)) / p + 1;
    } else if (name == "increasing") {
      m[i] = (2 * b * (i + 1)) / p + 1;
    } else if (name == "alternating") {
      m[i] = (i % 2 == 0) ? b + b / 2 : b - b / 2;
    } else if (name == "two_blocks") {
      const std::int64_t big = params.two_blocks_2018 ? std::int64_t{p} * b / 2 : b;
      m[i] = (i == 0 || i == p - 1) ? big : 0;
    } else if (name == "bucket") {
      m[i] = (b + 1) / 2 + rng.Uniform(1, b);
    } else if (name == "skewed") {  // the first rho processes hold p*b/rho each, the rest 1
      const auto large = static_cast<std::int64_t>(params.rho);
      m[i] = (i < large) ? static_cast<std::int64_t>(p * b / params.rho) : 1;
    }
  }
  if (name == "random_increasing") std::sort(m.begin(), m.end());
  if (name == "random_decreasing") std::sort(m.rbegin(), m.rend());
  return m;
}

Totals Summarize(const std::vector<std::int64_t>& blocks) {
  Totals t;
  for (std::int64_t x : blocks) {
    t.m += x;
    t.max_block = std::max(t.max_block, x);
  }
  t.m_padded = static_cast<std::int64_t>(blocks.size()) * t.max_block;
  return t;
}

}  // namespace irr::dist
