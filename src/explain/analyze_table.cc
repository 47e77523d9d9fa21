// The EXPLAIN ANALYZE table's forms: psql's aligned text, JSON, the off/on
// comparison, and the value formats Materialize's query applies
// (pg_size_pretty, microsecond intervals).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "lir/explain/analyze.h"

namespace lir::explain {
namespace {

// Columns of a psql table: header and whether cells are right-aligned
// (psql right-aligns numeric types only; text and interval go left).
struct Column {
  std::string header;
  bool right = false;
};
using Cell = std::optional<std::string>;  // nullopt: NULL

// Display width as psql counts it for the text lir prints: one per code
// point (UTF-8 continuation bytes add nothing). Wide East Asian characters
// would count two in psql; plan names rarely hold them.
size_t DisplayWidth(std::string_view text) {
  size_t width = 0;
  for (unsigned char c : text) width += (c & 0xC0) != 0x80;
  return width;
}

// psql's aligned format with border 1: ` a | b ` headers centred (the left
// half rounded down), `---+---`, cells padded to the column width except a
// left-aligned last column, `(N rows)` and an empty line.
std::string PsqlTable(const std::vector<Column>& columns,
                      const std::vector<std::vector<Cell>>& rows) {
  std::vector<size_t> width(columns.size());
  for (size_t j = 0; j < columns.size(); ++j) {
    width[j] = DisplayWidth(columns[j].header);
    for (const std::vector<Cell>& row : rows) {
      if (row[j].has_value()) {
        width[j] = std::max(width[j], DisplayWidth(*row[j]));
      }
    }
  }
  std::string out;
  for (size_t j = 0; j < columns.size(); ++j) {
    const size_t space = width[j] - DisplayWidth(columns[j].header);
    absl::StrAppend(&out, j == 0 ? " " : "| ", std::string(space / 2, ' '),
                    columns[j].header, std::string((space + 1) / 2, ' '), " ");
  }
  out += "\n";
  for (size_t j = 0; j < columns.size(); ++j) {
    absl::StrAppend(&out, j == 0 ? "" : "+", std::string(width[j] + 2, '-'));
  }
  out += "\n";
  for (const std::vector<Cell>& row : rows) {
    for (size_t j = 0; j < columns.size(); ++j) {
      const std::string text = row[j].value_or("");
      const std::string pad(width[j] - DisplayWidth(text), ' ');
      const bool last = j + 1 == columns.size();
      absl::StrAppend(&out, j == 0 ? " " : " | ");
      if (columns[j].right) {
        absl::StrAppend(&out, pad, text);
      } else {
        absl::StrAppend(&out, text, last ? "" : pad);
      }
    }
    out += "\n";
  }
  absl::StrAppend(&out, "(", rows.size(), rows.size() == 1 ? " row)" : " rows)",
                  "\n\n");
  return out;
}

std::string Indented(int nesting, const std::string& op) {
  return absl::StrCat(std::string(2 * static_cast<size_t>(nesting), ' '), op);
}

Cell MemoryCell(const AnalyzeMeasure& m) {
  if (!m.memory_bytes.has_value()) return std::nullopt;
  return PgSizePretty(static_cast<int64_t>(*m.memory_bytes));
}
Cell RecordsCell(const AnalyzeMeasure& m) {
  if (!m.records.has_value()) return std::nullopt;
  return absl::StrCat(*m.records);
}
Cell ElapsedCell(const AnalyzeMeasure& m) {
  if (!m.elapsed_ns.has_value()) return std::nullopt;
  return FormatElapsed(*m.elapsed_ns);
}

nlohmann::json OrNull(const std::optional<uint64_t>& v) {
  return v.has_value() ? nlohmann::json(*v) : nlohmann::json(nullptr);
}
nlohmann::json OrNull(const Cell& c) {
  return c.has_value() ? nlohmann::json(*c) : nlohmann::json(nullptr);
}

// One side's memory and records as signed sums (a missing side or cell
// counts 0 in a change and a total).
int64_t Bytes(const std::optional<AnalyzeMeasure>& m) {
  return m.has_value() ? static_cast<int64_t>(m->memory_bytes.value_or(0)) : 0;
}
int64_t Records(const std::optional<AnalyzeMeasure>& m) {
  return m.has_value() ? static_cast<int64_t>(m->records.value_or(0)) : 0;
}
bool HasMemory(const std::optional<AnalyzeMeasure>& m) {
  return m.has_value() && m->memory_bytes.has_value();
}

const char* SideName(const AnalyzeCompareRow& row) {
  if (row.off.has_value() && row.on.has_value()) return "both";
  return row.off.has_value() ? "off" : "on";
}

}  // namespace

absl::StatusOr<std::vector<AnalyzeColumn>> ParseAnalyzeColumns(
    std::string_view text) {
  std::vector<AnalyzeColumn> columns;
  for (absl::string_view item :
       absl::StrSplit(absl::string_view(text.data(), text.size()), ',')) {
    AnalyzeColumn column;
    if (item == "memory") {
      column = AnalyzeColumn::kMemory;
    } else if (item == "cpu") {
      column = AnalyzeColumn::kCpu;
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          "--analyze: expected memory, cpu, memory,cpu or cpu,memory; got '",
          item, "'"));
    }
    if (std::find(columns.begin(), columns.end(), column) != columns.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--analyze: '", item, "' is listed twice"));
    }
    columns.push_back(column);
  }
  return columns;
}

