// Strict readers for the shared pieces of the JSON form: scalars, datums,
// expressions, order keys, MFPs and arrangements (docs/json-format.md).
#include <climits>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "src/explain/json_locate.h"
#include "src/explain/json_names.h"
#include "src/explain/json_reader.h"
#include "src/explain/text_names.h"
#include "src/explain/text_primitives.h"

namespace lir::explain::internal {
namespace {

// A short description of what a value is, for "expected X, got Y". Never
// prints the value itself: it may be huge or deeply nested.
std::string Describe(const json& value) {
  switch (value.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
      return absl::StrCat("the integer ", value.get<int64_t>());
    case json::value_t::number_unsigned:
      return absl::StrCat("the integer ", value.get<uint64_t>());
    case json::value_t::number_float: return "a non-integer number";
    case json::value_t::string: {
      const std::string& text = value.get_ref<const std::string&>();
      if (text.size() > 40) return "a string";
      return absl::StrCat("\"", text, "\"");
    }
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    default: return "a non-JSON value";
  }
}

absl::Status ReadExprAt(const json& value, const JsonPath& path,
                        ScalarExpr& out, int depth);

// At most 40 bytes of `text` for an error message.
std::string Excerpt(absl::string_view text) {
  if (text.size() <= 40) return std::string(text);
  return absl::StrCat(text.substr(0, 37), "...");
}

// A datum must print as text that reads back as the same datum: the text
// reader decides the type from the printed form (TEXT-FORMAT.md 5.5), so
// JSON may only hold what that reader would produce. `path` is the datum's
// (or literal expression's) object.
absl::Status CheckDatum(const Literal& lit, const JsonPath& path) {
  std::string printed;
  AppendLiteral(printed, lit);
  size_t pos = 0;
  absl::StatusOr<Literal> back = ParseLiteral(printed, &pos);
  if (back.ok() && *back == lit) return absl::OkStatus();
  const JsonPath text_path = path.Key("text");
  const absl::string_view kind = ToAbsl(EnumName(kLiteralKindNames, lit.kind));
  if (lit.kind == LiteralKind::kString) {
    return JsonError(
        text_path,
        "expected a string the text form can carry: strings print with `\\` "
        "unescaped, so a backslash before `\"`, `n`, `r` or `t`, or at the "
        "end, would read back as a different string");
  }
  if (!back.ok()) {
    return JsonError(
        text_path,
        absl::StrCat("expected the text of a ", kind,
                     " datum as EXPLAIN prints it, got \"", Excerpt(lit.text),
                     "\" (", back.status().message(), " at byte ", pos, ")"));
  }
  return JsonError(
      text_path, absl::StrCat("expected the text of a ", kind, " datum, got \"",
                              Excerpt(lit.text), "\", which reads back as a ",
                              ToAbsl(EnumName(kLiteralKindNames, back->kind)),
                              " datum \"", Excerpt(back->text), "\""));
}

// The arguments of an expression at `depth`: each one level deeper.
absl::Status ReadArgs(const json& value, const JsonPath& path,
                      std::vector<ScalarExpr>& out, int depth) {
  return ReadList(value, path, out,
                  [depth](const json& v, const JsonPath& p, ScalarExpr& e) {
                    return ReadExprAt(v, p, e, depth + 1);
                  });
}

// The argument-count rules the text printer relies on, per expression shape.
absl::Status CheckArgs(const ScalarExpr& e, const JsonPath& args_path) {
  const size_t n = e.args.size();
  switch (e.kind) {
    case ScalarKind::kCall:
      if ((e.style == CallStyle::kPostfixIs || e.style == CallStyle::kNot) &&
          n != 1) {
        return JsonError(
            args_path, absl::StrCat("expected exactly 1 argument for a ",
                                    ToAbsl(EnumName(kCallStyleNames, e.style)),
                                    " call, got ", n));
      }
      // Materialize prints AND/OR with fewer than two operands as
      // `AND(#0)`, `OR()`; the text reader keeps them infix calls.
      if (e.style == CallStyle::kInfix && n < 2 && e.func != "AND" &&
          e.func != "OR") {
        return JsonError(
            args_path,
            absl::StrCat(
                "expected at least 2 arguments for an infix call, got ", n));
      }
      return absl::OkStatus();
    case ScalarKind::kIf:
      if (n != 3) {
        return JsonError(args_path,
                         absl::StrCat("expected exactly 3 arguments "
                                      "(condition, then, else), got ",
                                      n));
      }
      return absl::OkStatus();
    case ScalarKind::kCaseLookup:
      if (n < 2 || n % 2 != 0) {
        return JsonError(
            args_path,
            absl::StrCat("expected an even number (>= 2) of arguments "
                         "(input, literal/result pairs, default), got ",
                         n));
      }
      for (size_t i = 1; i + 1 < n; i += 2) {
        if (e.args[i].kind != ScalarKind::kLiteral) {
          return JsonError(args_path.Index(i),
                           "expected a literal expression (a case_lookup "
                           "`when` value)");
        }
      }
      return absl::OkStatus();
    default: return absl::OkStatus();
  }
}

absl::Status ReadExprAt(const json& value, const JsonPath& path,
                        ScalarExpr& out, int depth) {
  if (depth > kMaxExprDepth) {
    return JsonError(path, absl::StrCat("expression nested deeper than ",
                                        kMaxExprDepth, " levels"));
  }
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  out = ScalarExpr();
  LIR_RETURN_IF_ERROR(
      Required(fields, "kind", out.kind,
               [](const json& v, const JsonPath& p, ScalarKind& k) {
                 return ReadEnum(v, p, kScalarKindNames, k);
               }));
  switch (out.kind) {
    case ScalarKind::kColumn:
      LIR_RETURN_IF_ERROR(Required(fields, "column", out.column, ReadPosition));
      LIR_RETURN_IF_ERROR(OptionalValue(fields, "name", out.name, ReadString));
      break;
    case ScalarKind::kLiteral:
      LIR_RETURN_IF_ERROR(
          Required(fields, "type", out.literal.kind,
                   [](const json& v, const JsonPath& p, LiteralKind& k) {
                     return ReadEnum(v, p, kLiteralKindNames, k);
                   }));
      LIR_RETURN_IF_ERROR(
          Required(fields, "text", out.literal.text, ReadString));
      LIR_RETURN_IF_ERROR(CheckDatum(out.literal, path));
      break;
    case ScalarKind::kCall:
      LIR_RETURN_IF_ERROR(
          Required(fields, "style", out.style,
                   [](const json& v, const JsonPath& p, CallStyle& s) {
                     return ReadEnum(v, p, kCallStyleNames, s);
                   }));
      LIR_RETURN_IF_ERROR(Required(fields, "func", out.func, ReadString));
      LIR_RETURN_IF_ERROR(
          OptionalValue(fields, "params", out.params, ReadString));
      [[fallthrough]];
    case ScalarKind::kIf:
    case ScalarKind::kCaseLookup: {
      const json* args = fields.Find("args");
      if (args != nullptr && !args->is_null()) {
        LIR_RETURN_IF_ERROR(
            ReadArgs(*args, fields.PathOf("args"), out.args, depth));
      }
      LIR_RETURN_IF_ERROR(CheckArgs(out, fields.PathOf("args")));
      if (out.kind == ScalarKind::kCall) {
        LIR_RETURN_IF_ERROR(CheckCallText(out, path));
      }
      break;
    }
    case ScalarKind::kOpaque:
      LIR_RETURN_IF_ERROR(Required(fields, "text", out.opaque, ReadString));
      LIR_RETURN_IF_ERROR(CheckOpaqueText(out.opaque, path));
      break;
  }
  return fields.Finish(absl::StrCat(
      "a ", ToAbsl(EnumName(kScalarKindNames, out.kind)), " expression"));
}

absl::Status ReadOrderKey(const json& value, const JsonPath& path,
                          OrderKey& out) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  out = OrderKey();
  LIR_RETURN_IF_ERROR(Required(fields, "column", out.column, ReadPosition));
  LIR_RETURN_IF_ERROR(Optional(fields, "desc", out.desc, ReadBool));
  LIR_RETURN_IF_ERROR(Optional(fields, "nulls_last", out.nulls_last, ReadBool));
  return fields.Finish("an order key");
}

absl::Status ReadTemporal(const json& value, const JsonPath& path,
                          TemporalFilter& out) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  LIR_RETURN_IF_ERROR(Optional(fields, "lower", out.lower, ReadExprs));
  LIR_RETURN_IF_ERROR(Optional(fields, "upper", out.upper, ReadExprs));
  return fields.Finish("a temporal filter");
}

