// `lir-opt explain --format=dot` and `run --analyze_format=dot` as Graphviz
// reads them: every plan lir-opt can draw (the fixtures, the corpus, with
// and without the rewrites and annotations) is a graph `dot -Tsvg` accepts;
// the highlighted nodes are exactly those a rewrite made; the README's
// pictures are drawn from what lir-opt prints now. Skipped, visibly, when
// Graphviz is not installed (scripts/setup.sh installs it). The graph
// text itself is golden in testdata/cli/dot.txt.
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/support/cli_test_util.h"
#include "tests/support/corpus_util.h"

namespace {

namespace fs = std::filesystem;
using lir::test::ReadFile;
using lir::test::RunResult;

bool HaveDot() { return std::system("command -v dot >/dev/null 2>&1") == 0; }

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + 1)) {
    ++n;
  }
  return n;
}

class DotCliTest : public lir::test::LirOptTest {
 protected:
  // Whether `dot -Tsvg` reads `graph` without an error.
  bool DotAccepts(const std::string& graph, std::string* error) {
    const std::string in = Temp("graph.dot", graph);
    const std::string err = (dir_ / "dot.err").string();
    const std::string command =
        absl::StrCat("dot -Tsvg ", lir::test::ShellQuote(in), " >/dev/null 2>",
                     lir::test::ShellQuote(err));
    const bool ok = std::system(command.c_str()) == 0;
    *error = ReadFile(err);
    return ok;
  }
};

TEST_F(DotCliTest, GraphvizAcceptsEveryPlanDrawn) {
  if (IsSkipped()) return;
  if (!HaveDot()) GTEST_SKIP() << "dot (graphviz) is not installed";
  std::vector<fs::path> plans;
  for (const auto& entry : fs::directory_iterator(fs::path(LIR_SOURCE_DIR) /
                                                  "testdata" / "plans")) {
    if (entry.path().extension() == ".plan") plans.push_back(entry.path());
  }
  const std::vector<fs::path> corpus = lir::test::PlanFiles();
  if (corpus.empty()) {
    std::cout << "[  SKIPPED ] the corpus part: ../shared is absent\n";
  }
  plans.insert(plans.end(), corpus.begin(), corpus.end());
  // Every graph goes to one dot run (a file may hold many graphs); only
  // when dot refuses it are the graphs checked one by one, to name the plan.
  std::vector<std::pair<std::string, std::string>> graphs;  // plan, graph
  for (const fs::path& plan : plans) {
    for (const std::vector<std::string>& flags :
         {std::vector<std::string>{},
          {"--enable_fused_set_difference", "--enable_antijoin_rendering",
           "--annotate=node_id,arity,arrangements_built"}}) {
      std::vector<std::string> args = {"explain", "--format=dot"};
      args.insert(args.end(), flags.begin(), flags.end());
      args.push_back(plan.string());
      RunResult r = Run(args);
      // Plans that are invalid on purpose fail as explain does.
      if (r.exit_code != 0) continue;
      graphs.emplace_back(plan.filename().string(), r.out);
    }
  }
  std::string all;
  for (const auto& [plan, graph] : graphs) all += graph;
  std::string error;
  if (!DotAccepts(all, &error)) {
    for (const auto& [plan, graph] : graphs) {
      EXPECT_TRUE(DotAccepts(graph, &error)) << plan << ": " << error << "\n"
                                             << graph;
    }
  }
  const size_t drawn = graphs.size();
  // The fixtures alone give more than a hundred graphs.
  EXPECT_GT(drawn, 100u);
}

// A fired rewrite's node is highlighted, and nothing else is; the
// arrangements drop by trace T's cylinder.
TEST_F(DotCliTest, HighlightsExactlyTheNodesARewriteMade) {
  if (IsSkipped()) return;
  const std::string plan =
      (fs::path(LIR_SOURCE_DIR) / "examples" / "except.plan").string();
  const std::string highlight = "fillcolor=\"#ffe4b0\"";
  RunResult off = Run({"explain", "--format=dot", plan});
  RunResult on =
      Run({"explain", "--format=dot", "--enable_fused_set_difference", plan});
  ASSERT_EQ(off.exit_code, 0) << off.err;
  ASSERT_EQ(on.exit_code, 0) << on.err;
  EXPECT_EQ(Count(off.out, highlight), 0u) << off.out;
  EXPECT_EQ(Count(on.out, highlight), 1u) << on.out;
  EXPECT_NE(on.out.find("Set Difference #0\\l\", style=\"rounded,bold"),
            std::string::npos)
      << on.out;
  EXPECT_EQ(Count(off.out, "shape=cylinder") - Count(on.out, "shape=cylinder"),
            1u);
}

// docs/plan-except-{off,on}.dot (rendered into the README's PNGs by
// scripts/plan_pictures.sh) are what lir-opt prints now.
TEST_F(DotCliTest, ReadmePicturesAreCurrent) {
  if (IsSkipped()) return;
  const fs::path root(LIR_SOURCE_DIR);
  for (const std::string side : {"off", "on"}) {
    std::vector<std::string> args = {
        "run", "--data=" + (root / "examples" / "except.data.json").string(),
        "--analyze=memory", "--analyze_format=dot"};
    if (side == "on") args.push_back("--enable_fused_set_difference");
    args.push_back((root / "examples" / "except.plan").string());
    RunResult r = Run(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, ReadFile(root / "docs" / ("plan-except-" + side + ".dot")))
        << "docs/plan-except-" << side
        << ".dot is stale: run scripts/plan_pictures.sh";
  }
}

}  // namespace
