// The corpus data generator (corpus_data.h), moved from eval_corpus_test.
#include "tests/support/corpus_data.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "lir/eval/time_values.h"
#include "lir/interp/arity.h"
#include "lir/layout.h"
#include "lir/status_macros.h"
#include "lir/validate.h"
#include "re2/re2.h"

namespace lir::test {
namespace {

namespace fs = std::filesystem;

// The bytes of `path`, or "" when it cannot be read.
std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// The tables a schema file creates (views are skipped).
void ParseSql(const std::string& commented_sql, PlanSchema* schema) {
  // Comments may mention statements (`-- was: CREATE TABLE ...`).
  std::string sql;
  for (absl::string_view line : absl::StrSplit(commented_sql, '\n')) {
    absl::StrAppend(&sql, line.substr(0, line.find("--")), "\n");
  }
  static const LazyRE2 kCreate = {
      R"((?is)create\s+(table|view)\s+("?[a-z0-9_]+"?)\s*(\(([^;]*?)\)\s*;|))"};
  re2::StringPiece input(sql);
  std::string kind, name, whole, body;
  while (RE2::FindAndConsume(&input, *kCreate, &kind, &name, &whole, &body)) {
    name = std::string(absl::StripPrefix(absl::StripSuffix(name, "\""), "\""));
    // A view the plan reads is an input like a table, but its columns are
    // not spelled out: it is shaped from the plan instead (MakeData).
    if (absl::AsciiStrToLower(kind) == "view") continue;
    Table table;
    for (absl::string_view line : absl::StrSplit(body, ',')) {
      std::vector<std::string> words = absl::StrSplit(
          absl::AsciiStrToLower(absl::StripAsciiWhitespace(line)),
          absl::ByAnyChar(" \t\n("), absl::SkipEmpty());
      if (words.size() < 2 || words[0] == "primary" || words[0] == "unique") {
        continue;
      }
      // `numeric(15, 2)` splits at its comma: the scale is not a column.
      if (std::all_of(words[0].begin(), words[0].end(), [](char c) {
            return absl::ascii_isdigit(c) || c == ')';
          })) {
        continue;
      }
      table.names.push_back(words[0]);
      table.types.push_back(words[1]);
      table.not_null.push_back(
          absl::StrContains(absl::AsciiStrToLower(line), "not null"));
    }
    if (!table.types.empty()) schema->tables[name] = std::move(table);
  }
}

std::map<std::string, PlanSchema> Schemas(const fs::path& shared) {
  std::map<std::string, PlanSchema> schemas;
  const std::string map = ReadFile(SqlDir(shared) / "MAP.tsv");
  for (absl::string_view line : absl::StrSplit(map, '\n', absl::SkipEmpty())) {
    std::vector<std::string> fields = absl::StrSplit(line, '\t');
    if (fields.size() < 4 || fields[0] == "plan") continue;
    PlanSchema schema;
    for (absl::string_view read :
         absl::StrSplit(fields[3], ", ", absl::SkipEmpty())) {
      std::vector<std::string> parts = absl::StrSplit(read, " -> ");
      if (parts.size() != 2) continue;
      schema.reads[parts[0]] = std::string(
          absl::StripPrefix(absl::StripSuffix(parts[1], "\""), "\""));
    }
    if (fields.size() > 4) {
      schema.insert_only = absl::StrContains(fields[4], "insert-only");
      schema.dates_as_strings =
          absl::StrContains(fields[4], "dates-as-strings");
    }
    const std::string sql = ReadFile(SqlDir(shared) / fields[1]);
    std::string source;
    static const LazyRE2 kSource = {
        R"((?m)^-- source: test/sqllogictest/([^:]+):)"};
    if (RE2::PartialMatch(sql, *kSource, &source)) {
      schema.slt = shared / "corpus" / "materialize-slt" /
                   absl::StrReplaceAll(source, {{"/", "__"}});
    }
    ParseSql(sql, &schema);
    schemas[fields[0]] = std::move(schema);
  }
  return schemas;
}

// Whether every column type of `table` is one Value() can draw.
bool Drawable(const Table& table);

// For plans without a MAP.tsv entry: the tables created in the plan's .slt
// file before the EXPLAIN (the last definition of a name wins), read as
// `materialize.public.<name>`. Tables with a type Value() cannot draw are
// left out (the plan is then shaped from its arities, as before).
void AddSltSchemas(const fs::path& shared,
                   std::map<std::string, PlanSchema>& schemas) {
  const fs::path index = shared / "corpus" / "materialize" / "INDEX.tsv";
  std::error_code ec;
  if (!fs::exists(index, ec)) return;
  for (absl::string_view line :
       absl::StrSplit(ReadFile(index), '\n', absl::SkipEmpty())) {
    std::vector<std::string> fields = absl::StrSplit(line, '\t');
    if (fields.size() < 3 || fields[0] == "file" ||
        schemas.count(fields[0]) > 0) {
      continue;
    }
    std::string slt(absl::StripPrefix(fields[1], "test/sqllogictest/"));
    absl::StrReplaceAll({{"/", "__"}}, &slt);
    const fs::path path = shared / "corpus" / "materialize-slt" / slt;
    int until = 0;
    if (!fs::exists(path, ec) || !absl::SimpleAtoi(fields[2], &until)) continue;
    // slt statements end at a blank line, not always with `;`: give each
    // one a `;` so that ParseSql sees where it ends.
    std::string sql;
    int number = 0;
    for (absl::string_view text : absl::StrSplit(ReadFile(path), '\n')) {
      if (++number >= until) break;
      absl::StrAppend(
          &sql, absl::StripAsciiWhitespace(text).empty() ? ";" : text, "\n");
    }
    PlanSchema schema;
    ParseSql(sql, &schema);
    for (auto it = schema.tables.begin(); it != schema.tables.end();) {
      if (!Drawable(it->second)) {
        it = schema.tables.erase(it);
        continue;
      }
      schema.reads[absl::StrCat("materialize.public.", it->first)] = it->first;
      ++it;
    }
    if (!schema.tables.empty()) schemas[fields[0]] = std::move(schema);
  }
}

// The globals a document reads that none of its objects defines.
std::set<std::string> Inputs(const Document& doc) {
  std::set<std::string> objects, reads;
  for (const Object& object : doc.objects) {
    objects.insert(object.name);
    if (object.fast_path.has_value() &&
        object.fast_path->kind != FastPath::Kind::kConstant) {
      reads.insert(object.fast_path->collection);
    }
    if (object.plan == nullptr) continue;
    ForEachPostOrder(*object.plan, [&](const Node& node) {
      if (node.Is<GetOp>() && !node.As<GetOp>().id.is_local) {
        reads.insert(node.As<GetOp>().id.global);
      }
    });
  }
  std::set<std::string> inputs;
  for (const std::string& name : reads) {
    if (objects.count(name) == 0) inputs.insert(name);
  }
  return inputs;
}

// The fewest input columns `mfp` can read: its expressions' columns (a map
// expression may read the maps before it) and projected columns exist.
int NeededInputArity(const MapFilterProject& mfp) {
  const int maps = static_cast<int>(mfp.map.size());
  int needed = 0;
  for (int i = 0; i < maps; ++i) {
    needed = std::max(needed, MaxColumn(mfp.map[i]) + 1 - i);
  }
  for (const ScalarExpr& filter : mfp.filter) {
    needed = std::max(needed, MaxColumn(filter) + 1 - maps);
  }
  if (mfp.project.has_value()) {
    for (int column : *mfp.project)
      needed = std::max(needed, column + 1 - maps);
  }
  return needed;
}

// The Source block of `global` in `doc`, or null.
const SourceBlock* SourceOf(const Document& doc, const std::string& global) {
  const SourceBlock* source = nullptr;
  for (const SourceBlock& block : doc.sources) {
    if (block.name == global) source = &block;
  }
  return source;
}

// The fewest columns of its collection's row that `get` names: the columns
// of the forms it advertises (keys, thinnings, permutations), and those its
// MFP reads. An arranged read's MFP is written over the layout row of the
// form it reads (../shared/reference/SEMANTICS.md 8.2, 8.3): layout position p
// holds the row's column ColumnAtLayoutPosition(key, form, p), so reading
// position p needs that column, not column p.
int GetReadArity(const GetOp& get) {
  int needed = 0;
  auto need = [&](int columns) { needed = std::max(needed, columns); };
  for (const ArrangementForm& form : get.keys.arranged) {
    for (const ScalarExpr& key : form.key) need(MaxColumn(key) + 1);
    for (int column : form.thinning) need(column + 1);
    for (const auto& [column, position] : form.permutation) need(column + 1);
  }
  switch (get.kind) {
    case GetKind::kArrangement: {
      for (const ScalarExpr& key : get.key) need(MaxColumn(key) + 1);
      const ArrangementForm* form = get.keys.FindByKey(get.key);
      const int positions = NeededInputArity(get.mfp);
      for (int position = 0; position < positions; ++position) {
        need(ColumnAtLayoutPosition(get.key, form, position) + 1);
      }
      break;
    }
    case GetKind::kCollection:
    case GetKind::kPassArrangements: need(NeededInputArity(get.mfp)); break;
  }
  return needed;
}

// For a collection nothing else shapes (no schema, no arity its
// arrangements reveal): the fewest columns the plan's reads of `global`
// name. Its Source block's MFP reads the collection itself; a Get reads the
// Source block's output when there is one, which constrains the collection
// only when that block does not project (its output is then the
// collection's columns). Reads above the Get (a parent's column
// references) are left to SmallestValidArity, which starts from this.
int DerivedArity(const Document& doc, const std::string& global) {
  const SourceBlock* source = SourceOf(doc, global);
  int needed = source != nullptr ? NeededInputArity(source->mfp) : 0;
  const bool source_projects =
      source != nullptr && source->mfp.project.has_value();
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    ForEachPostOrder(*object.plan, [&](const Node& node) {
      if (!node.Is<GetOp>() || node.As<GetOp>().id.is_local ||
          node.As<GetOp>().id.global != global || source_projects) {
        return;
      }
      needed = std::max(needed, GetReadArity(node.As<GetOp>()));
    });
  }
  return needed;
}

// The fewest columns, from `first` up to 12 more, with which every object
// of `doc` validates when `global` has that many (after its Source block,
// if any, which must be able to read them); nullopt when none does.
std::optional<int> SmallestValidArity(const Document& doc,
                                      const std::string& global, int first) {
  const SourceBlock* source = SourceOf(doc, global);
  if (source != nullptr) first = std::max(first, NeededInputArity(source->mfp));
  for (int arity = first; arity <= first + 12; ++arity) {
    ValidateOptions options;
    options.global_arity[global] =
        source != nullptr ? source->mfp.OutputArity(arity) : arity;
    bool valid = true;
    for (const Object& object : doc.objects) {
      if (object.plan != nullptr && !Validate(*object.plan, options).ok()) {
        valid = false;
      }
    }
    if (valid) return arity;
  }
  return std::nullopt;
}

// Collects into `out` the columns c that `e` adds an interval literal to
// (`#c + 45 days`): a timestamp column, as in temporal filters.
void IntervalShifted(const ScalarExpr& e, std::map<int, int64_t>* out) {
  if (e.kind == ScalarKind::kCall && e.style == CallStyle::kInfix &&
      e.func == "+" && e.args.size() == 2 && e.args[0].IsColumn() &&
      e.args[1].kind == ScalarKind::kLiteral &&
      e.args[1].literal.kind == LiteralKind::kInterval) {
    absl::StatusOr<eval::Interval> interval =
        eval::ParseInterval(e.args[1].literal.text);
    if (interval.ok() && interval->months == 0) {
      const int64_t micros =
          interval->days * int64_t{86400000000} + interval->micros;
      auto [it, fresh] = out->emplace(e.args[0].column, micros);
      if (!fresh) it->second = std::min(it->second, micros);
    }
  }
  for (const ScalarExpr& arg : e.args) IntervalShifted(arg, out);
}

void IntervalShifted(const MapFilterProject& mfp, std::map<int, int64_t>* out) {
  for (const ScalarExpr& e : mfp.filter) IntervalShifted(e, out);
  if (mfp.temporal.has_value()) {
    for (const ScalarExpr& e : mfp.temporal->lower) IntervalShifted(e, out);
    for (const ScalarExpr& e : mfp.temporal->upper) IntervalShifted(e, out);
  }
}

// The columns of `global` that its Source block or a Get of it shifts by an
// interval in a filter (temporal bounds `timestamp_to_mz_timestamp((#1 + 45
// days))`): timestamp columns of a plan without a schema. Each maps to the
// smallest interval (in microseconds) any Source, Get or Mfp of the document
// adds to a column, so that the tightest bound (`#1{m} + 1 day` over a
// Reduce's max in temporal_bucketing-L93) falls in the first rounds and no
// bound is before the epoch.
std::map<int, int64_t> TimestampColumns(const Document& doc,
                                        const std::string& global) {
  std::map<int, int64_t> columns, everywhere;
  for (const SourceBlock& block : doc.sources) {
    IntervalShifted(block.mfp, &everywhere);
    if (block.name == global) IntervalShifted(block.mfp, &columns);
  }
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    ForEachPostOrder(*object.plan, [&](const Node& node) {
      if (node.Is<MfpOp>()) IntervalShifted(node.As<MfpOp>().mfp, &everywhere);
      if (!node.Is<GetOp>()) return;
      IntervalShifted(node.As<GetOp>().mfp, &everywhere);
      if (!node.As<GetOp>().id.is_local &&
          node.As<GetOp>().id.global == global) {
        IntervalShifted(node.As<GetOp>().mfp, &columns);
      }
    });
  }
  int64_t smallest = 0;
  for (const auto& [column, shift] : everywhere) {
    if (smallest == 0 || shift < smallest) smallest = shift;
  }
  for (auto& [column, shift] : columns) shift = smallest;
  return columns;
}

