// Concise joins (../shared/reference/CONCISE-FORMAT.md section 6, Join):
// the chain on the operator line (`%0:t[#0{a}] » %1[×]`, one bracketed chain
// per delta path), the closure blocks below it (`after %k:`, `Final
// closure:`, `path %s:`), and the check of the chain's names against the
// inputs once they are read.
//
// The concise form drops every stage's stream key and thinning, initial
// closures and closures that only project: a join read from it is marked
// kStreamKeys and kJoinClosures, its unprinted closures left nullopt.
#include <cctype>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "lir/status_macros.h"
#include "src/explain/concise_parser.h"
#include "src/explain/text_primitives.h"

namespace lir::explain::internal {
namespace {

// One join operator word: the label and what it says.
struct JoinLabel {
  absl::string_view prefix;  // with the space that follows it
  bool delta;
  bool cross;
  bool one_shot;
};

constexpr JoinLabel kJoinLabels[] = {
    {"Differential Join ", false, false, false},
    {"Differential Cross Join ", false, true, false},
    {"Delta Join ", true, false, false},
    {"Delta Cross Join ", true, true, false},
    {"One-Shot Delta Join ", true, false, true},
    {"One-Shot Delta Cross Join ", true, true, true},
};

// The text of `label` as the printer writes it: `→Delta Cross Join`.
std::string LabelText(bool delta, bool cross, bool one_shot) {
  return absl::StrCat(kArrow, one_shot ? "One-Shot " : "",
                      delta ? "Delta" : "Differential", cross ? " Cross" : "",
                      " Join");
}

// The start of the bracket group that closes at the very end of `item`
// (skipping string literals), or npos: the item's key.
size_t FinalGroupStart(absl::string_view item) {
  if (item.empty() || item.back() != ']') return absl::string_view::npos;
  int depth = 0;
  size_t open = absl::string_view::npos;
  for (size_t i = 0; i < item.size(); ++i) {
    const char c = item[i];
    if (c == '"') {
      i = StringLiteralEnd(item, i);
    } else if (c == '(' || c == '[' || c == '{') {
      if (depth++ == 0) open = i;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0 && i + 1 == item.size()) return open;
    }
  }
  return absl::string_view::npos;
}

// One chain item `%<position>[:<name>][<key>]` at byte `base` of the
// header line. `*key` is nullopt when no brackets are printed.
absl::StatusOr<ChainItem> ParseChainItem(
    const ErrorSink& errors, const TextLine& line, size_t base,
    absl::string_view item, std::optional<std::vector<ScalarExpr>>* key) {
  ChainItem out;
  out.offset = base;
  size_t digits = 1;
  while (digits < item.size() &&
         std::isdigit(static_cast<unsigned char>(item[digits]))) {
    ++digits;
  }
  if (item.empty() || item[0] != '%' || digits == 1 ||
      !IsCanonicalNumber(item.substr(1, digits - 1)) ||
      !absl::SimpleAtoi(item.substr(1, digits - 1), &out.position)) {
    return errors.Expected(line, base, "'%<input position>'");
  }
  absl::string_view rest = item.substr(digits);
  const size_t open = FinalGroupStart(rest);
  *key = std::nullopt;
  if (open != absl::string_view::npos) {
    const absl::string_view list =
        rest.substr(open + 1, rest.size() - open - 2);
    const size_t list_base = base + digits + open + 1;
    if (list == "\xC3\x97") {  // `×`: the empty key
      *key = std::vector<ScalarExpr>{};
    } else if (list.empty()) {
      return errors.Expected(line, list_base, "a key, or '\xC3\x97'");
    } else {
      LIR_ASSIGN_OR_RETURN(*key, ParseConciseAt(errors, line, list_base, list,
                                                ParseCompactScalars));
    }
    rest = rest.substr(0, open);
  }
  if (!rest.empty()) {
    if (rest[0] != ':' || rest.size() == 1) {
      return errors.Expected(line, base + digits,
                             "':<input name>', '[<key>]' or the end of the "
                             "input");
    }
    out.name = std::string(rest.substr(1));
  }
  return out;
}

// A chain `%s[...] » %r[...] » ...` at byte `base` into `path`, its items
// appended to `items`.
absl::Status ParseChain(const ErrorSink& errors, const TextLine& line,
                        size_t base, absl::string_view chain, JoinPath* path,
                        std::vector<ChainItem>* items) {
  const std::vector<std::pair<size_t, absl::string_view>> pieces =
      SplitTopLevel(chain, " \xC2\xBB ");
  std::vector<bool> seen(pieces.size(), false);
  for (size_t k = 0; k < pieces.size(); ++k) {
    const auto& [offset, piece] = pieces[k];
    std::optional<std::vector<ScalarExpr>> key;
    LIR_ASSIGN_OR_RETURN(
        ChainItem item,
        ParseChainItem(errors, line, base + offset, piece, &key));
    if (item.position < 0 ||
        static_cast<size_t>(item.position) >= pieces.size() ||
        seen[item.position]) {
      return errors.Expected(
          line, item.offset,
          absl::StrCat("each input from %0 to %", pieces.size() - 1,
                       " once in the chain (it joins ", pieces.size(),
                       " inputs)"));
    }
    seen[item.position] = true;
    if (k == 0) {
      path->source_relation = item.position;
      path->source_key = std::move(key);  // no brackets: the raw source
    } else {
      if (!key.has_value()) {
        return errors.Expected(line, base + offset + piece.size(),
                               "'[<key>]' or '[\xC3\x97]' after a looked-up "
                               "input");
      }
      JoinStage stage;
      stage.lookup_relation = item.position;
      stage.lookup_key = *std::move(key);
      path->stages.push_back(std::move(stage));
    }
    items->push_back(std::move(item));
  }
  return absl::OkStatus();
}

// The content of a closure block at `level`: MFP lines, then
// `Equivalences:`. Only closures that map, filter or check equivalences
// are printed (`maps_or_filters`), so anything else would not print back.
absl::StatusOr<JoinClosure> ParseClosure(const ErrorSink& errors,
                                         ConciseCursor& c, int level) {
  JoinClosure closure;
  LIR_RETURN_IF_ERROR(
      ParseConciseMfpLines(errors, c, level, false, &closure.mfp).status());
  if (c.At(level, "Equivalences: ")) {
    const TextLine& line = c.Next();
    constexpr size_t kBase = 14;
    for (const auto& [class_offset, members] :
         SplitTopLevel(line.content.substr(kBase), " AND ")) {
      std::vector<ScalarExpr> equal;
      for (const auto& [offset, member] : SplitTopLevel(members, " = ")) {
        LIR_ASSIGN_OR_RETURN(
            ScalarExpr e,
            ParseConciseAt(errors, line, kBase + class_offset + offset, member,
                           ParseExpr));
        equal.push_back(std::move(e));
      }
      closure.ready_equivalences.push_back(std::move(equal));
    }
  }
  if (closure.mfp.filter.empty() && closure.mfp.map.empty() &&
      closure.ready_equivalences.empty()) {
    return UnexpectedAt(
        errors, c,
        absl::StrCat("'Filter:', 'Map:' or 'Equivalences:' at indentation "
                     "level ",
                     level, " (a closure that only projects is not printed)"));
  }
  return closure;
}

// The input position `k` of a block line (`after %k:`, `path %k:`) whose
// number starts at byte `offset` of its content.
absl::StatusOr<int> BlockPosition(const ErrorSink& errors, const TextLine& line,
                                  size_t offset) {
  absl::string_view number = line.content.substr(offset);
  int position = -1;
  if (!absl::ConsumeSuffix(&number, ":") || !IsCanonicalNumber(number) ||
      !absl::SimpleAtoi(number, &position)) {
    return errors.Expected(line, offset, "'<input position>:'");
  }
  return position;
}

// The `after %k:` blocks and the `Final closure:` block of one path at
// `level`; returns how many were read.
absl::StatusOr<int> ParseClosureBlocks(const ErrorSink& errors,
                                       ConciseCursor& c, int level,
                                       JoinPath* path) {
  int read = 0;
  size_t next_stage = 0;
  while (c.At(level, "after %")) {
    const TextLine& line = c.Next();
    LIR_ASSIGN_OR_RETURN(const int relation, BlockPosition(errors, line, 7));
    // `after %k` names the input the stage looks up, not the stage number
    // (pitfall 6); the blocks follow the stage order.
    size_t s = next_stage;
    while (s < path->stages.size() &&
           path->stages[s].lookup_relation != relation) {
      ++s;
    }
    if (s == path->stages.size()) {
      return errors.Expected(line, 7,
                             "the input a later stage of the chain looks up "
                             "(closure blocks follow the stage order)");
    }
    LIR_ASSIGN_OR_RETURN(path->stages[s].closure,
                         ParseClosure(errors, c, level + 1));
    next_stage = s + 1;
    ++read;
  }
  if (c.AtExactly(level, "Final closure:")) {
    c.Next();
    LIR_ASSIGN_OR_RETURN(path->final_closure,
                         ParseClosure(errors, c, level + 1));
    ++read;
  }
  return read;
}

}  // namespace

