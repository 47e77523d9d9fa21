// Reading one update of the evaluator's input data files (the file as a
// whole: data_read.cc), writing data back, and the data's agreement with a
// catalog (src/interp/catalog_read.cc reads catalogs).
#include "lir/eval/data.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "lir/explain/json.h"
#include "lir/status_macros.h"
#include "nlohmann/json.hpp"
#include "src/eval/data_internal.h"
#include "src/eval/values/bytea.h"
#include "src/explain/json_locate.h"

namespace lir::eval {

using namespace data_internal;  // NOLINT: this file's own helpers

std::string data_internal::OutOfIntegerRange(std::string_view integer) {
  return absl::StrCat("integer ", std::string(integer),
                      " is outside the 64-bit integer range (",
                      std::numeric_limits<int64_t>::min(), " to ",
                      std::numeric_limits<int64_t>::max(),
                      "); a float needs a fraction or an exponent (1.0e20)");
}

namespace {

// Lists and arrays nest at most this deep in a data file (the reader is
// recursive).
constexpr int kMaxNesting = 1000;

// `{"list": [...]}` / `{"array": [...]}`: a nested datum. A plain JSON array
// cannot be one: a row is already a JSON array of datums.
absl::StatusOr<Datum> ReadNested(const json& value, int depth);

absl::StatusOr<Datum> ReadDatum(const json& value, int depth = 0) {
  switch (value.type()) {
    case json::value_t::null: return Datum::Null();
    case json::value_t::boolean: return Datum::Bool(value.get<bool>());
    case json::value_t::number_integer: return Datum::Int(value.get<int64_t>());
    case json::value_t::number_unsigned: {
      const uint64_t u = value.get<uint64_t>();
      if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return absl::InvalidArgumentError(OutOfIntegerRange(absl::StrCat(u)));
      }
      return Datum::Int(static_cast<int64_t>(u));
    }
    case json::value_t::number_float: return Datum::Float(value.get<double>());
    case json::value_t::string: return Datum::String(value.get<std::string>());
    case json::value_t::object: return ReadNested(value, depth);
    default:
      return absl::InvalidArgumentError(absl::StrCat(
          "expected null, a boolean, an integer, a number, a string, "
          "{\"list\": [...]}, {\"array\": [...]}, {\"timestamp\": ...}, "
          "{\"interval\": ...}, {\"bytea\": ...}, {\"date\": ...} or "
          "{\"float\": ...}, got ",
          TypeName(value)));
  }
}

// `{"float": "NaN"}`, `{"float": "Infinity"}`, `{"float": "-Infinity"}`:
// the floats JSON has no number for, spelled as PostgreSQL prints them.
// Tagged, as a plain string is a string and null is NULL.
absl::StatusOr<Datum> ReadNonFiniteFloat(const std::string& text) {
  if (text == "NaN") {
    return Datum::Float(std::numeric_limits<double>::quiet_NaN());
  }
  if (text == "Infinity") {
    return Datum::Float(std::numeric_limits<double>::infinity());
  }
  if (text == "-Infinity") {
    return Datum::Float(-std::numeric_limits<double>::infinity());
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "expected {\"float\": \"NaN\"}, {\"float\": \"Infinity\"} or "
      "{\"float\": \"-Infinity\"} (finite floats are JSON numbers), got ",
      explain::DumpJson(json(text))));
}

