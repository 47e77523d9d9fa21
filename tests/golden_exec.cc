// The `exec` golden command (golden_exec.h).
#include "tests/golden_exec.h"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string_view>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "src/explain/utf8.h"
#include "tests/support/cli_test_util.h"

namespace lir::test {
namespace {

namespace fs = std::filesystem;

using test::ReadFile;

// The blocks of a case: lines up to `end`, decoded.
struct Block {
  std::string kind;  // "file" or "stdin"
  std::string name;
  std::string bytes;
};

}  // namespace

std::vector<std::string> SplitShellWords(const std::string& line,
                                         std::string* error) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c == '\\' && i + 1 < line.size()) {
      word += line[++i];
    } else if (c == '\'' || c == '"') {
      // Inside double quotes a backslash escapes `"` and `\`.
      size_t k = i + 1;
      for (; k < line.size() && line[k] != c; ++k) {
        if (c == '"' && line[k] == '\\' && k + 1 < line.size() &&
            (line[k + 1] == '"' || line[k + 1] == '\\')) {
          ++k;
        }
        word += line[k];
      }
      if (k == line.size()) {
        *error = absl::StrCat("unclosed ", std::string(1, c), " at column ",
                              i + 1, " of the argument line");
        return {};
      }
      i = k;
    } else {
      word += c;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

// Not absl::CUnescape: it reads `\x` greedily (`\xbfE` is one value, too
// large), so a byte before a hex letter, as in a byte-order mark before
// `Explained`, could not be written.
std::string DecodeEscapes(const std::string& text, std::string* error) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      out += text[i];
      continue;
    }
    const char e = text[++i];
    switch (e) {
      case 'r': out += '\r'; break;
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case '0': out += '\0'; break;
      case '\\': out += '\\'; break;
      case 'x': {
        const auto hex = [&](size_t k) {
          return k < text.size() &&
                 absl::ascii_isxdigit(static_cast<unsigned char>(text[k]));
        };
        int value = 0;
        if (!hex(i + 1) || !hex(i + 2) ||
            !absl::SimpleHexAtoi(text.substr(i + 1, 2), &value)) {
          *error = "\\x needs two hex digits";
          return out;
        }
        out += static_cast<char>(value);
        i += 2;
        break;
      }
      default:
        *error = absl::StrCat("unknown escape \\", std::string(1, e));
        return out;
    }
  }
  return out;
}

std::string PrintableBytes(const std::string& bytes) {
  std::string out;
  std::string_view rest = bytes;
  while (!rest.empty()) {
    // Valid UTF-8 up to `bad` (its controls escaped), then one bad byte.
    const size_t bad = explain::FindInvalidUtf8(rest);
    for (const char c : rest.substr(0, bad)) {
      const auto u = static_cast<unsigned char>(c);
      if (u == '\r') {
        out += "\\r";
      } else if ((u < 0x20 && u != '\n' && u != '\t') || u == 0x7f) {
        absl::StrAppend(&out, "\\x", absl::Hex(u, absl::kZeroPad2));
      } else {
        out += c;
      }
    }
    if (bad == std::string_view::npos) break;
    absl::StrAppend(
        &out, "\\x",
        absl::Hex(static_cast<unsigned char>(rest[bad]), absl::kZeroPad2));
    rest.remove_prefix(bad + 1);
  }
  if (!out.empty() && out.back() != '\n') out += "\n\\ no line feed at end\n";
  return out;
}

