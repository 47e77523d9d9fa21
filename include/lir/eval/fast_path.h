// Running a fast-path object (`Explained Query (fast path):`): a one-shot
// peek that Materialize answers without a dataflow (adapter/src/coord/
// peek.rs `FastPathPlan`). Each round the peek is answered anew from the
// accumulated contents of the collection it reads, so it needs no engine:
// both engines report the same contents by construction.
#ifndef LIR_EVAL_FAST_PATH_H_
#define LIR_EVAL_FAST_PATH_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "lir/document.h"
#include "lir/eval/compiled_scalar.h"
#include "lir/eval/data.h"
#include "lir/eval/datum.h"
#include "lir/mfp.h"

namespace lir::eval {

/// A fast-path peek ready to answer: the constant, or the read collection,
/// the index key and the MFP over the row Materialize writes it against.
class FastPathPeek {
 public:
  /// Checks everything that prevents answering before any round: the read
  /// collection has data (`arity` < 0: unknown), an index read's index is
  /// declared in the data file (its key is not in the plan), the lookup rows
  /// have the key's arity, every function is supported. Errors name
  /// `object` and say what is missing.
  static absl::StatusOr<FastPathPeek> Make(const std::string& object,
                                           const FastPath& fast_path,
                                           const InputData& data, int arity);

  /// The collection read, or empty for a constant.
  const std::string& collection() const { return collection_; }

  /// The peek's answer when the collection holds `contents` (ignored for a
  /// constant). Data errors (division by zero, a retraction of a row that
  /// does not exist under an index read, a negative constant multiplicity)
  /// are returned as the round's error.
  absl::StatusOr<Multiset> Answer(const Multiset& contents) const;

 private:
  FastPathPeek() = default;

  FastPath::Kind kind_ = FastPath::Kind::kConstant;
  ConstantOp constant_;
  std::string collection_;
  /// Index reads: the key's columns of the collection; the layout row is
  /// the key values, the other columns in order, then (for lookups) the
  /// looked-up value again, as Materialize's peek hands its MFP.
  std::vector<int> key_;
  std::vector<int> others_;
  std::optional<std::vector<DataRow>> lookup_;
  /// Persist peeks: the required prefix of leading columns.
  std::optional<DataRow> prefix_;
  /// The Map, Filter and Project lines as one MFP, with an explicit
  /// projection (without a Project line every column is output).
  MapFilterProject mfp_;
  /// `mfp_` compiled when the peek is made, for the rows.
  CompiledMfp compiled_mfp_;
};

}  // namespace lir::eval

#endif  // LIR_EVAL_FAST_PATH_H_