// Draws one value of a column type; nullopt for types the evaluator lacks.
std::optional<eval::Datum> Value(const std::string& type, bool dates_as_strings,
                                 std::mt19937_64& rng) {
  if (absl::StartsWith(type, "timestamp")) {
    // `timestamp:<micros>`: 0 to 5 milliseconds after the epoch minus
    // <micros> (the interval a temporal filter adds), so that the bound
    // `timestamp_to_mz_timestamp(#c + interval)` is round 0 to 5 and rows
    // expire within and just after the data's rounds.
    int64_t shift = 0;
    const size_t colon = type.find(':');
    if (colon != std::string::npos &&
        !absl::SimpleAtoi(type.substr(colon + 1), &shift)) {
      return std::nullopt;
    }
    return eval::Datum::Time(
        eval::Timestamp{static_cast<int64_t>(rng() % 6) * 1000 - shift});
  }
  const int n = static_cast<int>(rng() % 4);
  if (absl::StartsWith(type, "int") || absl::StartsWith(type, "bigint") ||
      absl::StartsWith(type, "smallint")) {
    return eval::Datum::Int(n);
  }
  if (absl::StartsWith(type, "text") || absl::StartsWith(type, "varchar") ||
      absl::StartsWith(type, "char")) {
    return eval::Datum::String(std::string(1, static_cast<char>('a' + n)));
  }
  if (absl::StartsWith(type, "bool")) return eval::Datum::Bool(n % 2 == 0);
  // `decimal` is Materialize's (and PostgreSQL's) other name of numeric.
  if (absl::StartsWith(type, "numeric") || absl::StartsWith(type, "decimal") ||
      absl::StartsWith(type, "double") || absl::StartsWith(type, "float") ||
      absl::StartsWith(type, "real")) {
    return eval::Datum::Float(n * 0.5);
  }
  if (type == "date" && dates_as_strings) {
    return eval::Datum::String(absl::StrCat("1995-0", 1 + n, "-15"));
  }
  if (type == "date") {
    // A week apart from 1997-06-29: github-2746-L45 compares with the
    // literal 1997-07-06 and with another date column minus 7 days, so both
    // comparisons hold for some rows.
    static const int32_t kFirst = eval::ParseDate("1997-06-29").value().days;
    return eval::Datum::Day(eval::Date{kFirst + 7 * n});
  }
  return std::nullopt;
}

