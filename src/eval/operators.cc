// What CheckNode accepts, and the per-row meaning of Constant, FlatMap and
// join stages. Reduce and TopK groups are in operators_reduce.cc.
#include "src/eval/operators.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "lir/eval/scalar_eval.h"
#include "lir/status_macros.h"
#include "src/eval/values/eval_internal.h"
#include "src/eval/values/temporal.h"

namespace lir::eval {
namespace {

absl::Status CheckExprs(const std::vector<ScalarExpr>& exprs) {
  for (const ScalarExpr& e : exprs) LIR_RETURN_IF_ERROR(CheckScalar(e));
  return absl::OkStatus();
}

absl::Status CheckRow(const Row& row) {
  for (const Literal& literal : row) {
    LIR_RETURN_IF_ERROR(CheckScalar(ScalarExpr::Lit(literal)));
  }
  return absl::OkStatus();
}

absl::Status CheckForm(const ArrangementForm& form) {
  return CheckExprs(form.key);
}

absl::Status CheckForms(const AvailableCollections& forms) {
  for (const ArrangementForm& form : forms.arranged) {
    LIR_RETURN_IF_ERROR(CheckForm(form));
  }
  return absl::OkStatus();
}

absl::Status CheckClosure(const std::optional<JoinClosure>& closure) {
  if (!closure.has_value()) return absl::OkStatus();
  for (const std::vector<ScalarExpr>& cls : closure->ready_equivalences) {
    LIR_RETURN_IF_ERROR(CheckExprs(cls));
  }
  return CheckMfp(closure->mfp);
}

absl::Status CheckJoin(const JoinOp& op, size_t inputs) {
  for (const JoinPath& path : op.paths) {
    if (path.source_relation < 0 ||
        static_cast<size_t>(path.source_relation) >= inputs) {
      return absl::InvalidArgumentError(absl::StrCat(
          "join source relation ", path.source_relation, " out of range"));
    }
    if (path.source_key.has_value()) {
      LIR_RETURN_IF_ERROR(CheckExprs(*path.source_key));
    }
    LIR_RETURN_IF_ERROR(CheckClosure(path.initial_closure));
    for (const JoinStage& stage : path.stages) {
      if (stage.lookup_relation < 0 ||
          static_cast<size_t>(stage.lookup_relation) >= inputs) {
        return absl::InvalidArgumentError(absl::StrCat(
            "join lookup relation ", stage.lookup_relation, " out of range"));
      }
      if (stage.lookup_key.size() != stage.stream_key.size()) {
        return absl::InvalidArgumentError(
            "join stage stream and lookup keys differ in length");
      }
      LIR_RETURN_IF_ERROR(CheckExprs(stage.lookup_key));
      LIR_RETURN_IF_ERROR(CheckExprs(stage.stream_key));
      LIR_RETURN_IF_ERROR(CheckClosure(stage.closure));
    }
    LIR_RETURN_IF_ERROR(CheckClosure(path.final_closure));
  }
  return absl::OkStatus();
}

absl::Status CheckTopK(const TopKOp& op) {
  if (op.offset < 0) {
    return absl::InvalidArgumentError("TopK offset is negative");
  }
  if (op.limit.has_value() && op.kind != TopKKind::kMonotonicTop1) {
    LIR_RETURN_IF_ERROR(CheckScalar(*op.limit));
    // The limit is evaluated on the group key.
    if (MaxColumn(*op.limit) >= static_cast<int>(op.group_by.size())) {
      return absl::InvalidArgumentError(
          "TopK limit reads a column that is not part of the group key");
    }
  }
  return absl::OkStatus();
}

/// The N of a `wrapN` table function (rows of N columns), or 0.
int WrapArity(const std::string& func) {
  if (func.size() <= 4 || func.compare(0, 4, "wrap") != 0) return 0;
  int n = 0;
  if (!absl::SimpleAtoi(func.substr(4), &n) || n <= 0) return 0;
  return n;
}

/// OK for the table functions FlatMapRow implements: generate_series with
/// 2 or 3 arguments, and wrapN (rows of N arguments).
absl::Status CheckTableFunction(const FlatMapOp& op) {
  const size_t n = op.exprs.size();
  const int wrap = WrapArity(op.func);
  bool supported = (op.func == "generate_series" && (n == 2 || n == 3)) ||
                   (wrap > 0 && n % wrap == 0);
  if (!supported) {
    return absl::UnimplementedError(
        absl::StrCat("unsupported table function ", op.func));
  }
  return absl::OkStatus();
}

absl::Status CheckFlatMap(const FlatMapOp& op) {
  LIR_RETURN_IF_ERROR(CheckTableFunction(op));
  LIR_RETURN_IF_ERROR(CheckExprs(op.exprs));
  if (op.input_key.has_value()) LIR_RETURN_IF_ERROR(CheckExprs(*op.input_key));
  return CheckTemporalMfp(op.mfp_after);
}

// The rows generate_series(start, stop, step) produces (step != 0).
uint64_t SeriesLength(int64_t start, int64_t stop, int64_t step) {
  const __int128 span = static_cast<__int128>(stop) - start;
  if ((step > 0 && span < 0) || (step < 0 && span > 0)) return 0;
  const __int128 n = span / step + 1;  // up to 2^64: saturate
  return n > static_cast<__int128>(kUnlimited) ? kUnlimited
                                               : static_cast<uint64_t>(n);
}

// generate_series(args) appended to `input`, one row per value. Counts the
// rows against `rows` before making any, so that a series past the budget
// allocates nothing.
absl::StatusOr<std::vector<DataRow>> GenerateSeries(const DataRow& input,
                                                    const DataRow& args,
                                                    RowCounter& rows) {
  std::vector<DataRow> out;
  for (const Datum& a : args) {
    if (a.is_null()) return out;  // a NULL argument yields no rows
    if (!a.is_int()) {
      return absl::InvalidArgumentError(
          "generate_series takes integer arguments");
    }
  }
  const int64_t start = args[0].as_int();
  const int64_t stop = args[1].as_int();
  const int64_t step = args.size() > 2 ? args[2].as_int() : 1;
  if (step == 0) {
    return absl::InvalidArgumentError("step size cannot equal zero");
  }
  const uint64_t n = SeriesLength(start, stop, step);
  LIR_RETURN_IF_ERROR(rows.Add(n));
  // Each row is the input row and one integer: a long series of a wide row
  // passes the byte budget before any is made.
  const uint64_t row_bytes = RowBytes(input) + sizeof(Datum);
  LIR_RETURN_IF_ERROR(
      rows.AddBytes(n > kUnlimited / row_bytes ? kUnlimited : n * row_bytes));
  // Past max_size, reserve would throw std::length_error, not bad_alloc.
  if (n > out.max_size()) return OutOfMemoryError(rows.round());
  out.reserve(n);
  int64_t v = start;
  for (uint64_t i = 0; i < n; ++i) {
    DataRow joined;
    joined.reserve(input.size() + 1);
    joined = input;
    joined.push_back(Datum::Int(v));
    out.push_back(std::move(joined));
    v = static_cast<int64_t>(static_cast<uint64_t>(v) +
                             static_cast<uint64_t>(step));  // wraps after last
  }
  return out;
}

}  // namespace

absl::Status CheckNode(const Node& node) {
  switch (node.kind()) {
    case NodeKind::kConstant: {
      const ConstantOp& op = node.As<ConstantOp>();
      if (op.elided_total_rows.has_value()) {
        return absl::InvalidArgumentError(
            absl::StrCat("constant with elided rows (", *op.elided_total_rows,
                         " rows, only ", op.rows.size(), " printed)"));
      }
      for (const ConstantOp::Entry& entry : op.rows) {
        LIR_RETURN_IF_ERROR(CheckRow(entry.row));
      }
      return absl::OkStatus();
    }
    case NodeKind::kGet: {
      const GetOp& op = node.As<GetOp>();
      if (op.kind == GetKind::kPassArrangements) return absl::OkStatus();
      if (op.kind == GetKind::kArrangement) {
        LIR_RETURN_IF_ERROR(CheckExprs(op.key));
        if (op.seek.has_value()) {
          if (op.seek->size() != op.key.size()) {
            return absl::InvalidArgumentError(
                "Get seek value and key differ in length");
          }
          LIR_RETURN_IF_ERROR(CheckRow(*op.seek));
        }
      }
      return CheckTemporalMfp(op.mfp);
    }
    case NodeKind::kMfp: {
      const MfpOp& op = node.As<MfpOp>();
      if (op.input_key.has_value())
        LIR_RETURN_IF_ERROR(CheckExprs(*op.input_key));
      if (op.input_val.has_value())
        LIR_RETURN_IF_ERROR(CheckRow(*op.input_val));
      return CheckTemporalMfp(op.mfp);
    }
    case NodeKind::kFlatMap: return CheckFlatMap(node.As<FlatMapOp>());
    case NodeKind::kJoin:
      return CheckJoin(node.As<JoinOp>(), node.inputs.size());
    case NodeKind::kReduce: return internal::CheckReduce(node.As<ReduceOp>());
    case NodeKind::kTopK: return CheckTopK(node.As<TopKOp>());
    case NodeKind::kArrangeBy: {
      const ArrangeByOp& op = node.As<ArrangeByOp>();
      if (op.input_key.has_value())
        LIR_RETURN_IF_ERROR(CheckExprs(*op.input_key));
      LIR_RETURN_IF_ERROR(CheckForms(op.forms));
      return CheckTemporalMfp(op.input_mfp);
    }
    case NodeKind::kThreshold:
      return CheckForm(node.As<ThresholdOp>().ensure_arrangement);
    case NodeKind::kSetDifference:
      return CheckForm(node.As<SetDifferenceOp>().ensure_arrangement);
    case NodeKind::kAntiJoin: return absl::OkStatus();
    case NodeKind::kLet:
    case NodeKind::kLetRec:
    case NodeKind::kNegate:
    case NodeKind::kUnion: return absl::OkStatus();
  }
  return absl::OkStatus();
}

absl::StatusOr<CompiledFlatMap> CompiledFlatMap::Compile(const FlatMapOp& op) {
  LIR_RETURN_IF_ERROR(CheckTableFunction(op));
  CompiledFlatMap out;
  out.op_ = &op;
  LIR_ASSIGN_OR_RETURN(out.exprs_, CompiledKey::Compile(op.exprs));
  if (!HasTemporal(op.mfp_after)) {
    LIR_ASSIGN_OR_RETURN(out.mfp_after_, CompiledMfp::Compile(op.mfp_after));
  }
  return out;
}

absl::StatusOr<std::vector<DataRow>> CompiledFlatMap::Rows(
    const DataRow& row, RowCounter* rows) const {
  if (!mfp_after_.has_value()) {
    return absl::InternalError("a temporal filter evaluated without the round");
  }
  LIR_ASSIGN_OR_RETURN(std::vector<DataRow> joined, JoinedRows(row, rows));
  std::vector<DataRow> out;
  out.reserve(joined.size());
  for (DataRow& r : joined) {
    LIR_ASSIGN_OR_RETURN(std::optional<DataRow> kept,
                         mfp_after_->Eval(std::move(r)));
    if (kept.has_value()) out.push_back(std::move(*kept));
  }
  return out;
}

absl::StatusOr<std::vector<DataRow>> CompiledFlatMap::JoinedRows(
    const DataRow& row, RowCounter* rows) const {
  const FlatMapOp& op = *op_;
  LIR_ASSIGN_OR_RETURN(DataRow args, exprs_.Eval(row));
  RowCounter one_call(kDefaultMaxRowsPerRound, 0);
  RowCounter& counter = rows != nullptr ? *rows : one_call;
  if (op.func == "generate_series") return GenerateSeries(row, args, counter);
  // wrapN: the arguments in rows of N, each appended to the input row.
  const size_t wrap = static_cast<size_t>(WrapArity(op.func));
  LIR_RETURN_IF_ERROR(counter.Add(args.size() / wrap));
  std::vector<DataRow> out;
  out.reserve(args.size() / wrap);
  for (size_t i = 0; i + wrap <= args.size(); i += wrap) {
    DataRow joined = row;
    joined.insert(joined.end(), std::make_move_iterator(args.begin() + i),
                  std::make_move_iterator(args.begin() + i + wrap));
    out.push_back(std::move(joined));
  }
  return out;
}

absl::StatusOr<std::vector<DataRow>> FlatMapRow(const FlatMapOp& op,
                                                const DataRow& row,
                                                RowCounter* rows) {
  LIR_ASSIGN_OR_RETURN(CompiledFlatMap compiled, CompiledFlatMap::Compile(op));
  return compiled.Rows(row, rows);
}

absl::StatusOr<std::vector<DataRow>> FlatMapJoinedRows(const FlatMapOp& op,
                                                       const DataRow& row,
                                                       RowCounter* rows) {
  LIR_ASSIGN_OR_RETURN(CompiledFlatMap compiled, CompiledFlatMap::Compile(op));
  return compiled.JoinedRows(row, rows);
}

DataRow JoinedRow(const DataRow& key, const DataRow& stream,
                  const std::vector<int>& stream_thinning,
                  const DataRow& lookup,
                  const std::vector<ScalarExpr>& lookup_key) {
  DataRow out = key;
  out.reserve(key.size() + stream_thinning.size() + lookup.size());
  // Plans are validated before they run; an out-of-range column here would
  // be a planner bug, and reads as NULL rather than crashing.
  for (int c : stream_thinning) {
    out.push_back(c >= 0 && static_cast<size_t>(c) < stream.size()
                      ? stream[c]
                      : Datum::Null());
  }
  std::vector<bool> in_key(lookup.size(), false);
  for (const ScalarExpr& e : lookup_key) {
    if (e.IsColumn() && e.column >= 0 &&
        static_cast<size_t>(e.column) < lookup.size()) {
      in_key[e.column] = true;
    }
  }
  for (size_t c = 0; c < lookup.size(); ++c) {
    if (!in_key[c]) out.push_back(lookup[c]);
  }
  return out;
}

absl::StatusOr<CompiledClosure> CompiledClosure::Compile(
    const std::optional<JoinClosure>& closure) {
  CompiledClosure out;
  if (!closure.has_value()) return out;
  out.present_ = true;
  for (const std::vector<ScalarExpr>& cls : closure->ready_equivalences) {
    LIR_ASSIGN_OR_RETURN(CompiledKey key, CompiledKey::Compile(cls));
    out.equivalences_.push_back(std::move(key));
  }
  LIR_ASSIGN_OR_RETURN(out.mfp_, CompiledMfp::Compile(closure->mfp));
  return out;
}

absl::StatusOr<std::optional<DataRow>> CompiledClosure::Apply(
    DataRow row) const {
  if (!present_) return row;
  for (const CompiledKey& cls : equivalences_) {
    if (cls.size() == 0) continue;
    // Like SQL `a = b` being true: NULL never matches.
    LIR_ASSIGN_OR_RETURN(DataRow values, cls.Eval(row));
    for (const Datum& v : values) {
      if (v.is_null()) return std::nullopt;
    }
    for (size_t i = 1; i < values.size(); ++i) {
      LIR_ASSIGN_OR_RETURN(bool equal,
                           internal::SqlEqual(values[0], values[i]));
      if (!equal) return std::nullopt;
    }
  }
  return mfp_.Eval(std::move(row));
}

absl::StatusOr<std::optional<DataRow>> ApplyClosure(
    const std::optional<JoinClosure>& closure, DataRow row) {
  LIR_ASSIGN_OR_RETURN(CompiledClosure compiled,
                       CompiledClosure::Compile(closure));
  return compiled.Apply(std::move(row));
}

absl::StatusOr<Multiset> ConstantRows(const ConstantOp& op) {
  if (op.error.has_value() || op.error_redacted) {
    return absl::InvalidArgumentError(
        op.error_redacted ? std::string("\xE2\x96\x88") : *op.error);
  }
  if (op.elided_total_rows.has_value()) {
    return absl::InvalidArgumentError("constant with elided rows");
  }
  std::vector<RowDiff> updates;
  updates.reserve(op.rows.size());
  for (const ConstantOp::Entry& entry : op.rows) {
    DataRow row;
    row.reserve(entry.row.size());
    for (const Literal& literal : entry.row) {
      absl::StatusOr<Datum> d = FromLiteral(literal);
      if (!d.ok()) return absl::UnimplementedError(d.status().message());
      row.push_back(std::move(*d));
    }
    updates.push_back({std::move(row), entry.diff});
  }
  return Consolidate(std::move(updates));
}

absl::Status AntiJoinKeyOf(const AntiJoinOp& op, const DataRow& row,
                           DataRow& key) {
  key.clear();
  for (int c : op.key) {
    if (c < 0 || static_cast<size_t>(c) >= row.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("AntiJoin key column #", c, " is outside a base row of ",
                       row.size(), " columns"));
    }
    key.push_back(row[c]);
  }
  return absl::OkStatus();
}

absl::StatusOr<Multiset> AntiJoinRows(const AntiJoinOp& op,
                                      const Multiset& base,
                                      const Multiset& keys) {
  Multiset out;
  DataRow key;
  for (const auto& [row, diff] : base) {
    LIR_RETURN_IF_ERROR(AntiJoinKeyOf(op, row, key));
    auto found = std::lower_bound(
        keys.begin(), keys.end(), key,
        [](const RowDiff& entry, const DataRow& k) { return entry.first < k; });
    const int64_t count =
        found != keys.end() && found->first == key ? found->second : 0;
    if (count != 0 && count != 1) return AntiJoinKeyCountError(key, count);
    if (count == 0) out.emplace_back(row, diff);
  }
  return out;
}

absl::Status AntiJoinKeyCountError(const DataRow& key, int64_t count) {
  return absl::InvalidArgumentError(absl::StrCat(
      "key ", FormatRow(key), " has count ", count,
      " in the keys input (an antijoin needs each key at most once)"));
}

}  // namespace lir::eval
