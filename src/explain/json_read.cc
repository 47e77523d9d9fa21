// Reads plan documents from the JSON form of docs/json-format.md: checks the
// format version, every field's type and every node's inputs, and rebuilds
// the node trees from their flat post-order arrays without recursion.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "lir/explain/json.h"
#include "lir/explain/text.h"
#include "lir/status_macros.h"
#include "src/explain/json_names.h"
#include "src/explain/json_reader.h"
#include "src/explain/json_unique_keys.h"
#include "src/explain/text_lines.h"
#include "src/explain/text_names.h"

namespace lir::explain {
namespace {

using nlohmann::json;
using namespace internal;  // NOLINT: the reader building blocks

// ---- Node payloads ----------------------------------------------------------

absl::Status ReadConstantEntry(const json& value, const JsonPath& path,
                               ConstantOp::Entry& out) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  LIR_RETURN_IF_ERROR(Required(fields, "row", out.row, ReadRow));
  LIR_RETURN_IF_ERROR(Optional(fields, "diff", out.diff, ReadInt64));
  return fields.Finish("a constant row");
}

absl::Status ReadConstant(Fields& fields, ConstantOp& op) {
  LIR_RETURN_IF_ERROR(Optional(fields, "rows", op.rows,
                               [](const json& v, const JsonPath& p,
                                  std::vector<ConstantOp::Entry>& rows) {
                                 return ReadList(v, p, rows, ReadConstantEntry);
                               }));
  LIR_RETURN_IF_ERROR(OptionalValue(fields, "error", op.error, ReadString));
  LIR_RETURN_IF_ERROR(
      Optional(fields, "error_redacted", op.error_redacted, ReadBool));
  return OptionalValue(fields, "elided_total_rows", op.elided_total_rows,
                       ReadCount);
}

// A Constant node: its error message is printed on the header line with only
// `"` escaped (TEXT-FORMAT.md section 3), so it must fit on one line.
absl::Status ReadConstantNode(Fields& fields, ConstantOp& op) {
  LIR_RETURN_IF_ERROR(ReadConstant(fields, op));
  if (op.error.has_value()) {
    LIR_RETURN_IF_ERROR(CheckLineText(*op.error, fields.PathOf("error")));
  }
  return absl::OkStatus();
}

absl::Status ReadCollectionId(const json& value, const JsonPath& path,
                              CollectionId& out) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  const json* local = fields.Find("local");
  const json* global = fields.Find("global");
  if ((local == nullptr) == (global == nullptr)) {
    return JsonError(path, "expected exactly one of \"local\" and \"global\"");
  }
  if (local != nullptr) {
    out.is_local = true;
    LIR_RETURN_IF_ERROR(ReadUint64(*local, fields.PathOf("local"), out.local));
  } else {
    out.is_local = false;
    // `l5` as a global name is printed quoted, so it stays global.
    LIR_RETURN_IF_ERROR(ReadName(*global, fields.PathOf("global"), out.global));
  }
  return fields.Finish("a collection id");
}

absl::Status ReadGet(Fields& fields, GetOp& op) {
  LIR_RETURN_IF_ERROR(Required(fields, "collection", op.id, ReadCollectionId));
  LIR_RETURN_IF_ERROR(
      Required(fields, "get_kind", op.kind,
               [](const json& v, const JsonPath& p, GetKind& k) {
                 return ReadEnum(v, p, kGetKindNames, k);
               }));
  LIR_RETURN_IF_ERROR(Optional(fields, "keys", op.keys, ReadCollections));
  LIR_RETURN_IF_ERROR(Optional(fields, "key", op.key, ReadExprs));
  LIR_RETURN_IF_ERROR(OptionalValue(fields, "seek", op.seek, ReadRow));
  return Optional(fields, "mfp", op.mfp, ReadMfp);
}

absl::Status ReadLet(Fields& fields, LetOp& op) {
  return Required(fields, "local_id", op.id, ReadUint64);
}

