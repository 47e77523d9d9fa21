#include "tools/lir-opt/slt_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iterator>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "re2/re2.h"

namespace lir::cli::slt {
namespace {

/// Whether `text` is a sqllogictest `query` directive in multiline mode
/// (`query T multiline`, possibly with more options).
bool IsMultilineQuery(absl::string_view text) {
  std::vector<absl::string_view> words =
      absl::StrSplit(text, ' ', absl::SkipEmpty());
  return !words.empty() && words[0] == "query" &&
         std::find(words.begin(), words.end(), "multiline") != words.end();
}

/// The upper-cased words of an `AS ...` format, single-spaced.
std::string NormalizedFormat(const std::string& format) {
  std::vector<absl::string_view> words =
      absl::StrSplit(format, absl::ByAnyChar(" \t\n"), absl::SkipEmpty());
  return absl::AsciiStrToUpper(absl::StrJoin(words, " "));
}

}  // namespace

// ../shared/reference/CONCISE-FORMAT.md section 1: the format is named by
// `AS ...`; without it an explicit PHYSICAL PLAN stage prints verbose text
// and every other statement concise text. MIR stages are not plans lir
// reads, except that OPTIMIZED PLAN prints a query's fast-path plan in the
// concise syntax when it has one.
StatementKind ClassifyStatement(const std::string& statement,
                                std::string* skip_reason) {
  static const LazyRE2 kExplain = {
      R"((?is)^\s*EXPLAIN\b\s*)"
      R"((?:(RAW|DECORRELATED|LOCALLY\s+OPTIMIZED|OPTIMIZED|PHYSICAL)\s+)?)"
      R"((PLAN\b)?\s*)"
      R"((?:WITH\s*\([^)]*\)\s*)?)"
      R"((?:AS\s+(VERBOSE\s+TEXT|[a-z]+)\s+)?)"
      R"((FOR\b)?\s*(\S*))"};
  std::string stage;
  std::string plan;
  std::string format;
  std::string for_word;
  std::string next;
  if (!RE2::PartialMatch(statement, *kExplain, &stage, &plan, &format,
                         &for_word, &next)) {
    return StatementKind::kNotPlan;
  }
  stage = NormalizedFormat(stage);
  const std::string as = NormalizedFormat(format);
  if (stage.empty() && plan.empty()) {
    // `EXPLAIN [WITH(...)] [AS ...] <explainee>`: the default stage
    // (physical), unless the words after EXPLAIN name another statement
    // (EXPLAIN TIMESTAMP, FILTER PUSHDOWN, ANALYZE, KEY, SCHEMA, ...).
    static const LazyRE2 kExplainee = {
        R"((?i)^(?:\(|(?:SELECT|WITH|VALUES|TABLE|SHOW|INDEX|MATERIALIZED|)"
        R"(CREATE|SUBSCRIBE|REPLAN)\b))"};
    // `EXPLAIN AS <format> FOR q` names only the format.
    const bool explainee =
        for_word.empty() ? RE2::PartialMatch(next, *kExplainee) : !as.empty();
    if (!explainee) return StatementKind::kNotPlan;
  } else if (for_word.empty()) {
    return StatementKind::kNotPlan;
  }
  if (!stage.empty() && stage != "PHYSICAL") {
    if (stage == "OPTIMIZED" && (as.empty() || as == "TEXT")) {
      return StatementKind::kConciseIfFastPath;
    }
    return StatementKind::kNotPlan;
  }
  if (as.empty()) {
    return stage == "PHYSICAL" ? StatementKind::kVerbose
                               : StatementKind::kConcise;
  }
  if (as == "VERBOSE TEXT") return StatementKind::kVerbose;
  if (as == "TEXT") return StatementKind::kConcise;
  *skip_reason = absl::StrCat("AS ", as, " is not a text format");
  return StatementKind::kSkipped;
}

namespace {

/// Whether a block's expected output is a concise fast-path plan: an
/// `Explained Query (fast path):` header whose body starts with `→`.
bool IsConciseFastPath(const SltFile& file, size_t begin, size_t end) {
  return end >= begin + 2 &&
         file.line(begin).text == "Explained Query (fast path):" &&
         absl::StartsWith(file.line(begin + 1).text, "  \xE2\x86\x92");
}

/// Whether `text` is a directive that begins a new sqllogictest record.
bool StartsRecord(absl::string_view text) {
  for (absl::string_view directive :
       {"query ", "statement ", "simple", "halt", "mode ", "hash-threshold "}) {
    if (absl::StartsWith(text, directive)) return true;
  }
  return false;
}

bool IsBlank(absl::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return c == ' ' || c == '\t'; });
}

