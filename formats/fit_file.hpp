// fit.txt, the cost parameters of the linear model measured on a machine (irrfit writes it,
// irrmodel --from-results reads it): '# ' comment lines and key=value lines. Costs are in
// microseconds and microseconds per byte. Required: alpha_us, beta_us_per_byte; optional:
// gamma_us_per_byte (the local copy; beta when missing); alpha_local_us and
// beta_local_us_per_byte together (a message between two processes of one node, where alpha_us
// and beta_us_per_byte were measured across nodes); overhead_us and gap_us together (LogGP's o
// and g: a process's CPU time per message and the least time between two of its messages, from
// irrfit's bursts; the LogGP model's L is alpha - 2o); anything else (facts of the run, 'point'
// lines with the measurements) is kept as it is.
#pragma once

#include <cmath>
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
  double overhead_us = 0;
  double gap_us = 0;
  bool has_loggp = false;
  // Everything else, in order: facts (tool, library, hostname, ...) and 'point' lines.
  std::vector<std::pair<std::string, std::string>> other;
};

std::string FormatFit(const Fit& fit, const std::string& comment);

// One 'point' line (a value of Fit::other): a message size irrfit measured - bytes, the measured
// one-way time, the fitted line's time, the measured self-copy time, and where irrfit measured
// inside a node too (alpha_local_us), the measured one-way time there; all in microseconds.
struct FitPoint {
  double bytes = 0, one_way_us = 0, fitted_us = 0, copy_us = 0;
  double local_one_way_us = std::nan("");  // NaN: not measured
};
std::string FormatPoint(const FitPoint& point);
// The fit's point lines in file order. False with *error naming `path` and the line unless each
// has four or five numbers >= 0, all the same count, with rising sizes.
bool ReadPoints(const Fit& fit, const std::string& path, std::vector<FitPoint>* points,
                std::string* error);

// Reads `path`. False with *error naming the file and the bad key; a missing gamma is a note
// ("local copies cost beta") and gamma = beta; one of the two local keys without the other is an
// error.
bool ReadFit(const std::string& path, Fit* fit, std::vector<std::string>* notes,
             std::string* error);

}  // namespace irr::formats
