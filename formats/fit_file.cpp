#include "fit_file.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>

namespace irr::formats {
namespace {

std::string Number(double x) {
  char s[64];
  std::snprintf(s, sizeof s, "%.6g", x);
  return s;
}

}  // namespace

std::string FormatFit(const Fit& fit, const std::string& comment) {
  std::string text;
  std::size_t start = 0;
  while (start < comment.size()) {  // every comment line starts with '# '
    const auto end = comment.find('\n', start);
    text += "# " + comment.substr(start, end - start) + "\n";
    start = end == std::string::npos ? comment.size() : end + 1;
  }
  std::vector<std::pair<std::string, std::string>> facts, points;
  for (const auto& kv : fit.other) (kv.first == "point" ? points : facts).push_back(kv);
  for (const auto& [k, v] : facts) text += k + "=" + v + "\n";
  text += "alpha_us=" + Number(fit.alpha_us) + "\n";
  text += "beta_us_per_byte=" + Number(fit.beta_us_per_byte) + "\n";
  if (fit.has_gamma) text += "gamma_us_per_byte=" + Number(fit.gamma_us_per_byte) + "\n";
  if (fit.has_local) {
    text += "alpha_local_us=" + Number(fit.alpha_local_us) + "\n";
    text += "beta_local_us_per_byte=" + Number(fit.beta_local_us_per_byte) + "\n";
  }
  for (const auto& [k, v] : points) text += k + "=" + v + "\n";
  return text;
}

bool ReadFit(const std::string& path, Fit* fit, std::vector<std::string>* notes,
             std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read '" + path + "'";
    return false;
  }
  std::map<std::string, std::string> costs;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "alpha_us" || key == "beta_us_per_byte" || key == "gamma_us_per_byte" ||
        key == "alpha_local_us" || key == "beta_local_us_per_byte") {
      costs[key] = value;
    } else {
      fit->other.emplace_back(key, value);
    }
  }
  auto number = [&](const std::string& key, double* x) {
    const auto it = costs.find(key);
    if (it == costs.end()) {
      *error = "'" + path + "' has no " + key +
               "= line (irrfit writes one; alpha_us and beta_us_per_byte are required)";
      return false;
    }
    char* end = nullptr;
    *x = std::strtod(it->second.c_str(), &end);
    if (it->second.empty() || *end != '\0' || !std::isfinite(*x) || *x < 0) {
      *error = "'" + path + "': " + key + "=" + it->second + " is not a number >= 0";
      return false;
    }
    return true;
  };
  if (!number("alpha_us", &fit->alpha_us) || !number("beta_us_per_byte", &fit->beta_us_per_byte)) {
    return false;
  }
  const std::size_t local_keys =
      costs.count("alpha_local_us") + costs.count("beta_local_us_per_byte");
  if (local_keys == 1) {
    *error = "'" + path + "' has only one of alpha_local_us and beta_local_us_per_byte (the " +
             "costs inside a node need both, or neither)";
    return false;
  }
  fit->has_local = local_keys == 2;
  if (fit->has_local && (!number("alpha_local_us", &fit->alpha_local_us) ||
                         !number("beta_local_us_per_byte", &fit->beta_local_us_per_byte))) {
    return false;
  }
  fit->has_gamma = costs.count("gamma_us_per_byte") > 0;
  if (fit->has_gamma) return number("gamma_us_per_byte", &fit->gamma_us_per_byte);
  fit->gamma_us_per_byte = fit->beta_us_per_byte;
  notes->push_back("no gamma_us_per_byte in '" + path + "': local copies cost beta");
  return true;
}

}  // namespace irr::formats
