// The corpus report of the rewrite passes (one section per pass).
#include "tools/corpus-report/corpus_report.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "lir/explain/text.h"
#include "lir/recognizer/antijoin.h"
#include "lir/recognizer/features.h"
#include "lir/recognizer/fused_set_difference.h"
#include "lir/recognizer/optimize.h"
#include "lir/recognizer/report.h"
#include "lir/status_macros.h"
#include "src/explain/text_primitives.h"
#include "src/lir/string_view_compat.h"

namespace lir {
namespace {

// Text safe inside one Markdown table cell.
std::string Cell(absl::string_view text) {
  return absl::StrReplaceAll(text, {{"|", "\\|"}, {"\n", " "}});
}

std::string Key(const std::vector<int>& key) {
  return absl::StrCat("[", explain::PrintIndices(key), "]");
}

// What to show about a candidate besides its outcome, code and arm: the
// pass's fields (the keys a fused node reads) when it fires, else the
// decline's message and fields.
std::string Detail(const Candidate& c) {
  std::string out =
      c.outcome == CandidateOutcome::kFired ? std::string() : c.message;
  if (!c.details.is_object()) return out;
  for (const auto& [field, value] : c.details.items()) {
    std::string text = value.dump();
    if (value.is_array()) {
      std::vector<int> key;
      for (const nlohmann::json& v : value) {
        if (v.is_number_integer()) key.push_back(v.get<int>());
      }
      if (key.size() == value.size()) text = Key(key);
    }
    absl::StrAppend(&out, out.empty() ? "" : " ", field, "=", text);
  }
  return out;
}

absl::StatusOr<std::string> ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return absl::NotFoundError(absl::StrCat("cannot read ", path.string()));
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

absl::StatusOr<std::vector<NamedDocument>> ReadPlanDirectory(
    const std::string& directory) {
  std::error_code error;
  std::filesystem::directory_iterator it(directory, error);
  if (error) {
    return absl::NotFoundError(absl::StrCat("cannot list directory ", directory,
                                            ": ", error.message()));
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : it) {
    if (entry.is_regular_file() && entry.path().extension() == ".plan") {
      files.push_back(entry.path());
    }
  }
  // By file name, so the order does not depend on the file system.
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
    return a.filename() < b.filename();
  });
  std::vector<NamedDocument> docs;
  docs.reserve(files.size());
  for (const std::filesystem::path& path : files) {
    LIR_ASSIGN_OR_RETURN(std::string text, ReadFile(path));
    explain::ParseOptions options;
    options.filename = path.string();
    LIR_ASSIGN_OR_RETURN(Document doc, explain::ParseText(text, options));
    docs.emplace_back(path.filename().string(), std::move(doc));
  }
  return docs;
}