bool Drawable(const Table& table) {
  std::mt19937_64 rng(0);
  for (const std::string& type : table.types) {
    if (!Value(type, false, rng).has_value()) return false;
  }
  return true;
}

// Declares the index every fast-path index read of `doc` names, with the key
// of its `CREATE INDEX <index> ON <table>(<columns>)` in the plan's .slt
// file; Unimplemented when that cannot be found.
absl::Status DeclareFastPathIndexes(const Document& doc,
                                    const PlanSchema* schema,
                                    eval::InputData* data) {
  for (const Object& object : doc.objects) {
    if (!object.fast_path.has_value() ||
        object.fast_path->kind != FastPath::Kind::kReadIndex) {
      continue;
    }
    const FastPath& read = *object.fast_path;
    const absl::Status unknown =
        absl::UnimplementedError("a fast-path index whose key is unknown");
    if (schema == nullptr || schema->slt.empty()) return unknown;
    std::string table_name, columns;
    const RE2 create(absl::StrCat(R"((?i)create\s+index\s+)",
                                  RE2::QuoteMeta(read.index),
                                  R"re(\s+on\s+"?(\w+)"?\s*\(([^)]*)\))re"));
    if (!RE2::PartialMatch(ReadFile(schema->slt), create, &table_name,
                           &columns)) {
      return unknown;
    }
    auto reads = schema->reads.find(read.collection);
    if (reads == schema->reads.end() ||
        absl::AsciiStrToLower(table_name) !=
            absl::AsciiStrToLower(reads->second) ||
        schema->tables.count(reads->second) == 0) {
      return unknown;
    }
    const Table& table = schema->tables.at(reads->second);
    eval::InputIndex index;
    index.on = read.collection;
    for (absl::string_view column : absl::StrSplit(columns, ',')) {
      const std::string name =
          absl::AsciiStrToLower(absl::StripAsciiWhitespace(column));
      auto it = std::find(table.names.begin(), table.names.end(), name);
      if (it == table.names.end()) return unknown;
      index.key.push_back(static_cast<int>(it - table.names.begin()));
    }
    // Declarations are by qualified name, in the schema of the collection.
    const size_t dot = read.collection.rfind('.');
    const std::string prefix =
        dot == std::string::npos ? "" : read.collection.substr(0, dot + 1);
    data->indexes[prefix + read.index] = std::move(index);
  }
  return absl::OkStatus();
}

}  // namespace