absl::Status ReadLetRecLimit(const json& value, const JsonPath& path,
                             std::optional<LetRecLimit>& out) {
  if (value.is_null()) {
    out.reset();
    return absl::OkStatus();
  }
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  LetRecLimit limit;
  LIR_RETURN_IF_ERROR(
      Required(fields, "max_iters", limit.max_iters, ReadUint64));
  LIR_RETURN_IF_ERROR(
      Optional(fields, "return_at_limit", limit.return_at_limit, ReadBool));
  out = limit;
  return fields.Finish("a recursion limit");
}

absl::Status ReadLetRec(Fields& fields, LetRecOp& op) {
  LIR_RETURN_IF_ERROR(Required(
      fields, "local_ids", op.ids,
      [](const json& v, const JsonPath& p, std::vector<uint64_t>& ids) {
        return ReadList(v, p, ids, ReadUint64);
      }));
  LIR_RETURN_IF_ERROR(
      Optional(fields, "limits", op.limits,
               [](const json& v, const JsonPath& p,
                  std::vector<std::optional<LetRecLimit>>& limits) {
                 return ReadList(v, p, limits, ReadLetRecLimit);
               }));
  if (!op.limits.empty() && op.limits.size() != op.ids.size()) {
    return JsonError(fields.PathOf("limits"),
                     absl::StrCat("expected one entry per local id (",
                                  op.ids.size(), "), got ", op.limits.size()));
  }
  return absl::OkStatus();
}

absl::Status ReadMfpNode(Fields& fields, MfpOp& op) {
  LIR_RETURN_IF_ERROR(Optional(fields, "mfp", op.mfp, ReadMfp));
  LIR_RETURN_IF_ERROR(
      OptionalValue(fields, "input_key", op.input_key, ReadExprs));
  return OptionalValue(fields, "input_val", op.input_val, ReadRow);
}

absl::Status ReadFlatMap(Fields& fields, FlatMapOp& op) {
  LIR_RETURN_IF_ERROR(Required(fields, "func", op.func, ReadTableFunctionName));
  LIR_RETURN_IF_ERROR(Optional(fields, "exprs", op.exprs, ReadExprs));
  LIR_RETURN_IF_ERROR(
      OptionalValue(fields, "input_key", op.input_key, ReadExprs));
  return Optional(fields, "mfp_after", op.mfp_after, ReadMfp);
}

absl::Status ReadTopK(Fields& fields, TopKOp& op) {
  LIR_RETURN_IF_ERROR(
      Required(fields, "topk_kind", op.kind,
               [](const json& v, const JsonPath& p, TopKKind& k) {
                 return ReadEnum(v, p, kTopKKindNames, k);
               }));
  LIR_RETURN_IF_ERROR(Optional(fields, "group_by", op.group_by, ReadPositions));
  LIR_RETURN_IF_ERROR(Optional(fields, "order_by", op.order_by, ReadOrderKeys));
  LIR_RETURN_IF_ERROR(OptionalValue(fields, "limit", op.limit, ReadExpr));
  LIR_RETURN_IF_ERROR(Optional(fields, "offset", op.offset, ReadCount));
  LIR_RETURN_IF_ERROR(
      Optional(fields, "must_consolidate", op.must_consolidate, ReadBool));
  return Optional(fields, "temporal_bucketing", op.temporal_bucketing,
                  ReadBool);
}

absl::Status ReadThreshold(Fields& fields, ThresholdOp& op) {
  return Required(fields, "ensure_arrangement", op.ensure_arrangement,
                  ReadArrangement);
}

absl::Status ReadUnion(Fields& fields, UnionOp& op) {
  LIR_RETURN_IF_ERROR(
      Optional(fields, "consolidate_output", op.consolidate_output, ReadBool));
  return Optional(
      fields, "strategies", op.strategies,
      [](const json& v, const JsonPath& p, std::vector<UnionStrategy>& s) {
        return ReadList(
            v, p, s, [](const json& e, const JsonPath& ep, UnionStrategy& out) {
              return ReadEnum(e, ep, kUnionStrategyNames, out);
            });
      });
}

