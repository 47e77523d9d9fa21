// Lowering scalar expressions to programs (scalar_program.h) and running
// them on rows: CompiledScalar, CompiledKey and CompiledMfp.
//
// The lowering classifies each call and parses each literal once; the
// checked compile stops at the first unsupported part in the order
// CheckScalar always reported (a node before its operands), so CheckScalar
// is the status of a compile and the two can never disagree.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <numeric>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "lir/eval/compiled_scalar.h"
#include "lir/status_macros.h"
#include "src/eval/values/scalar_ops.h"
#include "src/eval/values/scalar_program.h"

namespace lir::eval {
namespace scalar_program {
namespace {

using scalar_ops::Op;

std::atomic<uint64_t> compilations{0};

/// Builds one Program. Checked: the first unsupported part is the result.
/// Unchecked: it becomes a kError node, reported only if evaluated (as the
/// per-row walk this replaces reported it).
class Compiler {
 public:
  explicit Compiler(bool checked)
      : checked_(checked), program_(std::make_shared<Program>()) {
    compilations.fetch_add(1, std::memory_order_relaxed);
  }

  absl::StatusOr<std::shared_ptr<const Program>> Run(const ScalarExpr& e) {
    LIR_ASSIGN_OR_RETURN(program_->root, Lower(e));
    return std::shared_ptr<const Program>(std::move(program_));
  }

 private:
  uint32_t Add(const Node& node) {
    program_->nodes.push_back(node);
    return static_cast<uint32_t>(program_->nodes.size() - 1);
  }

  absl::StatusOr<uint32_t> Fail(absl::Status error) {
    if (checked_) return error;
    Node node;
    node.kind = NodeKind::kError;
    node.index = static_cast<uint32_t>(program_->errors.size());
    program_->errors.push_back(std::move(error));
    return Add(node);
  }

  /// `node` over `args`, lowered first; its children are contiguous.
  absl::StatusOr<uint32_t> AddWithOperands(
      Node node, const std::vector<ScalarExpr>& args) {
    absl::InlinedVector<uint32_t, 4> operands;
    for (const ScalarExpr& arg : args) {
      LIR_ASSIGN_OR_RETURN(uint32_t index, Lower(arg));
      operands.push_back(index);
    }
    node.first = static_cast<uint32_t>(program_->children.size());
    node.count = static_cast<uint32_t>(operands.size());
    program_->children.insert(program_->children.end(), operands.begin(),
                              operands.end());
    return Add(node);
  }

  absl::StatusOr<uint32_t> Lower(const ScalarExpr& e) {
    Node node;
    switch (e.kind) {
      case ScalarKind::kColumn:
        // Unchecked, a negative column is an out-of-range read per row.
        if (checked_ && e.column < 0) {
          return absl::InvalidArgumentError(
              absl::StrCat("negative column reference #", e.column));
        }
        node.kind = NodeKind::kColumn;
        node.column = e.column;
        return Add(node);
      case ScalarKind::kLiteral: {
        absl::StatusOr<Datum> d = FromLiteral(e.literal);
        if (!d.ok()) {
          // FromLiteral's message names the literal (`unsupported literal
          // 7 days`); it is not a data error but a gap of the evaluator.
          return Fail(absl::UnimplementedError(d.status().message()));
        }
        node.kind = NodeKind::kLiteral;
        node.index = static_cast<uint32_t>(program_->literals.size());
        program_->literals.push_back(*std::move(d));
        return Add(node);
      }
      case ScalarKind::kCall: {
        std::optional<Op> op = scalar_ops::Classify(e);
        if (!op.has_value()) return Fail(scalar_ops::UnsupportedCall(e));
        node.kind = NodeKind::kCall;
        node.op = *op;
        if (*op == Op::kRecordGet) {
          // At most nine digits (RecordGetField): fits.
          node.index = static_cast<uint32_t>(*scalar_ops::RecordGetField(e));
        }
        node.name = static_cast<uint32_t>(program_->names.size());
        program_->names.push_back(e.func);
        return AddWithOperands(node, e.args);
      }
      case ScalarKind::kIf:
        if (e.args.size() != 3) {
          return Fail(
              absl::InvalidArgumentError("case when needs three operands"));
        }
        node.kind = NodeKind::kIf;
        return AddWithOperands(node, e.args);
      case ScalarKind::kCaseLookup:
        return Fail(scalar_ops::Unsupported("case_lookup"));
      case ScalarKind::kOpaque:
        return Fail(absl::UnimplementedError(
            absl::StrCat("unsupported expression ", e.opaque)));
    }
    return absl::InternalError("unknown scalar kind");
  }

