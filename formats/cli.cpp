#include "cli.hpp"

// SimGrid's compiler wrapper (smpicxx) defines a macro exit(x); CLI11 has a member of that name.
#ifdef exit
#undef exit
#endif
#include <CLI/CLI.hpp>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "version.inc"  // generated at build time: IRRCOLL_VERSION, IRRCOLL_GIT_COMMIT

namespace irr::cli {
namespace {

std::vector<std::string> SplitList(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  for (char ch : text) {
    if (ch == ',') {
      items.push_back(item);
      item.clear();
    } else {
      item += ch;
    }
  }
  items.push_back(item);
  return items;
}

std::string Quoted(const std::string& text) { return "'" + text + "'"; }

}  // namespace

std::string ProjectVersion() { return IRRCOLL_VERSION; }
std::string GitCommit() { return IRRCOLL_GIT_COMMIT; }
std::string VersionLine(const std::string& tool) {
  return tool + " " + ProjectVersion() + " (git " + GitCommit() + ")";
}

std::string Join(const std::vector<std::string>& items, const char* separator) {
  std::string s;
  for (const auto& x : items) s += (s.empty() ? "" : separator) + x;
  return s;
}

std::string ParseInt(const std::string& text, long long min, long long max, long long* value) {
  errno = 0;
  char* end = nullptr;
  const long long x = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || x < min || x > max) {
    return Quoted(text) + " is not an integer >= " + std::to_string(min) +
           (max < (1LL << 62) ? " and <= " + std::to_string(max) : "");
  }
  *value = x;
  return "";
}

std::string ParseNumber(const std::string& text, double min, bool min_exclusive, double* value) {
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(x) || x < min || (min_exclusive && x == min)) {
    char bound[64];
    std::snprintf(bound, sizeof bound, "%g", min);
    return Quoted(text) + " is not a number " + (min_exclusive ? "> " : ">= ") + bound;
  }
  *value = x;
  return "";
}

std::string ParseSize(const std::string& text, std::int64_t* bytes) {
  std::string digits = text;
  std::int64_t scale = 1;
  const char unit = text.empty()
                        ? '\0'
                        : static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
  if (unit == 'K' || unit == 'M' || unit == 'G' || unit == 'T') {
    digits.pop_back();
    scale = std::int64_t{1} << (unit == 'K' ? 10 : unit == 'M' ? 20 : unit == 'G' ? 30 : 40);
  }
  long long v = 0;
  if (!ParseInt(digits, 1, (std::int64_t{1} << 62) / scale, &v).empty()) {
    return Quoted(text) + " is not a positive size (bytes, or with K/M/G/T, e.g. 8G)";
  }
  *bytes = v * scale;
  return "";
}

std::string ParseNameList(const std::string& text, const std::vector<std::string>& valid,
                          const std::string& what, std::vector<std::string>* names) {
  std::vector<std::string> items;
  for (const auto& item : SplitList(text)) {
    bool known = false;
    for (const auto& name : valid) known = known || name == item;
    if (!known) return "unknown " + what + " " + Quoted(item) + "; valid: " + Join(valid);
    items.push_back(item);
  }
  *names = items;
  return "";
}

std::string ParseIntList(const std::string& text, long long min, const std::string& what,
                         std::vector<std::int64_t>* values) {
  std::vector<std::int64_t> items;
  for (const auto& item : SplitList(text)) {
    long long x = 0;
    if (!ParseInt(item, min, 1LL << 62, &x).empty()) {
      return Quoted(item) + " is not " + what + " >= " + std::to_string(min) + " (a list like " +
             std::to_string(min) + "," + std::to_string(10 * min) + ")";
    }
    items.push_back(x);
  }
  *values = items;
  return "";
}

Parser::Parser(const std::string& tool, const std::string& description)
    : tool_(tool), app_(std::make_unique<CLI::App>(description, tool)) {
  app_->set_version_flag("--version", VersionLine(tool), "Print the version and git commit");
  app_->get_formatter()->column_width(30);
}

Parser::~Parser() = default;

