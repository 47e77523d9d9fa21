// Corpus validation of the EXPLAIN text primitives: every expression-bearing
// piece of every shared Materialize plan (maps, filters, projections, keys,
// arrangements, aggregates, constant rows, order keys, ...) must parse and
// print back byte for byte. Skips visibly when the corpus is absent.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "src/explain/text_primitives.h"
#include "tests/support/corpus_util.h"

namespace lir::explain {
namespace {

/// One piece of a plan line handed to one primitive parser.
struct Piece {
  std::string kind;   ///< which parser: "exprs", "predicates", ...
  std::string text;   ///< the piece itself
  std::string where;  ///< file:line
};

/// Result of parsing a piece and printing it back.
struct Reprint {
  bool ok = false;
  std::string printed;   ///< when ok
  std::string error;     ///< when not ok: message and offset
  size_t error_pos = 0;  ///< when not ok
};

template <typename T, typename Print>
Reprint Finish(const absl::StatusOr<T>& result, size_t pos, Print print) {
  Reprint r;
  r.ok = result.ok();
  if (r.ok) {
    r.printed = print(*result);
  } else {
    r.error = std::string(result.status().message()) + " at offset " +
              std::to_string(pos);
    r.error_pos = pos;
  }
  return r;
}

/// Parses `text` with the parser named `kind` and prints the result.
Reprint ParseAndPrint(const std::string& kind, const std::string& text) {
  size_t pos = 0;
  if (kind == "exprs") {
    return Finish(ParseExprList(text, &pos), pos, PrintExprList);
  }
  if (kind == "expr") {
    return Finish(ParseExpr(text, &pos), pos,
                  [](const ScalarExpr& e) { return PrintExpr(e); });
  }
  if (kind == "predicates") {
    return Finish(ParsePredicates(text, &pos), pos, PrintPredicates);
  }
  if (kind == "indices")
    return Finish(ParseIndices(text, &pos), pos, PrintIndices);
  if (kind == "compact") {
    return Finish(ParseCompactScalars(text, &pos), pos, PrintCompactScalars);
  }
  if (kind == "order_keys") {
    return Finish(ParseOrderKeys(text, &pos), pos, PrintOrderKeys);
  }
  if (kind == "arrangement") {
    return Finish(ParseArrangement(text, &pos), pos, PrintArrangement);
  }
  if (kind == "aggregate") {
    return Finish(ParseAggregate(text, &pos), pos, PrintAggregate);
  }
  if (kind == "constant_row") {
    return Finish(ParseConstantRow(text, &pos), pos,
                  [](const ConstantOp::Entry& e) {
                    return PrintConstantRow(e.row, e.diff);
                  });
  }
  if (kind == "row") return Finish(ParseRow(text, &pos), pos, PrintRow);
  ADD_FAILURE() << "unknown kind " << kind;
  return Reprint{};
}

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}
bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// The text inside the bracket at `open_at` up to its matching closer
/// (string literals skipped).
std::string Bracketed(const std::string& s, size_t open_at) {
  int depth = 0;
  for (size_t i = open_at; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\\') ++i;
      }
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
      return s.substr(open_at + 1, i - open_at - 1);
    }
  }
  return s.substr(open_at + 1);
}