  bool checked_;
  std::shared_ptr<Program> program_;
};

/// Runs one program on one row. Strict operands are evaluated onto
/// `stack_` and handed to the operation as a span, so a row allocates no
/// operand vectors for small expressions.
class Evaluator {
 public:
  Evaluator(const Program& program, const DataRow& row)
      : p_(program), row_(row) {}

  absl::StatusOr<Datum> Eval(uint32_t index) {
    const Node& node = p_.nodes[index];
    switch (node.kind) {
      case NodeKind::kColumn:
        if (node.column < 0 ||
            static_cast<size_t>(node.column) >= row_.size()) {
          return absl::InvalidArgumentError(absl::StrCat(
              "column #", node.column, " out of range for a row of ",
              row_.size(), " columns"));
        }
        return row_[node.column];
      case NodeKind::kLiteral: return p_.literals[node.index];
      case NodeKind::kError: return p_.errors[node.index];
      case NodeKind::kIf: {
        LIR_ASSIGN_OR_RETURN(Datum cond, Eval(Operand(node, 0)));
        if (!cond.is_null() && !cond.is_bool()) {
          return scalar_ops::TypeError("case when", cond);
        }
        // Only the branch taken is evaluated (and can fail).
        const bool take_then = cond.is_bool() && cond.as_bool();
        return Eval(Operand(node, take_then ? 1 : 2));
      }
      case NodeKind::kCall: return Call(node);
    }
    return absl::InternalError("unknown program node");
  }

 private:
  uint32_t Operand(const Node& node, uint32_t i) const {
    return p_.children[node.first + i];
  }

  absl::StatusOr<Datum> Call(const Node& node) {
    const char* name = p_.names[node.name].c_str();
    if (node.op == Op::kAnd || node.op == Op::kOr) {
      return Junction(node, name, node.op == Op::kAnd);
    }
    if (node.op == Op::kCoalesce) {
      // Lazy, as in SQL: operands after the first non-NULL one are not
      // evaluated (and cannot fail).
      for (uint32_t i = 0; i < node.count; ++i) {
        LIR_ASSIGN_OR_RETURN(Datum v, Eval(Operand(node, i)));
        if (!v.is_null()) return v;
      }
      return Datum::Null();
    }
    if (node.op == Op::kGreatest || node.op == Op::kLeast) {
      // NULL operands are ignored; NULL only when all are NULL.
      Datum best;
      for (uint32_t i = 0; i < node.count; ++i) {
        LIR_ASSIGN_OR_RETURN(Datum v, Eval(Operand(node, i)));
        if (v.is_null()) continue;
        if (best.is_null()) {
          best = std::move(v);
          continue;
        }
        LIR_ASSIGN_OR_RETURN(int c, scalar_ops::CompareValues(name, v, best));
        if (node.op == Op::kGreatest ? c > 0 : c < 0) best = std::move(v);
      }
      return best;
    }
    // Strict operations: every operand first, in order; the first error
    // wins. The stack is left as found on every return.
    const size_t base = stack_.size();
    for (uint32_t i = 0; i < node.count; ++i) {
      absl::StatusOr<Datum> v = Eval(Operand(node, i));
      if (!v.ok()) {
        stack_.resize(base);
        return v.status();
      }
      stack_.push_back(*std::move(v));
    }
    absl::StatusOr<Datum> result = scalar_ops::ApplyStrict(
        node.op, name, node.index,
        std::span<Datum>(stack_.data() + base, node.count));
    stack_.resize(base);
    return result;
  }

