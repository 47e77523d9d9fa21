// Checks that names and free text read from JSON are ones the text form can
// carry: function and aggregate names, their parameter groups and table
// function names; opaque expression text must at least stay on its line. The
// JSON form may only hold what the text reader would produce, or a document
// would print as text that parses differently or not at all (fuzz finding
// json_roundtrip, issue 13).
//
// Each check prints the piece alone, with every argument replaced by `#0`,
// and parses it back with the text form's own parser, so the rule is the
// parser itself and the cost is linear in the piece, not in the expression
// below it. (Remembering passed pieces per thread was tried: it saved about
// 2% of JsonRead on the corpus, and only in a process that had read plans
// before, for state kept in every thread; not worth it.)
#include <optional>
#include <string>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "src/explain/json_names.h"
#include "src/explain/json_reader.h"
#include "src/explain/text_primitives.h"

namespace lir::explain::internal {
namespace {

// At most 40 bytes of `text` for an error message.
std::string Short(std::string_view text) {
  if (text.size() <= 40) return std::string(text);
  return absl::StrCat(ToAbsl(text.substr(0, 37)), "...");
}

ScalarExpr Placeholder() {
  ScalarExpr column;
  column.kind = ScalarKind::kColumn;
  column.column = 0;
  return column;
}

// `printed` (which is `shallow` printed) must parse (with `parse`) and print
// (with `print`) back the same. A piece that parses back as `shallow` itself
// passes without printing it again: it would print as `printed`.
template <typename T, typename Parse, typename Print>
absl::Status CheckReparse(const T& shallow, const std::string& printed,
                          Parse parse, Print print, const JsonPath& path,
                          std::string_view what) {
  size_t pos = printed.find_first_of("\n\r");
  if (pos != std::string::npos) {
    // The text form is line based: no piece of a line may break it.
    return JsonError(path, absl::StrCat("expected ", ToAbsl(what),
                                        " the text form can carry on one "
                                        "line, got a line break at byte ",
                                        pos, " of `", Short(printed), "`"));
  }
  pos = 0;
  auto back = parse(printed, &pos);
  if (!back.ok()) {
    return JsonError(
        path,
        absl::StrCat("expected ", ToAbsl(what), " the text form can carry; `",
                     Short(printed), "` does not parse (",
                     back.status().message(), " at byte ", pos, ")"));
  }
  if (*back == shallow) return absl::OkStatus();
  std::string again = print(*back);
  if (again == printed) return absl::OkStatus();
  return JsonError(
      path,
      absl::StrCat("expected ", ToAbsl(what), " the text form can carry; `",
                   Short(printed), "` reads back as `", Short(again), "`"));
}

}  // namespace

absl::Status CheckCallText(const ScalarExpr& call, const JsonPath& path) {
  ScalarExpr shallow;
  shallow.kind = call.kind;
  shallow.style = call.style;
  shallow.func = call.func;
  shallow.params = call.params;
  shallow.args.assign(call.args.size(), Placeholder());
  // The same text is not enough: `foo(#0)` is a function call however the
  // JSON styled it, and JSON -> text -> JSON must not change the document.
  return CheckReparse(
      shallow, PrintExpr(shallow), ParseExpr,
      [&](const ScalarExpr& back) {
        std::string printed = PrintExpr(back);
        if (back.kind != ScalarKind::kCall) {
          return absl::StrCat(printed, " (not a call)");
        }
        if (back.func != call.func || back.params != call.params) {
          return absl::StrCat(
              printed, " (the function `", back.func, "`",
              back.params.has_value() ? " with parameters `" : "",
              back.params.value_or(""), back.params.has_value() ? "`" : "",
              ")");
        }
        if (back.style == shallow.style) return printed;
        return absl::StrCat(
            printed, " (style `", ToAbsl(EnumName(kCallStyleNames, back.style)),
            "`, not `", ToAbsl(EnumName(kCallStyleNames, call.style)), "`)");
      },
      path.Key("func"), "a function name (and parameters)");
}

absl::Status CheckAggregateText(const AggregateExpr& agg,
                                const JsonPath& path) {
  // Field by field: a copy of `agg` would copy its expression tree too.
  AggregateExpr shallow;
  shallow.func = agg.func;
  shallow.params = agg.params;
  shallow.distinct = agg.distinct;
  shallow.expr = Placeholder();
  return CheckReparse(
      shallow, PrintAggregate(shallow), ParseAggregate,
      [&](const AggregateExpr& back) {
        std::string printed = PrintAggregate(back);
        if (back.func == agg.func && back.params == agg.params) return printed;
        return absl::StrCat(printed, " (the aggregate `", back.func, "`",
                            back.params.has_value() ? " with parameters `" : "",
                            back.params.value_or(""),
                            back.params.has_value() ? "`" : "", ")");
      },
      path.Key("func"), "an aggregate name (and parameters)");
}

absl::Status CheckOpaqueText(const std::string& text, const JsonPath& path) {
  // Opaque text is printed verbatim and never read back as opaque (the text
  // reader does not produce it; docs/json-format.md), so only the line
  // structure it sits in is protected here.
  if (text.empty()) {
    return JsonError(path.Key("text"),
                     "expected opaque expression text, got an empty string");
  }
  return CheckLineText(text, path.Key("text"));
}

absl::Status CheckAggregateFunctionName(const std::string& name,
                                        const JsonPath& path) {
  // `aggr_funcs=[min, max]`: the reader splits the bracket's content at
  // `, `, so a name must be non-empty, one line and without `, `.
  if (!name.empty() && name.find(", ") == std::string::npos &&
      name.find_first_of("\n\r") == std::string::npos) {
    return absl::OkStatus();
  }
  return JsonError(path, absl::StrCat("expected an aggregate name the text "
                                      "form can carry (non-empty, one line, "
                                      "without `, `), got \"",
                                      Short(name), "\""));
}

absl::Status CheckTableFunctionName(const std::string& func,
                                    const JsonPath& path) {
  // FlatMap prints `<func>(<args>)` on its header line; the reader takes the
  // last top-level parenthesized group as the arguments.
  const std::string call = absl::StrCat(func, "(#0)");
  bool one_line = func.find_first_of("\n\r") == std::string::npos;
  bool trimmed = !func.empty() && func.front() != ' ' && func.back() != ' ';
  if (one_line && trimmed && TableFunctionArgsStart(call) == func.size()) {
    return absl::OkStatus();
  }
  return JsonError(
      path, absl::StrCat("expected a table function name the text form can "
                         "carry (one line, no leading or trailing space, "
                         "balanced parentheses and quotes), got \"",
                         Short(func), "\""));
}

absl::Status ReadTableFunctionName(const json& value, const JsonPath& path,
                                   std::string& out) {
  LIR_RETURN_IF_ERROR(ReadString(value, path, out));
  return CheckTableFunctionName(out, path);
}

absl::Status ReadAggregateNames(const json& value, const JsonPath& path,
                                std::vector<std::string>& out) {
  return ReadList(value, path, out,
                  [](const json& v, const JsonPath& p, std::string& name) {
                    LIR_RETURN_IF_ERROR(ReadString(v, p, name));
                    return CheckAggregateFunctionName(name, p);
                  });
}

}  // namespace lir::explain::internal