absl::Status ParseConciseJoin(const ErrorSink& errors, ConciseCursor& c,
                              const TextLine& header, absl::string_view text,
                              ConciseHead* head) {
  const JoinLabel* label = nullptr;
  for (const JoinLabel& candidate : kJoinLabels) {
    if (absl::StartsWith(text, candidate.prefix)) label = &candidate;
  }
  if (label == nullptr) return errors.Expected(header, 0, kConciseOperators);
  JoinOp join;
  join.delta = label->delta;
  const size_t base = kOp + label->prefix.size();
  const absl::string_view chains = text.substr(label->prefix.size());
  if (!join.delta) {
    join.paths.emplace_back();
    LIR_RETURN_IF_ERROR(ParseChain(errors, header, base, chains,
                                   &join.paths.back(), &head->chain));
  } else {
    // ` [<chain>]` per path; the label's trailing space is the first one.
    for (size_t i = 0; i < chains.size();) {
      if (chains[i] != '[') {
        return errors.Expected(header, base + i, "'[<chain>]' for a path");
      }
      const size_t close = MatchingClose(chains, i);
      if (close == absl::string_view::npos) {
        return errors.Expected(header, kOp + text.size(),
                               "']' closing the path's chain");
      }
      join.paths.emplace_back();
      LIR_RETURN_IF_ERROR(ParseChain(errors, header, base + i + 1,
                                     chains.substr(i + 1, close - i - 1),
                                     &join.paths.back(), &head->chain));
      i = close + 1;
      if (i < chains.size() && chains.substr(i, 2) != " [") {
        return errors.Expected(header, base + i,
                               "' [<chain>]' for the next path or the end of "
                               "the line");
      }
      if (i < chains.size()) ++i;
    }
    if (join.paths.empty()) {
      return errors.Expected(header, base, "'[<chain>]' for a path");
    }
  }
  const size_t inputs = join.paths.front().stages.size() + 1;
  bool cross = false;
  for (size_t p = 0; p < join.paths.size(); ++p) {
    if (join.paths[p].stages.size() + 1 != inputs) {
      return errors.Expected(
          header, base,
          absl::StrCat("every path to join the same ", inputs, " inputs"));
    }
    for (const JoinStage& stage : join.paths[p].stages) {
      cross = cross || stage.lookup_key.empty();
    }
  }
  // The printer derives the words from the chains: `Cross` from the stages'
  // keys (a `[×]` source alone is not a cross join), `One-Shot` from the
  // number of delta paths.
  const bool one_shot = join.delta && join.paths.size() == 1;
  if (cross != label->cross || one_shot != label->one_shot) {
    std::string why;
    if (cross != label->cross) {
      why = cross ? "a stage looks up the empty key [\xC3\x97]"
                  : "no stage looks up the empty key [\xC3\x97]";
    } else {
      why = absl::StrCat("a delta join with ", join.paths.size(),
                         " path(s); One-Shot means exactly one");
    }
    return errors.Expected(
        header, 0,
        absl::StrCat("'", LabelText(join.delta, cross, one_shot), "' (", why,
                     ")"));
  }
  const int d1 = header.level + 1;
  if (!join.delta) {
    LIR_RETURN_IF_ERROR(
        ParseClosureBlocks(errors, c, d1, &join.paths.front()).status());
  } else {
    size_t next_path = 0;
    while (c.At(d1, "path %")) {
      const TextLine& line = c.Next();
      LIR_ASSIGN_OR_RETURN(const int source, BlockPosition(errors, line, 6));
      size_t p = next_path;
      while (p < join.paths.size() && join.paths[p].source_relation != source) {
        ++p;
      }
      if (p == join.paths.size()) {
        return errors.Expected(line, 6,
                               "the source input of a later path (path blocks "
                               "follow the path order)");
      }
      LIR_ASSIGN_OR_RETURN(
          int read, ParseClosureBlocks(errors, c, d1 + 1, &join.paths[p]));
      if (read == 0) {
        return UnexpectedAt(
            errors, c,
            absl::StrCat("'after %<input>:' or 'Final closure:' at "
                         "indentation level ",
                         d1 + 1,
                         " (a path block is printed only for a path with a "
                         "closure)"));
      }
      next_path = p + 1;
    }
  }
  head->node = MakeNode(std::move(join));
  head->node->unknown.Add(UnknownFact::kStreamKeys);
  head->node->unknown.Add(UnknownFact::kJoinClosures);
  head->label = LabelText(label->delta, label->cross, label->one_shot);
  head->min_inputs = inputs;
  head->max_inputs = inputs;
  return absl::OkStatus();
}