absl::Status ReadArrangeBy(Fields& fields, ArrangeByOp& op) {
  LIR_RETURN_IF_ERROR(
      OptionalValue(fields, "input_key", op.input_key, ReadExprs));
  LIR_RETURN_IF_ERROR(
      Optional(fields, "temporal_bucketing", op.temporal_bucketing, ReadBool));
  LIR_RETURN_IF_ERROR(Optional(fields, "input_mfp", op.input_mfp, ReadMfp));
  return Optional(fields, "forms", op.forms, ReadCollections);
}

absl::Status ReadSetDifference(Fields& fields, SetDifferenceOp& op) {
  LIR_RETURN_IF_ERROR(Required(fields, "ensure_arrangement",
                               op.ensure_arrangement, ReadArrangement));
  LIR_RETURN_IF_ERROR(Optional(fields, "base_key", op.base_key, ReadPositions));
  return Optional(fields, "subtract_key", op.subtract_key, ReadPositions);
}

absl::Status ReadAntiJoin(Fields& fields, AntiJoinOp& op) {
  LIR_RETURN_IF_ERROR(Required(fields, "key", op.key, ReadPositions));
  LIR_RETURN_IF_ERROR(Required(fields, "base_key", op.base_key, ReadPositions));
  return Required(fields, "keys_key", op.keys_key, ReadPositions);
}

// Reads the payload of a `kind` node from its fields.
template <typename Op>
absl::StatusOr<NodeOp> ReadOpAs(Fields& fields,
                                absl::Status (*read)(Fields&, Op&)) {
  Op op;
  LIR_RETURN_IF_ERROR(read(fields, op));
  return NodeOp(std::move(op));
}

absl::StatusOr<NodeOp> ReadOp(NodeKind kind, Fields& fields) {
  switch (kind) {
    case NodeKind::kConstant: return ReadOpAs(fields, ReadConstantNode);
    case NodeKind::kGet: return ReadOpAs(fields, ReadGet);
    case NodeKind::kLet: return ReadOpAs(fields, ReadLet);
    case NodeKind::kLetRec: return ReadOpAs(fields, ReadLetRec);
    case NodeKind::kMfp: return ReadOpAs(fields, ReadMfpNode);
    case NodeKind::kFlatMap: return ReadOpAs(fields, ReadFlatMap);
    case NodeKind::kJoin: return ReadOpAs(fields, ReadJoin);
    case NodeKind::kReduce: return ReadOpAs(fields, ReadReduce);
    case NodeKind::kTopK: return ReadOpAs(fields, ReadTopK);
    case NodeKind::kNegate: return NodeOp(NegateOp{});
    case NodeKind::kThreshold: return ReadOpAs(fields, ReadThreshold);
    case NodeKind::kUnion: return ReadOpAs(fields, ReadUnion);
    case NodeKind::kArrangeBy: return ReadOpAs(fields, ReadArrangeBy);
    case NodeKind::kSetDifference: return ReadOpAs(fields, ReadSetDifference);
    case NodeKind::kAntiJoin: return ReadOpAs(fields, ReadAntiJoin);
  }
  return absl::InternalError("unknown node kind");
}

// Checks the number of inputs a node of this payload takes (node.h).
absl::Status CheckInputCount(const NodeOp& op, size_t count,
                             const JsonPath& inputs_path) {
  const NodeKind kind = KindOf(op);
  const InputCountRange range = RequiredInputs(op);
  if (!range.Allows(count)) {
    std::string expected = range.Exact() ? absl::StrCat("exactly ", range.min)
                                         : absl::StrCat("at least ", range.min);
    return JsonError(inputs_path,
                     absl::StrCat("expected ", expected, " input(s) for a ",
                                  ToAbsl(EnumName(kNodeKindNames, kind)),
                                  " node, got ", count));
  }
  if (kind == NodeKind::kUnion) {
    const auto& strategies = OpAs<UnionOp>(op).strategies;
    if (!strategies.empty() && strategies.size() != count) {
      return JsonError(inputs_path,
                       absl::StrCat("expected one input per strategy (",
                                    strategies.size(), "), got ", count));
    }
  }
  return absl::OkStatus();
}