namespace {

// One pass's section of the report: what the pass does to every plan with
// `features` on.
struct PassSection {
  absl::string_view pass;
  absl::string_view title;
  absl::string_view intro;
  /// The pass's decline codes in check order (the table lists each once).
  std::vector<absl::string_view> codes;
  /// How declines name the two arms.
  absl::string_view first_arm;
  absl::string_view second_arm;
  OptimizerFeatures features;
};

template <typename Code, size_t N>
std::vector<absl::string_view> CodeNames(const DeclineEntry<Code> (&all)[N]) {
  std::vector<absl::string_view> names;
  for (const DeclineEntry<Code>& entry : all) {
    names.push_back(ToAbsl(entry.name));
  }
  return names;
}

absl::StatusOr<std::string> SectionMarkdown(
    const PassSection& section, const std::vector<NamedDocument>& named_docs) {
  struct PlanCandidates {
    const std::string* name;
    std::vector<Candidate> candidates;
  };
  std::vector<PlanCandidates> with_candidates;
  size_t total = 0;
  size_t fired = 0;
  int64_t saved = 0;
  std::map<std::string, size_t> declined_by_code;
  std::map<std::string, size_t> declined_by_code_and_arm;
  for (const auto& [name, doc] : named_docs) {
    LIR_ASSIGN_OR_RETURN(OptimizeResult result,
                         Optimize(Clone(doc), section.features));
    // Other passes are off but still report their candidates; keep ours.
    std::vector<Candidate> ours;
    for (Candidate& c : result.report.candidates) {
      if (c.pass == section.pass) ours.push_back(std::move(c));
    }
    if (ours.empty()) continue;
    for (const Candidate& c : ours) {
      ++total;
      if (c.outcome == CandidateOutcome::kFired) {
        ++fired;
        if (c.details.is_object() && c.details.contains(kSavesField)) {
          saved += c.details[kSavesField].get<int64_t>();
        }
      } else {
        ++declined_by_code[c.reason];
        if (!c.arm.empty()) ++declined_by_code_and_arm[c.reason + "/" + c.arm];
      }
    }
    with_candidates.push_back({&name, std::move(ours)});
  }

  std::string out = absl::StrCat("## ", section.title, "\n\n", section.intro,
                                 "\n\n"
                                 "### Totals\n\n"
                                 "| | count |\n"
                                 "|---|---:|\n");
  absl::StrAppend(&out, "| plans | ", named_docs.size(), " |\n");
  absl::StrAppend(&out, "| plans with candidates | ", with_candidates.size(),
                  " |\n");
  absl::StrAppend(&out, "| candidates | ", total, " |\n");
  absl::StrAppend(&out, "| fired | ", fired, " |\n");
  absl::StrAppend(&out, "| declined | ", total - fired, " |\n");
  absl::StrAppend(&out,
                  "| arrangements the fired rewrites save (the accounting "
                  "of `--annotate=arrangements_built`) | ",
                  saved, " |\n\n");

  absl::StrAppend(&out, "### Outcomes by decline code\n\n",
                  "| outcome | code | candidates | ", section.first_arm,
                  " arm | ", section.second_arm,
                  " arm |\n"
                  "|---|---|---:|---:|---:|\n");
  absl::StrAppend(&out, "| fired | | ", fired, " | | |\n");
  auto count = [](const std::map<std::string, size_t>& counts,
                  const std::string& key) -> size_t {
    auto it = counts.find(key);
    return it == counts.end() ? 0 : it->second;
  };
  for (absl::string_view name : section.codes) {
    const std::string c(name);
    absl::StrAppend(&out, "| declined | `", c, "` | ",
                    count(declined_by_code, c), " | ",
                    count(declined_by_code_and_arm,
                          absl::StrCat(c, "/", section.first_arm)),
                    " | ",
                    count(declined_by_code_and_arm,
                          absl::StrCat(c, "/", section.second_arm)),
                    " |\n");
  }
  // A code missing from the table (it should not be) still shows up.
  for (const auto& [code, n] : declined_by_code) {
    if (std::find(section.codes.begin(), section.codes.end(), code) ==
        section.codes.end()) {
      absl::StrAppend(&out, "| declined | `", Cell(code), "` | ", n,
                      " | | |\n");
    }
  }

  absl::StrAppend(
      &out,
      "\n### Candidates by plan\n\n"
      "Plans without a candidate are not listed. Candidates are "
      "in pre-order within each object (for the antijoin pass, Form A "
      "before Form B).\n\n"
      "| plan | object | LirId | outcome | reason | arm | detail |\n"
      "|---|---|---:|---|---|---|---|\n");
  for (const PlanCandidates& plan : with_candidates) {
    for (const Candidate& c : plan.candidates) {
      absl::StrAppend(
          &out, "| ", Cell(*plan.name), " | ", Cell(c.object), " | ", c.lir_id,
          " | ", ToAbsl(OutcomeName(c.outcome)), " | ",
          c.reason.empty() ? "" : absl::StrCat("`", Cell(c.reason), "`"), " | ",
          Cell(c.arm), " | ", Cell(Detail(c)), " |\n");
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<std::string> CorpusReportMarkdown(
    const std::vector<NamedDocument>& named_docs) {
  std::vector<PassSection> sections(2);
  PassSection& antijoin = sections[0];
  antijoin.pass = ToAbsl(AntiJoinPass::kName);
  antijoin.title = "Antijoin rendering (`enable_antijoin_rendering=true`)";
  antijoin.intro =
      "SEMANTICS.md section 7. Form A candidates are every "
      "`Threshold::Basic` (checks 1-10 are the fused set difference's, then "
      "`base_not_set`, `keys_not_distinct`, `output_arrangement_consumed`); "
      "Form B candidates are the `Union(P, Negate(Join(P, K)))` anti-sides, "
      "never rewritten. The corpus has no catalog, so unique keys come from "
      "the plans alone (Reduce, TopK, Constant).";
  antijoin.codes = CodeNames(kAllAntiJoinDeclines);
  antijoin.first_arm = "base";
  antijoin.second_arm = "keys";
  antijoin.features.enable_antijoin_rendering = true;
  PassSection& fused = sections[1];
  fused.pass = ToAbsl(FusedSetDifference::kName);
  fused.title = "Fused SetDifference (`enable_fused_set_difference=true`)";
  fused.intro =
      "SEMANTICS.md section 4. Every `Threshold::Basic` is a candidate; one "
      "that does not fire has exactly one decline code.";
  fused.codes = CodeNames(kAllFusedSetDifferenceDeclines);
  fused.first_arm = "base";
  fused.second_arm = "subtract";
  fused.features.enable_fused_set_difference = true;

  std::string out = absl::StrCat(
      "# Rewrite passes: corpus report\n\n"
      "<!-- Generated; do not edit. Regenerate with:\n"
      "     ",
      kCorpusReportCommand, " -->\n\n",
      "Every plan of the corpus optimized with one pass's feature on at a "
      "time; a candidate that does not fire has exactly one decline code.\n\n");
  for (const PassSection& section : sections) {
    LIR_ASSIGN_OR_RETURN(std::string text,
                         SectionMarkdown(section, named_docs));
    absl::StrAppend(&out, text, "\n");
  }
  out.pop_back();  // one newline at the end of the file
  return out;
}

}  // namespace lir
