#include "fuzz/fuzz_cases.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "lir/eval/data.h"
#include "lir/eval/run.h"
#include "lir/explain/text.h"
#include "lir/node.h"
#include "lir/validate.h"

namespace lir::fuzz {
namespace {

namespace fs = std::filesystem;

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

bool IsBlank(const std::string& line) {
  return line.find_first_not_of(' ') == std::string::npos;
}

// The case inputs of one golden file; the expected outputs are skipped the
// way tests/golden_test.cc reads them (up to a blank line, or between
// doubled `----` separators).
void AppendInputs(const fs::path& path, const std::string& origin,
                  std::vector<GoldenInput>* out) {
  std::vector<std::string> lines = absl::StrSplit(ReadFile(path), '\n');
  size_t i = 0;
  while (i < lines.size()) {
    if (IsBlank(lines[i]) || lines[i][0] == '#') {
      ++i;
      continue;
    }
    GoldenInput input;
    input.origin = absl::StrCat(origin, ":", i + 1);
    input.command =
        std::string(absl::string_view(lines[i]).substr(0, lines[i].find(' ')));
    ++i;
    while (i < lines.size() && lines[i] != "----") {
      absl::StrAppend(&input.input, lines[i], "\n");
      ++i;
    }
    ++i;
    if (i < lines.size() && lines[i] == "----") {
      ++i;
      while (i + 1 < lines.size() &&
             !(lines[i] == "----" && lines[i + 1] == "----")) {
        ++i;
      }
      i += 2;
    } else {
      while (i < lines.size() && !IsBlank(lines[i])) ++i;
    }
    out->push_back(std::move(input));
  }
}

std::vector<fs::path> SortedFiles(const fs::path& dir,
                                  absl::string_view suffix) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file() &&
        absl::EndsWith(it->path().filename().string(), suffix)) {
      files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Values a fuzzer may put in an integer column besides the seed's own:
// small ones, and the int64 boundaries that make sums overflow and
// comparisons flip. Not the boundaries when the plan has a FlatMap: a
// generate_series over them produces rows without end (bounding that is the
// evaluator's budget, not what this target is after).
void AddIntegerNeighbours(bool boundaries,
                          std::vector<nlohmann::json>* values) {
  bool any_integer = false;
  for (const nlohmann::json& v : *values) {
    any_integer = any_integer || v.is_number_integer();
  }
  if (!any_integer) return;
  for (int64_t extra : {int64_t{-1}, int64_t{0}, int64_t{1}, int64_t{2}}) {
    values->push_back(extra);
  }
  if (boundaries) {
    values->push_back(std::numeric_limits<int64_t>::max());
    values->push_back(std::numeric_limits<int64_t>::min());
  }
}

bool HasFlatMap(const Document& doc) {
  bool found = false;
  for (const Object& object : doc.objects) {
    if (object.plan == nullptr) continue;
    ForEachPostOrder(*object.plan, [&](const Node& node) {
      found = found || node.kind() == NodeKind::kFlatMap;
    });
  }
  return found;
}

// Builds a RunPlan from a plan text and its data; nullopt when the pair
// does not parse, validate or run with both engines (an error case).
std::optional<RunPlan> MakeRunPlan(const std::string& origin,
                                   const std::string& plan_text,
                                   const std::string& data_text) {
  absl::StatusOr<Document> doc = explain::ParseText(plan_text);
  if (!doc.ok() || !Validate(*doc).ok()) return std::nullopt;
  absl::StatusOr<eval::InputData> data =
      eval::ParseInputData(data_text, origin);
  if (!data.ok()) return std::nullopt;
  for (eval::Engine engine :
       {eval::Engine::kIncremental, eval::Engine::kSnapshot}) {
    eval::RunOptions options;
    options.engine = engine;
    absl::StatusOr<eval::RunResult> run =
        eval::RunDocument(*doc, *data, options);
    if (!run.ok() || run->error.has_value()) return std::nullopt;
  }
  nlohmann::json root = nlohmann::json::parse(data_text);
  RunPlan plan;
  plan.origin = origin;
  plan.doc = *std::move(doc);
  const bool boundaries = !HasFlatMap(plan.doc);
  if (root.contains("indexes")) plan.indexes = root["indexes"];
  for (const auto& [name, collection] : root["collections"].items()) {
    RunCollection c;
    c.name = name;
    c.arity = collection["arity"].get<int>();
    c.column_values.resize(c.arity);
    for (const nlohmann::json& update : collection["updates"]) {
      const nlohmann::json& row = update[0];
      for (int col = 0; col < c.arity && col < static_cast<int>(row.size());
           ++col) {
        std::vector<nlohmann::json>& values = c.column_values[col];
        if (std::find(values.begin(), values.end(), row[col]) == values.end()) {
          values.push_back(row[col]);
        }
      }
    }
    for (std::vector<nlohmann::json>& values : c.column_values) {
      if (values.empty()) values = {nullptr, 0, 1, "a"};
      AddIntegerNeighbours(boundaries, &values);
    }
    plan.collections.push_back(std::move(c));
  }
  return plan;
}

}  // namespace

fs::path SourceDir() {
  if (const char* dir = std::getenv("LIR_SOURCE_DIR"); dir && *dir) {
    return dir;
  }
  return LIR_SOURCE_DIR;
}

std::vector<GoldenInput> ReadGoldenInputs() {
  std::vector<GoldenInput> inputs;
  const fs::path root = SourceDir();
  for (const fs::path& path : SortedFiles(root / "testdata", ".txt")) {
    AppendInputs(path, fs::relative(path, root).string(), &inputs);
  }
  return inputs;
}

std::vector<std::string> ReadExamplePlans() {
  std::vector<std::string> plans;
  for (const fs::path& path : SortedFiles(SourceDir() / "examples", ".plan")) {
    plans.push_back(ReadFile(path));
  }
  return plans;
}

std::vector<RunPlan> LoadRunPlans() {
  std::vector<RunPlan> plans;
  const fs::path root = SourceDir();
  for (const fs::path& path : SortedFiles(root / "examples", ".plan")) {
    fs::path data = path;
    data.replace_extension(".data.json");
    std::optional<RunPlan> plan = MakeRunPlan(fs::relative(path, root).string(),
                                              ReadFile(path), ReadFile(data));
    if (plan.has_value()) plans.push_back(*std::move(plan));
  }
  for (const GoldenInput& input : ReadGoldenInputs()) {
    if (input.command != "run") continue;
    const size_t split = input.input.find("\n====\n");
    if (split == std::string::npos) continue;
    std::optional<RunPlan> plan =
        MakeRunPlan(input.origin, input.input.substr(0, split + 1),
                    input.input.substr(split + 6));
    if (plan.has_value()) plans.push_back(*std::move(plan));
  }
  return plans;
}

}  // namespace lir::fuzz