namespace {

// The decoded body of a block's lines [begin, end) (golden_exec.h), or an
// error line.
std::string BlockBytes(const std::vector<std::string>& lines, size_t begin,
                       size_t end, bool escaped, std::string* error) {
  std::string bytes;
  for (size_t k = begin; k < end; ++k) {
    std::string line = lines[k];
    bool line_feed = true;
    if (escaped) {
      // A line ending in an unescaped `\` has no line feed of its own.
      size_t slashes = 0;
      while (slashes < line.size() && line[line.size() - 1 - slashes] == '\\') {
        ++slashes;
      }
      if (slashes % 2 == 1) {
        line.pop_back();
        line_feed = false;
      }
      std::string problem;
      line = DecodeEscapes(line, &problem);
      if (!problem.empty()) {
        *error = absl::StrCat("line ", k + 1, " of the case: ", problem);
        return "";
      }
    }
    bytes += line;
    if (line_feed) bytes += '\n';
  }
  return bytes;
}

// The blocks after the argument line (lines[0]), or an error.
std::vector<Block> ReadBlocks(const std::vector<std::string>& lines,
                              std::string* error) {
  std::vector<Block> blocks;
  for (size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    std::vector<std::string> head = absl::StrSplit(lines[i], ' ');
    Block block;
    block.kind = head[0];
    size_t flags = 1;
    if (block.kind == "file") {
      if (head.size() < 2) {
        *error = "`file` needs a name";
        return {};
      }
      block.name = head[1];
      flags = 2;
    } else if (block.kind != "stdin") {
      *error =
          absl::StrCat("expected `file NAME` or `stdin`, got `", lines[i], "`");
      return {};
    }
    bool escaped = false;
    std::string fixture;
    for (size_t f = flags; f < head.size(); ++f) {
      if (head[f] == "escaped") {
        escaped = true;
      } else if (absl::StartsWith(head[f], "from=")) {
        fixture = head[f].substr(5);
      } else {
        *error = absl::StrCat("unknown block flag `", head[f], "`");
        return {};
      }
    }
    if (!fixture.empty()) {
      // A file of the source tree: the block has no body.
      const fs::path path = fs::path(LIR_SOURCE_DIR) / fixture;
      if (fixture.find("..") != std::string::npos ||
          !fs::is_regular_file(path)) {
        *error = absl::StrCat("no file ", fixture, " in the source tree");
        return {};
      }
      block.bytes = ReadFile(path);
      blocks.push_back(std::move(block));
      continue;
    }
    size_t end = i + 1;
    while (end < lines.size() && lines[end] != "end") ++end;
    if (end == lines.size()) {
      *error = absl::StrCat("`", lines[i], "` has no `end` line");
      return {};
    }
    block.bytes = BlockBytes(lines, i + 1, end, escaped, error);
    if (!error->empty()) return {};
    blocks.push_back(std::move(block));
    i = end;
  }
  return blocks;
}

// The `-- file` sections: files of `dir` (but the dot files the run keeps)
// made or changed since `written`, then those removed.
std::string FileChanges(
    const fs::path& dir, const std::map<std::string, std::string>& written,
    const std::vector<std::pair<std::string, std::string>>& paths) {
  std::map<std::string, std::string> after;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string name = fs::relative(entry.path(), dir).generic_string();
    if (!entry.is_regular_file() || absl::StartsWith(name, ".")) continue;
    after[name] = ReadFile(entry.path());
  }
  std::string out;
  for (const auto& [name, bytes] : after) {
    auto it = written.find(name);
    if (it != written.end() && it->second == bytes) continue;
    absl::StrAppend(&out, "-- file ", name,
                    it == written.end() ? " (made)\n" : " (changed)\n",
                    PrintableBytes(absl::StrReplaceAll(bytes, paths)));
  }
  for (const auto& [name, bytes] : written) {
    if (!after.contains(name)) {
      absl::StrAppend(&out, "-- file ", name, " (removed)\n");
    }
  }
  return out;
}

}  // namespace

std::string RunExecGolden(const std::string& input,
                          const std::string& lir_opt) {
  if (lir_opt.empty()) return "";
  std::vector<std::string> lines = absl::StrSplit(input, '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  if (lines.empty()) return "error: exec needs an argument line\n";
  std::string error;
  const std::vector<Block> blocks = ReadBlocks(lines, &error);
  if (!error.empty()) return absl::StrCat("error: ", error, "\n");

  // A scratch directory of its own (the process id and a counter keep
  // concurrent runs apart).
  static std::atomic<int> counter{0};
  const fs::path dir =
      fs::temp_directory_path() /
      absl::StrCat("lir_exec_", ::getpid(), "_", counter.fetch_add(1));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string stdin_bytes;
  // The files the case wrote, by name, to tell what the command changed.
  std::map<std::string, std::string> written;
  for (const Block& block : blocks) {
    if (block.kind == "stdin") {
      stdin_bytes = block.bytes;
      continue;
    }
    const fs::path path = dir / block.name;
    fs::create_directories(path.parent_path());
    test::WriteFile(path, block.bytes);
    written[block.name] = block.bytes;
  }

  const std::string args_line = absl::StrReplaceAll(
      lines[0], {{"$TMP", dir.string()}, {"$SRC", LIR_SOURCE_DIR}});
  std::vector<std::string> args;
  if (args_line != "(no arguments)") args = SplitShellWords(args_line, &error);
  if (!error.empty()) return absl::StrCat("error: ", error, "\n");
  const test::RunResult run =
      test::RunLirOptIn(dir, lir_opt, args, stdin_bytes);

  std::string out = run.signal != 0
                        ? absl::StrCat("signal ", run.signal, "\n")
                        : absl::StrCat("exit ", run.exit_code, "\n");
  const std::vector<std::pair<std::string, std::string>> paths = {
      {dir.string(), "$TMP"},
      {LIR_SOURCE_DIR, "$SRC"},
  };
  for (const auto& [stream, text] :
       {std::pair<const char*, const std::string&>{"stdout", run.out},
        std::pair<const char*, const std::string&>{"stderr", run.err}}) {
    if (text.empty()) continue;
    absl::StrAppend(&out, "-- ", stream, "\n",
                    PrintableBytes(absl::StrReplaceAll(text, paths)));
  }
  absl::StrAppend(&out, FileChanges(dir, written, paths));
  fs::remove_all(dir);
  return out;
}

}  // namespace lir::test
