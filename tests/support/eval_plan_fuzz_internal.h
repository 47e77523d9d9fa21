// The general-plan generator's state, shared by its source files
// (eval_plan_fuzz_gen.cc: leaves, unary nodes, Let and data;
// eval_plan_fuzz_stateful.cc: Reduce, TopK and LetRec;
// eval_plan_fuzz_join.cc: Join::Linear and Join::Delta;
// eval_plan_fuzz_antijoin.cc: AntiJoin). Internal.
#ifndef LIR_TESTS_SUPPORT_EVAL_PLAN_FUZZ_INTERNAL_H_
#define LIR_TESTS_SUPPORT_EVAL_PLAN_FUZZ_INTERNAL_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tests/support/eval_plan_fuzz_gen.h"
#include "tests/support/eval_plan_fuzz_parts.h"

namespace lir::test::fuzz {

/// A generated subplan: its text (header at column 0) and what its parent
/// needs to know to stay valid: the column types, whether multiplicities
/// may be negative, and the column keys of the arrangements it offers.
struct Sub {
  Lines lines;
  Schema schema;
  bool may_be_negative = false;
  std::vector<std::vector<int>> offered;
};

/// An input collection.
struct Global {
  std::string name;
  Schema schema;
  std::vector<bool> nullable;
};

/// A local binding in scope.
struct Local {
  uint64_t id = 0;
  Schema schema;
  std::vector<std::vector<int>> offered;
};

/// Draws one FuzzCase from a seed (GenerateFuzzCase); one use per object.
class FuzzGenerator {
 public:
  explicit FuzzGenerator(uint64_t seed) : dice_(seed), exprs_(dice_) {}
  FuzzCase Build();

 private:
  // eval_plan_fuzz_gen.cc
  Sub Gen(int depth);
  Sub Leaf();
  Sub Constant();
  Sub GetGlobal();
  Sub GetLocal(const Local& local);
  Sub MfpNode(int depth);
  Sub FlatMap(int depth);
  Sub UnionNode(int depth);
  Sub NegateNode(Sub input);
  Sub Difference(int depth);
  Sub ThresholdNode(int depth);
  Sub ArrangeByNode(int depth);
  Sub Reduce(int depth);
  Sub TopK(int depth);
  Sub Let(int depth);
  Sub LetRec(int depth);
  Sub LetRecBody(const Local& local);

  // Wrappers that keep a parent valid.
  Sub WrapMfp(Sub input, const MfpSpec& spec);
  Sub WrapThreshold(Sub input, bool arrange);
  Sub WrapArrange(Sub input, const std::vector<std::vector<int>>& keys);
  Sub Conform(Sub input, const Schema& target);
  Sub RequireType(Sub input, Type type);
  Sub NonNegative(Sub input);
  Sub UseLocal(Sub body, const Local& local);

  // eval_plan_fuzz_join.cc
  Sub LinearJoin(int depth);
  Sub DeltaJoin(int depth);

  // eval_plan_fuzz_antijoin.cc
  Sub AntiJoin(int depth);

  eval::InputData Data();
  void Count(const std::string& kind) { ++kinds_[kind]; }

  Dice dice_;
  ExprGen exprs_;
  std::vector<Global> globals_;
  std::vector<Local> scope_;
  std::map<uint64_t, int> uses_;
  uint64_t next_local_ = 0;
  int budget_ = 0;
  /// Joins so far: joins of joins multiply sizes, so a plan has at most
  /// kMaxJoins (and every case stays fast).
  int joins_ = 0;
  static constexpr int kMaxJoins = 2;
  /// LetRecs whose values are being generated: no AntiJoin there (Validate
  /// rejects one inside the values of a LetRec, SEMANTICS 7.1).
  int recursive_values_ = 0;
  std::map<std::string, int> kinds_;
};

}  // namespace lir::test::fuzz

#endif  // LIR_TESTS_SUPPORT_EVAL_PLAN_FUZZ_INTERNAL_H_