// A node id: an integer in [kMinLirId, kMaxLirId], as in the text form.
absl::Status ReadLirId(const json& value, const JsonPath& path, LirId& out) {
  uint64_t id = 0;
  if (!ReadUint64(value, path, id).ok() || id < kMinLirId || id > kMaxLirId) {
    return JsonExpected(
        path, absl::StrCat("a node id from ", kMinLirId, " to ", kMaxLirId),
        value);
  }
  out = id;
  return absl::OkStatus();
}

// No parent recorded yet for a node.
constexpr size_t kUnused = std::numeric_limits<size_t>::max();

// Reads the input indexes of node `self`, checking that each names an
// earlier node not yet used; records `self` as their parent.
absl::Status ReadInputs(const json& value, const JsonPath& path, size_t self,
                        std::vector<size_t>& parent_of,
                        std::vector<size_t>& out) {
  if (!value.is_array()) return JsonExpected(path, "an array", value);
  for (size_t i = 0; i < value.size(); ++i) {
    const JsonPath input_path = path.Index(i);
    uint64_t index = 0;
    if (!ReadUint64(value[i], input_path, index).ok() || index >= self) {
      return JsonExpected(
          input_path,
          self == 0 ? std::string("no input at all (the first node has no "
                                  "earlier node to name)")
                    : absl::StrCat("the index of an earlier node (0 to ",
                                   self - 1, ")"),
          value[i]);
    }
    if (parent_of[index] != kUnused) {
      return JsonError(
          input_path,
          absl::StrCat("node ", index, " is already an input of node ",
                       parent_of[index],
                       "; every node is the input of one node"));
    }
    parent_of[index] = self;
    out.push_back(static_cast<size_t>(index));
  }
  return absl::OkStatus();
}

// Rebuilds a plan from its post-order node array. Each node's inputs were
// built before it, so one forward pass suffices and nothing recurses.
absl::Status ReadPlan(const json& value, const JsonPath& path, NodePtr& out) {
  if (!value.is_array()) return JsonExpected(path, "an array of nodes", value);
  if (value.empty()) return JsonError(path, "expected at least one node");
  const size_t n = value.size();
  std::vector<NodePtr> nodes(n);
  std::vector<size_t> parent_of(n, kUnused);
  for (size_t i = 0; i < n; ++i) {
    LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value[i], path.Index(i)));
    auto node = std::make_unique<Node>();
    LIR_RETURN_IF_ERROR(Required(fields, "id", node->id, ReadLirId));
    NodeKind kind = NodeKind::kConstant;
    LIR_RETURN_IF_ERROR(
        Required(fields, "kind", kind,
                 [](const json& v, const JsonPath& p, NodeKind& k) {
                   return ReadEnum(v, p, kNodeKindNames, k);
                 }));
    std::vector<size_t> inputs;
    const json* inputs_json = fields.Find("inputs");
    if (inputs_json == nullptr) {
      return JsonError(fields.PathOf("inputs"), "missing required field");
    }
    LIR_RETURN_IF_ERROR(ReadInputs(*inputs_json, fields.PathOf("inputs"), i,
                                   parent_of, inputs));
    LIR_ASSIGN_OR_RETURN(node->op, ReadOp(kind, fields));
    // Analysis results written by `--annotate` are recomputed, never read.
    fields.Find("annotations");
    LIR_RETURN_IF_ERROR(
        CheckInputCount(node->op, inputs.size(), fields.PathOf("inputs")));
    LIR_RETURN_IF_ERROR(fields.Finish(
        absl::StrCat("a ", ToAbsl(EnumName(kNodeKindNames, kind)), " node")));
    node->inputs.reserve(inputs.size());
    for (size_t input : inputs) node->inputs.push_back(std::move(nodes[input]));
    nodes[i] = std::move(node);
  }
  for (size_t i = 0; i + 1 < n; ++i) {
    if (parent_of[i] == kUnused) {
      return JsonError(path.Index(i),
                       "node is not the input of any later node; only the "
                       "last node (the root) may be unused");
    }
  }
  out = std::move(nodes.back());
  return absl::OkStatus();
}

// ---- Document ---------------------------------------------------------------

