// The unique-keys interpreter's transfer functions and key-set helpers.
#include "lir/interp/unique_keys.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "lir/interp/driver.h"
#include "lir/layout.h"
#include "src/interp/borrow_internal.h"

namespace lir::interp {

std::vector<UniqueKey> NormalizeKeys(std::vector<UniqueKey> keys) {
  for (UniqueKey& key : keys) {
    std::sort(key.begin(), key.end());
    key.erase(std::unique(key.begin(), key.end()), key.end());
  }
  // Smaller keys first, so that a key's subsets come before it.
  std::sort(keys.begin(), keys.end(),
            [](const UniqueKey& a, const UniqueKey& b) {
              if (a.size() != b.size()) return a.size() < b.size();
              return a < b;
            });
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<UniqueKey> kept;
  for (UniqueKey& key : keys) {
    if (kept.size() == kMaxUniqueKeys) break;
    bool implied = false;
    for (const UniqueKey& smaller : kept) {
      if (std::includes(key.begin(), key.end(), smaller.begin(),
                        smaller.end())) {
        implied = true;
        break;
      }
    }
    if (!implied) kept.push_back(std::move(key));
  }
  return kept;
}

UniqueKeys JoinUniqueKeys(const UniqueKeys& a, const UniqueKeys& b) {
  if (a.everything) return b;
  if (b.everything) return a;
  // A column set is a key of both when it contains a key of each.
  std::vector<UniqueKey> both;
  both.reserve(a.keys.size() * b.keys.size());
  for (const UniqueKey& x : a.keys) {
    for (const UniqueKey& y : b.keys) {
      UniqueKey unioned;
      std::set_union(x.begin(), x.end(), y.begin(), y.end(),
                     std::back_inserter(unioned));
      both.push_back(std::move(unioned));
    }
  }
  return UniqueKeys{false, NormalizeKeys(std::move(both))};
}

std::string FormatUniqueKeys(const UniqueKeys& keys) {
  if (keys.everything) return "*";
  if (keys.keys.empty()) return "none";
  std::vector<std::string> parts;
  parts.reserve(keys.keys.size());
  for (const UniqueKey& key : keys.keys) {
    parts.push_back(absl::StrCat("[",
                                 absl::StrJoin(key, ", ",
                                               [](std::string* out, int c) {
                                                 absl::StrAppend(out, "#", c);
                                               }),
                                 "]"));
  }
  return absl::StrJoin(parts, ", ");
}

std::vector<UniqueKey> KeysThroughMfp(const std::vector<UniqueKey>& keys,
                                      const MapFilterProject& mfp) {
  if (!mfp.project.has_value()) return keys;
  const std::vector<int>& project = *mfp.project;
  std::vector<UniqueKey> out;
  for (const UniqueKey& key : keys) {
    UniqueKey renumbered;
    renumbered.reserve(key.size());
    for (int c : key) {
      auto it = std::find(project.begin(), project.end(), c);
      if (it == project.end()) break;
      renumbered.push_back(static_cast<int>(it - project.begin()));
    }
    if (renumbered.size() == key.size()) out.push_back(std::move(renumbered));
  }
  return NormalizeKeys(std::move(out));
}

std::vector<UniqueKey> KeysIntoLayout(
    const std::vector<UniqueKey>& keys,
    const std::vector<ScalarExpr>& arranged_key, const ArrangementForm* form) {
  std::vector<UniqueKey> out;
  for (const UniqueKey& key : keys) {
    UniqueKey positions;
    positions.reserve(key.size());
    for (int c : key) {
      const int p = LayoutPositionOfColumn(arranged_key, form, c);
      if (p < 0) break;
      positions.push_back(p);
    }
    if (positions.size() == key.size()) out.push_back(std::move(positions));
  }
  return NormalizeKeys(std::move(out));
}

namespace {

/// A text equal for two literals exactly when their values are equal, where
/// the printed text determines the value; nullopt for other literals (dates,
/// times, intervals and verbatim datums have several spellings of one
/// value, a redacted one hides it). Numbers compare as doubles: values a
/// double cannot tell apart count as equal, which only loses keys.
std::optional<std::string> ComparableValue(const Literal& literal) {
  switch (literal.kind) {
    case LiteralKind::kNull: return std::string("n");
    case LiteralKind::kBool: return absl::StrCat("b", literal.text);
    case LiteralKind::kString: return absl::StrCat("s", literal.text);
    case LiteralKind::kNumber: {
      double value = 0;
      if (literal.text == "NaN") return std::string("dnan");
      if (literal.text == "inf") {
        value = HUGE_VAL;
      } else if (literal.text == "-inf") {
        value = -HUGE_VAL;
      } else if (!absl::SimpleAtod(literal.text, &value)) {
        return std::nullopt;
      }
      if (std::isnan(value)) return std::string("dnan");
      if (value == 0) value = 0;  // -0 equals 0
      uint64_t bits = 0;
      std::memcpy(&bits, &value, sizeof(bits));
      return absl::StrCat("d", bits);
    }
    case LiteralKind::kDate:
    case LiteralKind::kTime:
    case LiteralKind::kTimestamp:
    case LiteralKind::kTimestampTz:
    case LiteralKind::kInterval:
    case LiteralKind::kRedacted:
    case LiteralKind::kOther: return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::vector<UniqueKey> ConstantKeys(const ConstantOp& op) {
  // An error collection has no rows: it holds at most one.
  if (op.error.has_value()) return {UniqueKey()};
  if (op.elided_total_rows.has_value()) return {};
  for (const ConstantOp::Entry& entry : op.rows) {
    if (entry.diff != 1) return {};
  }
  if (op.rows.size() <= 1) return {UniqueKey()};
  const size_t arity = op.rows[0].row.size();
  for (const ConstantOp::Entry& entry : op.rows) {
    if (entry.row.size() != arity) return {};
  }
  // values[c][r]: row r's value in column c, when comparable.
  std::vector<std::vector<std::string>> values(arity);
  UniqueKey comparable;
  for (size_t c = 0; c < arity; ++c) {
    bool all = true;
    for (const ConstantOp::Entry& entry : op.rows) {
      std::optional<std::string> value = ComparableValue(entry.row[c]);
      if (!value.has_value()) {
        all = false;
        break;
      }
      values[c].push_back(*std::move(value));
    }
    if (all) {
      comparable.push_back(static_cast<int>(c));
    } else {
      values[c].clear();
    }
  }
  std::vector<UniqueKey> keys;
  for (int c : comparable) {
    absl::flat_hash_set<absl::string_view> seen(values[c].begin(),
                                                values[c].end());
    if (seen.size() == op.rows.size()) keys.push_back({c});
  }
  if (!comparable.empty()) {
    // Each value length-prefixed, so that different tuples never encode
    // alike.
    absl::flat_hash_set<std::string> tuples;
    for (size_t r = 0; r < op.rows.size(); ++r) {
      std::string tuple;
      for (int c : comparable) {
        absl::StrAppend(&tuple, values[c][r].size(), ":", values[c][r]);
      }
      tuples.insert(std::move(tuple));
    }
    if (tuples.size() == op.rows.size()) keys.push_back(comparable);
  }
  return NormalizeKeys(std::move(keys));
}

namespace {

UniqueKeys Keys(std::vector<UniqueKey> keys) {
  return UniqueKeys{false, NormalizeKeys(std::move(keys))};
}

/// The form the arranged read by `key` of `node`'s input finds, when the
/// input advertises it (else the read's layout is the derived one).
std::optional<ArrangementForm> InputForm(const Node& node,
                                         const std::vector<ScalarExpr>& key) {
  if (node.inputs.empty() || node.inputs[0] == nullptr) return std::nullopt;
  return OfferedForm(*node.inputs[0], key, std::nullopt);
}

/// `input`'s keys through an MFP that reads the layout row of the input's
/// arrangement by `input_key` when given, else the row.
UniqueKeys ThroughRead(const Node& node, const UniqueKeys& input,
                       const std::optional<std::vector<ScalarExpr>>& input_key,
                       const MapFilterProject& mfp) {
  if (input.everything) return input;
  std::vector<UniqueKey> keys = input.keys;
  if (input_key.has_value()) {
    std::optional<ArrangementForm> form = InputForm(node, *input_key);
    keys =
        KeysIntoLayout(keys, *input_key, form.has_value() ? &*form : nullptr);
  }
  return Keys(KeysThroughMfp(keys, mfp));
}

}  // namespace

UniqueKeys UniqueKeysInterpreter::VisitConstant(const Context<UniqueKeys>&,
                                                const Node&,
                                                const ConstantOp& op) const {
  return Keys(ConstantKeys(op));
}

UniqueKeys UniqueKeysInterpreter::VisitGet(const Context<UniqueKeys>& ctx,
                                           const Node&, const GetOp& op) const {
  std::vector<UniqueKey> collection;
  if (op.id.is_local) {
    const Binding<UniqueKeys>* binding = ctx.Find(op.id.local);
    // A LetRec binding is an iterate that changes from round to round; its
    // keys are not tracked (SEMANTICS.md 7.3: LetRec gives none).
    if (binding == nullptr || binding->recursive || binding->value.everything) {
      return Top();
    }
    collection = binding->value.keys;
  } else {
    auto it = global_keys_.find(op.id.global);
    if (it == global_keys_.end()) return Top();
    collection = it->second;
  }
  switch (op.kind) {
    case GetKind::kPassArrangements: return Keys(std::move(collection));
    case GetKind::kCollection: return Keys(KeysThroughMfp(collection, op.mfp));
    case GetKind::kArrangement:
      // The MFP reads the layout row of the binding's form by `key`.
      return Keys(KeysThroughMfp(
          KeysIntoLayout(collection, op.key, op.keys.FindByKey(op.key)),
          op.mfp));
  }
  return Top();
}

UniqueKeys UniqueKeysInterpreter::VisitMfp(const Context<UniqueKeys>&,
                                           const Node& node, const MfpOp& op,
                                           const UniqueKeys& input) const {
  // A partial plan's unknown input key hides which row the MFP reads.
  if (node.unknown.Has(UnknownFact::kInputKey)) return Top();
  return ThroughRead(node, input, op.input_key, op.mfp);
}

UniqueKeys UniqueKeysInterpreter::VisitFlatMap(const Context<UniqueKeys>&,
                                               const Node&, const FlatMapOp&,
                                               const UniqueKeys&) const {
  return Top();
}

UniqueKeys UniqueKeysInterpreter::VisitJoin(const Context<UniqueKeys>&,
                                            const Node&, const JoinOp&,
                                            std::span<const UniqueKeys>) const {
  return Top();
}

UniqueKeys UniqueKeysInterpreter::VisitReduce(const Context<UniqueKeys>&,
                                              const Node& node,
                                              const ReduceOp& op,
                                              const UniqueKeys&) const {
  // One output row per group: unique on the key_plan columns #0..#k-1.
  Arity input = Arity::Unknown();
  if (arities_ != nullptr && !node.inputs.empty() &&
      node.inputs[0] != nullptr) {
    if (const Arity* found = arities_->Find(*node.inputs[0])) input = *found;
  }
  // With an input key, key_plan reads the layout row (SEMANTICS.md 8.3);
  // an unknown one (partial plan) hides its width.
  if (node.unknown.Has(UnknownFact::kInputKey)) input = Arity::Unknown();
  if (op.input_key.has_value() && input.known()) {
    input = Arity::Known(LayoutArity(*op.input_key, input.value));
  }
  const Arity width = MfpOutputArity(op.key_plan, input);
  if (!width.known()) return Top();
  UniqueKey key(width.value);
  for (int i = 0; i < width.value; ++i) key[i] = i;
  return Keys(KeysThroughMfp({key}, op.mfp_after));
}

UniqueKeys UniqueKeysInterpreter::VisitTopK(const Context<UniqueKeys>&,
                                            const Node&, const TopKOp& op,
                                            const UniqueKeys&) const {
  // At most one row per group (counted with multiplicity).
  const bool limit_one =
      op.limit.has_value() && op.limit->kind == ScalarKind::kLiteral &&
      op.limit->literal.IsInteger() && op.limit->literal.AsInteger() == 1;
  if (op.kind != TopKKind::kMonotonicTop1 && !(limit_one && op.offset == 0)) {
    return Top();
  }
  return Keys({UniqueKey(op.group_by.begin(), op.group_by.end())});
}

UniqueKeys UniqueKeysInterpreter::VisitNegate(const Context<UniqueKeys>&,
                                              const Node&, const NegateOp&,
                                              const UniqueKeys&) const {
  return Top();
}

UniqueKeys UniqueKeysInterpreter::VisitThreshold(const Context<UniqueKeys>&,
                                                 const Node&,
                                                 const ThresholdOp&,
                                                 const UniqueKeys&) const {
  return Top();
}

UniqueKeys UniqueKeysInterpreter::VisitUnion(
    const Context<UniqueKeys>&, const Node&, const UnionOp&,
    std::span<const UniqueKeys>) const {
  return Top();
}

UniqueKeys UniqueKeysInterpreter::VisitArrangeBy(
    const Context<UniqueKeys>&, const Node& node, const ArrangeByOp& op,
    const UniqueKeys& input) const {
  if (node.unknown.Has(UnknownFact::kInputKey)) return Top();
  return ThroughRead(node, input, op.input_key, op.input_mfp);
}

UniqueKeys UniqueKeysInterpreter::VisitSetDifference(const Context<UniqueKeys>&,
                                                     const Node&,
                                                     const SetDifferenceOp&,
                                                     const UniqueKeys&,
                                                     const UniqueKeys&) const {
  return Top();
}

// It keeps a subset of the base's rows with their counts (SEMANTICS 7.3).
UniqueKeys UniqueKeysInterpreter::VisitAntiJoin(const Context<UniqueKeys>&,
                                                const Node&, const AntiJoinOp&,
                                                const UniqueKeys& base,
                                                const UniqueKeys&) const {
  return base;
}

std::map<std::string, std::vector<UniqueKey>> GlobalKeysSeenByGets(
    const Document& doc,
    const std::map<std::string, std::vector<UniqueKey>>& catalog_keys) {
  std::map<std::string, std::vector<UniqueKey>> seen;
  for (const auto& [name, keys] : catalog_keys) {
    seen[name] = NormalizeKeys(keys);
  }
  for (const SourceBlock& block : doc.sources) {
    auto it = seen.find(block.name);
    if (it != seen.end()) it->second = KeysThroughMfp(it->second, block.mfp);
  }
  return seen;
}

absl::StatusOr<Analysis<UniqueKeys>> AnalyzeUniqueKeys(
    const Node& plan,
    const std::map<std::string, std::vector<UniqueKey>>& global_keys,
    const Analysis<Arity>* arities) {
  // The interpreter lives only for this call, so it may borrow `arities`.
  return Analyze(UniqueKeysInterpreter(
                     global_keys, interp_internal::BorrowForThisCall(arities)),
                 plan);
}

}  // namespace lir::interp
