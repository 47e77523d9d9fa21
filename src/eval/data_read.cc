// Reading a data file as it is parsed (ParseInputData).
//
// A data file is mostly rows, and a tree of the whole file (nlohmann's DOM)
// costs about 20 times the text: an 8-byte `[[1], 0, 1]` is four nodes and
// three heap blocks. The reader below follows the file's fixed outline
// (root object, "collections", each collection, its "updates") event by
// event and builds a tree for one update at a time, read into rows as soon
// as it closes; values off the outline (a root that is no object, "indexes",
// an "arity") are small and read as trees.
#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "lir/eval/data.h"
#include "lir/status_macros.h"
#include "nlohmann/json.hpp"
#include "src/eval/data_internal.h"
#include "src/explain/json_locate.h"
#include "src/explain/json_unique_keys.h"

namespace lir::eval {

namespace {

using namespace data_internal;  // NOLINT: the readers' shared helpers

// Where the reader is on the file's outline: the containers it follows
// itself (every other value is read as a tree).
enum class Outline {
  kTop,          // before the root value
  kRoot,         // in the root object
  kCollections,  // in "collections"
  kCollection,   // in one collection's object
  kUpdates,      // in its "updates" array
};

// Line and column of increasing offsets of one text, in one pass.
class LineCounter {
 public:
  explicit LineCounter(std::string_view text) : text_(text) {}

  std::pair<size_t, size_t> At(size_t offset) {
    while (scanned_ < offset) {
      const void* newline =
          std::memchr(text_.data() + scanned_, '\n', offset - scanned_);
      if (newline == nullptr) {
        scanned_ = offset;
        break;
      }
      scanned_ = static_cast<size_t>(static_cast<const char*>(newline) -
                                     text_.data()) +
                 1;
      ++line_;
      line_start_ = scanned_;
    }
    return {line_, offset - line_start_ + 1};
  }

 private:
  std::string_view text_;
  size_t scanned_ = 0;
  size_t line_ = 1;
  size_t line_start_ = 0;
};

// The nlohmann SAX handler (behind explain::CheckedJsonSax, which rejects
// repeated keys and deep nesting) that reads a data file into InputData.
// An event handler returns false to stop the parse; `status()` says why.
class DataFileSax : public explain::JsonSaxTypes {
 public:
  DataFileSax(std::string_view text, std::string_view filename,
              const explain::JsonReadPosition& position, InputData* data)
      : text_(text),
        errors_(text, filename),
        position_(position),
        lines_(text),
        data_(data) {}

  const absl::Status& status() const { return status_; }

  bool null() {
    return Scalar([](auto& dom) { return dom.null(); });
  }
  bool boolean(bool value) {
    return Scalar([&](auto& dom) { return dom.boolean(value); });
  }
  bool number_integer(number_integer_t value) {
    return Scalar([&](auto& dom) { return dom.number_integer(value); });
  }
  bool number_unsigned(number_unsigned_t value) {
    if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) &&
        !WideIntegerAllowed()) {
      return false;
    }
    return Scalar([&](auto& dom) { return dom.number_unsigned(value); });
  }
  bool number_float(number_float_t value, const string_t& raw) {
    // Written without a fraction or an exponent, yet read as a double: an
    // integer past 64 bits, whose digits a double would round.
    if (raw.find_first_of(".eE") == std::string::npos &&
        !WideIntegerAllowed()) {
      return false;
    }
    return Scalar([&](auto& dom) { return dom.number_float(value, raw); });
  }
  bool string(string_t& value) {
    return Scalar([&](auto& dom) { return dom.string(value); });
  }
  bool binary(binary_t& value) {
    return Scalar([&](auto& dom) { return dom.binary(value); });
  }
  bool start_object(std::size_t elements) {
    if (capture_depth_ == 0 && Follow(/*object=*/true)) return true;
    return StartCaptured([&](auto& dom) { return dom.start_object(elements); });
  }
  bool start_array(std::size_t elements) {
    if (capture_depth_ == 0 && Follow(/*object=*/false)) return true;
    return StartCaptured([&](auto& dom) { return dom.start_array(elements); });
  }
  bool end_object() {
    if (capture_depth_ > 0) {
      return EndCaptured([](auto& dom) { return dom.end_object(); });
    }
    return Leave();
  }
  bool end_array() {
    if (capture_depth_ > 0) {
      return EndCaptured([](auto& dom) { return dom.end_array(); });
    }
    return Leave();
  }
  bool key(string_t& name) {
    if (capture_depth_ > 0) return dom_->key(name);
    key_ = name;
    if (outline_ == Outline::kCollections) name_start_ = position_.key_start;
    return true;
  }
  template <class Exception>
  bool parse_error(std::size_t, const std::string&, const Exception& error) {
    throw error;  // located by explain::ParseJsonSax
  }

