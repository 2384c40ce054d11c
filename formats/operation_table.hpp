// The table of operations (formats/operations.tsv, embedded at build time): what each op of
// raw.csv is - gather or scatter, its role in the guidelines, the problem it moves, the cost
// model's tree it runs. irrbench binds each row to its MPI call (harness/operations.cpp);
// irrmodel --from-results reads the problem and tree; irrbench --list-ops exports the table.
#pragma once

#include <string>
#include <vector>

namespace irr::formats {

struct Operation {
  std::string name;
  std::string family;     // gather, scatter, harness
  std::string role;       // regular, guideline2, irregular, baseline, harness, test
  std::string problem;    // irregular, padded, none
  std::string tree;       // adaptive, oblivious, linear, ... or "" (the library's own)
  std::string algorithm;  // the implementation: TUW, Linear, library-v, ...
  bool by_default = false;
  std::string label;
  bool padded() const { return problem == "padded"; }
};

// Every row, in the file's order (the default order of --ops).
const std::vector<Operation>& Operations();
// The row named `name`, or nullptr.
const Operation* FindOperation(const std::string& name);
// The column names, in the file's order.
const std::vector<std::string>& OperationColumns();

// The table as tsv (the file's header and rows) or json (an array of objects).
std::string OperationsAs(const std::string& format);

}  // namespace irr::formats
