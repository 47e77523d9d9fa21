// The concise printer against Materialize's own output
// (../shared/reference/CONCISE-FORMAT.md section 11): the verbose plan of
// each exact pair, read with ParseText and printed with PrintConciseText,
// must equal the concise block of the same query byte for byte; the near
// pairs must agree in their plan bodies; every verbose corpus plan must
// print as concise text. The blocks are read from ../shared at test time
// (never copied here); without it the tests skip visibly. The printer's
// handling of partial plans (facts only the concise reader leaves unknown)
// is checked on documents built here.
#include <pthread.h>

#include <algorithm>
#include <cstddef>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "lir/document.h"
#include "lir/explain/concise.h"
#include "lir/explain/line_diff.h"
#include "lir/explain/text.h"
#include "lir/node.h"
#include "tests/support/corpus_util.h"

namespace lir {
namespace {

namespace fs = std::filesystem;

fs::path SltDir() { return test::SharedDir() / "corpus" / "materialize-slt"; }

/// The expected output of the sqllogictest block whose `query T multiline`
/// line is line `line` (1-based) of `file` (../shared/corpus/README.md).
absl::StatusOr<std::string> SltBlock(const std::string& file, int line) {
  const std::string text = test::ReadFile(SltDir() / file);
  if (text.empty()) return absl::NotFoundError(absl::StrCat(file, " is empty"));
  std::vector<std::string> lines = absl::StrSplit(text, '\n');
  const std::string where = absl::StrCat(file, ":", line);
  if (line < 1 || static_cast<size_t>(line) > lines.size() ||
      lines[line - 1] != "query T multiline") {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": expected 'query T multiline'"));
  }
  size_t i = static_cast<size_t>(line);
  while (i < lines.size() && lines[i] != "----") ++i;
  // The text after `----\n` up to, not including, the `\nEOF\n` that
  // closes it (the blank line before `EOF` ends the output's last line).
  std::string block;
  const size_t first = i + 1;
  for (i = first; i < lines.size() && lines[i] != "EOF"; ++i) {
    if (i > first) block += '\n';
    block += lines[i];
  }
  if (i == lines.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": block not closed by EOF"));
  }
  return block;
}

/// The plan body of a one-object document: the lines after the object
/// header up to the first blank line.
std::string PlanBody(const std::string& text) {
  std::string body;
  bool header = true;
  for (absl::string_view l : absl::StrSplit(text, '\n')) {
    if (header) {
      header = false;
      continue;
    }
    if (l.empty()) break;
    absl::StrAppend(&body, l, "\n");
  }
  return body;
}

/// Reads `verbose` as a verbose document and prints it concise.
absl::StatusOr<std::string> VerboseToConcise(const std::string& verbose) {
  absl::StatusOr<Document> doc = explain::ParseText(verbose);
  if (!doc.ok()) return doc.status();
  if (doc->syntax != TextSyntax::kVerbose) {
    return absl::InvalidArgumentError("the verbose block read as concise");
  }
  return explain::PrintConciseText(*doc);
}

#define LIR_SKIP_WITHOUT_SLT()                                      \
  if (!fs::is_directory(SltDir())) {                                \
    GTEST_SKIP() << "sqllogictest corpus not found at " << SltDir() \
                 << " (../shared is absent; set LIR_SHARED_DIR)";   \
  }

struct BlockRef {
  const char* file;
  int line;
};

struct Pair {
  BlockRef concise;
  BlockRef verbose;
};

// CONCISE-FORMAT section 11, "Exact pairs".
constexpr Pair kExactPairs[] = {
    {{"explain__default.slt", 336}, {"explain__default.slt", 377}},
    {{"explain__default.slt", 226},
     {"explain__physical_plan_as_text.slt", 391}},
    {{"explain__default.slt", 274},
     {"explain__physical_plan_as_text.slt", 268}},
    {{"explain__default.slt", 300},
     {"explain__physical_plan_as_text.slt", 247}},
    {{"explain__default.slt", 665},
     {"explain__physical_plan_as_text.slt", 1185}},
};

TEST(ConcisePairs, ExactPairsPrintByteForByte) {
  LIR_SKIP_WITHOUT_SLT();
  int passed = 0;
  for (const Pair& pair : kExactPairs) {
    const std::string name =
        absl::StrCat(pair.concise.file, ":", pair.concise.line, " <- ",
                     pair.verbose.file, ":", pair.verbose.line);
    absl::StatusOr<std::string> concise =
        SltBlock(pair.concise.file, pair.concise.line);
    absl::StatusOr<std::string> verbose =
        SltBlock(pair.verbose.file, pair.verbose.line);
    ASSERT_TRUE(concise.ok()) << concise.status();
    ASSERT_TRUE(verbose.ok()) << verbose.status();
    absl::StatusOr<std::string> printed = VerboseToConcise(*verbose);
    ASSERT_TRUE(printed.ok()) << name << ": " << printed.status();
    EXPECT_EQ(*printed, *concise) << name << " (- expected, + printed):\n"
                                  << explain::UnifiedDiff(*concise, *printed);
    if (*printed == *concise) ++passed;
  }
  std::cout << "[  INFO    ] exact pairs byte-identical: " << passed << "/"
            << std::size(kExactPairs) << "\n";
}

