#include "src/explain/json_unique_keys.h"

#include <cstddef>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "src/explain/json_locate.h"

namespace lir::explain {
namespace {

using nlohmann::json;

// A `const char*` that records how far the parser has read: nlohmann's SAX
// events carry no position, and the lexer reads a key's closing quote and
// nothing after it before it reports the key.
class TrackingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  TrackingIterator(const char* at, const char** furthest)
      : at_(at), furthest_(furthest) {}
  reference operator*() const { return *at_; }
  TrackingIterator& operator++() {
    *furthest_ = ++at_;
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
  const char** furthest_;
};

// 1-based line and byte column of `offset`.
std::pair<size_t, size_t> LineColumnOf(std::string_view text, size_t offset) {
  size_t line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return {line, offset - line_start + 1};
}

// Builds the DOM through nlohmann's own SAX DOM builder and keeps, for every
// open object, the keys seen so far with the offset of their opening quote.
class UniqueKeysSax {
 public:
  using number_integer_t = json::number_integer_t;
  using number_unsigned_t = json::number_unsigned_t;
  using number_float_t = json::number_float_t;
  using string_t = json::string_t;
  using binary_t = json::binary_t;

  UniqueKeysSax(json& result, std::string_view text, const char** furthest,
                size_t* error_start)
      : dom_(result, /*allow_exceptions_=*/true),
        text_(text),
        furthest_(furthest),
        error_start_(error_start) {}

  bool null() { return Element() && dom_.null(); }
  bool boolean(bool value) { return Element() && dom_.boolean(value); }
  bool number_integer(number_integer_t value) {
    return Element() && dom_.number_integer(value);
  }
  bool number_unsigned(number_unsigned_t value) {
    return Element() && dom_.number_unsigned(value);
  }
  bool number_float(number_float_t value, const string_t& raw) {
    return Element() && dom_.number_float(value, raw);
  }
  bool string(string_t& value) { return Element() && dom_.string(value); }
  bool binary(binary_t& value) { return Element() && dom_.binary(value); }
  bool start_object(std::size_t elements) {
    Element();
    Push(/*object=*/true);
    return dom_.start_object(elements);
  }
  bool end_object() {
    --depth_;
    return dom_.end_object();
  }
  bool start_array(std::size_t elements) {
    Element();
    Push(/*object=*/false);
    return dom_.start_array(elements);
  }
  bool end_array() {
    --depth_;
    return dom_.end_array();
  }
  bool key(string_t& name) {
    Frame& frame = frames_[depth_ - 1];
    const size_t start = KeyStart();
    auto [it, inserted] = frame.keys.try_emplace(name, start);
    frame.key = name;
    if (!inserted) ThrowDuplicate(it->second, start);
    return dom_.key(name);
  }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& last_token,
                   const Exception& error) {
    // `position` is just past the token at fault.
    if (error_start_ != nullptr) {
      *error_start_ =
          position >= last_token.size() ? position - last_token.size() : 0;
    }
    return dom_.parse_error(position, last_token, error);
  }

 private:
  struct Frame {
    bool object = false;
    absl::flat_hash_map<std::string, size_t> keys;
    std::string key;   // the member being read, in an object
    size_t index = 0;  // the element being read, in an array
    size_t count = 0;  // elements started so far, in an array
  };

  // A value starts: in an array it is the next element.
  bool Element() {
    if (depth_ > 0 && !frames_[depth_ - 1].object) {
      Frame& frame = frames_[depth_ - 1];
      frame.index = frame.count++;
    }
    return true;
  }

  // Frames are reused, so a long run of small objects allocates once.
  void Push(bool object) {
    if (depth_ == kMaxJsonNesting) ThrowTooDeep();
    if (depth_ == frames_.size()) frames_.emplace_back();
    Frame& frame = frames_[depth_++];
    frame.object = object;
    frame.keys.clear();
    frame.key.clear();
    frame.index = 0;
    frame.count = 0;
  }

  // The offset of the opening quote of the key just read: the parser has
  // read up to its closing quote, and a quote inside a key is escaped by an
  // odd number of backslashes.
  size_t KeyStart() const {
    size_t end = static_cast<size_t>(*furthest_ - text_.data());
    if (end < 2) return 0;
    for (size_t i = end - 2; i > 0; --i) {
      if (text_[i] != '"') continue;
      size_t backslashes = 0;
      while (backslashes < i && text_[i - 1 - backslashes] == '\\') {
        ++backslashes;
      }
      if (backslashes % 2 == 0) return i;
    }
    return 0;
  }

  // Past the limit, before the document grows: 60 MB of `[[[...` would
  // otherwise build a tree of gigabytes before any check ran. The error
  // points at the first bracket past the limit.
  [[noreturn]] void ThrowTooDeep() const {
    size_t bracket = static_cast<size_t>(*furthest_ - text_.data());
    while (bracket > 0 && text_[bracket - 1] != '[' &&
           text_[bracket - 1] != '{') {
      --bracket;
    }
    throw json::parse_error::create(
        101, bracket,
        absl::StrCat("nesting deeper than ", kMaxJsonNesting,
                     " levels (lir's limit for JSON input)"),
        nullptr);
  }

  [[noreturn]] void ThrowDuplicate(size_t first, size_t second) const {
    std::string pointer;
    for (size_t i = 0; i < depth_; ++i) {
      const Frame& frame = frames_[i];
      absl::StrAppend(&pointer, "/",
                      frame.object ? JsonPointerToken(frame.key)
                                   : absl::StrCat(frame.index));
    }
    auto [line, column] = LineColumnOf(text_, first);
    throw json::parse_error::create(
        101, second + 1,
        absl::StrCat("duplicate key at ", pointer, " (first at line ", line,
                     ", column ", column, ")"),
        nullptr);
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::string_view text_;
  const char** furthest_;
  size_t* error_start_;
  std::vector<Frame> frames_;
  size_t depth_ = 0;
};

}  // namespace

json ParseJsonWithUniqueKeys(std::string_view text, size_t* error_start) {
  json result;
  const char* furthest = text.data();
  UniqueKeysSax sax(result, text, &furthest, error_start);
  json::sax_parse(TrackingIterator(text.data(), &furthest),
                  TrackingIterator(text.data() + text.size(), &furthest), &sax);
  return result;
}

}  // namespace lir::explain
