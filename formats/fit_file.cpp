#include "fit_file.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

namespace irr::formats {
namespace {

std::string Number(double x) {
  char s[64];
  std::snprintf(s, sizeof s, "%.6g", x);
  return s;
}

}  // namespace

std::string FormatPoint(const FitPoint& point) {
  char bytes[32];  // sizes in full: the measured curve is read back at them
  std::snprintf(bytes, sizeof bytes, "%.15g", point.bytes);
  std::string text = std::string(bytes) + " " + Number(point.one_way_us) + " " +
                     Number(point.fitted_us) + " " + Number(point.copy_us);
  if (!std::isnan(point.local_one_way_us)) text += " " + Number(point.local_one_way_us);
  return text;
}

bool ReadPoints(const Fit& fit, const std::string& path, std::vector<FitPoint>* points,
                std::string* error) {
  points->clear();
  std::size_t columns = 0;
  for (const auto& [key, value] : fit.other) {
    if (key != "point") continue;
    std::istringstream in(value);
    std::vector<double> x;
    std::string word;
    bool numbers = true;
    while (in >> word) {
      char* end = nullptr;
      x.push_back(std::strtod(word.c_str(), &end));
      numbers = numbers && *end == '\0' && std::isfinite(x.back()) && x.back() >= 0;
    }
    if (columns == 0) columns = x.size();
    const bool rising = points->empty() || x.empty() || x[0] > points->back().bytes;
    if (!numbers || (x.size() != 4 && x.size() != 5) || x.size() != columns || !rising) {
      *error = "'" + path + "': point=" + value + " is not " +
               (rising ? "4 or 5 numbers >= 0 like the lines before it (bytes, one-way us, "
                         "fitted us, copy us[, one-way us inside a node])"
                       : "a larger size than the line before it");
      return false;
    }
    points->push_back({x[0], x[1], x[2], x[3], x.size() == 5 ? x[4] : std::nan("")});
  }
  return true;
}

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
  if (fit.has_loggp) {
    text += "overhead_us=" + Number(fit.overhead_us) + "\n";
    text += "gap_us=" + Number(fit.gap_us) + "\n";
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
        key == "alpha_local_us" || key == "beta_local_us_per_byte" || key == "overhead_us" ||
        key == "gap_us") {
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
  const std::size_t loggp_keys = costs.count("overhead_us") + costs.count("gap_us");
  if (loggp_keys == 1) {
    *error = "'" + path + "' has only one of overhead_us and gap_us (the LogGP model needs " +
             "both, or neither)";
    return false;
  }
  fit->has_loggp = loggp_keys == 2;
  if (fit->has_loggp &&
      (!number("overhead_us", &fit->overhead_us) || !number("gap_us", &fit->gap_us))) {
    return false;
  }
  fit->has_gamma = costs.count("gamma_us_per_byte") > 0;
  if (fit->has_gamma) return number("gamma_us_per_byte", &fit->gamma_us_per_byte);
  fit->gamma_us_per_byte = fit->beta_us_per_byte;
  notes->push_back("no gamma_us_per_byte in '" + path + "': local copies cost beta");
  return true;
}

}  // namespace irr::formats
