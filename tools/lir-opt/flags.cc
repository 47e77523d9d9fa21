#include "tools/lir-opt/flags.h"

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "src/lir/string_view_compat.h"
#include "tools/lir-opt/annotate_flags.h"
#include "tools/lir-opt/feature_flags.h"

ABSL_FLAG(lir::cli::InputFormat, input_format, lir::cli::InputFormat::kAuto,
          "How FILE is read. auto: JSON when its first non-space byte is '{', "
          "EXPLAIN text otherwise; text: EXPLAIN text, verbose or concise "
          "(Materialize's default EXPLAIN), told apart by the first plan "
          "line; json: the lir-plan/2 JSON form (lir-plan/1 is read too).");
ABSL_FLAG(lir::cli::OutputFormat, format, lir::cli::OutputFormat::kText,
          "How the plan is printed, byte for byte as Materialize prints it. "
          "text: EXPLAIN text in the syntax the input used (verbose for JSON "
          "input); verbose: EXPLAIN ... AS VERBOSE TEXT; concise: the default "
          "EXPLAIN syntax; json: the lir-plan/2 JSON form; dot: a Graphviz "
          "graph of the plan (concise operator lines, --annotate fields, "
          "arrangements built as cylinders, nodes a rewrite created "
          "highlighted). A plan read from concise text lacks facts the "
          "verbose and JSON forms need: printing it so fails, naming the "
          "node. Other commands take text or json.");
ABSL_FLAG(bool, node_identifiers, false,
          "Print a '// { node_id: LirId(n) }' annotation on every node header "
          "(text output). Annotations present in the input are kept anyway.");
ABSL_FLAG(bool, validate, true,
          "Check the plan's structure (arities, local ids, keys, inputs per "
          "node) before printing; a broken plan is invalid input (exit 1). "
          "--novalidate prints what was parsed without checking it.");
ABSL_FLAG(uint64_t, max_input_bytes, lir::cli::kDefaultMaxInputBytes,
          "The largest plan, data, catalog or config file (or standard "
          "input) read, in bytes. Reading a plan takes about ten times its "
          "size in memory "
          "(JSON more), so a larger input is refused before it is read "
          "rather than exhausting memory.");

namespace lir::cli {
namespace {

// Usage text layout: the help of a flag is wrapped to this width, indented
// below the flag's syntax line.
constexpr size_t kUsageWidth = 78;
constexpr absl::string_view kHelpIndent = "      ";

// The flags named on the command line (RecordFlagsGiven).
std::set<std::string>& FlagsGiven() {
  static auto* given = new std::set<std::string>;
  return *given;
}

}  // namespace

bool IsLirOptFlag(const absl::CommandLineFlag& flag) {
  return absl::StrContains(flag.Filename(), "lir-opt/");
}

void RecordFlagsGiven(const std::vector<std::string>& args) {
  for (absl::string_view arg : args) {
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-') continue;
    absl::ConsumePrefix(&arg, "-");
    absl::ConsumePrefix(&arg, "-");
    std::string name(arg.substr(0, arg.find('=')));
    // `--nofoo` names the boolean foo (unless a flag is named nofoo).
    if (absl::StartsWith(name, "no") &&
        absl::FindCommandLineFlag(name) == nullptr) {
      name = name.substr(2);
    }
    FlagsGiven().insert(std::move(name));
  }
}

bool FlagGiven(absl::string_view name) {
  return FlagsGiven().contains(std::string(name));
}

bool AbslParseFlag(absl::string_view text, SpinePolicyFlag* value,
                   std::string* error) {
  absl::StatusOr<eval::spine::Policy> policy =
      eval::spine::Policy::Parse(ToStd(text));
  if (!policy.ok()) {
    *error = std::string(policy.status().message());
    return false;
  }
  value->policy = *policy;
  return true;
}

std::string AbslUnparseFlag(const SpinePolicyFlag& value) {
  return value.policy.ToString();
}

std::string WrapText(absl::string_view text, absl::string_view indent) {
  std::string out;
  std::string line(indent);
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (line.size() > indent.size() &&
        line.size() + 1 + word.size() > kUsageWidth) {
      absl::StrAppend(&out, line, "\n");
      line = std::string(indent);
    }
    if (line.size() > indent.size()) line += ' ';
    absl::StrAppend(&line, word);
  }
  if (line.size() > indent.size()) absl::StrAppend(&out, line, "\n");
  return out;
}

std::string FlagValueSyntax(const absl::CommandLineFlag& flag) {
  if (flag.IsOfType<bool>()) return absl::StrCat("--[no]", flag.Name());
  if (flag.IsOfType<FeatureSwitch>()) {
    return absl::StrCat("--[no]", flag.Name(), "[=true|false|on|off|...]");
  }
  std::string values = "VALUE";
  if (flag.IsOfType<InputFormat>()) {
    values = ChoiceSyntax<InputFormat>(kInputFormatChoices);
  } else if (flag.IsOfType<OutputFormat>()) {
    values = ChoiceSyntax<OutputFormat>(kOutputFormatChoices);
  } else if (flag.IsOfType<EngineChoice>()) {
    values = ChoiceSyntax<EngineChoice>(kEngineChoices);
  } else if (flag.IsOfType<CompactionChoice>()) {
    values = ChoiceSyntax<CompactionChoice>(kCompactionChoices);
  } else if (flag.IsOfType<SpineChoice>()) {
    values = ChoiceSyntax<SpineChoice>(kSpineChoices);
  } else if (flag.IsOfType<ExertionChoice>()) {
    values = ChoiceSyntax<ExertionChoice>(kExertionChoices);
  } else if (flag.IsOfType<AnalyzeFormat>()) {
    values = ChoiceSyntax<AnalyzeFormat>(kAnalyzeFormatChoices);
  } else if (flag.IsOfType<SpinePolicyFlag>()) {
    values = "none|idle_merge:E|proportional:P";
  } else if (flag.IsOfType<AnnotationList>()) {
    // The fields are listed in the flag's help: spelled out here they would
    // not fit in 80 columns.
    values = "FIELD,...";
  } else if (flag.Name() == "analyze") {
    values = "memory|cpu|memory,cpu|cpu,memory";
  } else if (flag.Name() == "analyze_compare") {
    values = "FEATURE,...";
  } else if (flag.Name() == "analyze_round") {
    values = "N";
  }
  return absl::StrCat("--", flag.Name(), "=", values);
}

std::string FlagsUsage() {
  std::vector<const absl::CommandLineFlag*> flags;
  for (const auto& [name, flag] : absl::GetAllFlags()) {
    if (IsLirOptFlag(*flag)) flags.push_back(flag);
  }
  std::sort(flags.begin(), flags.end(),
            [](const absl::CommandLineFlag* a, const absl::CommandLineFlag* b) {
              return a->Name() < b->Name();
            });
  std::string out;
  for (const absl::CommandLineFlag* flag : flags) {
    const std::string syntax = absl::StrCat("  ", FlagValueSyntax(*flag));
    const std::string fallback = absl::StrCat(
        "(default: ",
        flag->DefaultValue().empty() ? "none" : flag->DefaultValue(), ")");
    // The default goes on a line of its own when both do not fit in 80
    // columns (the longest choice lists).
    const bool fits = syntax.size() + 2 + fallback.size() <= 80;
    absl::StrAppend(&out, syntax, fits ? "  " : absl::StrCat("\n", kHelpIndent),
                    fallback, "\n", WrapText(flag->Help(), kHelpIndent));
  }
  return out;
}

}  // namespace lir::cli