fs::path SqlDir(const fs::path& shared) {
  return shared / "corpus" / "materialize-sql";
}

std::map<std::string, PlanSchema> LoadSchemas(const fs::path& shared) {
  std::map<std::string, PlanSchema> schemas = Schemas(shared);
  AddSltSchemas(shared, schemas);
  return schemas;
}

// Data for one plan's inputs over three rounds, or why there can be none.
// Appends to `derived` a line for each collection whose arity was derived
// from the plan's reads (not known from a schema or an arrangement).
absl::StatusOr<eval::InputData> MakeData(
    const std::string& plan_name, const Document& doc,
    const std::map<std::string, PlanSchema>& schemas,
    std::vector<std::string>* derived) {
  std::mt19937_64 rng(std::hash<std::string>()(plan_name));
  const PlanSchema* schema =
      schemas.count(plan_name) > 0 ? &schemas.at(plan_name) : nullptr;
  interp::RevealedArities revealed;
  for (const Object& object : doc.objects) {
    if (object.plan != nullptr)
      interp::CollectRevealedArities(*object.plan, &revealed);
  }
  eval::InputData data;
  for (const std::string& global : Inputs(doc)) {
    Table table;
    if (schema != nullptr && schema->reads.count(global) > 0) {
      const std::string& name = schema->reads.at(global);
      if (schema->tables.count(name) > 0) {
        table = schema->tables.at(name);
      }
    }
    if (table.types.empty()) {
      // No table schema (a view the plan reads as an input, or no SQL at
      // all): integers, as many as the plan's arrangements reveal, or else
      // a derived arity: the fewest columns with which the plan validates,
      // at least as many as its reads of the collection name. The
      // collection may really have more columns; the plan cannot tell them
      // apart, as it never reads them.
      auto it = revealed.globals.find(global);
      std::optional<int> arity;
      if (it != revealed.globals.end() && it->second.known()) {
        arity = it->second.value;
      } else {
        const int reads = DerivedArity(doc, global);
        arity = SmallestValidArity(doc, global, reads);
        if (arity.has_value()) {
          derived->push_back(absl::StrCat(plan_name, ": ", global, " arity ",
                                          *arity, " (its reads name ", reads,
                                          " columns)"));
        }
      }
      if (!arity.has_value()) {
        return absl::UnimplementedError("a collection of unknown arity");
      }
      table.types.assign(*arity, "int");
      table.not_null.assign(*arity, false);
      for (const auto& [column, shift] : TimestampColumns(doc, global)) {
        if (column < *arity)
          table.types[column] = absl::StrCat("timestamp:", shift);
      }
    }
    const bool dates = schema != nullptr && schema->dates_as_strings;
    const bool insert_only = schema != nullptr && schema->insert_only;
    eval::InputCollection collection;
    collection.arity = static_cast<int>(table.types.size());
    for (uint64_t round = 0; round < 3; ++round) {
      const int inserts = round == 0 ? 8 : 3;
      for (int i = 0; i < inserts; ++i) {
        eval::DataRow row;
        for (size_t c = 0; c < table.types.size(); ++c) {
          std::optional<eval::Datum> value = Value(table.types[c], dates, rng);
          if (!value.has_value()) {
            return absl::UnimplementedError(
                absl::StrCat("column type ", table.types[c]));
          }
          if (!table.not_null[c] && rng() % 10 == 0)
            value = eval::Datum::Null();
          row.push_back(*value);
        }
        collection.updates.push_back({row, round, 1});
      }
      // Retract two rows still present (insert-only plans only grow).
      if (round > 0 && !insert_only) {
        for (int i = 0; i < 2; ++i) {
          const eval::DataRow row = collection.updates[rng() % 8].row;
          int64_t count = 0;
          for (const eval::InputUpdate& update : collection.updates) {
            if (update.row == row) count += update.diff;
          }
          if (count > 0) collection.updates.push_back({row, round, -1});
        }
      }
    }
    data.collections[global] = std::move(collection);
  }
  LIR_RETURN_IF_ERROR(DeclareFastPathIndexes(doc, schema, &data));
  return data;
}

}  // namespace lir::test
