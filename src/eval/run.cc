// Running plan documents on data (run_format.cc prints what they computed).
#include "lir/eval/run.h"
#include "lir/partial.h"

#include <algorithm>
#include <map>
#include <memory>
#include <new>
#include <set>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "lir/eval/compiled_scalar.h"
#include "lir/eval/fast_path.h"
#include "lir/eval/incremental.h"
#include "lir/eval/snapshot.h"
#include "lir/interp/arity.h"
#include "lir/status_macros.h"
#include "src/eval/values/temporal.h"

namespace lir::eval {

namespace {

// One readable collection: its arity and its changes per round.
struct Feed {
  int arity = -1;  ///< -1: unknown
  std::map<uint64_t, Multiset> changes;
};

// The global names `plan` reads.
std::set<std::string> GlobalsRead(const Node& plan) {
  std::set<std::string> names;
  ForEachPostOrder(plan, [&](const Node& node) {
    if (node.Is<GetOp>() && !node.As<GetOp>().id.is_local) {
      names.insert(node.As<GetOp>().id.global);
    }
  });
  return names;
}

// The data's collections that `doc` reads (by a Get or a fast-path peek).
std::set<std::string> CollectionsRead(const Document& doc,
                                      const InputData& data) {
  std::set<std::string> read;
  for (const Object& object : doc.objects) {
    if (object.fast_path.has_value()) read.insert(object.fast_path->collection);
    if (object.plan == nullptr) continue;
    for (const std::string& name : GlobalsRead(*object.plan)) {
      if (data.collections.count(name) > 0) read.insert(name);
    }
  }
  return read;
}

// The collections of the data that `doc` reads as per-round changes, with
// the document's Source blocks applied (Materialize pushes their MFP into
// the source, so the plan reads its output). With `consume`, the rows are
// moved out of the data (whose updates are then emptied) rather than
// copied, so that a run does not hold its input twice.
absl::StatusOr<std::map<std::string, Feed>> FeedsFromData(const Document& doc,
                                                          const InputData& data,
                                                          InputData* consume) {
  std::map<std::string, const SourceBlock*> sources;
  for (const SourceBlock& block : doc.sources) sources[block.name] = &block;
  std::map<std::string, Feed> feeds;
  for (const std::string& name : CollectionsRead(doc, data)) {
    auto found = data.collections.find(name);
    if (found == data.collections.end()) continue;
    const InputCollection& collection = found->second;
    std::vector<InputUpdate>* owned =
        consume == nullptr ? nullptr : &consume->collections.at(name).updates;
    Feed feed;
    feed.arity = collection.arity;
    const SourceBlock* source =
        sources.count(name) > 0 ? sources.at(name) : nullptr;
    // Captured by name: clang 14 cannot capture a structured binding.
    auto at_source = [&name = name](const absl::Status& status) {
      return absl::Status(
          status.code(), absl::StrCat("Source ", name, ": ", status.message()));
    };
    // A Source filter comparing mz_now() moves updates in time as any
    // temporal MFP does (temporal.h), here before any dataflow reads them.
    // PlanTemporal compiles the block's MFP once for all its rows.
    std::optional<TemporalMfp> temporal;
    std::optional<CompiledMfp> compiled;
    if (source != nullptr) {
      absl::StatusOr<TemporalMfp> plan = PlanTemporal(source->mfp);
      if (!plan.ok()) return at_source(plan.status());
      if (plan->temporal()) {
        temporal = *std::move(plan);
      } else {
        compiled = std::move(plan->compiled_mfp);
      }
      feed.arity = source->mfp.OutputArity(collection.arity);
    }
    std::map<uint64_t, std::vector<RowDiff>> by_round;
    for (size_t i = 0; i < collection.updates.size(); ++i) {
      const InputUpdate& update = collection.updates[i];
      DataRow row = owned == nullptr ? update.row : std::move((*owned)[i].row);
      if (temporal.has_value()) {
        absl::Status scheduled = ScheduleTemporal(
            *temporal, std::move(row), update.round, update.diff, &by_round);
        if (!scheduled.ok()) return at_source(scheduled);
        continue;
      }
      if (compiled.has_value()) {
        absl::StatusOr<std::optional<DataRow>> kept =
            compiled->Eval(std::move(row));
        if (!kept.ok()) {
          return absl::Status(
              kept.status().code(),
              absl::StrCat("Source ", name, ": ", kept.status().message()));
        }
        if (!kept->has_value()) continue;
        row = **std::move(kept);
      }
      by_round[update.round].emplace_back(std::move(row), update.diff);
    }
    if (owned != nullptr) std::vector<InputUpdate>().swap(*owned);
    for (auto& [round, updates] : by_round) {
      // The data reader checked the sums of equal rows; a Source block's
      // MFP may still map different rows to one.
      absl::StatusOr<Multiset> consolidated = Consolidate(std::move(updates));
      if (!consolidated.ok()) {
        return at_source(
            absl::Status(consolidated.status().code(),
                         absl::StrCat("round ", round, ": ",
                                      consolidated.status().message())));
      }
      feed.changes[round] = *std::move(consolidated);
    }
    feeds.emplace(name, std::move(feed));
  }
  return feeds;
}

// Indexes of the LIR objects of `doc` in an order where every object comes
// after the objects it reads.
absl::StatusOr<std::vector<size_t>> BuildOrder(const Document& doc) {
  std::map<std::string, size_t> by_name;
  for (size_t i = 0; i < doc.objects.size(); ++i) {
    if (doc.objects[i].plan != nullptr) by_name[doc.objects[i].name] = i;
  }
  std::map<size_t, std::set<size_t>> reads;
  for (const auto& [name, index] : by_name) {
    for (const std::string& global : GlobalsRead(*doc.objects[index].plan)) {
      auto it = by_name.find(global);
      if (it != by_name.end()) reads[index].insert(it->second);
    }
  }
  std::vector<size_t> order;
  std::set<size_t> placed;
  while (placed.size() < by_name.size()) {
    bool progress = false;
    for (const auto& [name, index] : by_name) {
      if (placed.count(index) > 0) continue;
      const std::set<size_t>& needs = reads[index];
      if (std::all_of(needs.begin(), needs.end(),
                      [&](size_t n) { return placed.count(n) > 0; })) {
        order.push_back(index);
        placed.insert(index);
        progress = true;
      }
    }
    if (!progress) {
      return absl::InvalidArgumentError(
          "the document's objects read each other in a cycle");
    }
  }
  return order;
}

// Fails when the plan's advertised arrangements describe a collection with
// another arity than the data gives it.
absl::Status CheckArities(const Object& object,
                          const std::map<std::string, Feed>& feeds) {
  interp::RevealedArities revealed;
  interp::CollectRevealedArities(*object.plan, &revealed);
  for (const auto& [name, arity] : revealed.globals) {
    auto it = feeds.find(name);
    if (it == feeds.end() || it->second.arity < 0) continue;
    if (arity.state == interp::Arity::State::kConflict ||
        (arity.known() && arity.value != it->second.arity)) {
      return absl::InvalidArgumentError(
          absl::StrCat(object.name, ": the plan reads ", name, " with arity ",
                       interp::FormatArity(arity),
                       " but the data gives it arity ", it->second.arity));
    }
  }
  return absl::OkStatus();
}

// The earliest round after `round` at which a feed has changes (the data's,
// or moved by a Source block's temporal filter) or a dataflow has temporal
// updates due.
std::optional<uint64_t> NextRound(
    const std::map<std::string, Feed>& feeds,
    const std::vector<std::unique_ptr<Dataflow>>& dataflows, uint64_t round) {
  std::optional<uint64_t> next;
  auto consider = [&](std::optional<uint64_t> t) {
    if (t.has_value() && *t > round && (!next.has_value() || *t < *next)) {
      next = t;
    }
  };
  for (const auto& [name, feed] : feeds) {
    auto it = feed.changes.upper_bound(round);
    if (it != feed.changes.end()) consider(it->first);
  }
  for (const auto& dataflow : dataflows)
    consider(dataflow->NextTemporalRound());
  return next;
}

// Rounds at which the data has no update are listed only when some
// object's contents changed: which of them an engine steps depends on its
// bookkeeping (the snapshot engine may step a round at which updates
// cancel), the contents do not.
void DropUnchangedRound(RunResult& result) {
  for (const ObjectRun& object : result.objects) {
    if (object.rounds.size() < 2 || !object.rounds.back().changes.empty()) {
      return;
    }
  }
  for (ObjectRun& object : result.objects) object.rounds.pop_back();
}

// The rounds at which the data file has updates (listed even when they
// change nothing).
std::set<uint64_t> DataRounds(const InputData& data) {
  std::set<uint64_t> rounds;
  for (const auto& [name, collection] : data.collections) {
    for (const InputUpdate& update : collection.updates) {
      rounds.insert(update.round);
    }
  }
  return rounds;
}

absl::StatusOr<std::unique_ptr<Dataflow>> MakeDataflow(
    const Node& plan, const DataflowOptions& options, Engine engine) {
  if (engine == Engine::kSnapshot) return MakeSnapshotDataflow(plan, options);
  return MakeIncrementalDataflow(plan, options);
}

}  // namespace

absl::Status CheckDataForDocument(const Document& doc, const InputData& data) {
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr && !object.fast_path.has_value()) continue;
    auto it = data.collections.find(object.name);
    if (it == data.collections.end()) continue;
    const std::string location = data.LocationOf(object.name);
    return absl::InvalidArgumentError(absl::StrCat(
        location.empty() ? "" : absl::StrCat(location, ": "), "collections[\"",
        object.name, "\"]: the document computes ", object.name,
        " (it is one of its objects), so the data cannot give it updates; "
        "remove it from the data"));
  }
  return absl::OkStatus();
}