std::string PgSizePretty(int64_t bytes) {
  // PostgreSQL's dbsize.c: past bytes, sizes are kept in half units so that
  // the last step rounds half away from zero; a unit is used while the
  // size is below its limit (10240 bytes, then 20479 half units).
  struct Unit {
    const char* name;
    int64_t limit;
    bool round;
    int bits;
  };
  static constexpr Unit kUnits[] = {
      {"bytes", 10 * 1024, false, 0},  {"kB", 20 * 1024 - 1, true, 10},
      {"MB", 20 * 1024 - 1, true, 20}, {"GB", 20 * 1024 - 1, true, 30},
      {"TB", 20 * 1024 - 1, true, 40}, {"PB", 20 * 1024 - 1, true, 50}};
  constexpr size_t kCount = sizeof(kUnits) / sizeof(kUnits[0]);
  int64_t size = bytes;
  for (size_t i = 0; i < kCount; ++i) {
    const Unit& unit = kUnits[i];
    // |size| without overflowing at INT64_MIN.
    const uint64_t magnitude = size < 0
                                   ? uint64_t{0} - static_cast<uint64_t>(size)
                                   : static_cast<uint64_t>(size);
    if (i + 1 == kCount || magnitude < static_cast<uint64_t>(unit.limit)) {
      if (unit.round) size = (size + (size < 0 ? -1 : 1)) / 2;
      return absl::StrCat(size, " ", unit.name);
    }
    const Unit& next = kUnits[i + 1];
    const int bits =
        next.bits - unit.bits - (next.round ? 1 : 0) + (unit.round ? 1 : 0);
    size /= int64_t{1} << bits;
  }
  return "";  // unreachable: the last unit returns
}

std::string FormatElapsed(uint64_t nanos) {
  const uint64_t micros = nanos / 1000;
  const uint64_t hours = micros / 3'600'000'000;
  const uint64_t minutes = micros / 60'000'000 % 60;
  const uint64_t seconds = micros / 1'000'000 % 60;
  std::string out = absl::StrFormat("%02d:%02d:%02d", hours, minutes, seconds);
  if (const uint64_t fraction = micros % 1'000'000; fraction != 0) {
    std::string digits = absl::StrFormat("%06d", fraction);
    while (digits.back() == '0') digits.pop_back();
    absl::StrAppend(&out, ".", digits);
  }
  return out;
}

std::string PrintAnalyzeTable(const std::vector<AnalyzeRow>& rows,
                              const std::vector<AnalyzeColumn>& columns) {
  std::vector<Column> header = {{"operator", false}};
  for (AnalyzeColumn c : columns) {
    if (c == AnalyzeColumn::kMemory) {
      header.push_back({"total_memory", false});
      header.push_back({"total_records", true});
    } else {
      header.push_back({"total_elapsed", false});
    }
  }
  std::vector<std::vector<Cell>> cells;
  cells.reserve(rows.size());
  for (const AnalyzeRow& row : rows) {
    std::vector<Cell> line = {Indented(row.nesting, row.op)};
    for (AnalyzeColumn c : columns) {
      if (c == AnalyzeColumn::kMemory) {
        line.push_back(MemoryCell(row.measure));
        line.push_back(RecordsCell(row.measure));
      } else {
        line.push_back(ElapsedCell(row.measure));
      }
    }
    cells.push_back(std::move(line));
  }
  return PsqlTable(header, cells);
}

nlohmann::json AnalyzeRowsJson(const std::vector<AnalyzeRow>& rows,
                               const std::vector<AnalyzeColumn>& columns) {
  nlohmann::json out = nlohmann::json::array();
  for (const AnalyzeRow& row : rows) {
    nlohmann::json j = {{"lir_id", row.lir_id},
                        {"nesting", row.nesting},
                        {"operator", Indented(row.nesting, row.op)}};
    for (AnalyzeColumn c : columns) {
      if (c == AnalyzeColumn::kMemory) {
        j["total_memory"] = OrNull(MemoryCell(row.measure));
        j["memory_bytes"] = OrNull(row.measure.memory_bytes);
        j["total_records"] = OrNull(row.measure.records);
        j["arrangements"] = row.measure.arrangements;
      } else {
        j["total_elapsed"] = OrNull(ElapsedCell(row.measure));
        j["elapsed_ns"] = OrNull(row.measure.elapsed_ns);
      }
    }
    out.push_back(std::move(j));
  }
  return out;
}