absl::Status ReadFinish(const json& value, const JsonPath& path, Finish& out) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  LIR_RETURN_IF_ERROR(
      Optional(fields, "order_by", out.order_by, ReadOrderKeys));
  LIR_RETURN_IF_ERROR(OptionalValue(fields, "limit", out.limit, ReadCount));
  LIR_RETURN_IF_ERROR(Optional(fields, "offset", out.offset, ReadCount));
  LIR_RETURN_IF_ERROR(Optional(fields, "output", out.output, ReadPositions));
  return fields.Finish("a finish");
}

absl::Status ReadFastPath(const json& value, const JsonPath& path,
                          FastPath& out) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  std::string kind;
  LIR_RETURN_IF_ERROR(Required(fields, "kind", kind, ReadString));
  if (kind == "constant") {
    out.kind = FastPath::Kind::kConstant;
    LIR_RETURN_IF_ERROR(ReadConstant(fields, out.constant));
    return fields.Finish("a fast-path constant");
  }
  if (kind == "read_index") {
    out.kind = FastPath::Kind::kReadIndex;
  } else if (kind == "peek_persist") {
    out.kind = FastPath::Kind::kPeekPersist;
  } else {
    return JsonExpected(fields.PathOf("kind"),
                        "one of constant, read_index, peek_persist",
                        *fields.Find("kind"));
  }
  LIR_RETURN_IF_ERROR(OptionalValue(fields, "project", out.project, ReadExprs));
  if (out.project.has_value()) {
    const JsonPath project = fields.PathOf("project");
    for (size_t i = 0; i < out.project->size(); ++i) {
      if (!(*out.project)[i].IsColumn()) {
        return JsonError(project.Index(i), "expected a column reference");
      }
    }
  }
  LIR_RETURN_IF_ERROR(Optional(fields, "filter", out.filter, ReadExprs));
  LIR_RETURN_IF_ERROR(Optional(fields, "map", out.map, ReadExprs));
  LIR_RETURN_IF_ERROR(
      Required(fields, "collection", out.collection, ReadLineText));
  if (out.collection.empty()) {
    return JsonError(fields.PathOf("collection"), "expected a name");
  }
  if (out.kind == FastPath::Kind::kReadIndex) {
    // `on=<collection> ` ends the collection name at the first space.
    if (absl::StrContains(out.collection, ' ')) {
      return JsonError(fields.PathOf("collection"),
                       "expected a name without spaces (fast-path lines "
                       "cannot quote names)");
    }
    // The index name ends at the first `=[` (it may hold spaces:
    // `[DELETED INDEX]`).
    LIR_RETURN_IF_ERROR(Required(fields, "index", out.index, ReadLineText));
    if (out.index.empty() || absl::StrContains(out.index, "=[")) {
      return JsonError(fields.PathOf("index"),
                       "expected a non-empty index name without '=[' (it "
                       "ends the name in the text form)");
    }
    LIR_RETURN_IF_ERROR(OptionalValue(
        fields, "lookup", out.lookup,
        [](const json& v, const JsonPath& p, std::vector<Row>& rows) {
          return ReadList(v, p, rows, ReadRow);
        }));
    return fields.Finish("a fast-path index read");
  }
  LIR_RETURN_IF_ERROR(
      OptionalValue(fields, "value", out.persist_value, ReadRow));
  // `PeekPersist <collection>[ [value=...]]`: the name ends at ` [value=`,
  // or at the end of the line, where it may not hold a space.
  if (absl::StrContains(out.collection, " [value=") ||
      (!out.persist_value.has_value() &&
       absl::StrContains(out.collection, ' '))) {
    return JsonError(fields.PathOf("collection"),
                     "expected a name the PeekPersist line can carry: no "
                     "' [value=', and no space unless a value follows");
  }
  return fields.Finish("a fast-path persist peek");
}

