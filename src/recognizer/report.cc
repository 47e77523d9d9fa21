// Rendering a rewrite report: the `--explain_declines` text and the
// `--report` JSON (report.h).
#include "lir/recognizer/report.h"

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"

namespace lir {

std::string_view OutcomeName(CandidateOutcome outcome) {
  switch (outcome) {
    case CandidateOutcome::kFired: return "fired";
    case CandidateOutcome::kDeclined: return "declined";
    case CandidateOutcome::kDisabled: return "disabled";
  }
  return "?";
}

namespace {

// `declined not_co_arranged (subtract arm: ...)` without the outcome word.
std::string DeclineText(const Candidate& c) {
  return absl::StrCat(c.reason, " (", c.message, ")");
}

std::string Arrangements(int64_t n) {
  return absl::StrCat(n, n == 1 || n == -1 ? " arrangement" : " arrangements");
}

// ` (saves 2 arrangements)` for a candidate whose record counts its saving.
std::string SavesText(const Candidate& c) {
  // A rewrite that changes no arrangement (relax_must_consolidate) says
  // nothing; the JSON report still has `saves: 0`.
  if (!c.details.is_object() || !c.details.contains(kSavesField) ||
      !c.details[kSavesField].is_number_integer() ||
      c.details[kSavesField].get<int64_t>() == 0) {
    return "";
  }
  return absl::StrCat(" (saves ",
                      Arrangements(c.details[kSavesField].get<int64_t>()), ")");
}

std::string CountText(const std::optional<interp::ArrangementCount>& count) {
  return count.has_value() ? absl::StrCat(count->built) : "?";
}

}  // namespace

std::string PrintCandidates(const RewriteReport& report) {
  std::string out = "Rewrite candidates:\n";
  if (report.candidates.empty()) {
    absl::StrAppend(&out, "  (none)\n");
    return out;
  }
  std::string object;
  for (const Candidate& c : report.candidates) {
    if (c.object != object || &c == &report.candidates.front()) {
      object = c.object;
      absl::StrAppend(&out, "  ", object, ":\n");
    }
    std::string line = absl::StrCat("    ", c.pass, " LirId(", c.lir_id, "): ");
    switch (c.outcome) {
      case CandidateOutcome::kFired:
        absl::StrAppend(&line, "fired", SavesText(c));
        break;
      case CandidateOutcome::kDeclined:
        absl::StrAppend(&line, "declined ", DeclineText(c));
        break;
      case CandidateOutcome::kDisabled:
        absl::StrAppend(&line, "disabled, would ",
                        c.would_fire
                            ? absl::StrCat("fire", SavesText(c))
                            : absl::StrCat("decline ", DeclineText(c)));
        break;
    }
    absl::StrAppend(&out, line, "\n");
  }
  return out;
}

std::string PrintArrangementTotals(const RewriteReport& report) {
  std::string out = "Arrangements built (before the passes -> after):\n";
  if (report.objects.empty()) absl::StrAppend(&out, "  (no plans)\n");
  for (const ObjectArrangements& o : report.objects) {
    absl::StrAppend(&out, "  ", o.object, ": ", CountText(o.before), " -> ",
                    CountText(o.after));
    if (o.after.has_value() && o.after->imported > 0) {
      absl::StrAppend(&out, " (and ", o.after->imported, " imported index",
                      o.after->imported == 1 ? "" : "es", " read)");
    }
    absl::StrAppend(&out, "\n");
  }
  return out;
}

nlohmann::json ReportToJson(const RewriteReport& report) {
  nlohmann::json passes = nlohmann::json::array();
  for (const PassRun& run : report.passes) {
    passes.push_back({{"name", run.name},
                      {"feature", run.feature},
                      {"enabled", run.enabled}});
  }
  nlohmann::json candidates = nlohmann::json::array();
  for (const Candidate& c : report.candidates) {
    nlohmann::json j = {{"pass", c.pass},
                        {"object", c.object},
                        {"lir_id", c.lir_id},
                        {"outcome", std::string(OutcomeName(c.outcome))}};
    bool fires = c.outcome == CandidateOutcome::kFired ||
                 (c.outcome == CandidateOutcome::kDisabled && c.would_fire);
    if (c.outcome == CandidateOutcome::kDisabled) {
      j["if_enabled"] = c.would_fire ? "fired" : "declined";
    }
    if (!fires) {
      j["reason"] = c.reason;
      if (!c.arm.empty()) j["arm"] = c.arm;
      j["message"] = c.message;
    }
    // The pass's own fields (the fused keys, a decline's counts); a JSON
    // object's keys print sorted, so where they are merged does not change
    // the output.
    if (c.details.is_object()) j.update(c.details);
    candidates.push_back(std::move(j));
  }
  nlohmann::json objects = nlohmann::json::array();
  for (const ObjectArrangements& o : report.objects) {
    auto count = [](const std::optional<interp::ArrangementCount>& c) {
      return c.has_value() ? nlohmann::json{{"built", c->built},
                                            {"imported", c->imported}}
                           : nlohmann::json();
    };
    objects.push_back({{"object", o.object},
                       {"arrangements_before", count(o.before)},
                       {"arrangements_after", count(o.after)}});
  }
  return {{"passes", passes}, {"candidates", candidates}, {"objects", objects}};
}

}  // namespace lir
