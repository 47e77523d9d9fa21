// Arrangement layouts.
#include "lir/arrangement.h"

#include <map>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"

namespace lir {

ArrangementForm MakeArrangement(std::vector<ScalarExpr> key, int arity) {
  ArrangementForm form;
  // Position in the key of each row column that the key names plainly. When
  // a column is named twice the last occurrence wins, as in Materialize's
  // `permutation_for_arrangement` (it collects (column, position) pairs into
  // a map, so later pairs overwrite earlier ones).
  std::map<int, int> key_position;
  for (size_t i = 0; i < key.size(); ++i) {
    if (key[i].IsColumn()) key_position[key[i].column] = static_cast<int>(i);
  }
  int next_value_position = static_cast<int>(key.size());
  for (int c = 0; c < arity; ++c) {
    int position;
    auto it = key_position.find(c);
    if (it != key_position.end()) {
      position = it->second;
    } else {
      position = next_value_position++;
      form.thinning.push_back(c);
    }
    if (position != c) form.permutation.emplace_back(c, position);
  }
  form.key = std::move(key);
  return form;
}

ArrangementForm MakeColumnArrangement(const std::vector<int>& columns,
                                      int arity) {
  return MakeArrangement(ColumnKey(columns), arity);
}

const ArrangementForm* AvailableCollections::FindByKey(
    const std::vector<ScalarExpr>& key) const {
  for (const ArrangementForm& form : arranged) {
    if (SameIgnoringNames(form.key, key)) return &form;
  }
  return nullptr;
}

std::optional<std::vector<int>> KeyColumns(const std::vector<ScalarExpr>& key) {
  std::vector<int> columns;
  columns.reserve(key.size());
  for (const ScalarExpr& e : key) {
    if (!e.IsColumn()) return std::nullopt;
    columns.push_back(e.column);
  }
  return columns;
}

std::vector<ScalarExpr> ColumnKey(const std::vector<int>& columns) {
  std::vector<ScalarExpr> key;
  key.reserve(columns.size());
  for (int c : columns) key.push_back(ScalarExpr::Column(c));
  return key;
}

std::string FormatColumnList(const std::vector<int>& columns) {
  std::string out;
  for (size_t i = 0; i < columns.size();) {
    size_t end = i + 1;
    while (end < columns.size() && columns[end] >= 0 &&
           columns[end] == columns[end - 1] + 1) {
      ++end;
    }
    if (columns[i] < 0 || end - i < kMinColumnRangeLength) end = i + 1;
    if (!out.empty()) out += ", ";
    absl::StrAppend(&out, "#", columns[i]);
    if (end - i >= kMinColumnRangeLength) {
      absl::StrAppend(&out, "..=#", columns[end - 1]);
    }
    i = end;
  }
  return out;
}

}  // namespace lir
