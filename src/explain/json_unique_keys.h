// Parsing JSON text with repeated object keys rejected and nesting bounded.
//
// RFC 8259 leaves the meaning of a repeated key open and nlohmann keeps the
// last value silently, so a config, data, catalog or plan file that sets a
// key twice would lose the first setting without a word. Every JSON input of
// lir goes through CheckedJsonSax: ParseJsonText (json.h) builds a tree
// through it, and readers of large files (the evaluator's data files) hand
// it a SAX handler of their own, so that no tree of the whole file is built.
#ifndef LIR_EXPLAIN_JSON_UNIQUE_KEYS_H_
#define LIR_EXPLAIN_JSON_UNIQUE_KEYS_H_

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/functional/function_ref.h"
#include "absl/hash/hash.h"
#include "absl/status/status.h"
#include "nlohmann/json.hpp"
#include "src/explain/json_locate.h"

namespace lir::explain {

/// The deepest nesting of arrays and objects a JSON input may have. lir's
/// own documents nest a few levels plus two per level of a scalar
/// expression (at most kMaxExprDepth = 1000), so this leaves room; deeper
/// input is refused while it is read, before it takes memory.
inline constexpr size_t kMaxJsonNesting = 4096;

/// Parses `text` like `nlohmann::json::parse`, except that a key repeated
/// within one object is a `nlohmann::json::parse_error` too. Its `byte` is
/// one past the opening quote of the second occurrence (the convention of
/// nlohmann's own parse errors, so ParseJsonText reports `file:line:column`
/// of the repeated key) and its message names the member's JSON pointer and
/// where the first occurrence is: `duplicate key "b" at /a/b (first at line
/// 2, column 8)`. Nesting deeper than kMaxJsonNesting is a parse_error
/// whose `byte` is one past the first bracket beyond the limit. When
/// nlohmann throws, `*error_start` (if given) is the
/// offset where the token at fault starts: an out_of_range error (406, a
/// number too large for a double, as `1e999`) carries no position of its own.
nlohmann::json ParseJsonWithUniqueKeys(std::string_view text,
                                       size_t* error_start = nullptr);

/// How far a SAX parse of `text` has read, for handlers that locate what
/// they find (nlohmann's SAX events carry no position).
struct JsonReadPosition {
  std::string_view text;
  /// One past the last byte the lexer has read: a string's closing quote
  /// when a string or key is reported, one byte past a number.
  const char* furthest = nullptr;
  /// The offset of the opening quote of the key reported last.
  size_t key_start = 0;

  size_t offset() const { return static_cast<size_t>(furthest - text.data()); }
};

/// Runs `parse` (which parses `text` and may throw nlohmann's exceptions)
/// and turns what it throws into InvalidArgument
/// `filename:line:column: <context><what is wrong>`; `error_start` is read
/// after a throw, as ParseJsonWithUniqueKeys sets it.
absl::Status CatchJsonErrors(std::string_view text, std::string_view filename,
                             std::string_view context,
                             const size_t& error_start,
                             absl::FunctionRef<void()> parse);

namespace json_sax_internal {

/// A `const char*` that records in a JsonReadPosition how far the parser
/// has read: the lexer reads a key's closing quote and nothing after it
/// before it reports the key.
class TrackingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  TrackingIterator(const char* at, JsonReadPosition* position)
      : at_(at), position_(position) {}
  reference operator*() const { return *at_; }
  TrackingIterator& operator++() {
    position_->furthest = ++at_;
    return *this;
  }
  TrackingIterator operator++(int) {
    TrackingIterator before = *this;
    ++*this;
    return before;
  }
  friend bool operator==(const TrackingIterator& a, const TrackingIterator& b) {
    return a.at_ == b.at_;
  }

 private:
  const char* at_;
  JsonReadPosition* position_;
};

/// The offset of the opening quote of the string whose closing quote is
/// the byte before `end`: a quote inside it is escaped by an odd number of
/// backslashes.
size_t StringStartBefore(std::string_view text, size_t end);

/// The (decoded) string whose opening quote is at `start` of valid JSON.
std::string StringAt(std::string_view text, size_t start);

/// Refuses nesting past kMaxJsonNesting, at the first bracket past it
/// (the last one read before `read`).
[[noreturn]] void ThrowTooDeep(std::string_view text, size_t read);

/// Refuses a key repeated at `pointer`, first at `first`, again at `second`.
[[noreturn]] void ThrowDuplicate(std::string_view text,
                                 const std::string& pointer, size_t first,
                                 size_t second);

}  // namespace json_sax_internal