absl::Status CheckJoinChain(const ErrorSink& errors, const ConciseHead& head,
                            const Node& join) {
  for (const ChainItem& item : head.chain) {
    // Materialize looks through ArrangeBy and Mfp only (text.rs
    // `humanize_input_name`).
    const Node* input = join.inputs[item.position].get();
    while ((input->Is<ArrangeByOp>() || input->Is<MfpOp>()) &&
           !input->inputs.empty()) {
      input = input->inputs[0].get();
    }
    const GetOp* get = input->If<GetOp>();
    const std::string shown =
        absl::StrCat("%", item.position, item.name.has_value() ? ":" : "",
                     item.name.value_or(""));
    if (get == nullptr) {
      if (!item.name.has_value()) continue;
      return errors.Expected(
          *head.header, item.offset,
          absl::StrCat("'%", item.position, "' without a name, found '", shown,
                       "': input ", item.position,
                       " is not a Get (looking through \xE2\x86\x92"
                       "Arrange and \xE2\x86\x92Map/Filter/Project)"));
    }
    const std::string id = get->id.ToString();
    // The chain prints the item name, the Get line the qualified name.
    const bool matches =
        item.name.has_value() &&
        (get->id.is_local
             ? *item.name == id
             : (*item.name == id ||
                absl::EndsWith(id, absl::StrCat(".", *item.name))));
    if (!matches) {
      const absl::string_view want =
          get->id.is_local ? absl::string_view(id) : UnqualifiedName(id);
      return errors.Expected(
          *head.header, item.offset,
          absl::StrCat("'%", item.position, ":", want, "', found '", shown,
                       "': input ", item.position, " reads ", id));
    }
  }
  return absl::OkStatus();
}

}  // namespace lir::explain::internal
