#include "operation_table.hpp"

#include "tsv_table.hpp"

namespace irr::formats {
namespace {

#include "operations_tsv.inc"  // generated: constexpr const char* kOperationsTsv = R"(...)";

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

std::vector<std::string> Values(const Operation& op) {
  return {op.name,
          op.family,
          op.role,
          op.problem,
          op.tree.empty() ? "-" : op.tree,
          op.algorithm,
          op.by_default ? "yes" : "no",
          op.label};
}

}  // namespace

const std::vector<std::string>& OperationColumns() {
  static const std::vector<std::string> columns = {"name", "family",    "role",    "problem",
                                                   "tree", "algorithm", "default", "label"};
  return columns;
}

const std::vector<Operation>& Operations() {
  static const std::vector<Operation> table = [] {
    std::vector<Operation> rows;
    for (const auto& f : TsvRows(kOperationsTsv, OperationColumns(), "operations.tsv")) {
      rows.push_back({f[0], f[1], f[2], f[3], f[4] == "-" ? "" : f[4], f[5], f[6] == "yes", f[7]});
    }
    return rows;
  }();
  return table;
}

const Operation* FindOperation(const std::string& name) {
  for (const Operation& op : Operations()) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

std::string OperationsAs(const std::string& format) {
  std::string out;
  const auto& columns = OperationColumns();
  if (format == "json") {
    out = "[\n";
    for (std::size_t r = 0; r < Operations().size(); ++r) {
      const auto values = Values(Operations()[r]);
      out += "  {";
      for (std::size_t c = 0; c < columns.size(); ++c) {
        out += (c ? ", " : "") + JsonString(columns[c]) + ": " +
               (columns[c] == "default" ? (values[c] == "yes" ? "true" : "false")
                                        : JsonString(values[c]));
      }
      out += r + 1 < Operations().size() ? "},\n" : "}\n";
    }
    return out + "]\n";
  }
  for (std::size_t c = 0; c < columns.size(); ++c) out += (c ? "\t" : "") + columns[c];
  out += "\n";
  for (const Operation& op : Operations()) {
    const auto values = Values(op);
    for (std::size_t c = 0; c < values.size(); ++c) out += (c ? "\t" : "") + values[c];
    out += "\n";
  }
  return out;
}

}  // namespace irr::formats