/// Extracts the primitive pieces of one unindented plan line.
void ExtractPieces(std::string line, const std::string& where,
                   std::vector<Piece>& out) {
  if (size_t note = line.find(" // { node_id:"); note != std::string::npos) {
    line.resize(note);
  }
  auto add = [&](const char* kind, std::string text) {
    out.push_back(Piece{kind, std::move(text), where});
  };
  auto after = [&](const std::string& prefix) {
    return line.substr(prefix.size());
  };
  if (StartsWith(line, "project=(")) {
    add("indices", Bracketed(line, 8));
  } else if (StartsWith(line, "filter=(")) {
    add("predicates", Bracketed(line, 7));
  } else if (StartsWith(line, "pushdown=(")) {
    add("predicates", Bracketed(line, 9));
  } else if (StartsWith(line, "map=(")) {
    add("exprs", Bracketed(line, 4));
  } else if (StartsWith(line, "TemporalFilter: ")) {
    // [lower, ... <= ]mz_now()[ < upper, ...]
    std::string rest = after("TemporalFilter: ");
    size_t now = rest.find("mz_now()");
    if (now >= 4) add("exprs", rest.substr(0, now - 4));
    std::string upper = rest.substr(now + 8);
    if (StartsWith(upper, " < ")) add("exprs", upper.substr(3));
  } else if (StartsWith(line, "key=")) {
    add("compact", after("key="));
  } else if (StartsWith(line, "input_key=[")) {
    add("compact", Bracketed(line, 10));
  } else if (StartsWith(line, "input_key=")) {
    add("compact", after("input_key="));
  } else if (StartsWith(line, "val=") || StartsWith(line, "input_val=")) {
    add("row", line.substr(line.find('=') + 1));
  } else if (StartsWith(line, "arrangements[")) {
    add("arrangement", line.substr(line.find("]=") + 2));
  } else if (StartsWith(line, "Threshold::Basic ensure_arrangement=")) {
    add("arrangement", after("Threshold::Basic ensure_arrangement="));
  } else if (StartsWith(line, "- (")) {
    add("constant_row", after("- "));
  } else if (StartsWith(line, "aggr=(")) {
    // The caller (the plan parser) strips the Reduce::Basic flag.
    std::string inner = Bracketed(line, 5);
    const std::string fused = ", fused_unnest_list=true";
    if (EndsWith(inner, fused)) inner.resize(inner.size() - fused.size());
    add("aggregate", inner);
  } else if (StartsWith(line, "aggrs[")) {
    add("aggregate", line.substr(line.find("]=") + 2));
  } else if (StartsWith(line, "simple_aggrs[") ||
             StartsWith(line, "distinct_aggrs[")) {
    std::string inner = Bracketed(line, line.find("]=(") + 2);
    add("aggregate", inner.substr(inner.find(", ") + 2));
  } else if (StartsWith(line, "lookup={ ") || StartsWith(line, "source={ ") ||
             StartsWith(line, "stream={ ")) {
    if (size_t key = line.find("key=["); key != std::string::npos) {
      add("compact", Bracketed(line, key + 4));
    }
    if (size_t thin = line.find("thinning=("); thin != std::string::npos) {
      add("indices", Bracketed(line, thin + 9));
    }
  } else if (StartsWith(line, "TopK::") || StartsWith(line, "Finish")) {
    if (size_t g = line.find(" group_by=["); g != std::string::npos) {
      add("compact", Bracketed(line, g + 10));
    }
    if (size_t o = line.find(" order_by=["); o != std::string::npos) {
      add("order_keys", Bracketed(line, o + 10));
    }
    if (size_t l = line.find(" limit="); l != std::string::npos) {
      std::string limit = line.substr(l + 7);
      add("expr", limit.substr(0, limit.find(' ')));
    }
    if (size_t o = line.find(" output=["); o != std::string::npos) {
      add("indices", Bracketed(line, o + 8));
    }
  } else if (StartsWith(line, "FlatMap ")) {
    // The arguments are the last top-level (...) group (7.16).
    int depth = 0;
    for (size_t i = line.size(); i-- > 0;) {
      if (line[i] == ')') ++depth;
      if (line[i] == '(' && --depth == 0) {
        add("compact", Bracketed(line, i));
        break;
      }
    }
  } else if (StartsWith(line, "Project (") || StartsWith(line, "Map (")) {
    add("compact", Bracketed(line, line.find('(')));
  } else if (StartsWith(line, "Filter ")) {
    add("predicates", after("Filter "));
  } else if (StartsWith(line, "ReadIndex ")) {
    if (size_t v = line.find("lookup value="); v != std::string::npos) {
      add("row", "(" + Bracketed(line, v + 13) + ")");
    }
  }
}

