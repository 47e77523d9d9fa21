// Fast-path peeks (see fast_path.h). What each part means follows
// Materialize's adapter and compute code:
// - `create_fast_path_plan` (adapter/src/coord/peek.rs) permutes an index
//   peek's MFP around the index key (`permute_oneshot_mfp_around_index`),
//   so Project/Filter/Map over ReadIndex read the arrangement's layout row
//   `key ++ other columns` (../shared/reference/SEMANTICS.md 8.2), not the
//   collection's row; a PeekPersist MFP is not permuted and reads the
//   collection's row.
// - `PeekResultIterator` (compute/src/compute_state/peek_result_iterator.rs)
//   hands the MFP the key and value datums and, for a lookup, the looked-up
//   literal again ("the columns the IndexedFilter join would add"); a
//   negative accumulated count is an error.
// - The printer omits the Project line only when the projection is every
//   input and map column, so without it the map columns are output too.
#include "lir/eval/fast_path.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "lir/eval/scalar_eval.h"
#include "lir/status_macros.h"
#include "src/eval/operators.h"

namespace lir::eval {

namespace {

absl::StatusOr<DataRow> ToDataRow(const Row& row) {
  DataRow out;
  out.reserve(row.size());
  for (const Literal& literal : row) {
    absl::StatusOr<Datum> datum = FromLiteral(literal);
    if (!datum.ok()) return absl::UnimplementedError(datum.status().message());
    out.push_back(*std::move(datum));
  }
  return out;
}

// The declared index a plan's `ReadIndex on=<collection> <index>` names.
// Materialize prints the index name unqualified unless ambiguous, while
// declarations use qualified names; a declaration matches when its name is
// the printed one or ends with `.<printed>`, and it is on the collection.
absl::StatusOr<const InputIndex*> FindIndex(const std::string& object,
                                            const FastPath& fast_path,
                                            const InputData& data) {
  const std::string where = absl::StrCat(
      object, ": ReadIndex on=", fast_path.collection, " ", fast_path.index);
  auto exact = data.indexes.find(fast_path.index);
  std::vector<std::pair<const std::string*, const InputIndex*>> found;
  if (exact != data.indexes.end()) {
    found.emplace_back(&exact->first, &exact->second);
  } else {
    for (const auto& [name, index] : data.indexes) {
      if (absl::EndsWith(name, absl::StrCat(".", fast_path.index))) {
        found.emplace_back(&name, &index);
      }
    }
  }
  if (found.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        where,
        ": the plan does not give the index key and neither the catalog nor "
        "the data file declares an index \"",
        fast_path.index,
        "\"; declare \"indexes\": {\"<qualified name>\": "
        "{\"on\": \"",
        fast_path.collection, "\", \"key\": [<column>, ...]}} in either"));
  }
  if (found.size() > 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": the data file declares several indexes named \"",
        fast_path.index, "\" (", *found[0].first, ", ", *found[1].first, ")"));
  }
  if (found[0].second->on != fast_path.collection) {
    return absl::InvalidArgumentError(absl::StrCat(
        where, ": the data file declares index ", *found[0].first, " on ",
        found[0].second->on, ", not on ", fast_path.collection));
  }
  return found[0].second;
}

}  // namespace