/// The value types an nlohmann SAX handler names in its events.
struct JsonSaxTypes {
  using number_integer_t = nlohmann::json::number_integer_t;
  using number_unsigned_t = nlohmann::json::number_unsigned_t;
  using number_float_t = nlohmann::json::number_float_t;
  using string_t = nlohmann::json::string_t;
  using binary_t = nlohmann::json::binary_t;
};

/// A SAX handler that checks what every JSON input of lir must satisfy
/// (no key repeated within an object, nesting within kMaxJsonNesting) and
/// passes every event on to `Inner`, an nlohmann SAX handler. Each open
/// object remembers its keys as 64-bit hashes with their offsets (the key's
/// text is read again only when two hashes agree). An object's first
/// kLinearKeys keys sit on one stack shared by all open objects and are
/// compared one by one: lir's documents are made of small objects, for
/// which that is cheaper than a hash table and allocates nothing. Past
/// that, the object's keys move to a hash table of its own, so an object
/// of a million members costs about 17 bytes per member beside the text.
/// `KeyHash` hashes a key to 64 bits (a parameter so that tests can make
/// every key collide).
template <class Inner, class KeyHash = absl::Hash<std::string_view>>
class CheckedJsonSax : public JsonSaxTypes {
 public:
  /// Keys an object may have before they move to a hash table.
  static constexpr size_t kLinearKeys = 32;

  CheckedJsonSax(Inner& inner, JsonReadPosition* position, size_t* error_start)
      : inner_(inner), position_(position), error_start_(error_start) {}