// CONCISE-FORMAT section 11, "Near pairs": the verbose side is a corpus
// plan file (temporal_bucketing.slt is not among the .slt files) or an
// .slt block.
struct NearPair {
  BlockRef concise;
  const char* verbose_plan;  // a corpus .plan file, or null
  BlockRef verbose;          // else this block
};

constexpr NearPair kNearPairs[] = {
    {{"explain__default.slt", 2163}, "temporal_bucketing-L27.plan", {}},
    {{"explain__default.slt", 2184}, "temporal_bucketing-L139.plan", {}},
    {{"explain__default.slt", 2205}, "temporal_bucketing-L196.plan", {}},
    {{"explain__default.slt", 114},
     nullptr,
     {"explain__physical_plan_as_text.slt", 106}},
    {{"explain__default.slt", 126},
     nullptr,
     {"explain__physical_plan_as_text.slt", 118}},
};

TEST(ConcisePairs, NearPairsAgreeInTheirPlanBodies) {
  LIR_SKIP_WITHOUT_SLT();
  LIR_SKIP_WITHOUT_CORPUS(test::PlanFiles().empty());
  int passed = 0;
  for (const NearPair& pair : kNearPairs) {
    absl::StatusOr<std::string> concise =
        SltBlock(pair.concise.file, pair.concise.line);
    ASSERT_TRUE(concise.ok()) << concise.status();
    absl::StatusOr<std::string> verbose =
        pair.verbose_plan != nullptr
            ? absl::StatusOr<std::string>(
                  test::ReadFile(test::CorpusDir() / pair.verbose_plan))
            : SltBlock(pair.verbose.file, pair.verbose.line);
    ASSERT_TRUE(verbose.ok()) << verbose.status();
    const std::string name =
        absl::StrCat(pair.concise.file, ":", pair.concise.line);
    absl::StatusOr<std::string> printed = VerboseToConcise(*verbose);
    ASSERT_TRUE(printed.ok()) << name << ": " << printed.status();
    const std::string want = PlanBody(*concise);
    const std::string got = PlanBody(*printed);
    ASSERT_FALSE(want.empty()) << name;
    EXPECT_EQ(got, want) << name << " (- expected, + printed):\n"
                         << explain::UnifiedDiff(want, got);
    if (got == want) ++passed;
  }
  std::cout << "[  INFO    ] near pairs with identical bodies: " << passed
            << "/" << std::size(kNearPairs) << "\n";
}

// Every verbose corpus plan prints as concise text: one newline at the
// end, no tab, no trailing space, and the same frame sections (Source,
// Used Indexes, Target cluster, ...) as the verbose text, since the frame
// is shared (CONCISE-FORMAT 3). No plan is expected to be refused.
TEST(ConcisePairs, EveryCorpusPlanPrints) {
  const std::vector<fs::path> files = test::PlanFiles();
  LIR_SKIP_WITHOUT_CORPUS(files.empty());
  EXPECT_EQ(files.size(), 134u);
  int printed_ok = 0;
  for (const fs::path& file : files) {
    const std::string name = file.filename().string();
    const std::string verbose = test::ReadFile(file);
    absl::StatusOr<std::string> printed = VerboseToConcise(verbose);
    if (!printed.ok()) {
      ADD_FAILURE() << name << ": " << printed.status();
      continue;
    }
    const std::string& text = *printed;
    ASSERT_FALSE(text.empty()) << name;
    EXPECT_EQ(text.back(), '\n') << name;
    EXPECT_FALSE(absl::EndsWith(text, "\n\n")) << name;
    EXPECT_EQ(text.find('\t'), std::string::npos) << name;
    EXPECT_EQ(text.find(" \n"), std::string::npos) << name;
    // Everything from the first section after the objects is the frame's.
    for (const std::string section :
         {"\nSource ", "\nUsed Indexes:", "\nTarget cluster:", "\nNotices:"}) {
      const size_t in_verbose = verbose.find(section);
      if (in_verbose == std::string::npos) continue;
      const size_t in_concise = text.find(section);
      ASSERT_NE(in_concise, std::string::npos) << name << ": " << section;
      EXPECT_EQ(text.substr(in_concise), verbose.substr(in_verbose)) << name;
      break;
    }
    // Every line of a plan body is an operator line (`→`) or an attribute
    // line; none of the verbose headers survive.
    for (const std::string head :
         {"Get::", "Reduce::", "Join::", "TopK::", "Threshold::"}) {
      EXPECT_EQ(text.find(absl::StrCat(" ", head)), std::string::npos)
          << name << ": " << head;
    }
    ++printed_ok;
  }
  std::cout << "[  INFO    ] corpus plans printed as concise: " << printed_ok
            << "/" << files.size() << "\n";
}