  /// AND / OR with SQL's three-valued logic. The dominant value (false for
  /// AND, true for OR) wins even over errors in other operands, so the
  /// result does not depend on the operand order.
  absl::StatusOr<Datum> Junction(const Node& node, const char* name,
                                 bool is_and) {
    const bool dominant = !is_and;
    bool saw_null = false;
    std::optional<absl::Status> error;
    for (uint32_t i = 0; i < node.count; ++i) {
      absl::StatusOr<Datum> v = Eval(Operand(node, i));
      if (!v.ok()) {
        // Unsupported operations are reported regardless of the data.
        if (absl::IsUnimplemented(v.status())) return v.status();
        if (!error.has_value()) error = v.status();
        continue;
      }
      if (v->is_null()) {
        saw_null = true;
      } else if (!v->is_bool()) {
        if (!error.has_value()) error = scalar_ops::TypeError(name, *v);
      } else if (v->as_bool() == dominant) {
        return Datum::Bool(dominant);
      }
    }
    if (error.has_value()) return *error;
    if (saw_null) return Datum::Null();
    return Datum::Bool(!dominant);
  }

  const Program& p_;
  const DataRow& row_;
  absl::InlinedVector<Datum, 8> stack_;
};

}  // namespace

CompiledScalar Access::CompileUnchecked(const ScalarExpr& expr) {
  // Unchecked lowering fails only on an unknown ScalarKind.
  absl::StatusOr<std::shared_ptr<const Program>> program =
      Compiler(/*checked=*/false).Run(expr);
  if (!program.ok()) {
    auto failed = std::make_shared<Program>();
    Node node;
    node.kind = NodeKind::kError;
    failed->errors.push_back(program.status());
    failed->nodes.push_back(node);
    return CompiledScalar(std::move(failed));
  }
  return CompiledScalar(*std::move(program));
}

}  // namespace scalar_program

absl::StatusOr<CompiledScalar> CompiledScalar::Compile(const ScalarExpr& expr) {
  LIR_ASSIGN_OR_RETURN(std::shared_ptr<const scalar_program::Program> program,
                       scalar_program::Compiler(/*checked=*/true).Run(expr));
  return CompiledScalar(std::move(program));
}

absl::StatusOr<Datum> CompiledScalar::Eval(const DataRow& row) const {
  return scalar_program::Evaluator(*program_, row).Eval(program_->root);
}

absl::StatusOr<CompiledKey> CompiledKey::Compile(
    const std::vector<ScalarExpr>& exprs) {
  CompiledKey key;
  key.exprs_.reserve(exprs.size());
  for (const ScalarExpr& e : exprs) {
    LIR_ASSIGN_OR_RETURN(CompiledScalar c, CompiledScalar::Compile(e));
    key.exprs_.push_back(std::move(c));
  }
  return key;
}

absl::StatusOr<DataRow> CompiledKey::Eval(const DataRow& row) const {
  DataRow key;
  key.reserve(exprs_.size());
  for (const CompiledScalar& e : exprs_) {
    LIR_ASSIGN_OR_RETURN(Datum v, e.Eval(row));
    key.push_back(std::move(v));
  }
  return key;
}

absl::StatusOr<CompiledMfp> CompiledMfp::Compile(const MapFilterProject& mfp) {
  CompiledMfp out;
  out.temporal_ = mfp.temporal.has_value();
  out.identity_ = mfp.IsIdentity();
  out.project_ = mfp.project;
  out.map_.reserve(mfp.map.size());
  for (const ScalarExpr& e : mfp.map) {
    LIR_ASSIGN_OR_RETURN(CompiledScalar c, CompiledScalar::Compile(e));
    out.map_.push_back(std::move(c));
  }
  out.filter_.reserve(mfp.filter.size());
  for (const ScalarExpr& e : mfp.filter) {
    LIR_ASSIGN_OR_RETURN(CompiledScalar c, CompiledScalar::Compile(e));
    out.filter_.push_back(std::move(c));
  }
  scalar_program::Access::OrderFilters(mfp, out);
  return out;
}

absl::StatusOr<std::optional<DataRow>> CompiledMfp::Eval(DataRow row) const {
  return Apply(std::move(row), /*wide=*/false);
}

absl::StatusOr<std::optional<DataRow>> CompiledMfp::EvalWide(
    DataRow row) const {
  return Apply(std::move(row), /*wide=*/true);
}

absl::StatusOr<std::optional<DataRow>> CompiledMfp::Apply(DataRow row,
                                                          bool wide) const {
  if (temporal_) {
    return absl::InternalError("a temporal filter evaluated without the round");
  }
  const int input_arity = static_cast<int>(row.size());
  row.reserve(row.size() + map_.size());
  size_t mapped = 0;
  auto map_until = [&](size_t count) -> absl::Status {
    while (mapped < count && mapped < map_.size()) {
      LIR_ASSIGN_OR_RETURN(Datum v, map_[mapped].Eval(row));
      row.push_back(std::move(v));
      ++mapped;
    }
    return absl::OkStatus();
  };
  // As Materialize does: each filter runs as soon as the map columns it
  // reads exist (filters in order of that need, stably), so a filter can
  // drop a row before a later map expression fails on it.
  auto passes = [&](uint32_t index) -> absl::StatusOr<bool> {
    const int support =
        std::max(0, filter_max_column_[index] + 1 - input_arity);
    LIR_RETURN_IF_ERROR(map_until(static_cast<size_t>(support)));
    LIR_ASSIGN_OR_RETURN(Datum keep, filter_[index].Eval(row));
    if (!keep.is_null() && !keep.is_bool()) {
      return scalar_ops::TypeError("filter", keep);
    }
    return keep.is_bool() && keep.as_bool();
  };
  // The stable sort by support, without sorting per row: the filters that
  // read only input columns (support 0) in plan order, then the others by
  // the largest column they read.
  for (uint32_t i = 0; i < filter_.size(); ++i) {
    if (filter_max_column_[i] >= input_arity) continue;
    LIR_ASSIGN_OR_RETURN(bool keep, passes(i));
    if (!keep) return std::nullopt;
  }
  for (uint32_t i : by_max_column_) {
    if (filter_max_column_[i] < input_arity) continue;
    LIR_ASSIGN_OR_RETURN(bool keep, passes(i));
    if (!keep) return std::nullopt;
  }
  if (wide) {
    LIR_RETURN_IF_ERROR(map_until(map_.size()));
    return row;
  }
  if (!project_.has_value()) {
    // ../shared/reference/SEMANTICS.md 8.1: map columns only fed the filters;
    // they are not output.
    row.resize(input_arity);
    return row;
  }
  LIR_RETURN_IF_ERROR(map_until(map_.size()));
  DataRow out;
  out.reserve(project_->size());
  for (int c : *project_) {
    if (c < 0 || static_cast<size_t>(c) >= row.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("projected column #", c, " out of range for a row of ",
                       row.size(), " columns"));
    }
    out.push_back(row[c]);
  }
  return out;
}