absl::Status ReadPermutationPair(const json& value, const JsonPath& path,
                                 std::pair<int, int>& out) {
  if (!value.is_array() || value.size() != 2) {
    return JsonExpected(path, "a [column, position] pair", value);
  }
  LIR_RETURN_IF_ERROR(ReadPosition(value[0], path.Index(size_t{0}), out.first));
  return ReadPosition(value[1], path.Index(size_t{1}), out.second);
}

}  // namespace

absl::Status JsonError(const JsonPath& path, absl::string_view message) {
  std::string where = path.ToString();
  return absl::InvalidArgumentError(
      absl::StrCat(where.empty() ? "<root>" : where, ": ", message));
}

absl::Status JsonExpected(const JsonPath& path, absl::string_view what,
                          const json& value) {
  return JsonError(path,
                   absl::StrCat("expected ", what, ", got ", Describe(value)));
}

std::string JsonPath::ToString() const {
  std::vector<const JsonPath*> steps;
  for (const JsonPath* step = this; step->parent_ != nullptr;
       step = step->parent_) {
    steps.push_back(step);
  }
  std::string out;
  for (size_t i = steps.size(); i-- > 0;) {
    const JsonPath& step = *steps[i];
    if (step.index_plus_one_ > 0) {
      absl::StrAppend(&out, "/", step.index_plus_one_ - 1);
    } else {
      absl::StrAppend(&out, "/", JsonPointerToken(step.key_));
    }
  }
  return out;
}

