// Command-line flags of lir-opt and the value types behind them.
//
// To add a flag: define it with ABSL_FLAG in any .cc file of tools/lir-opt/
// (the usage text lists every flag defined in this directory, with its help
// string), then add its name to the flag list of every command that reads it
// (beside kSubcommands in lir-opt.cc; other commands refuse it, and
// cli_test checks that each flag has a command). A flag with a fixed set of
// values gets an enum, a Choice table and the two AbslParseFlag/
// AbslUnparseFlag one-liners below, plus one line in FlagValueSyntax
// (flags.cc).
#ifndef LIR_TOOLS_LIR_OPT_FLAGS_H_
#define LIR_TOOLS_LIR_OPT_FLAGS_H_

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/declare.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "lir/eval/spine.h"

namespace lir::cli {

/// Default of --max_input_bytes: 256 MiB. Real plans are kilobytes; a
/// generated plan of 10^6 nodes is about 350 MB of text, and parsing takes
/// about ten times the text's size in memory, so this bounds one read at a
/// few GB.
inline constexpr uint64_t kDefaultMaxInputBytes = uint64_t{256} << 20;

/// One accepted spelling of an enum-valued flag.
template <typename E>
struct Choice {
  absl::string_view name;
  E value;
};

/// `a|b|c`: the accepted values as the usage text shows them.
template <typename E>
std::string ChoiceSyntax(std::span<const Choice<E>> choices) {
  return absl::StrJoin(choices, "|", [](std::string* out, const Choice<E>& c) {
    absl::StrAppend(out, c.name);
  });
}

/// Parses `text` as one of `choices`; on failure fills `error` with the list
/// of accepted values (absl prefixes it with the flag name).
template <typename E>
bool ParseChoice(std::span<const Choice<E>> choices, absl::string_view text,
                 E* value, std::string* error) {
  for (const Choice<E>& choice : choices) {
    if (choice.name == text) {
      *value = choice.value;
      return true;
    }
  }
  *error = absl::StrCat("expected one of ", ChoiceSyntax(choices));
  return false;
}

/// The spelling of `value` in `choices`.
template <typename E>
std::string UnparseChoice(std::span<const Choice<E>> choices, E value) {
  for (const Choice<E>& choice : choices) {
    if (choice.value == value) return std::string(choice.name);
  }
  return "?";
}

/// How the input file is read (`--input_format`).
enum class InputFormat { kAuto, kText, kJson };
inline constexpr Choice<InputFormat> kInputFormatChoices[] = {
    {"auto", InputFormat::kAuto},
    {"text", InputFormat::kText},
    {"json", InputFormat::kJson},
};

/// What `run --analyze` prints (`--analyze_format`).
enum class AnalyzeFormat { kTable, kDot };
inline constexpr Choice<AnalyzeFormat> kAnalyzeFormatChoices[] = {
    {"table", AnalyzeFormat::kTable},
    {"dot", AnalyzeFormat::kDot},
};
inline bool AbslParseFlag(absl::string_view text, AnalyzeFormat* value,
                          std::string* error) {
  return ParseChoice<AnalyzeFormat>(kAnalyzeFormatChoices, text, value, error);
}
inline std::string AbslUnparseFlag(AnalyzeFormat value) {
  return UnparseChoice<AnalyzeFormat>(kAnalyzeFormatChoices, value);
}

/// How a document is written (`--format`). kVerbose and kConcise pick one
/// of the two EXPLAIN syntaxes and kDot a Graphviz graph (explain only);
/// kText prints a plan in the syntax it was read in, and is the plain-text
/// report elsewhere.
enum class OutputFormat { kText, kJson, kVerbose, kConcise, kDot };
inline constexpr Choice<OutputFormat> kOutputFormatChoices[] = {
    {"text", OutputFormat::kText},       {"json", OutputFormat::kJson},
    {"verbose", OutputFormat::kVerbose}, {"concise", OutputFormat::kConcise},
    {"dot", OutputFormat::kDot},
};

// absl finds these by argument-dependent lookup.
inline bool AbslParseFlag(absl::string_view text, InputFormat* value,
                          std::string* error) {
  return ParseChoice<InputFormat>(kInputFormatChoices, text, value, error);
}
inline std::string AbslUnparseFlag(InputFormat value) {
  return UnparseChoice<InputFormat>(kInputFormatChoices, value);
}
inline bool AbslParseFlag(absl::string_view text, OutputFormat* value,
                          std::string* error) {
  return ParseChoice<OutputFormat>(kOutputFormatChoices, text, value, error);
}
inline std::string AbslUnparseFlag(OutputFormat value) {
  return UnparseChoice<OutputFormat>(kOutputFormatChoices, value);
}

/// Which evaluation engine `run` uses (`--engine`).
enum class EngineChoice { kIncremental, kSnapshot };
inline constexpr Choice<EngineChoice> kEngineChoices[] = {
    {"incremental", EngineChoice::kIncremental},
    {"snapshot", EngineChoice::kSnapshot},
};
inline bool AbslParseFlag(absl::string_view text, EngineChoice* value,
                          std::string* error) {
  return ParseChoice<EngineChoice>(kEngineChoices, text, value, error);
}
inline std::string AbslUnparseFlag(EngineChoice value) {
  return UnparseChoice<EngineChoice>(kEngineChoices, value);
}

/// What `run`'s arrangements keep after each round (`--compaction`).
enum class CompactionChoice { kEager, kNone };
inline constexpr Choice<CompactionChoice> kCompactionChoices[] = {
    {"eager", CompactionChoice::kEager},
    {"none", CompactionChoice::kNone},
};
inline bool AbslParseFlag(absl::string_view text, CompactionChoice* value,
                          std::string* error) {
  return ParseChoice<CompactionChoice>(kCompactionChoices, text, value, error);
}
inline std::string AbslUnparseFlag(CompactionChoice value) {
  return UnparseChoice<CompactionChoice>(kCompactionChoices, value);
}

/// How a spine pays for exertion (`spine --exertion`).
enum class ExertionChoice { kStock, kFunded };
inline constexpr Choice<ExertionChoice> kExertionChoices[] = {
    {"stock", ExertionChoice::kStock},
    {"funded", ExertionChoice::kFunded},
};
inline bool AbslParseFlag(absl::string_view text, ExertionChoice* value,
                          std::string* error) {
  return ParseChoice<ExertionChoice>(kExertionChoices, text, value, error);
}
inline std::string AbslUnparseFlag(ExertionChoice value) {
  return UnparseChoice<ExertionChoice>(kExertionChoices, value);
}

/// Whether `run` keeps a spine per arrangement, and how it pays for
/// exertion (`run --spine`).
enum class SpineChoice { kOff, kStock, kFunded };
inline constexpr Choice<SpineChoice> kSpineChoices[] = {
    {"off", SpineChoice::kOff},
    {"stock", SpineChoice::kStock},
    {"funded", SpineChoice::kFunded},
};
inline bool AbslParseFlag(absl::string_view text, SpineChoice* value,
                          std::string* error) {
  return ParseChoice<SpineChoice>(kSpineChoices, text, value, error);
}
inline std::string AbslUnparseFlag(SpineChoice value) {
  return UnparseChoice<SpineChoice>(kSpineChoices, value);
}

/// An exertion policy flag (`spine --policy`, `run --spine_policy`):
/// none, idle_merge:E or proportional:P (include/lir/eval/spine.h).
struct SpinePolicyFlag {
  eval::spine::Policy policy;
};
bool AbslParseFlag(absl::string_view text, SpinePolicyFlag* value,
                   std::string* error);
std::string AbslUnparseFlag(const SpinePolicyFlag& value);

/// Records the flags named on the command line (`--name`, `--name=value`,
/// `--noname`, up to a `--`), for checks that a flag was given at all
/// rather than left at its default (FlagGiven).
void RecordFlagsGiven(const std::vector<std::string>& args);
/// Whether flag `name` was named on the command line (RecordFlagsGiven).
bool FlagGiven(absl::string_view name);

/// Whether `flag` is one of lir-opt's (defined in tools/lir-opt/) rather
/// than absl's or a library's.
bool IsLirOptFlag(const absl::CommandLineFlag& flag);

/// `--name=<syntax>` as the usage text prints it: `--[no]validate`,
/// `--format=text|json`, `--limit=VALUE`.
std::string FlagValueSyntax(const absl::CommandLineFlag& flag);

/// Greedy word wrap of `text` to 78 columns, every line starting with
/// `indent`.
std::string WrapText(absl::string_view text, absl::string_view indent);

/// The `Flags:` section of the usage text: every flag defined in
/// tools/lir-opt/, sorted by name, with its help text and default.
std::string FlagsUsage();

}  // namespace lir::cli

ABSL_DECLARE_FLAG(lir::cli::InputFormat, input_format);
ABSL_DECLARE_FLAG(lir::cli::OutputFormat, format);
ABSL_DECLARE_FLAG(bool, node_identifiers);
ABSL_DECLARE_FLAG(bool, validate);
ABSL_DECLARE_FLAG(uint64_t, max_input_bytes);
// Shared by `spine` and `run --spine` (defined in spine_command.cc).
ABSL_DECLARE_FLAG(uint64_t, idle_turns);

#endif  // LIR_TOOLS_LIR_OPT_FLAGS_H_