// ---- Partial plans (built here: what the concise reader produces) ---------

// A document of one object named `name`, its body left to the caller.
Document NamedObject(std::string name) {
  Document doc;
  Object object;
  object.name = std::move(name);
  doc.objects.push_back(std::move(object));
  return doc;
}

Document OneObject(NodePtr plan) {
  Document doc = NamedObject("Explained Query");
  doc.objects[0].plan = std::move(plan);
  doc.syntax = TextSyntax::kConcise;
  return doc;
}

TEST(ConcisePrinter, PrintsTheEntryCountOfConstantsWithUnknownRows) {
  for (uint64_t n : {0u, 1u, 25u}) {
    ConstantOp constant;
    constant.entry_count = n;
    NodePtr node = MakeNode(constant);
    node->unknown.Add(UnknownFact::kConstantRows);
    node->id = 1;
    absl::StatusOr<std::string> text =
        explain::PrintConciseText(OneObject(std::move(node)));
    ASSERT_TRUE(text.ok()) << text.status();
    EXPECT_EQ(*text, absl::StrCat("Explained Query:\n  →Constant (", n,
                                  n == 1 ? " row)\n" : " rows)\n"));
  }
}

TEST(ConcisePrinter, RefusesAConstantCutByTheVerboseForm) {
  ConstantOp constant;
  constant.rows.resize(20);
  constant.elided_total_rows = 57;
  NodePtr node = MakeNode(constant);
  node->id = 4;
  absl::StatusOr<std::string> text =
      explain::PrintConciseText(OneObject(std::move(node)));
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(absl::StartsWith(text.status().message(),
                               "Explained Query: LirId(4) Constant: "))
      << text.status();
}

Document FastPathDoc(FastPath fast_path) {
  Document doc = NamedObject("Explained Query (fast path)");
  doc.objects[0].fast_path = std::move(fast_path);
  return doc;
}

TEST(ConcisePrinter, FastPathConstantWithUnknownRows) {
  FastPath fast_path;
  fast_path.kind = FastPath::Kind::kConstant;
  fast_path.constant.entry_count = 1;
  fast_path.unknown.Add(UnknownFact::kConstantRows);
  absl::StatusOr<std::string> text =
      explain::PrintConciseText(FastPathDoc(fast_path));
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text, "Explained Query (fast path):\n  →Constant (1 rows)\n");
}

FastPath IndexRead() {
  FastPath fast_path;
  fast_path.kind = FastPath::Kind::kReadIndex;
  fast_path.collection = "materialize.public.t";
  fast_path.index = "t_a_idx";
  fast_path.map = {ScalarExpr::Lit(Literal::Int(1))};
  return fast_path;
}

TEST(ConcisePrinter, FastPathProjectFollowsTheConciseReadersFacts) {
  FastPath identity = IndexRead();
  identity.project_is_input_identity = true;
  identity.qualified_index = "db.sch.t_a_idx";
  absl::StatusOr<std::string> text =
      explain::PrintConciseText(FastPathDoc(identity));
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text,
            "Explained Query (fast path):\n"
            "  →Map/Filter/Project\n"
            "    Map: 1\n"
            "      →Indexed materialize.public.t (using db.sch.t_a_idx)\n");

  FastPath projected = IndexRead();
  projected.project_is_input_identity = false;
  projected.project = std::vector<ScalarExpr>{ScalarExpr::Column(2)};
  text = explain::PrintConciseText(FastPathDoc(projected));
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text,
            "Explained Query (fast path):\n"
            "  →Map/Filter/Project\n"
            "    Project: #2\n"
            "    Map: 1\n"
            "      →Indexed materialize.public.t (using "
            "materialize.public.t_a_idx)\n");
}

