// Walking a JSON text by path (json_locate.h).
#include "src/explain/json_locate.h"

#include <algorithm>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace lir::explain {
namespace {

constexpr size_t kNpos = std::string_view::npos;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 0;
}

void AppendUtf8(uint32_t code, std::string* out) {
  if (code < 0x80) {
    out->push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (code >> 6)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else if (code < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (code >> 12)));
    out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (code >> 18)));
    out->push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
  }
}

}  // namespace

std::string JsonPointerToken(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      out += absl::StrFormat("\\x%02x", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out;
}

size_t JsonLocator::SkipSpace(size_t pos) const {
  while (pos < text_.size() && IsSpace(text_[pos])) ++pos;
  return pos;
}

size_t JsonLocator::ReadString(size_t pos, std::string* out) const {
  ++pos;  // the opening quote
  auto hex4 = [&](size_t at) {
    uint32_t code = 0;
    for (size_t k = 0; k < 4 && at + k < text_.size(); ++k) {
      code = code * 16 + static_cast<uint32_t>(HexDigit(text_[at + k]));
    }
    return code;
  };
  while (pos < text_.size() && text_[pos] != '"') {
    if (text_[pos] != '\\') {
      if (out != nullptr) out->push_back(text_[pos]);
      ++pos;
      continue;
    }
    if (pos + 1 >= text_.size()) return text_.size();
    const char escaped = text_[pos + 1];
    pos += 2;
    if (out == nullptr) continue;  // \uXXXX digits are skipped as text
    switch (escaped) {
      case 'b': out->push_back('\b'); break;
      case 'f': out->push_back('\f'); break;
      case 'n': out->push_back('\n'); break;
      case 'r': out->push_back('\r'); break;
      case 't': out->push_back('\t'); break;
      case 'u': {
        uint32_t code = hex4(pos);
        pos += 4;
        // A high surrogate followed by `\uDC00`-`\uDFFF`: one code point.
        if (code >= 0xD800 && code < 0xDC00 && pos + 6 <= text_.size() &&
            text_[pos] == '\\' && text_[pos + 1] == 'u') {
          const uint32_t low = hex4(pos + 2);
          if (low >= 0xDC00 && low < 0xE000) {
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            pos += 6;
          }
        }
        AppendUtf8(code, out);
        break;
      }
      default: out->push_back(escaped); break;  // " \ /
    }
  }
  return std::min(pos + 1, text_.size());
}

size_t JsonLocator::SkipValue(size_t pos) const {
  pos = SkipSpace(pos);
  if (pos >= text_.size()) return pos;
  const char c = text_[pos];
  if (c == '"') return ReadString(pos, nullptr);
  if (c != '[' && c != '{') {
    // A number or a literal: up to the next delimiter.
    while (pos < text_.size() && !IsSpace(text_[pos]) && text_[pos] != ',' &&
           text_[pos] != ']' && text_[pos] != '}') {
      ++pos;
    }
    return pos;
  }
  // A container: count brackets outside strings (the text is valid JSON).
  size_t depth = 0;
  while (pos < text_.size()) {
    const char d = text_[pos];
    if (d == '"') {
      pos = ReadString(pos, nullptr);
      continue;
    }
    ++pos;
    if (d == '[' || d == '{') ++depth;
    if ((d == ']' || d == '}') && --depth == 0) break;
  }
  return pos;
}

size_t JsonLocator::CountElements(size_t offset) const {
  size_t pos = SkipSpace(offset);
  if (pos >= text_.size() || text_[pos] != '[') return 0;
  pos = SkipSpace(pos + 1);
  size_t count = 0;
  while (pos < text_.size() && text_[pos] != ']') {
    const size_t before = pos;
    pos = SkipSpace(SkipValue(pos));
    ++count;
    if (pos < text_.size() && text_[pos] == ',') {
      pos = SkipSpace(pos + 1);
    } else if (pos == before) {
      break;  // not JSON: no element here
    }
  }
  return count;
}

std::vector<std::pair<std::string, size_t>> JsonLocator::Members(
    size_t offset) const {
  std::vector<std::pair<std::string, size_t>> members;
  size_t pos = SkipSpace(offset);
  if (pos >= text_.size() || text_[pos] != '{') return members;
  pos = SkipSpace(pos + 1);
  while (pos < text_.size() && text_[pos] == '"') {
    std::string key;
    const size_t key_at = pos;
    pos = SkipSpace(ReadString(pos, &key));
    if (pos < text_.size() && text_[pos] == ':') ++pos;
    pos = SkipSpace(SkipValue(pos));
    members.emplace_back(std::move(key), key_at);
    if (pos < text_.size() && text_[pos] == ',') pos = SkipSpace(pos + 1);
  }
  return members;
}

std::pair<size_t, size_t> JsonLocator::FindMember(
    size_t pos, const std::string& key) const {
  std::pair<size_t, size_t> found = {kNpos, kNpos};
  for (const auto& [name, key_at] : Members(pos)) {
    if (name != key) continue;
    size_t value = SkipSpace(ReadString(key_at, nullptr));
    if (value < text_.size() && text_[value] == ':') ++value;
    found = {key_at, SkipSpace(value)};  // the last duplicate wins
  }
  return found;
}

size_t JsonLocator::FindElement(size_t pos, size_t index) const {
  pos = SkipSpace(pos);
  if (pos >= text_.size() || text_[pos] != '[') return kNpos;
  pos = SkipSpace(pos + 1);
  for (size_t i = 0; pos < text_.size() && text_[pos] != ']'; ++i) {
    if (i == index) return pos;
    pos = SkipSpace(SkipValue(pos));
    if (pos < text_.size() && text_[pos] == ',') pos = SkipSpace(pos + 1);
  }
  return kNpos;
}

size_t JsonLocator::Find(const std::vector<JsonStep>& path,
                         bool key_of_last) const {
  // nlohmann skips a UTF-8 byte-order mark.
  size_t pos = SkipSpace(text_.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0);
  for (size_t i = 0; i < path.size(); ++i) {
    size_t next = kNpos;
    if (path[i].is_index) {
      next = FindElement(pos, path[i].index);
    } else {
      const auto [key_at, value_at] = FindMember(pos, path[i].key);
      next = key_of_last && i + 1 == path.size() ? key_at : value_at;
    }
    if (next == kNpos) break;
    pos = next;
  }
  return pos;
}

std::vector<JsonStep> JsonLocator::PathTo(size_t offset) const {
  std::vector<JsonStep> path;
  size_t pos = SkipSpace(text_.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0);
  // Descend into the container at `pos` while one of its elements or
  // members spans `offset`; siblings before it are skipped, never entered,
  // so the walk reads each byte at most twice.
  while (pos < text_.size() && (text_[pos] == '[' || text_[pos] == '{')) {
    const bool is_array = text_[pos] == '[';
    pos = SkipSpace(pos + 1);
    bool found = false;
    for (size_t i = 0;
         pos < text_.size() && text_[pos] != ']' && text_[pos] != '}'; ++i) {
      std::string key;
      if (!is_array) {
        pos = SkipSpace(ReadString(pos, &key));
        if (pos < text_.size() && text_[pos] == ':') pos = SkipSpace(pos + 1);
      }
      const size_t end = SkipValue(pos);
      if (offset >= pos && offset < end) {
        if (is_array) {
          path.emplace_back(i);
        } else {
          path.emplace_back(std::move(key));
        }
        found = true;
        break;
      }
      pos = SkipSpace(end);
      if (pos < text_.size() && text_[pos] == ',') pos = SkipSpace(pos + 1);
    }
    if (!found) break;
  }
  return path;
}

std::string JsonLocator::Where(std::string_view file, size_t offset) const {
  if (!lines_indexed_) {
    for (size_t i = 0; i < text_.size(); ++i) {
      if (text_[i] == '\n') line_starts_.push_back(i + 1);
    }
    where_bytes_ += text_.size();
    lines_indexed_ = true;
  }
  offset = std::min(offset, text_.size());
  // Lines before `offset`'s: the starts at or before it.
  const auto after =
      std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const size_t line = static_cast<size_t>(after - line_starts_.begin()) + 1;
  const size_t line_start = line == 1 ? 0 : *(after - 1);
  return absl::StrCat(std::string(file), ":", line, ":",
                      offset - line_start + 1);
}

}  // namespace lir::explain
