// Corpus tests of the concise EXPLAIN reader (ParseConciseText) with the
// concise printer (PrintConciseText), over ../shared (read in place, never
// copied; every test skips visibly when it is absent):
//  - the 76 concise blocks of corpus/materialize-concise parse and print
//    back byte for byte;
//  - every concise block of materialize-slt/explain__default.slt, found by
//    its statement (CONCISE-FORMAT section 1), parses;
//  - the 134 verbose plans printed as concise text read back to a plan that
//    prints the same concise text (a fixpoint);
//  - for the exact pairs of CONCISE-FORMAT section 11, the plan read from
//    the concise block and the one read from the verbose block agree on
//    every fact the concise text shows, and the concise one marks exactly
//    the facts it does not show as unknown (that the verbose plans print as
//    the concise blocks is concise_pairs_test's).
#include <cctype>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "lir/explain/concise.h"
#include "lir/explain/line_diff.h"
#include "lir/explain/text.h"
#include "lir/unknown_facts.h"
#include "tests/support/corpus_util.h"

namespace lir::explain {
namespace {

namespace fs = std::filesystem;
using test::ReadFile;

fs::path ConciseDir() {
  return test::SharedDir() / "corpus" / "materialize-concise";
}

fs::path DefaultSlt() {
  return test::SharedDir() / "corpus" / "materialize-slt" /
         "explain__default.slt";
}

// The concise blocks of the corpus, in name order.
std::vector<fs::path> ConciseFiles() {
  std::vector<fs::path> files;
  std::error_code ec;
  if (!fs::is_directory(ConciseDir(), ec)) return files;
  for (const auto& entry : fs::directory_iterator(ConciseDir())) {
    if (entry.path().extension() == ".txt") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

#define LIR_SKIP_WITHOUT(path)                                        \
  if (std::error_code ec; !fs::exists(path, ec)) {                    \
    GTEST_SKIP() << (path) << " not found (../shared is absent; set " \
                 << "LIR_SHARED_DIR)";                                \
  }

TEST(ConciseCorpus, EveryBlockParses) {
  LIR_SKIP_WITHOUT(ConciseDir());
  const std::vector<fs::path> files = ConciseFiles();
  int parsed = 0;
  for (const fs::path& path : files) {
    ParseOptions options;
    options.filename = path.filename().string();
    absl::StatusOr<Document> doc = ParseText(ReadFile(path), options);
    EXPECT_TRUE(doc.ok()) << doc.status();
    if (!doc.ok()) continue;
    ++parsed;
    // The SUBSCRIBE block has no object and reads the same in both
    // syntaxes (CONCISE-FORMAT 3); every other one is concise.
    if (!doc->objects.empty()) {
      EXPECT_EQ(doc->syntax, TextSyntax::kConcise) << path.filename();
    }
  }
  EXPECT_EQ(files.size(), 76u);
  EXPECT_EQ(parsed, 76);
}

TEST(ConciseCorpus, EveryBlockPrintsBackByteForByte) {
  LIR_SKIP_WITHOUT(ConciseDir());
  int identical = 0;
  for (const fs::path& path : ConciseFiles()) {
    const std::string text = ReadFile(path);
    absl::StatusOr<Document> doc = ParseText(text);
    ASSERT_TRUE(doc.ok()) << path.filename() << ": " << doc.status();
    if (doc->syntax != TextSyntax::kConcise) {
      // The objectless SUBSCRIBE block: any printer writes it the same.
      EXPECT_EQ(PrintText(*doc), text) << path.filename();
      ++identical;
      continue;
    }
    absl::StatusOr<std::string> printed = PrintConciseText(*doc);
    ASSERT_TRUE(printed.ok()) << path.filename() << ": " << printed.status();
    EXPECT_EQ(*printed, text) << path.filename() << "\n"
                              << UnifiedDiff(text, *printed);
    if (*printed == text) ++identical;
  }
  std::cout << identical << "/76 concise blocks print back byte for byte\n";
  EXPECT_EQ(identical, 76);
}

// ---- sqllogictest blocks
// -----------------------------------------------------

// One `query T multiline` block of a .slt file.
struct SltBlock {
  int query_line = 0;   // 1-based line of `query T multiline`
  int output_line = 0;  // 1-based line of the first output line
  std::string statement;
  std::string output;  // the expected output, ending in one newline
};

std::vector<SltBlock> SltBlocks(const std::string& text) {
  std::vector<std::string> lines = absl::StrSplit(text, '\n');
  std::vector<SltBlock> blocks;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (absl::StripTrailingAsciiWhitespace(lines[i]) != "query T multiline") {
      continue;
    }
    SltBlock block;
    block.query_line = static_cast<int>(i) + 1;
    size_t j = i + 1;
    for (; j < lines.size() && lines[j] != "----"; ++j) {
      absl::StrAppend(&block.statement, lines[j], "\n");
    }
    block.output_line = static_cast<int>(j) + 2;
    std::vector<std::string> out;
    for (++j; j < lines.size() && lines[j] != "EOF"; ++j) {
      out.push_back(lines[j]);
    }
    // The framing puts a blank line before `EOF`; the output itself ends
    // in one newline.
    while (!out.empty() && out.back().empty()) out.pop_back();
    block.output = absl::StrCat(absl::StrJoin(out, "\n"), "\n");
    blocks.push_back(std::move(block));
    i = j;
  }
  return blocks;
}

// Whether an EXPLAIN statement prints a physical plan (or a fast-path
// plan) in the concise syntax (CONCISE-FORMAT section 1): the format is
// `AS TEXT`, or absent without an explicit `PHYSICAL PLAN` stage; the stage
// is physical (explicit, `PLAN`, or none), or the output is a fast path.
bool PrintsConcise(const std::string& statement, const std::string& output) {
  std::vector<std::string> words;
  std::string word;
  for (char c : statement) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      word += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      continue;
    }
    if (!word.empty()) words.push_back(std::move(word));
    word.clear();
    if (c == '(' || c == ')') words.emplace_back(1, c);
  }
  if (!word.empty()) words.push_back(word);
  size_t i = 0;
  auto at = [&](std::initializer_list<const char*> want) {
    size_t k = i;
    for (const char* w : want) {
      if (k >= words.size() || words[k] != w) return false;
      ++k;
    }
    i = k;
    return true;
  };
  if (!at({"EXPLAIN"})) return false;
  std::string stage = "physical";
  bool explicit_physical = false;
  if (at({"PHYSICAL", "PLAN"})) {
    explicit_physical = true;
  } else if (at({"OPTIMIZED", "PLAN"}) ||
             at({"LOCALLY", "OPTIMIZED", "PLAN"}) || at({"RAW", "PLAN"}) ||
             at({"DECORRELATED", "PLAN"})) {
    stage = "mir";
  } else if (at({"PLAN"})) {
    // The default stage.
  } else if (!words.empty() && i < words.size() &&
             (words[i] == "TIMESTAMP" || words[i] == "ANALYZE" ||
              words[i] == "FILTER" || words[i] == "KEY" ||
              words[i] == "VALUE" || words[i] == "OPTIMIZER")) {
    return false;
  }
  if (at({"WITH", "("})) {
    for (int depth = 1; i < words.size() && depth > 0; ++i) {
      if (words[i] == "(") ++depth;
      if (words[i] == ")") --depth;
    }
  }
  bool text_format = !explicit_physical;
  if (at({"AS", "VERBOSE", "TEXT"}) || at({"AS", "JSON"}) ||
      at({"AS", "DOT"})) {
    text_format = false;
  } else if (at({"AS", "TEXT"})) {
    text_format = true;
  }
  if (!text_format) return false;
  if (stage == "physical") return true;
  return absl::StartsWith(output,
                          "Explained Query (fast path):\n  \xE2\x86\x92");
}

TEST(ConciseCorpus, EveryConciseSltBlockParses) {
  LIR_SKIP_WITHOUT(DefaultSlt());
  int concise = 0;
  int parsed = 0;
  for (const SltBlock& block : SltBlocks(ReadFile(DefaultSlt()))) {
    if (!PrintsConcise(block.statement, block.output)) continue;
    ++concise;
    ParseOptions options;
    options.filename = "explain__default.slt";
    options.first_line = block.output_line;
    absl::StatusOr<Document> doc = ParseText(block.output, options);
    EXPECT_TRUE(doc.ok()) << "block at line " << block.query_line << ": "
                          << doc.status();
    if (!doc.ok()) continue;
    ++parsed;
    // The objectless SUBSCRIBE block reads as verbose; it is the same.
    if (!doc->objects.empty()) EXPECT_EQ(doc->syntax, TextSyntax::kConcise);
  }
  std::cout << parsed << "/" << concise
            << " concise blocks of explain__default.slt parse\n";
  EXPECT_EQ(concise, 72);
  EXPECT_EQ(parsed, concise);
}

// The verbose blocks of that file are not taken for concise ones.
TEST(ConciseCorpus, SltStatementRules) {
  EXPECT_TRUE(PrintsConcise("EXPLAIN SELECT 1\n", ""));
  EXPECT_TRUE(
      PrintsConcise("EXPLAIN WITH(humanized expressions) INDEX i\n", ""));
  EXPECT_TRUE(
      PrintsConcise("EXPLAIN PHYSICAL PLAN AS TEXT FOR SELECT 1\n", ""));
  EXPECT_TRUE(PrintsConcise("EXPLAIN PLAN FOR SELECT 1\n", ""));
  EXPECT_FALSE(PrintsConcise("EXPLAIN PHYSICAL PLAN FOR SELECT 1\n", ""));
  EXPECT_FALSE(PrintsConcise(
      "EXPLAIN PHYSICAL PLAN WITH(humanized expressions) FOR SELECT 1\n", ""));
  EXPECT_FALSE(PrintsConcise(
      "EXPLAIN PHYSICAL PLAN AS VERBOSE TEXT FOR SELECT 1\n", ""));
  EXPECT_FALSE(PrintsConcise("EXPLAIN OPTIMIZED PLAN FOR SELECT 1\n",
                             "Explained Query:\n  Map (1)\n"));
  EXPECT_TRUE(PrintsConcise("EXPLAIN OPTIMIZED PLAN FOR SELECT 1\n",
                            "Explained Query (fast path):\n  \xE2\x86\x92"
                            "Constant (1 rows)\n"));
  EXPECT_FALSE(PrintsConcise("EXPLAIN TIMESTAMP FOR SELECT 1\n", ""));
}

// ---- verbose -> concise -> concise ------------------------------------------

TEST(ConciseCorpus, VerbosePlansPrintedAsConciseAreAFixpoint) {
  const std::vector<fs::path> files = test::PlanFiles();
  LIR_SKIP_WITHOUT_CORPUS(files.empty());
  int fixpoints = 0;
  std::vector<std::string> refused;
  for (const fs::path& path : files) {
    const std::string name = path.filename().string();
    absl::StatusOr<Document> verbose = ParseText(ReadFile(path));
    ASSERT_TRUE(verbose.ok()) << name << ": " << verbose.status();
    absl::StatusOr<std::string> first = PrintConciseText(*verbose);
    if (!first.ok()) {
      // The printer refuses only where the verbose text lacks a fact the
      // concise one shows (a fast path's input arity), naming it.
      ASSERT_NE(first.status().code(), absl::StatusCode::kUnimplemented)
          << first.status();
      refused.push_back(absl::StrCat(name, ": ", first.status().message()));
      continue;
    }
    ParseOptions options;
    options.filename = name + " (printed concise)";
    absl::StatusOr<Document> concise = ParseConciseText(*first, options);
    ASSERT_TRUE(concise.ok()) << concise.status() << "\n" << *first;
    absl::StatusOr<std::string> second = PrintConciseText(*concise);
    ASSERT_TRUE(second.ok()) << name << ": " << second.status();
    EXPECT_EQ(*second, *first) << name << "\n" << UnifiedDiff(*first, *second);
    if (*second == *first) ++fixpoints;
  }
  std::cout << fixpoints << "/" << files.size()
            << " verbose plans are a concise fixpoint; " << refused.size()
            << " refused by the printer\n";
  for (const std::string& why : refused) std::cout << "  " << why << "\n";
  EXPECT_EQ(files.size(), 134u);
  EXPECT_EQ(fixpoints + static_cast<int>(refused.size()), 134);
  EXPECT_LE(refused.size(), 3u);  // at most the corpus's fast-path plans
}

// ---- exact pairs ----------------------------------------------------------

// Collects differences between a plan read from concise text and the same
// plan read from verbose text, on the facts the concise text shows.
class ShownFactsComparison {
 public:
  // Walks both trees together (iteratively) and compares each node pair.
  void Compare(const Node& concise, const Node& verbose) {
    std::vector<std::pair<const Node*, const Node*>> stack = {
        {&concise, &verbose}};
    while (!stack.empty()) {
      auto [c, v] = stack.back();
      stack.pop_back();
      where_ = absl::StrCat("LirId(", v->id, ") ", HeaderName(*v));
      if (c->kind() != v->kind()) {
        Diff("kind", HeaderName(*c));
        continue;
      }
      Check(c->id == v->id, "id");
      const UnknownFacts want = ExpectedUnknowns(*v);
      if (c->unknown != want) {
        Diff("unknown facts",
             absl::StrCat(Facts(c->unknown), " instead of ", Facts(want)));
      }
      CompareNode(*c, *v);
      if (c->inputs.size() != v->inputs.size()) {
        Diff("input count", "");
        continue;
      }
      for (size_t i = c->inputs.size(); i-- > 0;) {
        stack.push_back({c->inputs[i].get(), v->inputs[i].get()});
      }
      ++nodes_;
    }
  }

