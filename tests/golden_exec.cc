// The `exec` golden command (golden_exec.h).
#include "tests/golden_exec.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "tests/support/cli_test_util.h"

namespace lir::golden {
namespace {

namespace fs = std::filesystem;

using testing_util::ReadFile;
using testing_util::ShellQuote;

// The length of the valid UTF-8 sequence at `s[i]` (a byte >= 0x80), or 0.
size_t Utf8SequenceLength(const std::string& s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  size_t n;
  unsigned char low = 0x80, high = 0xbf;  // the second byte's range
  if (lead >= 0xc2 && lead <= 0xdf) {
    n = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    n = 3;
    if (lead == 0xe0) low = 0xa0;   // no overlong forms
    if (lead == 0xed) high = 0x9f;  // no surrogates
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    n = 4;
    if (lead == 0xf0) low = 0x90;
    if (lead == 0xf4) high = 0x8f;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (size_t k = 2; k < n; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xbf) return 0;
  }
  return n;
}

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
  for (size_t i = 0; i < bytes.size();) {
    const unsigned char c = static_cast<unsigned char>(bytes[i]);
    if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)) {
      out += static_cast<char>(c);
      ++i;
    } else if (c == '\r') {
      out += "\\r";
      ++i;
    } else if (size_t n = c >= 0x80 ? Utf8SequenceLength(bytes, i) : 0; n > 0) {
      out.append(bytes, i, n);
      i += n;
    } else {
      absl::StrAppend(&out, "\\x", absl::Hex(c, absl::kZeroPad2));
      ++i;
    }
  }
  if (!out.empty() && out.back() != '\n') out += "\n\\ no line feed at end\n";
  return out;
}

std::string RunExecGolden(const std::string& input,
                          const std::string& lir_opt) {
  if (lir_opt.empty()) return "";
  std::vector<std::string> lines = absl::StrSplit(input, '\n');
  if (!lines.empty() && lines.back().empty()) lines.pop_back();
  if (lines.empty()) return "error: exec needs an argument line\n";

  // The blocks after the argument line.
  std::vector<Block> blocks;
  for (size_t i = 1; i < lines.size(); ++i) {
    if (lines[i].empty()) continue;
    std::vector<std::string> head = absl::StrSplit(lines[i], ' ');
    Block block;
    block.kind = head[0];
    size_t flags = 1;
    if (block.kind == "file") {
      if (head.size() < 2) return "error: `file` needs a name\n";
      block.name = head[1];
      flags = 2;
    } else if (block.kind != "stdin") {
      return absl::StrCat("error: expected `file NAME` or `stdin`, got `",
                          lines[i], "`\n");
    }
    bool escaped = false;
    std::string fixture;
    for (size_t f = flags; f < head.size(); ++f) {
      if (head[f] == "escaped") {
        escaped = true;
      } else if (absl::StartsWith(head[f], "from=")) {
        fixture = head[f].substr(5);
      } else {
        return absl::StrCat("error: unknown block flag `", head[f], "`\n");
      }
    }
    if (!fixture.empty()) {
      // A file of the source tree: the block has no body.
      const fs::path path = fs::path(LIR_SOURCE_DIR) / fixture;
      if (fixture.find("..") != std::string::npos ||
          !fs::is_regular_file(path)) {
        return absl::StrCat("error: no file ", fixture,
                            " in the source tree\n");
      }
      block.bytes = ReadFile(path);
      blocks.push_back(std::move(block));
      continue;
    }
    size_t end = i + 1;
    while (end < lines.size() && lines[end] != "end") ++end;
    if (end == lines.size()) {
      return absl::StrCat("error: `", lines[i], "` has no `end` line\n");
    }
    for (size_t k = i + 1; k < end; ++k) {
      std::string line = lines[k];
      bool line_feed = true;
      if (escaped) {
        // A line ending in an unescaped `\` joins the next one.
        size_t slashes = 0;
        while (slashes < line.size() &&
               line[line.size() - 1 - slashes] == '\\') {
          ++slashes;
        }
        if (slashes % 2 == 1) {
          line.pop_back();
          line_feed = false;
        }
        std::string error;
        line = DecodeEscapes(line, &error);
        if (!error.empty()) {
          return absl::StrCat("error: line ", k + 1, " of the case: ", error,
                              "\n");
        }
      }
      block.bytes += line;
      if (line_feed) block.bytes += '\n';
    }
    blocks.push_back(std::move(block));
    i = end;
  }

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
    std::ofstream(path, std::ios::binary) << block.bytes;
    written[block.name] = block.bytes;
  }
  std::ofstream(dir / ".stdin", std::ios::binary) << stdin_bytes;

  std::string error;
  const std::string args_line = absl::StrReplaceAll(
      lines[0], {{"$TMP", dir.string()}, {"$SRC", LIR_SOURCE_DIR}});
  std::vector<std::string> args;
  if (args_line != "(no arguments)") args = SplitShellWords(args_line, &error);
  if (!error.empty()) return absl::StrCat("error: ", error, "\n");
  std::string command = absl::StrCat("cd ", ShellQuote(dir.string()), " && ",
                                     ShellQuote(lir_opt));
  for (const std::string& arg : args)
    absl::StrAppend(&command, " ", ShellQuote(arg));
  absl::StrAppend(&command, " <", ShellQuote((dir / ".stdin").string()), " >",
                  ShellQuote((dir / ".stdout").string()), " 2>",
                  ShellQuote((dir / ".stderr").string()));
  const int status = std::system(command.c_str());
  std::string out;
  if (status != -1 && WIFEXITED(status)) {
    absl::StrAppend(&out, "exit ", WEXITSTATUS(status), "\n");
  } else if (status != -1 && WIFSIGNALED(status)) {
    absl::StrAppend(&out, "signal ", WTERMSIG(status), "\n");
  } else {
    absl::StrAppend(&out, "error: could not run ", lir_opt, "\n");
  }
  const std::vector<std::pair<std::string, std::string>> paths = {
      {dir.string(), "$TMP"},
      {LIR_SOURCE_DIR, "$SRC"},
  };
  for (const char* stream : {"stdout", "stderr"}) {
    std::string text = ReadFile(dir / absl::StrCat(".", stream));
    if (text.empty()) continue;
    text = absl::StrReplaceAll(text, paths);
    absl::StrAppend(&out, "-- ", stream, "\n", PrintableBytes(text));
  }
  // Files the command made or changed, then those it removed.
  std::map<std::string, std::string> after;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string name = fs::relative(entry.path(), dir).generic_string();
    if (!entry.is_regular_file() || absl::StartsWith(name, ".")) continue;
    after[name] = ReadFile(entry.path());
  }
  for (const auto& [name, bytes] : after) {
    auto it = written.find(name);
    if (it != written.end() && it->second == bytes) continue;
    absl::StrAppend(&out, "-- file ", name,
                    it == written.end() ? " (made)\n" : " (changed)\n",
                    PrintableBytes(absl::StrReplaceAll(bytes, paths)));
  }
  for (const auto& [name, bytes] : written) {
    if (!after.contains(name))
      absl::StrAppend(&out, "-- file ", name, " (removed)\n");
  }
  fs::remove_all(dir);
  return out;
}

}  // namespace lir::golden