/// Whether `text` may stand between a blank line and the record directive
/// it leads to: more blank lines, comments, and the runner's conditions.
bool LeadsToRecord(absl::string_view text) {
  return IsBlank(text) || absl::StartsWith(text, "#") ||
         absl::StartsWith(text, "skipif ") || absl::StartsWith(text, "onlyif ");
}

constexpr absl::string_view kByteOrderMark = "\xEF\xBB\xBF";

/// Where the line after the one starting at `start` begins: past its
/// terminator, `\r\n`, `\n` or a lone `\r` (old Mac OS files, whose lines
/// the runner would not split, but whose blocks slt still finds); npos
/// for the last line.
size_t NextLineStart(absl::string_view content, size_t start) {
  const size_t end = content.find_first_of("\r\n", start);
  if (end == absl::string_view::npos) return end;
  const bool crlf = content[end] == '\r' && end + 1 < content.size() &&
                    content[end + 1] == '\n';
  return end + (crlf ? 2 : 1);
}

}  // namespace

Line SltFile::line(size_t i) const {
  const size_t begin = line_starts[i];
  const size_t end =
      i + 1 < line_starts.size() ? line_starts[i + 1] : content.size();
  const absl::string_view all =
      absl::string_view(content).substr(begin, end - begin);
  size_t eol = 0;
  if (absl::EndsWith(all, "\r\n")) {
    eol = 2;
  } else if (!all.empty() && (all.back() == '\n' || all.back() == '\r')) {
    eol = 1;
  }
  return {all.substr(0, all.size() - eol), all.substr(all.size() - eol)};
}

void ParseSltFile(SltFile* file) {
  file->line_starts.clear();
  file->blocks.clear();
  const absl::string_view content = file->content;
  // A byte-order mark (some editors write one) is not part of the first
  // line, or its directive would not be recognised; it stays in `content`,
  // so a rewrite keeps it.
  const size_t first =
      absl::StartsWith(content, kByteOrderMark) ? kByteOrderMark.size() : 0;
  // Counted first so that the index is allocated once, at its size.
  size_t count = 0;
  for (size_t start = first; start < content.size();
       start = NextLineStart(content, start)) {
    ++count;
  }
  file->line_starts.reserve(count);
  for (size_t start = first; start < content.size();
       start = NextLineStart(content, start)) {
    file->line_starts.push_back(start);
  }
  const size_t line_count = file->line_count();
  const auto text = [file](size_t i) { return file->line(i).text; };
  size_t i = 0;
  while (i < line_count) {
    if (!IsMultilineQuery(text(i))) {
      ++i;
      continue;
    }
    ExplainBlock block;
    block.query_line = i;
    size_t j = i + 1;
    std::vector<absl::string_view> statement;
    // A statement may hold blank lines (Materialize's runner reads it up to
    // `----`); a new record's directive ends it too.
    while (j < line_count && text(j) != "----" && !StartsRecord(text(j))) {
      if (!IsBlank(text(j))) statement.push_back(text(j));
      ++j;
    }
    block.statement = absl::StrJoin(statement, " ");
    std::string skip_reason;
    const StatementKind kind = ClassifyStatement(block.statement, &skip_reason);
    bool ours = kind != StatementKind::kNotPlan;
    if (j == line_count || text(j) != "----") {
      // A record without expected output: not a plan block.
      if (ours) {
        block.error = absl::StrCat(file->name, ":", j + 1,
                                   ": expected '----' after the statement");
        file->blocks.push_back(std::move(block));
      }
      i = j;
      continue;
    }
    block.output_begin = j + 1;
    // The runner ends a multiline output only at `EOF`: one without it
    // would take in the records after it, up to the next `EOF`, hiding
    // their plan blocks. Every other record ends at a blank line; a blank
    // line followed by a new record's directive ends this output too (no
    // plan or MIR text has such a line, nor any in Materialize's files).
    size_t k = block.output_begin;
    bool terminated = false;
    std::optional<size_t> next_record;
    while (k < line_count) {
      const absl::string_view line = text(k);
      if (line == "EOF") {
        terminated = true;
        break;
      }
      if (!IsBlank(line)) {
        ++k;
        continue;
      }
      // Past the run of blank and comment lines at once, so that a long
      // run is walked once, not once from each of its lines.
      size_t m = k + 1;
      while (m < line_count && LeadsToRecord(text(m))) ++m;
      if (m < line_count && StartsRecord(text(m))) {
        next_record = m;
        break;
      }
      k = m;
    }
    block.output_end = k;
    block.plan_end = k;
    if (block.plan_end > block.output_begin &&
        text(block.plan_end - 1).empty()) {
      --block.plan_end;
    }
    if (kind == StatementKind::kConciseIfFastPath) {
      ours = terminated &&
             IsConciseFastPath(*file, block.output_begin, block.plan_end);
    }
    block.syntax = kind == StatementKind::kVerbose ? TextSyntax::kVerbose
                                                   : TextSyntax::kConcise;
    if (ours) {
      if (next_record.has_value()) {
        block.error = absl::StrCat(
            file->name, ":", k + 1,
            ": expected a line 'EOF' ending the expected output begun at "
            "line ",
            block.output_begin + 1,
            "; found a blank line and the next record (line ", *next_record + 1,
            ")");
      } else if (!terminated) {
        block.error = absl::StrCat(
            file->name, ":", k + 1,
            ": expected a line 'EOF' ending the expected output begun at "
            "line ",
            block.output_begin + 1);
      } else if (kind == StatementKind::kSkipped) {
        block.skip_reason = skip_reason;
      }
      file->blocks.push_back(std::move(block));
    }
    i = next_record.value_or(k + 1);
  }
}