  const std::vector<std::string>& diffs() const { return diffs_; }
  int nodes() const { return nodes_; }

  // The facts the concise syntax drops for `verbose`'s node
  // (CONCISE-FORMAT section 9): what the reader must mark.
  static UnknownFacts ExpectedUnknowns(const Node& verbose) {
    UnknownFacts u;
    switch (verbose.kind()) {
      case NodeKind::kConstant:
        if (!verbose.As<ConstantOp>().error.has_value()) {
          u.Add(UnknownFact::kConstantRows);
        }
        break;
      case NodeKind::kGet: {
        const GetOp& g = verbose.As<GetOp>();
        if (g.kind != GetKind::kPassArrangements || !g.keys.raw ||
            !g.keys.arranged.empty()) {
          u.Add(UnknownFact::kAvailableForms);
        }
        break;
      }
      case NodeKind::kMfp:
      case NodeKind::kFlatMap: u.Add(UnknownFact::kInputKey); break;
      case NodeKind::kJoin:
        u.Add(UnknownFact::kStreamKeys);
        u.Add(UnknownFact::kJoinClosures);
        break;
      case NodeKind::kReduce: {
        const ReduceOp& r = verbose.As<ReduceOp>();
        u.Add(UnknownFact::kInputKey);
        u.Add(UnknownFact::kValPlan);
        if (r.kind == ReduceKind::kAccumulable && !r.simple_aggrs.empty() &&
            !r.distinct_aggrs.empty()) {
          u.Add(UnknownFact::kAggregatePositions);
        }
        break;
      }
      case NodeKind::kThreshold: u.Add(UnknownFact::kArrangementLayouts); break;
      case NodeKind::kUnion:
        for (UnionStrategy s : verbose.As<UnionOp>().strategies) {
          if (s == UnionStrategy::kTemporalBucketing) {
            u.Add(UnknownFact::kUnionStrategies);
          }
        }
        break;
      case NodeKind::kArrangeBy:
        u.Add(UnknownFact::kInputKey);
        u.Add(UnknownFact::kArrangeStrategy);
        if (!verbose.As<ArrangeByOp>().forms.arranged.empty()) {
          u.Add(UnknownFact::kRawFlag);
          u.Add(UnknownFact::kArrangementLayouts);
        }
        break;
      case NodeKind::kSetDifference:
        u.Add(UnknownFact::kArrangementLayouts);
        u.Add(UnknownFact::kArmKeys);
        break;
      case NodeKind::kAntiJoin: u.Add(UnknownFact::kArmKeys); break;
      case NodeKind::kLet:
      case NodeKind::kLetRec:
      case NodeKind::kTopK:
      case NodeKind::kNegate: break;
    }
    return u;
  }