/// All pieces of all corpus plans; `files` receives the number of plans.
std::vector<Piece> CollectPieces(int* files) {
  std::vector<Piece> pieces;
  *files = 0;
  for (const std::filesystem::path& path : test::PlanFiles()) {
    ++*files;
    std::ifstream in(path);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      size_t indent = line.find_first_not_of(' ');
      if (indent == std::string::npos) continue;
      ExtractPieces(line.substr(indent),
                    path.filename().string() + ":" + std::to_string(number),
                    pieces);
    }
  }
  return pieces;
}

TEST(CorpusPrimitivesTest, EveryPieceReprintsByteForByte) {
  LIR_SKIP_WITHOUT_CORPUS(test::PlanFiles().empty());
  int files = 0;
  std::vector<Piece> pieces = CollectPieces(&files);
  std::map<std::string, int> counts;
  int identical = 0;
  for (const Piece& piece : pieces) {
    ++counts[piece.kind];
    Reprint r = ParseAndPrint(piece.kind, piece.text);
    EXPECT_TRUE(r.ok) << piece.where << ": " << piece.kind << " `" << piece.text
                      << "`: " << r.error;
    if (!r.ok) continue;
    EXPECT_EQ(r.printed, piece.text) << piece.where << ": " << piece.kind;
    if (r.printed == piece.text) ++identical;
  }
  std::string summary;
  for (const auto& [kind, count] : counts) {
    summary += " " + kind + "=" + std::to_string(count);
  }
  std::printf("corpus: %d files, %d/%zu pieces reprinted byte-identically:%s\n",
              files, identical, pieces.size(), summary.c_str());
  EXPECT_GE(files, 100);
  // Floors well below the corpus's counts: they catch an extractor that
  // silently stops finding pieces (which would make the test vacuous).
  auto count_of = [&](const char* kind) { return counts[kind]; };
  EXPECT_GE(count_of("exprs"), 100);
  EXPECT_GE(count_of("predicates"), 40);
  EXPECT_GE(count_of("indices"), 400);
  EXPECT_GE(count_of("compact"), 300);
  EXPECT_GE(count_of("arrangement"), 200);
  EXPECT_GE(count_of("aggregate"), 90);
  EXPECT_GE(count_of("constant_row"), 40);
  EXPECT_GE(count_of("order_keys"), 15);
  EXPECT_GE(count_of("expr"), 5);
}

TEST(CorpusPrimitivesTest, TruncatedPiecesFailCleanlyOrPrintCanonically) {
  // Every prefix of every corpus piece either fails with an `expected ...`
  // error inside the text, or parses to something whose printed form is
  // canonical (prints back to itself). Run under sanitizers this also
  // checks that no input is read out of bounds.
  LIR_SKIP_WITHOUT_CORPUS(test::PlanFiles().empty());
  int files = 0;
  std::vector<Piece> pieces = CollectPieces(&files);
  std::map<std::string, bool> seen;
  int failures = 0;
  int successes = 0;
  for (const Piece& piece : pieces) {
    if (seen[piece.kind + "\n" + piece.text]) continue;
    seen[piece.kind + "\n" + piece.text] = true;
    for (size_t len = 0; len < piece.text.size(); ++len) {
      std::string prefix = piece.text.substr(0, len);
      Reprint r = ParseAndPrint(piece.kind, prefix);
      if (!r.ok) {
        ++failures;
        EXPECT_EQ(r.error.rfind("expected ", 0), 0u) << r.error;
        EXPECT_LE(r.error_pos, prefix.size()) << prefix << ": " << r.error;
        continue;
      }
      ++successes;
      Reprint again = ParseAndPrint(piece.kind, r.printed);
      EXPECT_TRUE(again.ok) << piece.where << ": `" << prefix << "` printed `"
                            << r.printed << "`: " << again.error;
      EXPECT_EQ(again.printed, r.printed)
          << piece.where << ": `" << prefix << "`";
    }
  }
  std::printf("truncations: %d rejected, %d accepted and canonical\n", failures,
              successes);
  EXPECT_GT(failures, 1000);
}

}  // namespace
}  // namespace lir::explain
