// fit.txt, the cost parameters of the linear model measured on a machine (irrfit writes it,
// irrmodel --from-results reads it): '# ' comment lines and key=value lines. Costs are in
// microseconds and microseconds per byte. Required: alpha_us, beta_us_per_byte; optional:
// gamma_us_per_byte (the local copy; beta when missing); alpha_local_us and
// beta_local_us_per_byte together (a message between two processes of one node, where alpha_us
// and beta_us_per_byte were measured across nodes); anything else (facts of the run, 'point'
// lines with the measurements) is kept as it is.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace irr::formats {

struct Fit {
  double alpha_us = 0;
  double beta_us_per_byte = 0;
  double gamma_us_per_byte = 0;
  bool has_gamma = false;
  double alpha_local_us = 0;
  double beta_local_us_per_byte = 0;
  bool has_local = false;
  // Everything else, in order: facts (tool, library, hostname, ...) and 'point' lines.
  std::vector<std::pair<std::string, std::string>> other;
};

std::string FormatFit(const Fit& fit, const std::string& comment);

// Reads `path`. False with *error naming the file and the bad key; a missing gamma is a note
// ("local copies cost beta") and gamma = beta; one of the two local keys without the other is an
// error.
bool ReadFit(const std::string& path, Fit* fit, std::vector<std::string>* notes,
             std::string* error);

}  // namespace irr::formats