namespace {
// Registers `flag` taking one string, checked by `check` (returns "" or the reason).
template <typename Check>
void AddChecked(CLI::App& app, const std::string& flag, const std::string& type,
                const std::string& help, Check check) {
  app.add_option_function<std::string>(
         flag,
         [flag, check](const std::string& text) {
           const std::string reason = check(text);
           if (!reason.empty()) throw CLI::ValidationError(flag, reason);
         },
         help)
      ->type_name(type)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // later flags override earlier
}
}  // namespace

void Parser::Int(const std::string& flag, long long* value, long long min, long long max,
                 const std::string& help) {
  AddChecked(*app_, flag, "N", help,
             [=](const std::string& t) { return ParseInt(t, min, max, value); });
}

void Parser::Number(const std::string& flag, double* value, double min, bool min_exclusive,
                    const std::string& help) {
  AddChecked(*app_, flag, "X", help,
             [=](const std::string& t) { return ParseNumber(t, min, min_exclusive, value); });
}

void Parser::Size(const std::string& flag, std::int64_t* bytes, const std::string& help) {
  AddChecked(*app_, flag, "BYTES", help, [=](const std::string& t) { return ParseSize(t, bytes); });
}

void Parser::Names(const std::string& flag, std::vector<std::string>* names,
                   const std::vector<std::string>& valid, const std::string& what,
                   const std::string& help) {
  AddChecked(*app_, flag, "LIST", help + " (valid: " + Join(valid) + ")",
             [=](const std::string& t) { return ParseNameList(t, valid, what, names); });
}

void Parser::Ints(const std::string& flag, std::vector<std::int64_t>* values, long long min,
                  const std::string& what, const std::string& help) {
  AddChecked(*app_, flag, "LIST", help,
             [=](const std::string& t) { return ParseIntList(t, min, what, values); });
}

void Parser::Choice(const std::string& flag, std::string* value,
                    const std::vector<std::string>& valid, const std::string& what,
                    const std::string& help) {
  AddChecked(*app_, flag, Join(valid, "|"), help, [=](const std::string& t) {
    for (const auto& v : valid) {
      if (v == t) {
        *value = t;
        return std::string();
      }
    }
    return "unknown " + what + " " + Quoted(t) + "; valid: " + Join(valid);
  });
}

void Parser::Text(const std::string& flag, std::string* value, const std::string& help) {
  AddChecked(*app_, flag, "TEXT", help, [=](const std::string& t) {
    if (t.empty()) return std::string("empty value");
    *value = t;
    return std::string();
  });
}

void Parser::Flag(const std::string& flag, bool* value, const std::string& help) {
  app_->add_flag(flag, *value, help);
}

void Parser::Footer(const std::string& text) { app_->footer(text); }

bool Parser::Given(const std::string& flag) const { return app_->count(flag) > 0; }

Parser::Outcome Parser::Parse(int argc, char** argv, std::string* output, std::string* error) {
  try {
    app_->parse(argc, argv);
    return Outcome::kRun;
  } catch (const CLI::CallForHelp&) {
    *output = app_->help();
    return Outcome::kExitSuccess;
  } catch (const CLI::CallForVersion& e) {
    *output = std::string(e.what()) + "\n";
    return Outcome::kExitSuccess;
  } catch (const CLI::ExtrasError&) {
    const auto extras = app_->remaining();
    const std::string first = extras.empty() ? "?" : extras.front();
    *error = (first.rfind("-", 0) == 0 ? "unknown option " : "unexpected argument ") +
             Quoted(first) + "; see --help";
    return Outcome::kExitError;
  } catch (const CLI::ArgumentMismatch& e) {
    // CLI11: "--nrep: 1 required TEXT missing" (no value) or "At Most 1 ..." (given twice).
    const std::string what = e.what();
    const std::string flag = what.substr(0, what.find(':'));
    *error = what.find("missing") != std::string::npos ? flag + " needs a value"
                                                       : flag + " is given more than once";
    return Outcome::kExitError;
  } catch (const CLI::ParseError& e) {
    *error = e.what();
    return Outcome::kExitError;
  }
}

}  // namespace irr::cli