absl::StatusOr<Fields> Fields::Of(const json& value, const JsonPath& path) {
  if (!value.is_object()) return JsonExpected(path, "an object", value);
  return Fields(value, path);
}

const json* Fields::Find(std::string_view key) {
  if (known_count_ < known_.size()) {
    known_[known_count_++] = key;
  } else {
    more_known_.push_back(key);
  }
  auto it = value_->find(key);
  if (it == value_->end()) return nullptr;
  ++found_;
  return &*it;
}

absl::Status Fields::Finish(absl::string_view owner) const {
  // Each key is looked up once, so when every member was found there is
  // nothing unknown to look for.
  if (found_ == value_->size()) return absl::OkStatus();
  for (auto it = value_->begin(); it != value_->end(); ++it) {
    bool known = false;
    for (size_t i = 0; i < known_count_; ++i) {
      known = known || known_[i] == it.key();
    }
    for (std::string_view key : more_known_) known = known || key == it.key();
    if (!known) {
      return JsonError(path_.Key(it.key()),
                       absl::StrCat("unexpected field in ", owner));
    }
  }
  return absl::OkStatus();
}

absl::Status ReadString(const json& value, const JsonPath& path,
                        std::string& out) {
  if (!value.is_string()) return JsonExpected(path, "a string", value);
  out = value.get_ref<const std::string&>();
  return absl::OkStatus();
}

absl::Status ReadName(const json& value, const JsonPath& path,
                      std::string& out) {
  LIR_RETURN_IF_ERROR(ReadString(value, path, out));
  if (std::optional<std::string> problem = NameProblem(out)) {
    return JsonError(path, absl::StrCat("expected a name the text form can "
                                        "carry: ",
                                        *problem));
  }
  return absl::OkStatus();
}

absl::Status ReadLineText(const json& value, const JsonPath& path,
                          std::string& out) {
  LIR_RETURN_IF_ERROR(ReadString(value, path, out));
  return CheckLineText(out, path);
}

absl::Status CheckLineText(const std::string& text, const JsonPath& path) {
  // The text parser rejects a carriage return anywhere in a line.
  const size_t bad = text.find_first_of("\n\r");
  if (bad != std::string::npos) {
    return JsonError(
        path, absl::StrCat("expected text for one line: byte ", bad, " is a ",
                           text[bad] == '\n' ? "newline" : "carriage return"));
  }
  return absl::OkStatus();
}

absl::Status ReadBool(const json& value, const JsonPath& path, bool& out) {
  if (!value.is_boolean()) return JsonExpected(path, "a boolean", value);
  out = value.get<bool>();
  return absl::OkStatus();
}

absl::Status ReadInt64(const json& value, const JsonPath& path, int64_t& out) {
  if (value.is_number_unsigned()) {
    uint64_t v = value.get<uint64_t>();
    if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return JsonExpected(path, "an integer that fits in 64 signed bits",
                          value);
    }
    out = static_cast<int64_t>(v);
    return absl::OkStatus();
  }
  if (value.is_number_integer()) {
    out = value.get<int64_t>();
    return absl::OkStatus();
  }
  return JsonExpected(path, "an integer", value);
}

absl::Status ReadCount(const json& value, const JsonPath& path, int64_t& out) {
  int64_t v = 0;
  if (!ReadInt64(value, path, v).ok() || v < 0) {
    return JsonExpected(path, "a non-negative integer", value);
  }
  out = v;
  return absl::OkStatus();
}

