// The corpus report of the fused set-difference recognizer.
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
#include "src/explain/text.h"
#include "src/explain/text_primitives.h"
#include "src/lir/status_macros.h"
#include "src/recognizer/features.h"
#include "src/recognizer/fused_set_difference.h"
#include "src/recognizer/pass.h"

namespace lir {
namespace {

// Text safe inside one Markdown table cell.
std::string Cell(absl::string_view text) {
  return absl::StrReplaceAll(text, {{"|", "\\|"}, {"\n", " "}});
}

std::string Key(const std::vector<int>& key) {
  return absl::StrCat("[", explain::PrintIndices(key), "]");
}

// What to show about a candidate besides its outcome, code and arm.
std::string Detail(const Candidate& c) {
  if (c.outcome == CandidateOutcome::kFired) {
    const FusedKeys keys = FusedKeysOf(c);
    return absl::StrCat("base_key=", Key(keys.base_key),
                        " subtract_key=", Key(keys.subtract_key));
  }
  return c.message;
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

absl::StatusOr<std::string> CorpusReportMarkdown(
    const std::vector<NamedDocument>& named_docs) {
  OptimizerFeatures features;
  features.enable_fused_set_difference = true;

  struct PlanCandidates {
    const std::string* name;
    std::vector<Candidate> candidates;
  };
  std::vector<PlanCandidates> with_candidates;
  size_t total = 0;
  size_t fired = 0;
  std::map<std::string, size_t> declined_by_code;
  std::map<std::string, size_t> declined_by_code_and_arm;
  for (const auto& [name, doc] : named_docs) {
    LIR_ASSIGN_OR_RETURN(OptimizeResult result, Optimize(Clone(doc), features));
    // Other passes are off but still report their candidates; keep ours.
    std::vector<Candidate> ours;
    for (Candidate& c : result.report.candidates) {
      if (c.pass == FusedSetDifference::kName) ours.push_back(std::move(c));
    }
    if (ours.empty()) continue;
    for (const Candidate& c : ours) {
      ++total;
      if (c.outcome == CandidateOutcome::kFired) {
        ++fired;
      } else {
        ++declined_by_code[c.reason];
        if (!c.arm.empty()) ++declined_by_code_and_arm[c.reason + "/" + c.arm];
      }
    }
    with_candidates.push_back({&name, std::move(ours)});
  }

  std::string out = absl::StrCat(
      "# Fused SetDifference: corpus report\n\n"
      "<!-- Generated; do not edit. Regenerate with:\n"
      "     ",
      kCorpusReportCommand, " -->\n\n",
      "Every plan of the corpus optimized with "
      "`enable_fused_set_difference=true` (SEMANTICS.md section 4). Every "
      "`Threshold::Basic` is a candidate; one that does not fire has exactly "
      "one decline code.\n\n"
      "## Totals\n\n"
      "| | count |\n"
      "|---|---:|\n");
  absl::StrAppend(&out, "| plans | ", named_docs.size(), " |\n");
  absl::StrAppend(&out, "| plans with candidates | ", with_candidates.size(),
                  " |\n");
  absl::StrAppend(&out, "| candidates | ", total, " |\n");
  absl::StrAppend(&out, "| fired | ", fired, " |\n");
  absl::StrAppend(&out, "| declined | ", total - fired, " |\n\n");

  absl::StrAppend(&out,
                  "## Outcomes by decline code\n\n"
                  "| outcome | code | candidates | base arm | subtract arm |\n"
                  "|---|---|---:|---:|---:|\n");
  absl::StrAppend(&out, "| fired | | ", fired, " | | |\n");
  // The codes in the order of ../shared/reference/SEMANTICS.md 4.2, each listed
  // once (non_projection_mfp covers checks 6 and 8).
  for (const DeclineEntry<FusedSetDifferenceDecline>& entry :
       kAllFusedSetDifferenceDeclines) {
    auto count = [&](const std::map<std::string, size_t>& counts,
                     const std::string& key) -> size_t {
      auto it = counts.find(key);
      return it == counts.end() ? 0 : it->second;
    };
    const std::string c(entry.name);
    absl::StrAppend(&out, "| declined | `", c, "` | ",
                    count(declined_by_code, c), " | ",
                    count(declined_by_code_and_arm, c + "/base"), " | ",
                    count(declined_by_code_and_arm, c + "/subtract"), " |\n");
  }
  // A code missing from the table (it should not be) still shows up.
  for (const auto& [code, n] : declined_by_code) {
    if (std::none_of(std::begin(kAllFusedSetDifferenceDeclines),
                     std::end(kAllFusedSetDifferenceDeclines),
                     // By name: clang 14 cannot capture a structured binding.
                     [&code = code](
                         const DeclineEntry<FusedSetDifferenceDecline>& known) {
                       return code == known.name;
                     })) {
      absl::StrAppend(&out, "| declined | `", Cell(code), "` | ", n,
                      " | | |\n");
    }
  }

  absl::StrAppend(
      &out,
      "\n## Candidates by plan\n\n"
      "Plans without a candidate are not listed. Candidates are "
      "in pre-order within each object.\n\n"
      "| plan | object | LirId | outcome | reason | arm | detail |\n"
      "|---|---|---:|---|---|---|---|\n");
  for (const PlanCandidates& plan : with_candidates) {
    for (const Candidate& c : plan.candidates) {
      absl::StrAppend(
          &out, "| ", Cell(*plan.name), " | ", Cell(c.object), " | ", c.lir_id,
          " | ", OutcomeName(c.outcome), " | ",
          c.reason.empty() ? "" : absl::StrCat("`", Cell(c.reason), "`"), " | ",
          Cell(c.arm), " | ", Cell(Detail(c)), " |\n");
    }
  }
  return out;
}

}  // namespace lir
