// lir-opt's flag-list syntax (tools/lir-opt/list_parse.h): `--monotonic_ids`
// and `--arity`, which the golden tests' `analyze` arguments share.
#include <map>
#include <set>
#include <string>

#include "gtest/gtest.h"
#include "tools/lir-opt/list_parse.h"

namespace lir::cli {
namespace {

TEST(ListParse, ParseIdAndArityLists) {
  std::set<std::string> ids;
  ParseIdList("a, b,,c", &ids);
  EXPECT_EQ(ids, (std::set<std::string>{"a", "b", "c"}));
  std::map<std::string, int> arities;
  ASSERT_TRUE(ParseArityList("materialize.public.t=2, u=0", &arities).ok());
  EXPECT_EQ(arities, (std::map<std::string, int>{{"materialize.public.t", 2},
                                                 {"u", 0}}));
  EXPECT_TRUE(ParseArityList("u=0", &arities).ok());  // same again is fine
  EXPECT_EQ(ParseArityList("u=1", &arities).message(),
            "u is given arities 0 and 1");
  EXPECT_EQ(ParseArityList("t", &arities).message(),
            "expected name=ARITY, got 't'");
  EXPECT_EQ(ParseArityList("t=-1", &arities).message(),
            "expected a non-negative arity in 't=-1'");
  EXPECT_FALSE(ParseArityList("=3", &arities).ok());
}

}  // namespace
}  // namespace lir::cli