namespace {

absl::StatusOr<RunResult> Run(const Document& doc, const InputData& data,
                              InputData* consume, const RunOptions& options) {
  using Feeds = std::map<std::string, Feed>;
  if (options.max_rows_per_round == 0 || options.max_iterations == 0 ||
      options.max_bytes_per_round == 0 || options.max_value_bytes == 0 ||
      options.max_work == 0) {
    return absl::InvalidArgumentError(
        "max_rows_per_round, max_bytes_per_round, max_value_bytes, "
        "max_iterations and max_work must be at least 1");
  }
  const ScopedValueLimit value_limit(options.max_value_bytes);
  WorkMeter work(options.max_work);
  if (options.spine.has_value() && options.engine == Engine::kSnapshot) {
    return absl::InvalidArgumentError(
        "spines model the incremental engine's arrangements; the snapshot "
        "engine keeps none");
  }
  LIR_RETURN_IF_ERROR(CheckDataForDocument(doc, data));
  // Before the feeds take the data's rows.
  const std::set<uint64_t> data_rounds = DataRounds(data);
  const uint64_t data_last = data.LastRound();
  LIR_ASSIGN_OR_RETURN(Feeds feeds, FeedsFromData(doc, data, consume));
  LIR_ASSIGN_OR_RETURN(std::vector<size_t> order, BuildOrder(doc));

  RunResult result;
  std::map<size_t, size_t> result_index;  // object index -> result.objects
  for (size_t i = 0; i < doc.objects.size(); ++i) {
    if (doc.objects[i].plan == nullptr && !doc.objects[i].fast_path) continue;
    result_index[i] = result.objects.size();
    result.objects.push_back(ObjectRun{doc.objects[i].name, {}});
  }

  // Build every dataflow before running any round, so that every
  // build-time error is reported without partial output.
  std::vector<std::unique_ptr<Dataflow>> dataflows;
  for (size_t index : order) {
    const Object& object = doc.objects[index];
    LIR_RETURN_IF_ERROR(CheckArities(object, feeds));
    DataflowOptions dataflow_options;
    dataflow_options.object = object.name;
    dataflow_options.compaction = options.compaction;
    dataflow_options.fuel = options.fuel;
    dataflow_options.max_rows_per_round = options.max_rows_per_round;
    dataflow_options.max_iterations = options.max_iterations;
    dataflow_options.max_bytes_per_round = options.max_bytes_per_round;
    dataflow_options.work = &work;
    dataflow_options.spine = options.spine;
    dataflow_options.measure_elapsed = options.measure_elapsed;
    std::map<std::string, int> given;
    for (const auto& [name, feed] : feeds) {
      dataflow_options.globals[name] = feed.arity;
      if (feed.arity >= 0) given[name] = feed.arity;
    }
    // One arity analysis per object: the engine's, and the arity of the
    // object's output, which later objects read by name (its arity is all
    // its feed holds: its changes are handed on round by round).
    absl::StatusOr<interp::Analysis<interp::Arity>> arity =
        interp::AnalyzeArity(*object.plan, given);
    Feed output;
    if (arity.ok()) {
      if (arity->root.known()) output.arity = arity->root.value;
      dataflow_options.arities =
          std::make_shared<const interp::Analysis<interp::Arity>>(
              *std::move(arity));
    }
    absl::StatusOr<std::unique_ptr<Dataflow>> dataflow =
        MakeDataflow(*object.plan, dataflow_options, options.engine);
    if (!dataflow.ok()) {
      return absl::Status(
          dataflow.status().code(),
          absl::StrCat(object.name, ": ", dataflow.status().message()));
    }
    dataflows.push_back(*std::move(dataflow));
    feeds[object.name] = std::move(output);
  }

  // Fast-path peeks read only the data's collections; they are answered
  // after the round's dataflows, from the accumulated contents.
  struct FastPathRun {
    size_t object;
    FastPathPeek peek;
    Multiset read;    // the accumulated contents of the collection read
    Multiset answer;  // the answer of the last round, to list changes
  };
  std::vector<FastPathRun> fast_paths;
  for (size_t i = 0; i < doc.objects.size(); ++i) {
    if (!doc.objects[i].fast_path.has_value()) continue;
    const FastPath& fast_path = *doc.objects[i].fast_path;
    auto feed = data.collections.find(fast_path.collection);
    const int arity = feed == data.collections.end()
                          ? -1
                          : feeds.at(fast_path.collection).arity;
    LIR_ASSIGN_OR_RETURN(
        FastPathPeek peek,
        FastPathPeek::Make(doc.objects[i].name, fast_path, data, arity));
    fast_paths.push_back(FastPathRun{i, std::move(peek), {}, {}});
  }

  std::vector<Multiset> contents(order.size());
  uint64_t round = 0;
  bool data_round = true;  // round 0 is always run and listed
  uint64_t temporal_rounds = 0;
  while (!result.error) {
    // The round's changes of the data, then of each object as it runs, so
    // that later objects read earlier ones. A feed's changes of a round are
    // needed only in that round.
    GlobalChanges changes;
    for (auto& [name, feed] : feeds) {
      auto it = feed.changes.find(round);
      if (it != feed.changes.end()) changes[name] = std::move(it->second);
    }
    ++result.rounds_stepped;
    for (size_t k = 0; k < order.size(); ++k) {
      const Object& object = doc.objects[order[k]];
      ObjectRun& run = result.objects[result_index[order[k]]];
      RoundChanges entry;
      entry.round = round;
      absl::StatusOr<Multiset> delta = dataflows[k]->Step(round, changes);
      // The contents are kept (only the current ones) so that a
      // multiplicity overflowing is this round's error.
      absl::Status added =
          delta.ok() ? AddInto(contents[k], *delta) : delta.status();
      if (!added.ok()) {
        entry.error = std::string(added.message());
        result.error =
            absl::StrCat(object.name, ": round ", round, ": ", *entry.error);
        run.rounds.push_back(std::move(entry));
        break;
      }
      if (!delta->empty()) {
        entry.changes = *delta;
        changes[object.name] = *std::move(delta);
      }
      run.rounds.push_back(std::move(entry));
    }
    for (FastPathRun& fast : fast_paths) {
      if (result.error) break;
      const Object& object = doc.objects[fast.object];
      RoundChanges entry;
      entry.round = round;
      auto it = changes.find(fast.peek.collection());
      absl::Status read = it == changes.end() ? absl::OkStatus()
                                              : AddInto(fast.read, it->second);
      absl::StatusOr<Multiset> answer =
          read.ok() ? fast.peek.Answer(fast.read) : read;
      absl::StatusOr<Multiset> diff =
          answer.ok() ? DiffMultisets(*answer, fast.answer) : answer.status();
      if (!diff.ok()) {
        entry.error = std::string(diff.status().message());
        result.error =
            absl::StrCat(object.name, ": round ", round, ": ", *entry.error);
      } else {
        fast.answer = *std::move(answer);
        entry.changes = *std::move(diff);
      }
      result.objects[result_index[fast.object]].rounds.push_back(
          std::move(entry));
    }
    if (result.error) break;
    if (!data_round) DropUnchangedRound(result);
    // Rounds with no change of the data and nothing due change nothing:
    // skip to the next round at which something happens.
    std::optional<uint64_t> next = NextRound(feeds, dataflows, round);
    if (auto it = data_rounds.upper_bound(round);
        it != data_rounds.end() && (!next.has_value() || *it < *next)) {
      next = *it;
    }
    if (!next.has_value()) break;
    if (options.last_round.has_value() && *next > *options.last_round) break;
    data_round = data_rounds.count(*next) > 0;
    if (!data_round && ++temporal_rounds > kMaxTemporalRounds) {
      result.error = absl::StrCat(
          "temporal filters have updates due at more than ", kMaxTemporalRounds,
          " rounds without updates in the data (whose last round is ",
          data_last, "); the next is round ", *next);
      for (ObjectRun& object : result.objects) {
        RoundChanges entry;
        entry.round = *next;
        entry.error = *result.error;
        object.rounds.push_back(std::move(entry));
      }
      break;
    }
    round = *next;
  }
  for (const std::unique_ptr<Dataflow>& dataflow : dataflows) {
    // No round follows: the input's last frontier (spines drain as their
    // policy asks; nothing else changes).
    dataflow->CloseInput();
    std::vector<ArrangementStats> stats = dataflow->Arrangements();
    result.arrangements.insert(result.arrangements.end(), stats.begin(),
                               stats.end());
    result.activations += dataflow->Activations();
    std::vector<OperatorElapsed> elapsed = dataflow->Elapsed();
    result.elapsed.insert(result.elapsed.end(), elapsed.begin(), elapsed.end());
  }
  return result;
}

absl::StatusOr<RunResult> RunChecked(const Document& doc, const InputData& data,
                                     InputData* consume,
                                     const RunOptions& options) {
  // A partial plan (concise text) lacks rows, closures and layouts the
  // engines would otherwise read as defaults.
  LIR_RETURN_IF_ERROR(RequireKnownFacts(doc, "the evaluator"));
  // The engines report memory running out in a round as that round's error;
  // this is for the rest (building the dataflows, the data's feeds).
  try {
    return Run(doc, data, consume, options);
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError(
        "out of memory (std::bad_alloc) while preparing or running the plan");
  }
}

}  // namespace

absl::StatusOr<RunResult> RunDocument(const Document& doc,
                                      const InputData& data,
                                      const RunOptions& options) {
  return RunChecked(doc, data, nullptr, options);
}

absl::StatusOr<RunResult> RunDocument(const Document& doc, InputData&& data,
                                      const RunOptions& options) {
  return RunChecked(doc, data, &data, options);
}

}  // namespace lir::eval
