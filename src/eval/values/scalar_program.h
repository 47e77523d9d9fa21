// The lowered form behind CompiledScalar (lir/eval/compiled_scalar.h), and
// the unchecked compile the convenience functions of scalar_eval.h use. Not
// part of the evaluator's interface.
#ifndef LIR_EVAL_VALUES_SCALAR_PROGRAM_H_
#define LIR_EVAL_VALUES_SCALAR_PROGRAM_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "lir/eval/compiled_scalar.h"
#include "lir/eval/datum.h"
#include "lir/mfp.h"
#include "lir/scalar.h"
#include "src/eval/values/scalar_ops.h"

namespace lir::eval::scalar_program {

/// What a node of a program is.
enum class NodeKind : uint8_t {
  kColumn,   ///< `column` of the row
  kLiteral,  ///< `literals[index]`
  kCall,     ///< `op` over the children
  kIf,       ///< `case when`: children are condition, then, else
  kError,    ///< `errors[index]` (unchecked compiles only)
};

/// One node: an operation with its operands as a range of `children`.
struct Node {
  NodeKind kind = NodeKind::kLiteral;
  scalar_ops::Op op = scalar_ops::Op::kAdd;
  int column = 0;
  /// kLiteral: index in `literals`; kCall: the `record_get` field; kError:
  /// index in `errors`.
  uint32_t index = 0;
  /// The operands: `children[first, first + count)`.
  uint32_t first = 0;
  uint32_t count = 0;
  /// kCall: index in `names` of the printed name, for error messages.
  uint32_t name = 0;
};

/// A lowered expression; `nodes[root]` is its top.
struct Program {
  std::vector<Node> nodes;
  std::vector<uint32_t> children;
  std::vector<Datum> literals;
  std::vector<std::string> names;
  std::vector<absl::Status> errors;
  uint32_t root = 0;
};

/// Builds the compiled forms for scalar_eval.cc's convenience functions.
class Access {
 public:
  /// Compiles `expr` leaving every unsupported part as a node that fails
  /// with the error the old per-row walk gave when (and only if) it is
  /// evaluated. Only for EvalScalar / EvalMfp / EvalKey, which evaluate
  /// expressions no check has seen; the engines use the checked Compile.
  static CompiledScalar CompileUnchecked(const ScalarExpr& expr);
  /// As CompiledMfp::Compile with CompileUnchecked expressions.
  static CompiledMfp CompileMfpUnchecked(const MapFilterProject& mfp);
  /// As CompiledKey::Compile with CompileUnchecked expressions.
  static CompiledKey CompileKeyUnchecked(const std::vector<ScalarExpr>& exprs);
  /// Fills `out`'s filter order (the largest column each filter reads,
  /// and the filters stably sorted by it) from `mfp`'s filters.
  static void OrderFilters(const MapFilterProject& mfp, CompiledMfp& out);
};

}  // namespace lir::eval::scalar_program

#endif  // LIR_EVAL_VALUES_SCALAR_PROGRAM_H_
