// ../shared/reference/SEMANTICS.md section 8: layout rows of arrangement forms,
// and which form an arranged read finds (include/lir/layout.h).
#include "lir/layout.h"

#include <optional>
#include <vector>

#include "gtest/gtest.h"
#include "lir/arrangement.h"
#include "lir/node.h"
#include "tests/support/ir_helpers.h"

namespace lir {
namespace {

using test::Col;

ScalarExpr Plus1(int c) {
  return ScalarExpr::Call(CallStyle::kInfix, "+",
                          {Col(c), ScalarExpr::Lit(Literal::Int(1))});
}

// Expects `form`'s layout to have these widths and maps.
void ExpectLayout(const ArrangementForm& form, int row_arity, int arity,
                  const std::vector<int>& position,
                  const std::vector<int>& column) {
  const std::optional<Layout> layout = MakeLayout(form);
  ASSERT_TRUE(layout.has_value());
  EXPECT_EQ(layout->row_arity, row_arity);
  EXPECT_EQ(layout->arity, arity);
  EXPECT_EQ(layout->position, position);
  EXPECT_EQ(layout->column, column);
  EXPECT_EQ(LayoutArity(form.key, row_arity), arity);
}

TEST(LayoutTest, PermutedIndexFromTheContract) {
  // An index on t(v1, k1, k2) by [#1]: layout (k1, v1, k2).
  ExpectLayout(MakeArrangement({Col(1)}, 3), 3, 3, {1, 0, 2}, {1, 0, 2});
}

TEST(LayoutTest, KeyExpressionsWidenTheLayout) {
  // [(#0 + 1)] on 2 columns: P = [1, 2], layout (r0+1, r0, r1).
  const ArrangementForm form = MakeArrangement({Plus1(0)}, 2);
  ExpectLayout(form, 2, 3, {1, 2}, {-1, 0, 1});
  EXPECT_EQ(ColumnAtLayoutPosition(form.key, &form, 0), -1);
  EXPECT_EQ(ColumnAtLayoutPosition(form.key, nullptr, 0), -1);
  EXPECT_EQ(ColumnAtLayoutPosition(form.key, nullptr, 2), 1);
}

TEST(LayoutTest, RepeatedKeyColumnSitsAtItsLastPosition) {
  // [#1, #1] on 2 columns: column 1 at position 1; position 0 holds a copy.
  const ArrangementForm form = MakeArrangement({Col(1), Col(1)}, 2);
  const std::optional<Layout> layout = MakeLayout(form);
  ASSERT_TRUE(layout.has_value());
  EXPECT_EQ(layout->arity, 3);
  EXPECT_EQ(layout->column, (std::vector<int>{-1, 1, 0}));
  EXPECT_EQ(ColumnAtLayoutPosition(form.key, nullptr, 0), -1);
  EXPECT_EQ(ColumnAtLayoutPosition(form.key, nullptr, 1), 1);
  EXPECT_EQ(ColumnAtLayoutPosition(form.key, nullptr, 2), 0);
}

TEST(LayoutTest, DerivedAndPrintedPositionsAgree) {
  for (int arity = 1; arity <= 4; ++arity) {
    for (int k = 0; k < arity; ++k) {
      const std::vector<ScalarExpr> key = {Col(k)};
      const ArrangementForm form = MakeArrangement(key, arity);
      for (int p = 0; p < arity; ++p) {
        EXPECT_EQ(ColumnAtLayoutPosition(key, &form, p),
                  ColumnAtLayoutPosition(key, nullptr, p))
            << "arity " << arity << " key #" << k << " position " << p;
      }
    }
  }
}

TEST(LayoutTest, PositionOfColumnInvertsColumnAtPosition) {
  // Plain keys, a repeated column and a key expression, derived and printed.
  const std::vector<std::vector<ScalarExpr>> keys = {
      {Col(1)}, {Col(2), Col(0)}, {Col(1), Col(1)}, {Plus1(0)}, {}};
  for (const std::vector<ScalarExpr>& key : keys) {
    const ArrangementForm form = MakeArrangement(key, 3);
    for (int c = 0; c < 3; ++c) {
      const int derived = LayoutPositionOfColumn(key, nullptr, c);
      EXPECT_EQ(derived, LayoutPositionOfColumn(key, &form, c)) << c;
      EXPECT_EQ(ColumnAtLayoutPosition(key, nullptr, derived), c) << c;
      EXPECT_EQ(ColumnAtLayoutPosition(key, &form, derived), c) << c;
    }
  }
  // t(v1, k1, k2) by [#1]: v1 at 1, k1 at 0, k2 at 2.
  const ArrangementForm form = MakeArrangement({Col(1)}, 3);
  EXPECT_EQ(LayoutPositionOfColumn(form.key, &form, 0), 1);
  EXPECT_EQ(LayoutPositionOfColumn(form.key, &form, 1), 0);
  EXPECT_EQ(LayoutPositionOfColumn(form.key, &form, 2), 2);
  // Outside the form's row, or negative: no position.
  EXPECT_EQ(LayoutPositionOfColumn(form.key, &form, 3), -1);
  EXPECT_EQ(LayoutPositionOfColumn(form.key, nullptr, -1), -1);
}

TEST(LayoutTest, InconsistentFormsHaveNoLayout) {
  ArrangementForm form = MakeArrangement({Col(1)}, 2);
  form.permutation = {{0, 1}, {1, 1}};  // two columns at position 1
  EXPECT_FALSE(MakeLayout(form).has_value());
  form.permutation = {{0, 5}};
  EXPECT_FALSE(MakeLayout(form).has_value());
}

TEST(LayoutTest, OfferedFormsFollowSection85) {
  // Get::PassArrangements offers its printed forms.
  GetOp get;
  get.id = CollectionId::Global("materialize.public.t");
  get.keys.arranged = {MakeArrangement({Col(1)}, 2)};
  NodePtr get_node = MakeNode(get);
  EXPECT_EQ(OfferedForm(*get_node, {Col(1)}, 2), get.keys.arranged[0]);
  EXPECT_FALSE(OfferedForm(*get_node, {Col(0)}, 2).has_value());
  // Through an ArrangeBy without an MFP, its input's forms and its own.
  ArrangeByOp arrange;
  arrange.forms.arranged = {MakeArrangement({Col(0)}, 2)};
  NodePtr by = MakeNode(arrange, [&] {
    std::vector<NodePtr> in;
    in.push_back(std::move(get_node));
    return in;
  }());
  EXPECT_EQ(OfferedForm(*by, {Col(1)}, 2), get.keys.arranged[0]);
  EXPECT_EQ(OfferedForm(*by, {Col(0)}, 2), arrange.forms.arranged[0]);
  // A Reduce offers #0..#k-1 over its output (needs the arity).
  NodePtr reduce = MakeNode(ReduceOp{});
  EXPECT_EQ(OfferedForm(*reduce, {Col(0)}, 3), MakeArrangement({Col(0)}, 3));
  EXPECT_FALSE(OfferedForm(*reduce, {Col(1)}, 3).has_value());
  EXPECT_FALSE(OfferedForm(*reduce, {Col(0)}, std::nullopt).has_value());
  // A MonotonicTop1 offers its group key, with the permutation it implies.
  TopKOp top1;
  top1.kind = TopKKind::kMonotonicTop1;
  top1.group_by = {1};
  NodePtr topk = MakeNode(top1);
  EXPECT_EQ(OfferedForm(*topk, {Col(1)}, 2), MakeArrangement({Col(1)}, 2));
  // Raw-only nodes offer nothing; ReadForm then derives the layout.
  NodePtr negate = MakeNode(NegateOp{});
  EXPECT_FALSE(OfferedForm(*negate, {Col(1)}, 2).has_value());
  EXPECT_EQ(ReadForm(*negate, {Col(1)}, 2), MakeArrangement({Col(1)}, 2));
  EXPECT_FALSE(ReadForm(*negate, {Col(1)}, std::nullopt).has_value());
}

}  // namespace
}  // namespace lir
