// Printing what RunDocument computed (run.h): text and JSON written as they
// are produced, replaying each object's changes, so that printing holds one
// object's contents at a time; and comparing two runs.
#include <algorithm>
#include <sstream>
#include <string>

#include "absl/strings/str_cat.h"
#include "lir/eval/run.h"
#include "lir/explain/json.h"
#include "lir/status_macros.h"

namespace lir::eval {
namespace {

// ` spine: batches=B records=R merge_work=W idle_turns=T` after an
// arrangement's sizes, or nothing when the run kept no spines.
std::string SpineText(const std::optional<SpineStats>& spine) {
  if (!spine.has_value()) return "";
  return absl::StrCat(
      " spine: batches=", spine->batches, " records=", spine->records,
      " merge_work=", spine->merge_work, " idle_turns=", spine->idle_turns);
}

std::string ArrangementsText(const RunResult& result) {
  std::string out;
  // The dataflow's arrangements (what mz_arrangement_sizes would list)
  // first; the evaluator's own recompute-adapter state apart, so that the
  // totals compare with Materialize's.
  for (const bool adapters : {false, true}) {
    uint64_t records = 0, bytes = 0;
    std::optional<SpineStats> spines;
    bool any = false;
    for (const ArrangementStats& stats : result.arrangements) {
      if (stats.adapter != adapters) continue;
      if (!any) {
        absl::StrAppend(&out, adapters
                                  ? "\nEvaluator state (recompute adapters; "
                                    "not arrangements of the dataflow):\n"
                                  : "\nArrangements:\n");
      }
      any = true;
      absl::StrAppend(&out, "  ", stats.object, " LirId(", stats.lir_id, ") ",
                      stats.operator_name, ": records=", stats.records,
                      " batches=", stats.batches, " bytes=", stats.bytes,
                      SpineText(stats.spine), "\n");
      records += stats.records;
      bytes += stats.bytes;
      if (stats.spine.has_value()) {
        if (!spines.has_value()) spines = SpineStats();
        spines->batches += stats.spine->batches;
        spines->records += stats.spine->records;
        spines->merge_work += stats.spine->merge_work;
        spines->idle_turns += stats.spine->idle_turns;
      }
    }
    if (!any && !adapters) {
      absl::StrAppend(&out, "\nArrangements:\n  (none)\n");
      continue;
    }
    if (any) {
      absl::StrAppend(&out, "  total: records=", records, " bytes=", bytes,
                      SpineText(spines), "\n");
    }
  }
  return out;
}

void PutJson(std::ostream& out, const nlohmann::json& value, int depth) {
  out << explain::DumpJsonAt(value, depth);
}

std::string Indent(int depth) { return std::string(2 * depth, ' '); }

}  // namespace

absl::StatusOr<bool> ContentsReplay::Next() {
  if (next_ >= object_.rounds.size()) return false;
  LIR_RETURN_IF_ERROR(AddInto(contents_, object_.rounds[next_].changes));
  ++next_;
  return true;
}

absl::StatusOr<std::vector<Multiset>> ContentsByRound(const ObjectRun& object) {
  std::vector<Multiset> out;
  ContentsReplay replay(object);
  while (true) {
    LIR_ASSIGN_OR_RETURN(const bool more, replay.Next());
    if (!more) break;
    out.push_back(replay.contents());
  }
  return out;
}

RoundSpan RoundsOf(const RunResult& result) {
  RoundSpan span;
  for (const ObjectRun& object : result.objects) {
    if (object.rounds.empty()) continue;
    span.last = object.rounds.back().round;
    span.listed = object.rounds.size();
    break;  // every object lists the same rounds
  }
  return span;
}

void WriteRunText(const RunResult& result, bool arrangement_sizes,
                  std::ostream& out) {
  for (const ObjectRun& object : result.objects) {
    out << object.name << ":\n";
    ContentsReplay replay(object);
    for (absl::StatusOr<bool> more = replay.Next(); more.ok() && *more;
         more = replay.Next()) {
      const RoundChanges& round = replay.round();
      out << "  round " << round.round << ":\n";
      if (round.error.has_value()) {
        out << "    error: " << *round.error << "\n";
        continue;
      }
      if (replay.contents().empty()) out << "    (empty)\n";
      for (const auto& [row, diff] : replay.contents()) {
        if (diff == 1) {
          out << "    - " << FormatRow(row) << "\n";
        } else {
          out << "    - (" << FormatRow(row) << " x " << diff << ")\n";
        }
      }
    }
  }
  if (const RoundSpan span = RoundsOf(result); span.skipped() > 0) {
    out << "\nRounds 0 to " << span.last << ": " << span.listed << " listed, "
        << span.skipped()
        << " skipped (no update in the data or due from a temporal filter, "
           "or no change)\n";
  }
  if (arrangement_sizes) out << ArrangementsText(result);
}

std::string FormatRunText(const RunResult& result, bool arrangement_sizes) {
  std::ostringstream out;
  WriteRunText(result, arrangement_sizes, out);
  return std::move(out).str();
}

void WriteRunJson(const RunResult& result, bool arrangement_sizes,
                  std::ostream& out) {
  // nlohmann prints an object's members in key order: "arrangements",
  // "evaluator_state", "objects", "rounds"; in a round, "contents" or
  // "error" before "round".
  nlohmann::json sizes = nlohmann::json::object();
  if (arrangement_sizes) {
    // As in the text: the dataflow's arrangements, and the recompute
    // adapters' state apart (present only when there is some).
    nlohmann::json arrangements = nlohmann::json::array();
    nlohmann::json adapters = nlohmann::json::array();
    for (const ArrangementStats& stats : result.arrangements) {
      nlohmann::json entry = {
          {"object", stats.object},          {"lir_id", stats.lir_id},
          {"operator", stats.operator_name}, {"records", stats.records},
          {"batches", stats.batches},        {"bytes", stats.bytes}};
      if (stats.spine.has_value()) {
        entry["spine"] = {{"batches", stats.spine->batches},
                          {"records", stats.spine->records},
                          {"merge_work", stats.spine->merge_work},
                          {"idle_turns", stats.spine->idle_turns}};
      }
      (stats.adapter ? adapters : arrangements).push_back(std::move(entry));
    }
    sizes["arrangements"] = std::move(arrangements);
    if (!adapters.empty()) sizes["evaluator_state"] = std::move(adapters);
  }
  out << "{\n";
  for (const auto& [key, value] : sizes.items()) {
    out << Indent(1);
    PutJson(out, key, 1);
    out << ": ";
    PutJson(out, value, 1);
    out << ",\n";
  }
  out << Indent(1) << "\"objects\": [";
  for (size_t i = 0; i < result.objects.size(); ++i) {
    const ObjectRun& object = result.objects[i];
    out << (i == 0 ? "\n" : ",\n") << Indent(2) << "{\n"
        << Indent(3) << "\"name\": ";
    PutJson(out, object.name, 3);
    out << ",\n" << Indent(3) << "\"rounds\": [";
    ContentsReplay replay(object);
    bool first_round = true;
    for (absl::StatusOr<bool> more = replay.Next(); more.ok() && *more;
         more = replay.Next()) {
      const RoundChanges& round = replay.round();
      out << (first_round ? "\n" : ",\n") << Indent(4) << "{\n";
      first_round = false;
      if (round.error.has_value()) {
        out << Indent(5) << "\"error\": ";
        PutJson(out, *round.error, 5);
      } else {
        out << Indent(5) << "\"contents\": [";
        bool first_row = true;
        for (const auto& [row, diff] : replay.contents()) {
          nlohmann::json values = nlohmann::json::array();
          for (const Datum& datum : row) values.push_back(DatumToJson(datum));
          out << (first_row ? "\n" : ",\n") << Indent(6);
          first_row = false;
          PutJson(out, nlohmann::json::array({std::move(values), diff}), 6);
        }
        out << (first_row ? "]" : absl::StrCat("\n", Indent(5), "]"));
      }
      out << ",\n"
          << Indent(5) << "\"round\": " << round.round << "\n"
          << Indent(4) << "}";
    }
    out << (first_round ? "]" : absl::StrCat("\n", Indent(3), "]")) << "\n"
        << Indent(2) << "}";
  }
  out << (result.objects.empty() ? "]" : absl::StrCat("\n", Indent(1), "]"))
      << ",\n";
  const RoundSpan span = RoundsOf(result);
  out << Indent(1) << "\"rounds\": ";
  PutJson(out,
          {{"last", span.last},
           {"listed", span.listed},
           {"skipped", span.skipped()}},
          1);
  out << "\n}";
}

nlohmann::json RunToJson(const RunResult& result, bool arrangement_sizes) {
  std::ostringstream out;
  WriteRunJson(result, arrangement_sizes, out);
  return nlohmann::json::parse(std::move(out).str());
}

std::optional<std::string> FirstDifference(const RunResult& a,
                                           const RunResult& b) {
  if (a.objects.size() != b.objects.size()) {
    return absl::StrCat(a.objects.size(), " objects vs ", b.objects.size());
  }
  for (size_t i = 0; i < a.objects.size(); ++i) {
    const ObjectRun& x = a.objects[i];
    const ObjectRun& y = b.objects[i];
    const size_t rounds = std::max(x.rounds.size(), y.rounds.size());
    ContentsReplay replay_x(x), replay_y(y);
    for (size_t r = 0; r < rounds; ++r) {
      const std::string where = absl::StrCat(x.name, " round ", r, ": ");
      if (r >= x.rounds.size() || r >= y.rounds.size()) {
        return absl::StrCat(where, "computed by one run only");
      }
      const RoundChanges& rx = x.rounds[r];
      const RoundChanges& ry = y.rounds[r];
      if (rx.error.has_value() != ry.error.has_value()) {
        return absl::StrCat(where, "error in one run only: ",
                            rx.error.value_or(ry.error.value_or("")));
      }
      const absl::StatusOr<bool> more_x = replay_x.Next();
      const absl::StatusOr<bool> more_y = replay_y.Next();
      if (!more_x.ok() || !more_y.ok()) {
        return absl::StrCat(where, "multiplicity overflow replaying changes");
      }
      if (replay_x.contents() != replay_y.contents()) {
        // Each side as one round holding its contents, to print them.
        RunResult one, other;
        one.objects.push_back(ObjectRun{
            x.name, {RoundChanges{rx.round, replay_x.contents(), {}}}});
        other.objects.push_back(ObjectRun{
            y.name, {RoundChanges{ry.round, replay_y.contents(), {}}}});
        return absl::StrCat(where, "contents differ:\n",
                            FormatRunText(one, false), "vs\n",
                            FormatRunText(other, false));
      }
    }
  }
  return std::nullopt;
}

}  // namespace lir::eval