std::vector<AnalyzeCompareRow> CompareAnalyzeRows(
    const std::vector<AnalyzeRow>& off, const std::vector<AnalyzeRow>& on) {
  std::vector<AnalyzeCompareRow> rows;
  // Both lists descend by LirId: merge them, pairing a row with the other
  // side's row of the same LirId and operator.
  size_t i = 0, j = 0;
  while (i < off.size() || j < on.size()) {
    const bool take_off =
        j == on.size() || (i < off.size() && off[i].lir_id > on[j].lir_id);
    const bool take_on =
        i == off.size() || (j < on.size() && on[j].lir_id > off[i].lir_id);
    AnalyzeCompareRow row;
    if (take_off) {
      row = {off[i].lir_id, off[i].nesting, off[i].op, off[i].measure, {}};
      ++i;
    } else if (take_on) {
      row = {on[j].lir_id, on[j].nesting, on[j].op, {}, on[j].measure};
      ++j;
    } else if (off[i].op == on[j].op) {
      row = {on[j].lir_id, on[j].nesting, on[j].op, off[i].measure,
             on[j].measure};
      ++i;
      ++j;
    } else {
      // Same LirId, another operator (the rewrite replaced the node): the
      // removed one first.
      row = {off[i].lir_id, off[i].nesting, off[i].op, off[i].measure, {}};
      ++i;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string PrintAnalyzeCompareTable(
    const std::vector<AnalyzeCompareRow>& rows) {
  const std::vector<Column> header = {
      {"operator", false},         {"total_memory_off", false},
      {"total_memory_on", false},  {"memory_change", false},
      {"total_records_off", true}, {"total_records_on", true},
      {"records_change", true}};
  std::vector<std::vector<Cell>> cells;
  int64_t bytes_off = 0, bytes_on = 0, records_off = 0, records_on = 0;
  for (const AnalyzeCompareRow& row : rows) {
    std::string op = Indented(row.nesting, row.op);
    if (!row.on.has_value()) op += " (off only)";
    if (!row.off.has_value()) op += " (on only)";
    auto memory = [](const std::optional<AnalyzeMeasure>& m) -> Cell {
      return m.has_value() ? MemoryCell(*m) : std::nullopt;
    };
    auto records = [](const std::optional<AnalyzeMeasure>& m) -> Cell {
      return m.has_value() ? RecordsCell(*m) : std::nullopt;
    };
    const bool any_memory = HasMemory(row.off) || HasMemory(row.on);
    const int64_t byte_change = Bytes(row.on) - Bytes(row.off);
    const int64_t record_change = Records(row.on) - Records(row.off);
    cells.push_back(
        {op, memory(row.off), memory(row.on),
         any_memory ? Cell(PgSizePretty(byte_change)) : std::nullopt,
         records(row.off), records(row.on),
         any_memory ? Cell(absl::StrCat(record_change)) : std::nullopt});
    bytes_off += Bytes(row.off);
    bytes_on += Bytes(row.on);
    records_off += Records(row.off);
    records_on += Records(row.on);
  }
  cells.push_back({"total", PgSizePretty(bytes_off), PgSizePretty(bytes_on),
                   PgSizePretty(bytes_on - bytes_off),
                   absl::StrCat(records_off), absl::StrCat(records_on),
                   absl::StrCat(records_on - records_off)});
  return PsqlTable(header, cells);
}

nlohmann::json AnalyzeCompareJson(const std::vector<AnalyzeCompareRow>& rows) {
  nlohmann::json list = nlohmann::json::array();
  int64_t bytes_off = 0, bytes_on = 0, records_off = 0, records_on = 0;
  auto side = [](const std::optional<AnalyzeMeasure>& m) -> nlohmann::json {
    if (!m.has_value()) return nullptr;
    return {{"memory_bytes", OrNull(m->memory_bytes)},
            {"records", OrNull(m->records)},
            {"arrangements", m->arrangements}};
  };
  for (const AnalyzeCompareRow& row : rows) {
    list.push_back({{"lir_id", row.lir_id},
                    {"nesting", row.nesting},
                    {"operator", Indented(row.nesting, row.op)},
                    {"side", SideName(row)},
                    {"off", side(row.off)},
                    {"on", side(row.on)}});
    bytes_off += Bytes(row.off);
    bytes_on += Bytes(row.on);
    records_off += Records(row.off);
    records_on += Records(row.on);
  }
  return {{"rows", std::move(list)},
          {"total",
           {{"memory_bytes_off", bytes_off},
            {"memory_bytes_on", bytes_on},
            {"records_off", records_off},
            {"records_on", records_on}}}};
}

}  // namespace lir::explain