TEST(ConcisePrinter, FastPathRefusesWhereTheInputArityDecides) {
  // Verbose facts only: no `Project` line over a Map means the identity
  // over input + map, which the concise form writes `Project: #0..=#k`.
  absl::StatusOr<std::string> text =
      explain::PrintConciseText(FastPathDoc(IndexRead()));
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(absl::StartsWith(text.status().message(),
                               "Explained Query (fast path): "))
      << text.status();
  // `Project (#0, #1)` over a Map: the identity over the input iff it has
  // two columns.
  FastPath prefix = IndexRead();
  prefix.project =
      std::vector<ScalarExpr>{ScalarExpr::Column(0), ScalarExpr::Column(1)};
  EXPECT_FALSE(explain::PrintConciseText(FastPathDoc(prefix)).ok());
  // Not a prefix of the columns: never the identity, printed.
  FastPath permuted = IndexRead();
  permuted.project =
      std::vector<ScalarExpr>{ScalarExpr::Column(1), ScalarExpr::Column(0)};
  EXPECT_TRUE(explain::PrintConciseText(FastPathDoc(permuted)).ok());
}

// A chain `levels` deep alternating Negate, an Mfp whose MFP prints a line
// (its input two levels down) and an ArrangeBy with an input MFP (the same),
// over a one-row constant.
NodePtr DeepChain(int levels) {
  ConstantOp constant;
  constant.rows.push_back({Row{}, 1});
  NodePtr plan = MakeNode(constant);
  for (int i = 0; i < levels; ++i) {
    std::vector<NodePtr> inputs;
    inputs.push_back(std::move(plan));
    MapFilterProject filter;
    filter.filter = {ScalarExpr::Lit(Literal::Bool(true))};
    switch (i % 3) {
      case 0: plan = MakeNode(NegateOp{}, std::move(inputs)); break;
      case 1: {
        MfpOp mfp;
        mfp.mfp = filter;
        plan = MakeNode(std::move(mfp), std::move(inputs));
        break;
      }
      default: {
        ArrangeByOp arrange;
        arrange.input_mfp = filter;
        arrange.forms.raw = true;
        plan = MakeNode(std::move(arrange), std::move(inputs));
        break;
      }
    }
  }
  return plan;
}

struct SmallStackRun {
  int levels = 0;
  absl::StatusOr<std::string> text;
};

void* PrintOnSmallStack(void* arg) {
  auto* run = static_cast<SmallStackRun*>(arg);
  run->text = explain::PrintConciseText(OneObject(DeepChain(run->levels)));
  return nullptr;
}

TEST(ConcisePrinter, PrintsDeepPlansIteratively) {
  // The text indents two spaces per level, so it grows with the square of
  // the depth; 3,000 levels on a 256 KiB stack would overflow a recursive
  // printer (as in deep_plan_test).
  SmallStackRun run;
  run.levels = 3000;
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, 256 * 1024), 0);
  pthread_t thread;
  ASSERT_EQ(pthread_create(&thread, &attr, &PrintOnSmallStack, &run), 0);
  ASSERT_EQ(pthread_join(thread, nullptr), 0);
  pthread_attr_destroy(&attr);
  ASSERT_TRUE(run.text.ok()) << run.text.status();
  // The object line, one operator line per node, a Filter line per Mfp,
  // a wrapper and a Filter line per ArrangeBy.
  const int per_kind = run.levels / 3;
  EXPECT_EQ(std::count(run.text->begin(), run.text->end(), '\n'),
            1 + run.levels + 1 + per_kind + 2 * per_kind);
  // Negate: input one deeper; Mfp and ArrangeBy with lines: two deeper.
  const size_t depth = 1 + per_kind * (1 + 2 + 2);
  EXPECT_TRUE(absl::EndsWith(
      *run.text,
      absl::StrCat(std::string(2 * depth, ' '), "→Constant (1 row)\n")));
}

TEST(ConcisePrinter, FlattensA100000DeepLetChain) {
  // A Let whose body is a Let prints in the same `→With`: 10^5 nested Lets
  // are 10^5 bindings at one level.
  constexpr int kBindings = 100000;
  GetOp get;
  get.id = CollectionId::Local(kBindings - 1);
  get.keys.raw = true;
  NodePtr plan = MakeNode(std::move(get));
  for (int i = kBindings; i-- > 0;) {
    ConstantOp constant;
    std::vector<NodePtr> inputs;
    inputs.push_back(MakeNode(constant));
    inputs.push_back(std::move(plan));
    LetOp let;
    let.id = static_cast<uint64_t>(i);
    plan = MakeNode(let, std::move(inputs));
  }
  absl::StatusOr<std::string> text =
      explain::PrintConciseText(OneObject(std::move(plan)));
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_TRUE(absl::StartsWith(*text,
                               "Explained Query:\n  →With\n    cte l0 =\n"
                               "      →Constant (0 rows)\n    cte l1 =\n"));
  EXPECT_TRUE(absl::EndsWith(
      *text, absl::StrCat("  →Return\n    →Stream l", kBindings - 1, "\n")));
}

}  // namespace
}  // namespace lir