 private:
  static std::string Facts(UnknownFacts facts) {
    std::vector<std::string> names;
    facts.ForEach(
        [&](UnknownFact f) { names.emplace_back(UnknownFactName(f)); });
    return absl::StrCat("{", absl::StrJoin(names, ", "), "}");
  }

  void Diff(const std::string& field, const std::string& detail) {
    diffs_.push_back(
        absl::StrCat(where_, ": ", field, detail.empty() ? "" : ": ", detail));
  }
  void Check(bool same, const std::string& field) {
    if (!same) Diff(field, "differs");
  }

  // A closure the concise form prints (JoinClosure::maps_or_filters).
  static bool Printed(const std::optional<JoinClosure>& closure) {
    return closure.has_value() &&
           (!closure->mfp.filter.empty() || !closure->mfp.map.empty() ||
            !closure->ready_equivalences.empty());
  }

  void CompareClosure(const std::optional<JoinClosure>& c,
                      const std::optional<JoinClosure>& v,
                      const std::string& field) {
    // An unprinted closure is unknown (kJoinClosures): nullopt on the
    // concise side, and the verbose one must be one that is not printed.
    if (!c.has_value()) {
      Check(!Printed(v), field + " (printed but not read)");
      return;
    }
    Check(v.has_value() && *c == *v, field);
  }