  bool null() { return Element() && inner_.null(); }
  bool boolean(bool value) { return Element() && inner_.boolean(value); }
  bool number_integer(number_integer_t value) {
    return Element() && inner_.number_integer(value);
  }
  bool number_unsigned(number_unsigned_t value) {
    return Element() && inner_.number_unsigned(value);
  }
  bool number_float(number_float_t value, const string_t& raw) {
    return Element() && inner_.number_float(value, raw);
  }
  bool string(string_t& value) { return Element() && inner_.string(value); }
  bool binary(binary_t& value) { return Element() && inner_.binary(value); }
  bool start_object(std::size_t elements) {
    Element();
    Push(/*object=*/true);
    return inner_.start_object(elements);
  }
  bool end_object() {
    Pop();
    return inner_.end_object();
  }
  bool start_array(std::size_t elements) {
    Element();
    Push(/*object=*/false);
    return inner_.start_array(elements);
  }
  bool end_array() {
    Pop();
    return inner_.end_array();
  }
  bool key(string_t& name) {
    Frame& frame = frames_[depth_ - 1];
    const size_t start = json_sax_internal::StringStartBefore(
        position_->text, position_->offset());
    position_->key_start = start;
    frame.key_start = start;
    const uint64_t hash =
        static_cast<uint64_t>(KeyHash{}(std::string_view(name)));
    if (frame.large == nullptr) {
      for (size_t i = frame.keys_begin; i < keys_.size(); ++i) {
        if (keys_[i].hash == hash &&
            json_sax_internal::StringAt(position_->text, keys_[i].start) ==
                name) {
          Repeated(keys_[i].start, start);
        }
      }
      keys_.push_back(Key{hash, start});
      if (keys_.size() - frame.keys_begin > kLinearKeys) MakeLarge(frame);
    } else {
      auto [it, inserted] = frame.large->keys.try_emplace(hash, start);
      if (!inserted) CheckRepeated(*frame.large, it->second, start, name);
    }
    return inner_.key(name);
  }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& last_token,
                   const Exception& error) {
    // `position` is just past the token at fault.
    if (error_start_ != nullptr) {
      *error_start_ =
          position >= last_token.size() ? position - last_token.size() : 0;
    }
    return inner_.parse_error(position, last_token, error);
  }

 private:
  /// A key of an open object: its hash and the offset of its opening quote.
  struct Key {
    uint64_t hash;
    size_t start;
  };
  /// The keys of an object with more than kLinearKeys of them.
  struct LargeObject {
    /// Hash of each key -> the offset of its opening quote.
    absl::flat_hash_map<uint64_t, size_t> keys;
    /// Keys whose hash another key had first (64-bit hashes of different
    /// keys agree about once in 2^64 pairs; correctness does not rely on it).
    std::vector<std::pair<std::string, size_t>> collided;
  };
  struct Frame {
    bool object = false;
    /// Where this object's keys start on keys_ (while it has few).
    size_t keys_begin = 0;
    /// This object's keys once it has many (then none are on keys_).
    LargeObject* large = nullptr;
    /// The opening quote of the member being read, in an object: its name
    /// is only spelled out for an error message.
    size_t key_start = 0;
    size_t index = 0;  // the element being read, in an array
    size_t count = 0;  // elements started so far, in an array
  };

  // The object has outgrown the linear scan: its keys move from keys_ to
  // a hash table (one per depth, kept for reuse).
  void MakeLarge(Frame& frame) {
    if (large_.size() < depth_) large_.resize(depth_);
    std::unique_ptr<LargeObject>& large = large_[depth_ - 1];
    if (large == nullptr) large = std::make_unique<LargeObject>();
    large->keys.clear();
    large->collided.clear();
    for (size_t i = frame.keys_begin; i < keys_.size(); ++i) {
      auto [it, inserted] =
          large->keys.try_emplace(keys_[i].hash, keys_[i].start);
      // No two of these keys are equal (each was checked against the
      // others), so a hash seen before is a collision.
      if (!inserted) {
        large->collided.emplace_back(
            json_sax_internal::StringAt(position_->text, keys_[i].start),
            keys_[i].start);
      }
    }
    keys_.resize(frame.keys_begin);
    frame.large = large.get();
  }

  // A key whose hash was seen before in this large object: a repeat, or a
  // collision to remember.
  void CheckRepeated(LargeObject& large, size_t first, size_t start,
                     const std::string& name) {
    if (json_sax_internal::StringAt(position_->text, first) == name) {
      Repeated(first, start);
    }
    for (const auto& [other, at] : large.collided) {
      if (other == name) Repeated(at, start);
    }
    large.collided.emplace_back(name, start);
  }

  [[noreturn]] void Repeated(size_t first, size_t second) const {
    json_sax_internal::ThrowDuplicate(position_->text, Pointer(), first,
                                      second);
  }

  // The JSON pointer of the member or element being read, for messages.
  std::string Pointer() const {
    std::string pointer;
    for (size_t i = 0; i < depth_; ++i) {
      const Frame& frame = frames_[i];
      pointer += "/";
      pointer += frame.object ? JsonPointerToken(json_sax_internal::StringAt(
                                    position_->text, frame.key_start))
                              : std::to_string(frame.index);
    }
    return pointer;
  }

  // A value starts: in an array it is the next element.
  bool Element() {
    if (depth_ > 0 && !frames_[depth_ - 1].object) {
      Frame& frame = frames_[depth_ - 1];
      frame.index = frame.count++;
    }
    return true;
  }

  // Frames are reused, so a long run of small objects allocates nothing.
  void Push(bool object) {
    // Past the limit, before the document grows: 60 MB of `[[[...` would
    // otherwise build a tree of gigabytes before any check ran.
    if (depth_ == kMaxJsonNesting) {
      json_sax_internal::ThrowTooDeep(position_->text, position_->offset());
    }
    if (depth_ == frames_.size()) frames_.emplace_back();
    Frame& frame = frames_[depth_++];
    frame.object = object;
    frame.keys_begin = keys_.size();
    frame.large = nullptr;
    frame.key_start = 0;
    frame.index = 0;
    frame.count = 0;
  }

  // A value closes: its keys (if it had few) leave the stack.
  void Pop() { keys_.resize(frames_[--depth_].keys_begin); }

  Inner& inner_;
  JsonReadPosition* position_;
  size_t* error_start_;
  // Inline capacity for the usual depth and key count of lir's documents,
  // so that reading one allocates nothing here.
  absl::InlinedVector<Frame, 32> frames_;
  size_t depth_ = 0;
  absl::InlinedVector<Key, 64> keys_;
  std::vector<std::unique_ptr<LargeObject>> large_;
};

/// Parses `text` through CheckedJsonSax into `inner`. Syntax errors, a
/// repeated key and nesting past the limit are InvalidArgument
/// `filename:line:column: <context><what is wrong>` (as ParseJsonText's);
/// `inner` stops the parse by returning false from an event, and then
/// keeps its own reason (the result is OK). `position`, when given, tracks
/// how far the parse has read, for `inner`.
template <class Inner>
absl::Status ParseJsonSax(std::string_view text, std::string_view filename,
                          std::string_view context, Inner& inner,
                          JsonReadPosition* position = nullptr) {
  JsonReadPosition own;
  if (position == nullptr) position = &own;
  position->text = text;
  position->furthest = text.data();
  size_t error_start = 0;
  return CatchJsonErrors(text, filename, context, error_start, [&] {
    CheckedJsonSax<Inner> checked(inner, position, &error_start);
    nlohmann::json::sax_parse(
        json_sax_internal::TrackingIterator(text.data(), position),
        json_sax_internal::TrackingIterator(text.data() + text.size(),
                                            position),
        &checked);
  });
}

}  // namespace lir::explain

#endif  // LIR_EXPLAIN_JSON_UNIQUE_KEYS_H_