// Version 1 kept the body as verbatim lines; they are parsed as the text
// form, so that old documents read into the same structure.
absl::Status ReadFastPathLinesV1(const json& value, const JsonPath& path,
                                 FastPath& out) {
  std::vector<std::string> lines;
  LIR_RETURN_IF_ERROR(ReadStrings(value, path, lines));
  std::string text = "Explained Query (fast path):\n";
  for (const std::string& line : lines)
    absl::StrAppend(&text, "  ", line, "\n");
  ParseOptions options;
  options.filename = path.ToString();
  absl::StatusOr<Document> doc = ParseText(text, options);
  if (!doc.ok()) return doc.status();
  if (doc->objects.size() != 1 || !doc->objects[0].fast_path.has_value()) {
    return JsonError(path, "expected the lines of one fast-path body");
  }
  out = *std::move(doc->objects[0].fast_path);
  return absl::OkStatus();
}

absl::Status ReadObject(const json& value, const JsonPath& path, Object& out,
                        bool v1) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  LIR_RETURN_IF_ERROR(Required(fields, "name", out.name, ReadName));
  LIR_RETURN_IF_ERROR(OptionalValue(fields, "finish", out.finish, ReadFinish));
  LIR_RETURN_IF_ERROR(Optional(fields, "plan", out.plan, ReadPlan));
  LIR_RETURN_IF_ERROR(OptionalValue(fields, "fast_path", out.fast_path,
                                    v1 ? ReadFastPathLinesV1 : ReadFastPath));
  if ((out.plan == nullptr) == !out.fast_path.has_value()) {
    return JsonError(path,
                     "expected exactly one of \"plan\" and \"fast_path\"");
  }
  if (out.fast_path.has_value() && !IsFastPathObjectName(out.name)) {
    return JsonError(fields.PathOf("name"),
                     "expected a fast-path object's name to end in '(fast "
                     "path)' and need no quotes (no '\"', no leading space, "
                     "not a section header)");
  }
  return fields.Finish("an object");
}

absl::Status ReadSource(const json& value, const JsonPath& path,
                        SourceBlock& out) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  LIR_RETURN_IF_ERROR(Required(fields, "name", out.name, ReadName));
  LIR_RETURN_IF_ERROR(Optional(fields, "mfp", out.mfp, ReadMfp));
  LIR_RETURN_IF_ERROR(
      OptionalValue(fields, "pushdown", out.pushdown, ReadExprs));
  return fields.Finish("a source");
}

// The usages of an index, printed as `(<u>, <u>, ...)`: they must split
// back at the same places (the text parser splits at `, ` outside brackets
// and string literals).
absl::Status CheckUsages(const std::vector<std::string>& usages,
                         const JsonPath& path) {
  if (usages.empty()) return absl::OkStatus();
  const std::string joined = absl::StrJoin(usages, ", ");
  std::vector<std::pair<size_t, absl::string_view>> pieces;
  if (!joined.empty()) pieces = SplitTopLevel(joined, ", ");
  bool same = pieces.size() == usages.size();
  for (size_t i = 0; same && i < usages.size(); ++i) {
    same = pieces[i].second == usages[i];
  }
  if (!same) {
    return JsonError(path,
                     "expected usages that read back from the text form "
                     "'(<usage>, ...)': non-empty, none splitting at ', ' "
                     "outside brackets and quotes");
  }
  return absl::OkStatus();
}

// One line of the Notices section: printed as it is, so it must be indented
// (an even number of spaces, at least two) and not blank.
absl::Status ReadNotice(const json& value, const JsonPath& path,
                        std::string& out) {
  LIR_RETURN_IF_ERROR(ReadLineText(value, path, out));
  const size_t spaces = out.find_first_not_of(' ');
  if (spaces == std::string::npos || spaces < 2 || spaces % 2 != 0) {
    return JsonError(path,
                     "expected a notice line indented by an even number (at "
                     "least 2) of spaces, with text after them");
  }
  return absl::OkStatus();
}

absl::Status ReadUsedIndex(const json& value, const JsonPath& path,
                           UsedIndex& out) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  LIR_RETURN_IF_ERROR(Required(fields, "name", out.name, ReadName));
  LIR_RETURN_IF_ERROR(Optional(
      fields, "usages", out.usages,
      [](const json& v, const JsonPath& p, std::vector<std::string>& usages) {
        return ReadList(v, p, usages, ReadLineText);
      }));
  LIR_RETURN_IF_ERROR(CheckUsages(out.usages, fields.PathOf("usages")));
  return fields.Finish("a used index");
}