std::string PlanText(const SltFile& file, const ExplainBlock& block) {
  std::string out;
  for (size_t i = block.output_begin; i < block.plan_end; ++i) {
    absl::StrAppend(&out, file.line(i).text, "\n");
  }
  return out;
}

std::string RenderWithReplacements(
    const SltFile& file, const std::vector<Replacement>& replacements) {
  std::vector<const Replacement*> sorted;
  for (const Replacement& r : replacements) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(),
            [](const Replacement* a, const Replacement* b) {
              return a->block->output_begin < b->block->output_begin;
            });
  const absl::string_view content = file.content;
  const auto offset = [&](size_t line) {
    return line < file.line_count() ? file.line_starts[line] : content.size();
  };
  std::string out;
  out.reserve(content.size());
  size_t copied = 0;
  for (const Replacement* r : sorted) {
    const ExplainBlock& block = *r->block;
    const size_t begin = offset(block.output_begin);
    absl::StrAppend(&out, content.substr(copied, begin - copied));
    // New lines end as the block's did: its first plan line, else the
    // `----` line before it.
    const size_t eol_line = block.output_begin < block.plan_end
                                ? block.output_begin
                                : block.output_begin - 1;
    absl::string_view eol = file.line(eol_line).eol;
    if (eol.empty()) eol = "\n";
    // Blank lines inside the plan stay; the final newline ends the last.
    std::vector<absl::string_view> plan_lines = absl::StrSplit(r->plan, '\n');
    if (!plan_lines.empty() && plan_lines.back().empty()) plan_lines.pop_back();
    for (absl::string_view line : plan_lines) absl::StrAppend(&out, line, eol);
    copied = offset(block.plan_end);
  }
  absl::StrAppend(&out, content.substr(copied));
  return out;
}

namespace {

// The temporary file being written, for the signal handler to remove: a
// signal that ends the process mid-write must not leave it behind.
char pending_temp[PATH_MAX + 1];
volatile sig_atomic_t temp_pending = 0;

constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXFSZ};