  // After the parse: what the end of the root object left to check.
  absl::Status Finish() {
    if (!saw_collections_) return NoCollections();
    if (indexes_.has_value()) {
      const interp::json_input::ArityOf arity_of =
          [this](const std::string& name) -> std::optional<int> {
        auto it = data_->collections.find(name);
        if (it == data_->collections.end()) return std::nullopt;
        return it->second.arity;
      };
      LIR_RETURN_IF_ERROR(
          ReadIndexes(*indexes_, errors_, &arity_of, &data_->indexes));
    }
    return absl::OkStatus();
  }

 private:
  using Dom = nlohmann::detail::json_sax_dom_parser<nlohmann::json>;

  // Enters a container that is on the outline; false when the container
  // is to be read as a tree.
  bool Follow(bool object) {
    switch (outline_) {
      case Outline::kTop:
        if (!object) return false;
        outline_ = Outline::kRoot;
        return true;
      case Outline::kRoot:
        if (!object || key_ != "collections") return false;
        saw_collections_ = true;
        outline_ = Outline::kCollections;
        return true;
      case Outline::kCollections:
        if (!object) return false;
        StartCollection();
        outline_ = Outline::kCollection;
        return true;
      case Outline::kCollection:
        if (object || key_ != "updates") return false;
        outline_ = Outline::kUpdates;
        ReserveUpdates();
        return true;
      case Outline::kUpdates: return false;
    }
    return false;
  }

  // Leaves a container on the outline.
  bool Leave() {
    switch (outline_) {
      case Outline::kTop: return true;  // not reached: nothing is open
      case Outline::kRoot: outline_ = Outline::kTop; return true;
      case Outline::kCollections: outline_ = Outline::kRoot; return true;
      case Outline::kCollection:
        outline_ = Outline::kCollections;
        return Stop(FinishCollection());
      case Outline::kUpdates: outline_ = Outline::kCollection; return true;
    }
    return true;
  }

  template <class Forward>
  bool Scalar(Forward forward) {
    if (capture_depth_ > 0) return forward(*dom_);
    BeginCapture();
    forward(*dom_);
    return Stop(Captured());
  }

  template <class Forward>
  bool StartCaptured(Forward forward) {
    if (capture_depth_ == 0) BeginCapture();
    ++capture_depth_;
    return forward(*dom_);
  }

  template <class Forward>
  bool EndCaptured(Forward forward) {
    forward(*dom_);
    if (--capture_depth_ > 0) return true;
    return Stop(Captured());
  }

  void BeginCapture() {
    captured_ = nullptr;
    dom_.emplace(captured_, /*allow_exceptions_=*/true);
  }

  bool Stop(absl::Status status) {
    if (status.ok()) return true;
    status_ = std::move(status);
    return false;
  }

  std::string CollectionWhere() const {
    return absl::StrCat("collections[\"", name_, "\"]");
  }

  // A whole value off the outline has been read into `captured_`.
  absl::Status Captured() {
    nlohmann::json value = std::move(captured_);
    captured_ = nullptr;
    switch (outline_) {
      case Outline::kTop: return NoCollections();
      case Outline::kRoot:
        if (key_ == "collections") {
          saw_collections_ = true;
          return errors_.At({"collections"}, "collections",
                            "expected an object keyed by global name");
        }
        if (key_ == "indexes") {
          // Read last: an index names a collection that may come later.
          indexes_ = std::move(value);
          return absl::OkStatus();
        }
        return errors_.At({key_}, "top level",
                          absl::StrCat("unknown field \"", key_,
                                       "\" (expected \"collections\" or "
                                       "\"indexes\")"));
      case Outline::kCollections:
        return errors_.At({"collections", key_},
                          absl::StrCat("collections[\"", key_, "\"]"),
                          "expected {\"arity\": N, \"updates\": [...]}");
      case Outline::kCollection: return CollectionField(value);
      case Outline::kUpdates: return Update(std::move(value));
    }
    return absl::OkStatus();
  }

  absl::Status NoCollections() const {
    return errors_.At({}, "top level",
                      "expected an object with \"collections\"");
  }

  void StartCollection() {
    name_ = key_;
    auto [entry, inserted] = data_->collections.try_emplace(name_);
    collection_ = &entry->second;
    std::tie(collection_->line, collection_->column) = lines_.At(name_start_);
    arity_.reset();
    pending_.clear();
    update_count_ = 0;
  }

  // Room for every update of the array just opened, counted in the text:
  // growing the vector by doubling would hold up to three times its size
  // while it moves. Every update takes at least 8 bytes (`[[],0,1]`), which
  // bounds the reservation if the text turns out not to be JSON.
  void ReserveUpdates() {
    const size_t start = position_.offset() - 1;  // the `[`
    const size_t count = explain::JsonLocator(text_).CountElements(start);
    collection_->updates.reserve(std::min(count, (text_.size() - start) / 8));
  }