namespace scalar_program {

void Access::OrderFilters(const MapFilterProject& mfp, CompiledMfp& out) {
  out.filter_max_column_.clear();
  for (const ScalarExpr& e : mfp.filter) {
    out.filter_max_column_.push_back(MaxColumn(e));
  }
  out.by_max_column_.resize(mfp.filter.size());
  std::iota(out.by_max_column_.begin(), out.by_max_column_.end(), 0u);
  std::stable_sort(out.by_max_column_.begin(), out.by_max_column_.end(),
                   [&](uint32_t a, uint32_t b) {
                     return out.filter_max_column_[a] <
                            out.filter_max_column_[b];
                   });
}

CompiledMfp Access::CompileMfpUnchecked(const MapFilterProject& mfp) {
  CompiledMfp out;
  out.temporal_ = mfp.temporal.has_value();
  out.identity_ = mfp.IsIdentity();
  out.project_ = mfp.project;
  for (const ScalarExpr& e : mfp.map) out.map_.push_back(CompileUnchecked(e));
  for (const ScalarExpr& e : mfp.filter) {
    out.filter_.push_back(CompileUnchecked(e));
  }
  OrderFilters(mfp, out);
  return out;
}

CompiledKey Access::CompileKeyUnchecked(const std::vector<ScalarExpr>& exprs) {
  CompiledKey key;
  for (const ScalarExpr& e : exprs) key.exprs_.push_back(CompileUnchecked(e));
  return key;
}

}  // namespace scalar_program

namespace internal {

uint64_t ScalarCompilations() {
  return scalar_program::compilations.load(std::memory_order_relaxed);
}

}  // namespace internal
}  // namespace lir::eval