extern "C" void RemoveTempAndDie(int signal) {
  if (temp_pending != 0) ::unlink(pending_temp);  // async-signal-safe
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

// Removes the temporary file if a signal ends the process while it lives;
// the previous handlers are back once it is renamed or removed. (SIGKILL
// cannot be caught: then the hidden file stays, the original intact.)
class TempFileGuard {
 public:
  explicit TempFileGuard(const std::string& temp) {
    if (temp.size() > PATH_MAX) return;
    std::memcpy(pending_temp, temp.c_str(), temp.size() + 1);
    struct sigaction action = {};
    action.sa_handler = RemoveTempAndDie;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < std::size(kCleanupSignals); ++i) {
      ::sigaction(kCleanupSignals[i], &action, &previous_[i]);
    }
    temp_pending = 1;
    armed_ = true;
  }
  ~TempFileGuard() {
    if (!armed_) return;
    temp_pending = 0;
    for (size_t i = 0; i < std::size(kCleanupSignals); ++i) {
      ::sigaction(kCleanupSignals[i], &previous_[i], nullptr);
    }
  }
  TempFileGuard(const TempFileGuard&) = delete;
  TempFileGuard& operator=(const TempFileGuard&) = delete;

 private:
  struct sigaction previous_[std::size(kCleanupSignals)] = {};
  bool armed_ = false;
};

}  // namespace

absl::Status WriteFileAtomically(const std::string& path,
                                 absl::string_view content) {
  std::error_code ec;
  // Follow a symbolic link: the file it names is the one rewritten.
  std::filesystem::path target = std::filesystem::canonical(path, ec);
  if (ec) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": cannot resolve: ", ec.message()));
  }
  struct stat st;
  if (::stat(target.c_str(), &st) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": cannot stat: ", std::strerror(errno)));
  }
  // Replacing by rename is only right for a regular file that its owner
  // may write and that has no other names: a FIFO or device would become a
  // plain file, a read-only file would be silently overwritten, and a hard
  // link would keep the old content under its other names.
  if (!S_ISREG(st.st_mode)) {
    return absl::InvalidArgumentError(absl::StrCat(
        path,
        ": not a regular file (a FIFO, device or directory); --rewrite "
        "replaces regular files only (left unchanged)"));
  }
  if ((st.st_mode & S_IWUSR) == 0 || ::access(target.c_str(), W_OK) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": read-only; --rewrite does not overwrite it (left unchanged)"));
  }
  if (st.st_nlink > 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": has ", st.st_nlink,
        " hard links; replacing it would leave the others with the old plan "
        "(left unchanged)"));
  }
  std::string temp =
      (target.parent_path() /
       absl::StrCat(".", target.filename().string(), ".lir-opt-XXXXXX"))
          .string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        path,
        ": cannot create a temporary file beside it: ", std::strerror(errno)));
  }
  const TempFileGuard guard(temp);
  const auto fail = [&](absl::string_view what) {
    const std::string reason = std::strerror(errno);
    ::close(fd);
    ::unlink(temp.c_str());
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": ", what, ": ", reason, " (left unchanged)"));
  };
  size_t written = 0;
  while (written < content.size()) {
    const ssize_t n =
        ::write(fd, content.data() + written, content.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("cannot write");
    }
    written += static_cast<size_t>(n);
  }
  if (::fchmod(fd, st.st_mode & 07777) != 0) return fail("cannot set mode");
  // Keep the owner and group (a root run would otherwise hand the file to
  // root); only a privileged run can, and only it needs to.
  if ((st.st_uid != ::geteuid() || st.st_gid != ::getegid()) &&
      ::fchown(fd, st.st_uid, st.st_gid) != 0 && errno != EPERM) {
    return fail("cannot keep the owner");
  }
  if (::fsync(fd) != 0) return fail("cannot flush");
  if (::close(fd) != 0) {
    ::unlink(temp.c_str());
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": cannot close the temporary file (left unchanged)"));
  }
  if (::rename(temp.c_str(), target.c_str()) != 0) {
    const std::string reason = std::strerror(errno);
    ::unlink(temp.c_str());
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": cannot replace: ", reason, " (left unchanged)"));
  }
  return absl::OkStatus();
}

}  // namespace lir::cli::slt