  // A member of a collection's object other than an "updates" array.
  absl::Status CollectionField(const nlohmann::json& value) {
    const std::string where = CollectionWhere();
    if (key_ == "arity") {
      const std::optional<int64_t> arity = ReadInteger(value);
      if (!arity.has_value() || *arity < 0 || *arity > 100000) {
        return errors_.At({"collections", name_, "arity"}, where,
                          "expected \"arity\": a non-negative integer");
      }
      arity_ = static_cast<int>(*arity);
      collection_->arity = *arity_;
      // Updates written before the arity waited for it.
      for (size_t i = 0; i < pending_.size(); ++i) {
        LIR_RETURN_IF_ERROR(ReadOne(pending_[i], i));
      }
      pending_.clear();
      return absl::OkStatus();
    }
    if (key_ == "updates") {
      return errors_.At(
          {"collections", name_, "updates"}, absl::StrCat(where, ".updates"),
          absl::StrCat("expected an array of updates, got ", TypeName(value)));
    }
    return errors_.At({"collections", name_, key_}, where,
                      absl::StrCat("unknown field \"", key_,
                                   "\" (expected \"arity\" or \"updates\")"));
  }

  absl::Status Update(nlohmann::json update) {
    const size_t index = update_count_++;
    if (!arity_.has_value()) {
      pending_.push_back(std::move(update));
      return absl::OkStatus();
    }
    return ReadOne(update, index);
  }

  absl::Status ReadOne(const nlohmann::json& update, size_t index) {
    InputUpdate parsed;
    LIR_RETURN_IF_ERROR(
        ReadUpdate(update, {"collections", name_, "updates", index},
                   absl::StrCat(CollectionWhere(), ".updates[", index, "]"),
                   errors_, *arity_, &parsed));
    collection_->updates.push_back(std::move(parsed));
    return absl::OkStatus();
  }

  absl::Status FinishCollection() {
    if (!arity_.has_value()) {
      return errors_.At({"collections", name_}, CollectionWhere(),
                        "expected \"arity\": a non-negative integer");
    }
    collection_->updates.shrink_to_fit();
    return CheckDiffSums(*collection_, {"collections", name_, "updates"},
                         absl::StrCat(CollectionWhere(), ".updates"), errors_);
  }

  // An integer written past the 64-bit range was just read. In a row it is
  // an error at the number (a double would round its digits); elsewhere
  // (a round, a diff, an arity) the value's own check refuses it.
  bool WideIntegerAllowed() {
    if (outline_ != Outline::kUpdates) return true;
    // The lexer has read one byte past the number unless the text ended.
    size_t end = position_.offset();
    auto in_number = [](char c) {
      return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' ||
             c == 'e' || c == 'E';
    };
    if (end > 0 && !in_number(text_[end - 1])) --end;
    size_t start = end;
    while (start > 0 && in_number(text_[start - 1])) --start;
    const Path at = explain::JsonLocator(text_).PathTo(start);
    if (at.size() >= 6 && at[0].key == "collections" &&
        at[2].key == "updates" && at[3].is_index && at[4].is_index &&
        at[4].index == 0 && at[5].is_index) {
      status_ =
          errors_.At(at,
                     absl::StrCat("collections[\"", at[1].key, "\"].updates[",
                                  at[3].index, "] value ", at[5].index),
                     OutOfIntegerRange(text_.substr(start, end - start)));
      return false;
    }
    return true;
  }

  std::string_view text_;
  DataErrors errors_;
  const explain::JsonReadPosition& position_;
  LineCounter lines_;
  InputData* data_;
  absl::Status status_;

  Outline outline_ = Outline::kTop;
  std::string key_;  // the last key read on the outline
  bool saw_collections_ = false;
  std::optional<nlohmann::json> indexes_;

  // The collection being read.
  std::string name_;
  size_t name_start_ = 0;
  InputCollection* collection_ = nullptr;
  std::optional<int> arity_;
  size_t update_count_ = 0;
  std::vector<nlohmann::json> pending_;  // updates before "arity"

  // The value off the outline being read as a tree.
  nlohmann::json captured_;
  std::optional<Dom> dom_;
  size_t capture_depth_ = 0;
};

}  // namespace

absl::StatusOr<InputData> ParseInputData(std::string_view text,
                                         std::string_view filename) {
  InputData data;
  data.source = std::string(filename);
  explain::JsonReadPosition position;
  DataFileSax reader(text, filename, position, &data);
  LIR_RETURN_IF_ERROR(
      explain::ParseJsonSax(text, filename, "", reader, &position));
  LIR_RETURN_IF_ERROR(reader.status());
  LIR_RETURN_IF_ERROR(reader.Finish());
  return data;
}

std::string InputData::LocationOf(const std::string& name) const {
  auto it = collections.find(name);
  if (it == collections.end() || it->second.line == 0) return "";
  return absl::StrCat(source, ":", it->second.line, ":", it->second.column);
}

}  // namespace lir::eval