  void CompareNode(const Node& cn, const Node& vn) {
    const UnknownFacts u = cn.unknown;
    switch (cn.kind()) {
      case NodeKind::kConstant: {
        const ConstantOp& c = cn.As<ConstantOp>();
        const ConstantOp& v = vn.As<ConstantOp>();
        Check(c.error == v.error && c.error_redacted == v.error_redacted,
              "error");
        if (u.Has(UnknownFact::kConstantRows)) {
          Check(c.rows.empty(), "rows (placeholder)");
          Check(c.entry_count == v.rows.size(), "entry count");
        } else {
          Check(c.rows == v.rows, "rows");
        }
        break;
      }
      case NodeKind::kGet: {
        const GetOp& c = cn.As<GetOp>();
        const GetOp& v = vn.As<GetOp>();
        Check(c.id == v.id, "id");
        Check(c.kind == v.kind, "get kind");
        Check(c.key == v.key, "key");
        Check(c.seek == v.seek, "seek");
        Check(c.mfp == v.mfp, "mfp");
        if (!u.Has(UnknownFact::kAvailableForms))
          Check(c.keys == v.keys, "keys");
        break;
      }
      case NodeKind::kLet:
        Check(cn.As<LetOp>().id == vn.As<LetOp>().id, "let id");
        break;
      case NodeKind::kLetRec:
        Check(cn.As<LetRecOp>().ids == vn.As<LetRecOp>().ids &&
                  cn.As<LetRecOp>().limits == vn.As<LetRecOp>().limits,
              "bindings");
        break;
      case NodeKind::kMfp:
        Check(cn.As<MfpOp>().mfp == vn.As<MfpOp>().mfp, "mfp");
        break;
      case NodeKind::kFlatMap: {
        const FlatMapOp& c = cn.As<FlatMapOp>();
        const FlatMapOp& v = vn.As<FlatMapOp>();
        Check(c.func == v.func && c.exprs == v.exprs, "call");
        Check(c.mfp_after == v.mfp_after, "mfp_after");
        break;
      }
      case NodeKind::kJoin: {
        const JoinOp& c = cn.As<JoinOp>();
        const JoinOp& v = vn.As<JoinOp>();
        Check(c.delta == v.delta, "delta");
        if (c.paths.size() != v.paths.size()) {
          Diff("paths", "count");
          break;
        }
        for (size_t p = 0; p < c.paths.size(); ++p) {
          const JoinPath& cp = c.paths[p];
          const JoinPath& vp = v.paths[p];
          const std::string at = absl::StrCat("path ", p, " ");
          Check(cp.source_relation == vp.source_relation, at + "source");
          Check(cp.source_key == vp.source_key, at + "source key");
          Check(!cp.initial_closure.has_value(), at + "initial closure");
          if (cp.stages.size() != vp.stages.size()) {
            Diff(at + "stages", "count");
            continue;
          }
          for (size_t s = 0; s < cp.stages.size(); ++s) {
            const std::string st = absl::StrCat(at, "stage ", s, " ");
            Check(cp.stages[s].lookup_relation == vp.stages[s].lookup_relation,
                  st + "lookup relation");
            Check(cp.stages[s].lookup_key == vp.stages[s].lookup_key,
                  st + "lookup key");
            CompareClosure(cp.stages[s].closure, vp.stages[s].closure,
                           st + "closure");
          }
          CompareClosure(cp.final_closure, vp.final_closure,
                         at + "final closure");
        }
        break;
      }
      case NodeKind::kReduce: {
        const ReduceOp& c = cn.As<ReduceOp>();
        const ReduceOp& v = vn.As<ReduceOp>();
        Check(c.kind == v.kind, "reduce kind");
        const bool positions = !u.Has(UnknownFact::kAggregatePositions);
        auto same_aggrs = [&](const auto& a, const auto& b) {
          if (a.size() != b.size()) return false;
          for (size_t i = 0; i < a.size(); ++i) {
            if (a[i].second != b[i].second) return false;
            if (positions && a[i].first != b[i].first) return false;
          }
          return true;
        };
        Check(same_aggrs(c.simple_aggrs, v.simple_aggrs), "simple aggregates");
        Check(same_aggrs(c.distinct_aggrs, v.distinct_aggrs),
              "distinct aggregates");
        Check(c.aggr_funcs == v.aggr_funcs, "aggr_funcs");
        Check(c.must_consolidate == v.must_consolidate, "must_consolidate");
        Check(c.buckets == v.buckets, "buckets");
        Check(c.aggrs == v.aggrs, "aggrs");
        Check(c.fused_unnest_list == v.fused_unnest_list, "fused_unnest_list");
        Check(c.temporal_bucketing == v.temporal_bucketing,
              "temporal bucketing");
        Check(c.key_plan == v.key_plan, "key_plan");
        Check(c.mfp_after == v.mfp_after, "mfp_after");
        break;
      }
      case NodeKind::kTopK: {
        const TopKOp& c = cn.As<TopKOp>();
        const TopKOp& v = vn.As<TopKOp>();
        Check(c.kind == v.kind && c.group_by == v.group_by &&
                  c.order_by == v.order_by && c.limit == v.limit &&
                  c.offset == v.offset &&
                  c.must_consolidate == v.must_consolidate &&
                  c.temporal_bucketing == v.temporal_bucketing,
              "topk");
        break;
      }
      case NodeKind::kNegate: break;
      case NodeKind::kThreshold:
        Check(cn.As<ThresholdOp>().ensure_arrangement.key ==
                  vn.As<ThresholdOp>().ensure_arrangement.key,
              "key");
        break;
      case NodeKind::kUnion: {
        const UnionOp& c = cn.As<UnionOp>();
        const UnionOp& v = vn.As<UnionOp>();
        Check(c.consolidate_output == v.consolidate_output, "consolidate");
        if (!u.Has(UnknownFact::kUnionStrategies)) {
          Check(c.strategies.empty(), "strategies");
        }
        break;
      }
      case NodeKind::kArrangeBy: {
        const ArrangeByOp& c = cn.As<ArrangeByOp>();
        const ArrangeByOp& v = vn.As<ArrangeByOp>();
        Check(c.input_mfp == v.input_mfp, "input_mfp");
        if (c.forms.arranged.size() != v.forms.arranged.size()) {
          Diff("arrangements", "count");
          break;
        }
        for (size_t i = 0; i < c.forms.arranged.size(); ++i) {
          Check(c.forms.arranged[i].key == v.forms.arranged[i].key,
                absl::StrCat("arrangement ", i, " key"));
        }
        if (!u.Has(UnknownFact::kRawFlag)) {
          Check(c.forms.raw == v.forms.raw, "raw");
        }
        break;
      }
      case NodeKind::kSetDifference:
        Check(cn.As<SetDifferenceOp>().ensure_arrangement.key ==
                  vn.As<SetDifferenceOp>().ensure_arrangement.key,
              "key");
        break;
      case NodeKind::kAntiJoin:
        Check(cn.As<AntiJoinOp>().key == vn.As<AntiJoinOp>().key, "key");
        break;
    }
  }