absl::Status ReadDocument(const json& value, Document& doc) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, JsonPath()));
  // The version comes first: a document of another version may not even
  // have the fields this one expects.
  std::string format;
  LIR_RETURN_IF_ERROR(Required(fields, "format", format, ReadString));
  if (format != kJsonFormat && format != kJsonFormatV1) {
    return JsonError(
        fields.PathOf("format"),
        absl::StrCat("unsupported format \"", format,
                     "\"; this reader supports \"", ToAbsl(kJsonFormat),
                     "\" and \"", ToAbsl(kJsonFormatV1), "\""));
  }
  const bool v1 = format == kJsonFormatV1;
  LIR_RETURN_IF_ERROR(Required(
      fields, "objects", doc.objects,
      [v1](const json& v, const JsonPath& p, std::vector<Object>& objects) {
        return ReadList(v, p, objects,
                        [v1](const json& ov, const JsonPath& op, Object& o) {
                          return ReadObject(ov, op, o, v1);
                        });
      }));
  LIR_RETURN_IF_ERROR(Optional(
      fields, "sources", doc.sources,
      [](const json& v, const JsonPath& p, std::vector<SourceBlock>& s) {
        return ReadList(v, p, s, ReadSource);
      }));
  LIR_RETURN_IF_ERROR(OptionalValue(
      fields, "used_indexes", doc.used_indexes,
      [](const json& v, const JsonPath& p, std::vector<UsedIndex>& u) {
        return ReadList(v, p, u, ReadUsedIndex);
      }));
  LIR_RETURN_IF_ERROR(OptionalValue(fields, "target_cluster",
                                    doc.target_cluster, ReadLineText));
  LIR_RETURN_IF_ERROR(OptionalValue(
      fields, "notices", doc.notices,
      [](const json& v, const JsonPath& p, std::vector<std::string>& lines) {
        return ReadList(v, p, lines, ReadNotice);
      }));
  LIR_RETURN_IF_ERROR(OptionalValue(fields, "optimization_time",
                                    doc.optimization_time, ReadLineText));
  LIR_RETURN_IF_ERROR(
      Optional(fields, "node_identifiers", doc.node_identifiers, ReadBool));
  // A document with nothing to print is no plan, as an empty text is not
  // one (ParseText): refused, so that whatever is read prints and reads back.
  if (doc.objects.empty() &&
      PrintText(doc).find_first_not_of(" \n") == std::string::npos) {
    return JsonError(fields.PathOf("objects"),
                     "expected at least one object: an empty document is "
                     "no plan");
  }
  return fields.Finish("a document");
}

}  // namespace

absl::StatusOr<Document> FromJson(const nlohmann::json& json) {
  Document doc;
  // Every value is type-checked before use, so nlohmann should never throw
  // here; the catch keeps that promise if a check was missed.
  try {
    LIR_RETURN_IF_ERROR(ReadDocument(json, doc));
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(
        absl::StrCat("malformed plan document: ", e.what()));
  }
  return doc;
}

absl::StatusOr<nlohmann::json> ParseJsonText(std::string_view text,
                                             std::string_view filename,
                                             std::string_view context) {
  size_t error_start = 0;
  nlohmann::json result;
  LIR_RETURN_IF_ERROR(CatchJsonErrors(
      text, filename, context, error_start,
      [&] { result = ParseJsonWithUniqueKeys(text, &error_start); }));
  return result;
}

absl::StatusOr<Document> ReadJson(std::string_view text,
                                  std::string_view filename) {
  absl::StatusOr<nlohmann::json> parsed = ParseJsonText(text, filename);
  if (!parsed.ok()) return parsed.status();
  const nlohmann::json& value = *parsed;
  absl::StatusOr<Document> doc = FromJson(value);
  if (!doc.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(ToAbsl(filename), ": ", doc.status().message()));
  }
  return doc;
}

}  // namespace lir::explain