absl::Status ReadUint64(const json& value, const JsonPath& path,
                        uint64_t& out) {
  if (value.is_number_unsigned()) {
    out = value.get<uint64_t>();
    return absl::OkStatus();
  }
  if (value.is_number_integer() && value.get<int64_t>() >= 0) {
    out = static_cast<uint64_t>(value.get<int64_t>());
    return absl::OkStatus();
  }
  return JsonExpected(path, "a non-negative integer", value);
}

absl::Status ReadPosition(const json& value, const JsonPath& path, int& out) {
  int64_t v = 0;
  if (!ReadInt64(value, path, v).ok() || v < 0 || v > INT_MAX) {
    return JsonExpected(path, absl::StrCat("an integer in [0, ", INT_MAX, "]"),
                        value);
  }
  out = static_cast<int>(v);
  return absl::OkStatus();
}

absl::Status ReadPositions(const json& value, const JsonPath& path,
                           std::vector<int>& out) {
  return ReadList(value, path, out, ReadPosition);
}

absl::Status ReadStrings(const json& value, const JsonPath& path,
                         std::vector<std::string>& out) {
  return ReadList(value, path, out, ReadString);
}

absl::Status ReadDatum(const json& value, const JsonPath& path, Literal& out) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  LIR_RETURN_IF_ERROR(
      Required(fields, "type", out.kind,
               [](const json& v, const JsonPath& p, LiteralKind& k) {
                 return ReadEnum(v, p, kLiteralKindNames, k);
               }));
  LIR_RETURN_IF_ERROR(Required(fields, "text", out.text, ReadString));
  LIR_RETURN_IF_ERROR(fields.Finish("a datum"));
  return CheckDatum(out, path);
}

absl::Status ReadRow(const json& value, const JsonPath& path, Row& out) {
  return ReadList(value, path, out, ReadDatum);
}

absl::Status ReadExpr(const json& value, const JsonPath& path,
                      ScalarExpr& out) {
  return ReadExprAt(value, path, out, 1);
}

absl::Status ReadExprs(const json& value, const JsonPath& path,
                       std::vector<ScalarExpr>& out) {
  return ReadList(value, path, out, ReadExpr);
}

absl::Status ReadOrderKeys(const json& value, const JsonPath& path,
                           std::vector<OrderKey>& out) {
  return ReadList(value, path, out, ReadOrderKey);
}

absl::Status ReadMfp(const json& value, const JsonPath& path,
                     MapFilterProject& out) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  out = MapFilterProject();
  LIR_RETURN_IF_ERROR(
      OptionalValue(fields, "project", out.project, ReadPositions));
  LIR_RETURN_IF_ERROR(Optional(fields, "filter", out.filter, ReadExprs));
  LIR_RETURN_IF_ERROR(Optional(fields, "map", out.map, ReadExprs));
  LIR_RETURN_IF_ERROR(
      OptionalValue(fields, "temporal", out.temporal, ReadTemporal));
  return fields.Finish("a map-filter-project");
}

absl::Status ReadArrangement(const json& value, const JsonPath& path,
                             ArrangementForm& out) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  out = ArrangementForm();
  LIR_RETURN_IF_ERROR(Optional(fields, "key", out.key, ReadExprs));
  LIR_RETURN_IF_ERROR(Optional(fields, "permutation", out.permutation,
                               [](const json& v, const JsonPath& p,
                                  std::vector<std::pair<int, int>>& pairs) {
                                 return ReadList(v, p, pairs,
                                                 ReadPermutationPair);
                               }));
  LIR_RETURN_IF_ERROR(
      Optional(fields, "thinning", out.thinning, ReadPositions));
  return fields.Finish("an arrangement");
}

absl::Status ReadCollections(const json& value, const JsonPath& path,
                             AvailableCollections& out) {
  LIR_ASSIGN_OR_RETURN(Fields fields, Fields::Of(value, path));
  out = AvailableCollections();
  LIR_RETURN_IF_ERROR(Optional(fields, "raw", out.raw, ReadBool));
  LIR_RETURN_IF_ERROR(Optional(fields, "arranged", out.arranged,
                               [](const json& v, const JsonPath& p,
                                  std::vector<ArrangementForm>& forms) {
                                 return ReadList(v, p, forms, ReadArrangement);
                               }));
  return fields.Finish("available collections");
}

}  // namespace lir::explain::internal