absl::StatusOr<Datum> ReadNested(const json& value, int depth) {
  // `{"timestamp": "2024-01-01 00:00:00"}`, `{"interval": "45 days"}`: the
  // text EXPLAIN prints for such literals; `{"bytea": "\\x0a1b"}` (the
  // bytes 0a 1b; JSON doubles the backslash): bytea input text as
  // `'...'::bytea` reads it (bytea.h, ParseBytea); `{"date": "1997-07-06"}`.
  for (const char* kind : {"timestamp", "interval", "bytea", "date", "float"}) {
    if (value.size() != 1 || !value.contains(kind)) continue;
    const json& text = value.begin().value();
    if (!text.is_string()) {
      return absl::InvalidArgumentError(
          absl::StrCat("expected {\"", kind, "\": \"...\"}"));
    }
    if (kind[0] == 'f') return ReadNonFiniteFloat(text.get<std::string>());
    if (kind[0] == 't') {
      LIR_ASSIGN_OR_RETURN(Timestamp ts,
                           ParseTimestamp(text.get<std::string>()));
      return Datum::Time(ts);
    }
    if (kind[0] == 'd') {
      LIR_ASSIGN_OR_RETURN(Date date, ParseDate(text.get<std::string>()));
      return Datum::Day(date);
    }
    if (kind[0] == 'b') {
      LIR_ASSIGN_OR_RETURN(std::string bytes,
                           ParseBytea(text.get<std::string>()));
      return Datum::Bytea(std::move(bytes));
    }
    LIR_ASSIGN_OR_RETURN(Interval iv, ParseInterval(text.get<std::string>()));
    return Datum::Span(iv);
  }
  const bool is_list = value.size() == 1 && value.contains("list");
  const bool is_array = value.size() == 1 && value.contains("array");
  if ((!is_list && !is_array) || !value.begin().value().is_array()) {
    return absl::InvalidArgumentError(
        "expected an object {\"list\": [...]}, {\"array\": [...]}, "
        "{\"timestamp\": \"...\"}, {\"interval\": \"...\"}, "
        "{\"bytea\": \"...\"}, {\"date\": \"...\"} or "
        "{\"float\": \"...\"}");
  }
  if (depth >= kMaxNesting) {
    return absl::InvalidArgumentError(
        absl::StrCat("lists and arrays nest deeper than ", kMaxNesting));
  }
  const json& items = value.begin().value();
  std::vector<Datum> elements;
  elements.reserve(items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    absl::StatusOr<Datum> element = ReadDatum(items[i], depth + 1);
    if (!element.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(is_list ? "list" : "array", " element ", i, ": ",
                       element.status().message()));
    }
    elements.push_back(*std::move(element));
  }
  return is_list ? Datum::List(std::move(elements))
                 : Datum::Array(std::move(elements));
}

}  // namespace

namespace data_internal {

// Every row's diffs must sum within 64 bits in each round and accumulated
// over the rounds, as the engines add them (a multiplicity past the range
// is an error there, with no location in the file): the error names the
// last update, in file order, of the round where the sum leaves the range.
absl::Status CheckDiffSums(const InputCollection& collection, const Path& path,
                           const std::string& where, const DataErrors& errors) {
  const std::vector<InputUpdate>& updates = collection.updates;
  std::vector<size_t> order(updates.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (updates[a].row != updates[b].row)
      return updates[a].row < updates[b].row;
    if (updates[a].round != updates[b].round) {
      return updates[a].round < updates[b].round;
    }
    return a < b;
  });
  constexpr __int128 kMin = std::numeric_limits<int64_t>::min();
  constexpr __int128 kMax = std::numeric_limits<int64_t>::max();
  __int128 total = 0;  // the row's multiplicity so far
  for (size_t k = 0; k < order.size();) {
    const InputUpdate& first = updates[order[k]];
    if (k > 0 && updates[order[k - 1]].row != first.row) total = 0;
    __int128 round_sum = 0;
    size_t end = k;
    for (; end < order.size() && updates[order[end]].row == first.row &&
           updates[order[end]].round == first.round;
         ++end) {
      round_sum += updates[order[end]].diff;
    }
    total += round_sum;
    if (round_sum < kMin || round_sum > kMax || total < kMin || total > kMax) {
      const size_t last = order[end - 1];
      Path at = path;
      at.push_back(last);
      const bool in_round = round_sum < kMin || round_sum > kMax;
      return errors.At(at, absl::StrCat(where, "[", last, "]"),
                       absl::StrCat("the diffs of row ", FormatRow(first.row),
                                    in_round ? " in round " : " up to round ",
                                    first.round, " sum past the 64-bit range"));
    }
    k = end;
  }
  return absl::OkStatus();
}

absl::Status ReadUpdate(const json& update, const Path& path,
                        const std::string& at, const DataErrors& errors,
                        int arity, InputUpdate* out) {
  auto part = [&](size_t index) {
    Path p = path;
    p.push_back(index);
    return p;
  };
  if (!update.is_array() || update.size() != 3) {
    return errors.At(path, at, "expected [row, round, diff]");
  }
  if (!update[0].is_array()) {
    return errors.At(part(0), at,
                     absl::StrCat("expected the row as an array, got ",
                                  TypeName(update[0])));
  }
  if (static_cast<int>(update[0].size()) != arity) {
    return errors.At(
        part(0), at,
        absl::StrCat("the row has ", update[0].size(),
                     " values, the collection's arity is ", arity));
  }
  out->row.reserve(update[0].size());
  for (size_t c = 0; c < update[0].size(); ++c) {
    absl::StatusOr<Datum> datum = ReadDatum(update[0][c]);
    if (!datum.ok()) {
      Path value_path = part(0);
      value_path.push_back(c);
      return errors.At(value_path, absl::StrCat(at, " value ", c),
                       std::string(datum.status().message()));
    }
    out->row.push_back(*std::move(datum));
  }
  const std::optional<int64_t> round = ReadInteger(update[1]);
  if (!round.has_value() || *round < 0 ||
      static_cast<uint64_t>(*round) > kMaxDataRound) {
    return errors.At(
        part(1), at,
        absl::StrCat("the round must be an integer from 0 to ", kMaxDataRound,
                     " (2^53 - 1), got ", explain::DumpJson(update[1])));
  }
  out->round = static_cast<uint64_t>(*round);
  const std::optional<int64_t> diff = ReadInteger(update[2]);
  if (!diff.has_value() || *diff == 0) {
    return errors.At(part(2), at,
                     absl::StrCat("the diff must be a non-zero 64-bit "
                                  "integer, got ",
                                  explain::DumpJson(update[2])));
  }
  out->diff = *diff;
  return absl::OkStatus();
}

}  // namespace data_internal