absl::StatusOr<FastPathPeek> FastPathPeek::Make(const std::string& object,
                                                const FastPath& fast_path,
                                                const InputData& data,
                                                int arity) {
  FastPathPeek peek;
  peek.kind_ = fast_path.kind;
  switch (fast_path.kind) {
    case FastPath::Kind::kConstant:
      peek.constant_ = fast_path.constant;
      if (!fast_path.constant.error.has_value() &&
          !fast_path.constant.error_redacted) {
        // Unsupported literals and elided rows cannot run at all.
        absl::StatusOr<Multiset> rows = ConstantRows(fast_path.constant);
        if (!rows.ok()) {
          return absl::Status(
              rows.status().code(),
              absl::StrCat(object, ": ", rows.status().message()));
        }
      }
      return peek;
    case FastPath::Kind::kReadIndex:
    case FastPath::Kind::kPeekPersist: break;
  }
  peek.collection_ = fast_path.collection;
  if (arity < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(object, ": the fast path reads ", fast_path.collection,
                     ", which has no data"));
  }
  int input_arity = arity;
  if (fast_path.kind == FastPath::Kind::kReadIndex) {
    LIR_ASSIGN_OR_RETURN(const InputIndex* index,
                         FindIndex(object, fast_path, data));
    peek.key_ = index->key;
    for (int c = 0; c < arity; ++c) {
      if (std::find(index->key.begin(), index->key.end(), c) ==
          index->key.end()) {
        peek.others_.push_back(c);
      }
    }
    input_arity = static_cast<int>(peek.key_.size() + peek.others_.size());
    if (fast_path.lookup.has_value()) {
      peek.lookup_.emplace();
      for (const Row& row : *fast_path.lookup) {
        if (row.size() != peek.key_.size()) {
          return absl::InvalidArgumentError(
              absl::StrCat(object, ": a lookup value has ", row.size(),
                           " columns but the declared key of ", fast_path.index,
                           " has ", peek.key_.size()));
        }
        LIR_ASSIGN_OR_RETURN(DataRow value, ToDataRow(row));
        peek.lookup_->push_back(std::move(value));
      }
      input_arity += static_cast<int>(peek.key_.size());
    }
  } else if (fast_path.persist_value.has_value()) {
    if (static_cast<int>(fast_path.persist_value->size()) > arity) {
      return absl::InvalidArgumentError(
          absl::StrCat(object, ": the PeekPersist value has more columns than ",
                       fast_path.collection, " (", arity, ")"));
    }
    LIR_ASSIGN_OR_RETURN(peek.prefix_, ToDataRow(*fast_path.persist_value));
  }
  peek.mfp_.map = fast_path.map;
  peek.mfp_.filter = fast_path.filter;
  const int width = input_arity + static_cast<int>(fast_path.map.size());
  std::vector<int> project;
  if (fast_path.project.has_value()) {
    for (const ScalarExpr& column : *fast_path.project) {
      project.push_back(column.column);
    }
  } else {
    for (int c = 0; c < width; ++c) project.push_back(c);
  }
  for (int c : project) {
    if (c < 0 || c >= width) {
      return absl::InvalidArgumentError(absl::StrCat(
          object, ": Project reads #", c, " but the read row and the map have ",
          width, " columns"));
    }
  }
  peek.mfp_.project = std::move(project);
  absl::Status supported = CheckMfp(peek.mfp_);
  if (supported.ok()) {
    // The same compile CheckMfp made: evaluated on every row of the peek.
    absl::StatusOr<CompiledMfp> compiled = CompiledMfp::Compile(peek.mfp_);
    if (compiled.ok()) peek.compiled_mfp_ = *std::move(compiled);
    supported = compiled.status();
  }
  if (!supported.ok()) {
    return absl::Status(supported.code(),
                        absl::StrCat(object, ": ", supported.message()));
  }
  return peek;
}

absl::StatusOr<Multiset> FastPathPeek::Answer(const Multiset& contents) const {
  if (kind_ == FastPath::Kind::kConstant) {
    LIR_ASSIGN_OR_RETURN(Multiset rows, ConstantRows(constant_));
    for (const RowDiff& row : rows) {
      if (row.second < 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Negative multiplicity in constant result: ", row.second));
      }
    }
    return rows;
  }
  std::vector<RowDiff> out;
  for (const auto& [row, count] : contents) {
    DataRow input;
    if (kind_ == FastPath::Kind::kReadIndex) {
      for (int c : key_) input.push_back(row[c]);
      if (lookup_.has_value() && std::find(lookup_->begin(), lookup_->end(),
                                           input) == lookup_->end()) {
        continue;
      }
      for (int c : others_) input.push_back(row[c]);
      if (lookup_.has_value()) {
        for (int c : key_) input.push_back(row[c]);
      }
    } else {
      if (prefix_.has_value() &&
          !std::equal(prefix_->begin(), prefix_->end(), row.begin())) {
        continue;
      }
      input = row;
    }
    LIR_ASSIGN_OR_RETURN(std::optional<DataRow> kept,
                         compiled_mfp_.Eval(std::move(input)));
    if (!kept.has_value()) continue;
    if (count < 0 && kind_ == FastPath::Kind::kReadIndex) {
      return absl::InvalidArgumentError(
          absl::StrCat("Invalid data in source, saw retractions (", -count,
                       ") for row that does not exist: ", FormatRow(row)));
    }
    out.emplace_back(*std::move(kept), count);
  }
  return Consolidate(std::move(out));
}

}  // namespace lir::eval
