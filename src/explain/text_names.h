// Object, collection, source and index names in the text form (internal to
// the explain layer): printing them so that they read back unchanged, and
// reading them back.
//
// Materialize prints a humanized name as it is (`FullItemName`'s Display
// writes `database.schema.item` without quoting), so most names need no
// quotes and print exactly as Materialize prints them. A name that would read
// back differently where it stands (a `"`, leading or trailing spaces, a
// ` // ` that looks like a node annotation, `l5` as a collection, `Notices`
// as an object, ...) is printed with SQL quoting on its dot-separated parts,
// as SQL writes identifiers and as this format already writes column names
// (`#0{"My col"}`): `materialize.public."a ""b"""`. Control characters
// (newlines, tabs, ...) cannot be carried by a line-based format at all: the
// readers reject them (NameProblem).
#ifndef LIR_EXPLAIN_TEXT_NAMES_H_
#define LIR_EXPLAIN_TEXT_NAMES_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace lir::explain::internal {

/// Where a name stands, which decides what would make it read differently.
enum class NameContext {
  kObject,      ///< an object header `<name>:` (not a fast-path object)
  kCollection,  ///< after `Get::<kind> ` (to the end of the header)
  kSource,      ///< after `Source ` (to the end of the line)
  kIndex,       ///< after `- ` in Used Indexes, before ` (<usages>)`
};

/// Why `name` cannot appear in the text form at all (empty, or a control
/// character), or nullopt when it can.
std::optional<std::string> NameProblem(std::string_view name);

/// True for `l<digits>`: the text form reads it as a local collection.
bool LooksLikeLocalId(absl::string_view text);

/// `name` as it is when that reads back as `name` in `context`, else its
/// dot-separated parts, each double-quoted (`"` doubled) when it is empty or
/// holds a space or `"`; at least one part is quoted then. `name` must have
/// no NameProblem.
std::string PrintName(std::string_view name, NameContext context);

/// A name as read from the text form.
struct ParsedName {
  std::string name;
  bool quoted = false;  ///< written with at least one quoted part
};

/// Reads a whole name written by PrintName, or by Materialize (as it is).
/// Text without `"` is the name itself; text with `"` must be dot-separated
/// parts, each plain (no space, `.` or `"`) or double-quoted. Errors are
/// "expected ..." with the offending offset in `*error_pos`.
absl::StatusOr<ParsedName> ParseName(std::string_view text, size_t* error_pos);

/// The length of the name at the start of a Used Indexes entry's `text`
/// (after `- `): up to the first ` (` outside quotes, or npos.
size_t IndexNameEnd(absl::string_view text);

/// True if `name` can head a fast-path object: it ends in `(fast path)` and
/// reads back as it is (no quotes, no leading or trailing space, not a
/// section line). Such a header is never quoted.
bool IsFastPathObjectName(absl::string_view name);

/// True if `content` (a level-0 line) starts a document section other than
/// an object: `Source `, `Used Indexes:`, `Target cluster: `, `Notices:`,
/// `Optimization time: `.
bool IsSectionLine(absl::string_view content);

}  // namespace lir::explain::internal

#endif  // LIR_EXPLAIN_TEXT_NAMES_H_
