// Where a value of a JSON text is, for messages: nlohmann's parsed values
// keep no positions, so the readers of JSON inputs (data and catalog files,
// configs) find `file:line:column` of a value by walking the text along the
// value's path (object keys and array indices). Only for texts that parsed:
// the walk does not re-validate. Internal; in src/explain, the lowest layer
// that reads JSON, so that every layer above can use it.
#ifndef LIR_EXPLAIN_JSON_LOCATE_H_
#define LIR_EXPLAIN_JSON_LOCATE_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lir::explain {

/// `key` as a JSON pointer reference token (RFC 6901: `~` as `~0`, `/` as
/// `~1`), with control bytes as `\xNN` so that a message holding the
/// pointer stays on one line. The one spelling of pointers in lir's
/// messages.
std::string JsonPointerToken(std::string_view key);

/// One step of a path into a JSON value: an object key or an array index.
struct JsonStep {
  JsonStep(std::string k) : key(std::move(k)) {}    // NOLINT: implicit
  JsonStep(const char* k) : key(k) {}               // NOLINT: implicit
  JsonStep(size_t i) : index(i), is_index(true) {}  // NOLINT: implicit
  /// For literals (`{"updates", 0}`): 0 would be a null pointer otherwise.
  JsonStep(int i)  // NOLINT: implicit
      : index(static_cast<size_t>(i)), is_index(true) {}
  std::string key;
  size_t index = 0;
  bool is_index = false;
};

/// Finds values of one JSON text by path. Walks are iterative and linear in
/// the text they skip.
class JsonLocator {
 public:
  /// `text` must outlive the locator and be valid JSON.
  explicit JsonLocator(std::string_view text) : text_(text) {}

  /// The byte offset where the value at `path` starts (for an object
  /// member, with `key_of_last` the offset of its key instead); the offset
  /// of the deepest value found when the path leaves the text's structure.
  /// Of duplicate keys the last counts, as nlohmann keeps the last value.
  size_t Find(const std::vector<JsonStep>& path,
              bool key_of_last = false) const;

  /// The path of the innermost value whose text contains byte `offset`
  /// (empty: the root). One linear walk; for a value found by scanning the
  /// text rather than by path.
  std::vector<JsonStep> PathTo(size_t offset) const;

  /// The members of the object whose value starts at `offset`: each key
  /// (unescaped) with the offset of the key; empty when it is not an object.
  std::vector<std::pair<std::string, size_t>> Members(size_t offset) const;

  /// The number of elements of the array whose value starts at `offset`
  /// (0 when it is not an array), to reserve room before a parser reads
  /// them; one walk over the array's text. On text that is not JSON the
  /// count may be wrong (never more than the text's length) but the walk
  /// ends.
  size_t CountElements(size_t offset) const;

  /// `file:line:column` (1-based, columns in bytes) of `offset`. The first
  /// call indexes where lines start (one pass over the text); later calls
  /// search that index, so locating every member of a large file stays
  /// linear in its size.
  std::string Where(std::string_view file, size_t offset) const;

  /// Bytes of the text that `Where` has read so far: the line index is
  /// built once, so this never exceeds the text's size.
  size_t bytes_read_by_where() const { return where_bytes_; }

 private:
  size_t SkipSpace(size_t pos) const;
  /// Past the value starting at `pos`.
  size_t SkipValue(size_t pos) const;
  /// Past the string starting at `pos` (a quote); its unescaped text in
  /// `out` when given.
  size_t ReadString(size_t pos, std::string* out) const;
  /// The offset of the key and of the value of member `key` of the object
  /// at `pos`, or npos.
  std::pair<size_t, size_t> FindMember(size_t pos,
                                       const std::string& key) const;
  /// The offset of element `index` of the array at `pos`, or npos.
  size_t FindElement(size_t pos, size_t index) const;

  std::string_view text_;
  /// Offsets where lines 2, 3, ... start; built by the first `Where`.
  mutable std::vector<size_t> line_starts_;
  mutable bool lines_indexed_ = false;
  mutable size_t where_bytes_ = 0;
};

}  // namespace lir::explain

#endif  // LIR_EXPLAIN_JSON_LOCATE_H_