  std::string where_;
  std::vector<std::string> diffs_;
  int nodes_ = 0;
};

struct ExactPair {
  const char* concise;  // materialize-concise/
  const char* verbose;  // materialize/
};

// CONCISE-FORMAT section 11.
constexpr ExactPair kExactPairs[] = {
    {"default-L336.txt", "default-L377.plan"},
    {"default-L226.txt", "physical_plan_as_text-L391.plan"},
    {"default-L274.txt", "physical_plan_as_text-L268.plan"},
    {"default-L300.txt", "physical_plan_as_text-L247.plan"},
    {"default-L665.txt", "physical_plan_as_text-L1185.plan"},
};

TEST(ConciseCorpus, ExactPairsAgreeOnShownFacts) {
  LIR_SKIP_WITHOUT(ConciseDir());
  LIR_SKIP_WITHOUT(test::CorpusDir());
  int nodes = 0;
  for (const ExactPair& pair : kExactPairs) {
    SCOPED_TRACE(pair.concise);
    absl::StatusOr<Document> concise =
        ParseConciseText(ReadFile(ConciseDir() / pair.concise));
    absl::StatusOr<Document> verbose =
        ParseText(ReadFile(test::CorpusDir() / pair.verbose));
    ASSERT_TRUE(concise.ok()) << concise.status();
    ASSERT_TRUE(verbose.ok()) << verbose.status();
    // The frame is the same text in both syntaxes.
    ASSERT_EQ(concise->objects.size(), verbose->objects.size());
    EXPECT_EQ(concise->used_indexes, verbose->used_indexes);
    EXPECT_EQ(concise->target_cluster, verbose->target_cluster);
    EXPECT_EQ(concise->sources.size(), verbose->sources.size());
    for (size_t i = 0; i < concise->objects.size(); ++i) {
      const Object& c = concise->objects[i];
      const Object& v = verbose->objects[i];
      EXPECT_EQ(c.name, v.name);
      EXPECT_EQ(c.finish, v.finish);
      ASSERT_NE(c.plan, nullptr);
      ASSERT_NE(v.plan, nullptr);
      ShownFactsComparison comparison;
      comparison.Compare(*c.plan, *v.plan);
      EXPECT_TRUE(comparison.diffs().empty())
          << absl::StrJoin(comparison.diffs(), "\n");
      nodes += comparison.nodes();
    }
  }
  std::cout << "5 exact pairs agree on the shown facts of " << nodes
            << " nodes\n";
  EXPECT_GT(nodes, 20);
}

// The comparison can fail: a changed shown fact or a missing mark is seen.
TEST(ConciseCorpus, ShownFactsComparisonSeesDifferences) {
  LIR_SKIP_WITHOUT(ConciseDir());
  LIR_SKIP_WITHOUT(test::CorpusDir());
  absl::StatusOr<Document> concise =
      ParseConciseText(ReadFile(ConciseDir() / "default-L336.txt"));
  absl::StatusOr<Document> verbose =
      ParseText(ReadFile(test::CorpusDir() / "default-L377.plan"));
  ASSERT_TRUE(concise.ok() && verbose.ok());
  Node* root = concise->objects[0].plan.get();
  // The body's Mfp: change its map.
  Node* mfp = root->inputs[1].get();
  ASSERT_TRUE(mfp->Is<MfpOp>());
  mfp->As<MfpOp>().mfp.map.clear();
  // A Constant that forgot its mark.
  Node* constant = root;
  while (!constant->inputs.empty()) constant = constant->inputs.back().get();
  ASSERT_TRUE(constant->Is<ConstantOp>());
  constant->unknown.Remove(UnknownFact::kConstantRows);
  ShownFactsComparison comparison;
  comparison.Compare(*root, *verbose->objects[0].plan);
  const std::string diffs = absl::StrJoin(comparison.diffs(), "\n");
  EXPECT_TRUE(absl::StrContains(diffs, "mfp")) << diffs;
  EXPECT_TRUE(absl::StrContains(diffs, "unknown facts")) << diffs;
  EXPECT_TRUE(absl::StrContains(diffs, "rows")) << diffs;
}

// The reader's inference for accumulable aggregates of one kind (their
// positions are 0..n-1 in order) holds for every such Reduce of the verbose
// corpus, and the positions of the mixed ones are not always that.
TEST(ConciseCorpus, AccumulablePositionsOfOneKindAreInOrder) {
  LIR_SKIP_WITHOUT_CORPUS(test::ParsedPlans().empty());
  int one_kind = 0;
  for (const test::ParsedPlan& plan : test::ParsedPlans()) {
    for (const Object& object : plan.doc.objects) {
      if (object.plan == nullptr) continue;
      ForEachPreOrder(*object.plan, [&](const Node& node, int) {
        const ReduceOp* r =
            node.Is<ReduceOp>() ? &node.As<ReduceOp>() : nullptr;
        if (r == nullptr || r->kind != ReduceKind::kAccumulable) return;
        if (!r->simple_aggrs.empty() && !r->distinct_aggrs.empty()) return;
        const auto& aggrs =
            r->simple_aggrs.empty() ? r->distinct_aggrs : r->simple_aggrs;
        for (size_t i = 0; i < aggrs.size(); ++i) {
          EXPECT_EQ(aggrs[i].first, static_cast<int>(i)) << plan.name;
        }
        ++one_kind;
      });
    }
  }
  std::cout << one_kind << " accumulable Reduces with one kind of aggregate\n";
  EXPECT_GT(one_kind, 0);
}

}  // namespace
}  // namespace lir::explain