nlohmann::json DatumToJson(const Datum& datum) {
  switch (datum.value.index()) {
    case 1: return datum.as_bool();
    case 2: return datum.as_int();
    case 3: {
      // JSON has no number for these (nlohmann would write null, which
      // reads back as NULL): tagged, in PostgreSQL's spelling.
      const double d = datum.as_float();
      if (std::isnan(d)) return json{{"float", "NaN"}};
      if (std::isinf(d))
        return json{{"float", d > 0 ? "Infinity" : "-Infinity"}};
      return d;
    }
    case 4: return datum.as_string();
    case 5: {
      json elements = json::array();
      for (const Datum& element : datum.elements()) {
        elements.push_back(DatumToJson(element));
      }
      return json{{datum.is_array() ? "array" : "list", std::move(elements)}};
    }
    case 6: return json{{"timestamp", FormatTimestamp(datum.as_timestamp())}};
    case 7: return json{{"interval", FormatInterval(datum.as_interval())}};
    case 8: return json{{"bytea", FormatBytea(datum.as_bytea())}};
    case 9: return json{{"date", FormatDate(datum.as_date())}};
    default: return nullptr;
  }
}

uint64_t InputData::LastRound() const {
  uint64_t last = 0;
  for (const auto& [name, collection] : collections) {
    for (const InputUpdate& update : collection.updates) {
      last = std::max(last, update.round);
    }
  }
  return last;
}

absl::Status CheckCatalogAgainstData(const interp::Catalog& catalog,
                                     InputData* data) {
  for (const auto& [name, collection] : catalog.collections) {
    auto held = data->collections.find(name);
    if (held == data->collections.end() || !collection.arity.has_value() ||
        *collection.arity == held->second.arity) {
      continue;
    }
    return absl::InvalidArgumentError(absl::StrCat(
        collection.location.empty() ? catalog.name : collection.location,
        ": collections[\"", name, "\"]: the catalog gives arity ",
        *collection.arity, ", the data file ", held->second.arity));
  }
  return AddIndexes(catalog.indexes, catalog.name, data);
}

absl::Status AddIndexes(const std::map<std::string, InputIndex>& indexes,
                        std::string_view source, InputData* data) {
  for (const auto& [name, index] : indexes) {
    // A catalog may describe collections this run has no data for; for the
    // others the key must fit the data's arity.
    auto collection = data->collections.find(index.on);
    if (collection != data->collections.end()) {
      for (int c : index.key) {
        if (c >= collection->second.arity) {
          return absl::InvalidArgumentError(absl::StrCat(
              std::string(source), ": index \"", name, "\" names column ", c,
              " of \"", index.on, "\", which has ", collection->second.arity,
              " columns in the data"));
        }
      }
    }
    auto [it, added] = data->indexes.emplace(name, index);
    if (!added && (it->second.on != index.on || it->second.key != index.key)) {
      return absl::InvalidArgumentError(
          absl::StrCat(std::string(source), ": index \"", name,
                       "\" is declared differently by the data file"));
    }
  }
  return absl::OkStatus();
}

std::string InputDataToJson(const InputData& data) {
  json collections = json::object();
  for (const auto& [name, collection] : data.collections) {
    json updates = json::array();
    for (const InputUpdate& update : collection.updates) {
      json row = json::array();
      for (const Datum& datum : update.row) row.push_back(DatumToJson(datum));
      updates.push_back(
          json::array({std::move(row), update.round, update.diff}));
    }
    collections[name] = {{"arity", collection.arity},
                         {"updates", std::move(updates)}};
  }
  json out = {{"collections", std::move(collections)}};
  if (!data.indexes.empty()) {
    json indexes = json::object();
    for (const auto& [name, index] : data.indexes) {
      indexes[name] = {{"on", index.on}, {"key", index.key}};
    }
    out["indexes"] = std::move(indexes);
  }
  return explain::DumpJson(out) + "\n";
}

}  // namespace lir::eval
