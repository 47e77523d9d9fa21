// The Graphviz form of a document (lir/explain/dot.h).
#include "lir/explain/dot.h"

#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "lir/explain/analyze.h"
#include "src/explain/concise_printer_internal.h"

namespace lir::explain {
namespace {

constexpr absl::string_view kArrow = "\xE2\x86\x92";  // →

// `text` with DOT's double-quoted string escapes.
std::string Escaped(absl::string_view text) {
  return absl::StrReplaceAll(text, {{"\\", "\\\\"}, {"\"", "\\\""}});
}

// A label: each line left-justified (`\l`).
std::string Quoted(absl::string_view text) {
  return absl::StrCat("\"", absl::StrReplaceAll(Escaped(text), {{"\n", "\\l"}}),
                      "\\l\"");
}

// A one-line title (a cluster's label), centred.
std::string Title(absl::string_view text) {
  return absl::StrCat("\"", Escaped(text), "\"");
}

// A Let chain's or LetRec's body, down to the node that produces rows: the
// node an edge to a Let's consumer starts from.
const Node* RowsRoot(const Node* node) {
  while (node != nullptr && (node->Is<LetOp>() || node->Is<LetRecOp>()) &&
         !node->inputs.empty()) {
    node = node->inputs.back().get();
  }
  return node;
}

class DotWriter {
 public:
  DotWriter(const DotOptions& options, std::string& out)
      : options_(options), out_(out) {}

  void Object(size_t index, const lir::Object& object) {
    absl::StrAppend(&out_, "  subgraph cluster_o", index,
                    " {\n    label=", Title(object.name), ";\n");
    if (object.plan == nullptr) {
      FastPath(index, object);
    } else {
      CollectHeaders(*object.plan);
      Walk(index, object);
    }
    out_ += "  }\n";
  }

  // Edges go after every cluster: a node belongs to the cluster it is
  // first named in.
  void Edges() { out_ += edges_; }

 private:
  void FastPath(size_t index, const lir::Object& object) {
    std::string text;
    if (object.fast_path.has_value() &&
        internal::AppendConciseFastPath(text, *object.fast_path, 0).ok()) {
      absl::StrReplaceAll({{std::string(kArrow), ""}}, &text);
    } else {
      text = "fast path";
    }
    while (!text.empty() && text.back() == '\n') text.pop_back();
    absl::StrAppend(&out_, "    o", index, "_fast [label=", Quoted(text),
                    "];\n");
  }

  // Each node's concise operator line, as the concise printer writes it.
  void CollectHeaders(const Node& plan) {
    std::string scratch;
    internal::ConciseAnnotation annotation;
    annotation.on_header = [this](const Node& node, absl::string_view text) {
      std::string line(text);
      if (absl::StartsWith(line, kArrow)) line.erase(0, kArrow.size());
      headers_[&node] = std::move(line);
    };
    // A failure (an unknown fact the concise form prints) leaves the nodes
    // after it without a line: they fall back to AnalyzeOperatorName.
    (void)internal::AppendConcisePlan(scratch, plan, 0, annotation);
  }

  std::string Id(size_t object, const Node& node) {
    auto [it, inserted] = ids_.try_emplace(&node, ids_.size());
    return absl::StrCat("o", object, "_n", it->second);
  }

  void Walk(size_t index, const lir::Object& object) {
    struct Task {
      const Node* node;  // null: close a cluster
    };
    std::vector<Task> stack = {{object.plan.get()}};
    size_t clusters = 0;
    while (!stack.empty()) {
      const Node* node = stack.back().node;
      stack.pop_back();
      if (node == nullptr) {
        out_ += "    }\n";
        continue;
      }
      OpenClusterFor(node);
      if (node->Is<LetOp>() || node->Is<LetRecOp>()) {
        // Each binding's value in a dashed cluster of its own; the body
        // where the Let stands. Pushed in reverse: bindings print first.
        // What the Let itself maintains (lir's LetRec adapter) hangs off
        // its body's box.
        if (const Node* body = RowsRoot(node); body != nullptr) {
          Cylinders(index, object, *node, Id(index, *body));
        }
        const bool rec = node->Is<LetRecOp>();
        std::vector<uint64_t> ids =
            rec ? node->As<LetRecOp>().ids
                : std::vector<uint64_t>{node->As<LetOp>().id};
        if (node->inputs.back() != nullptr) {
          stack.push_back({node->inputs.back().get()});
        }
        for (size_t i = ids.size(); i-- > 0;) {
          if (i + 1 >= node->inputs.size() || node->inputs[i] == nullptr) {
            continue;
          }
          bindings_[ids[i]] = RowsRoot(node->inputs[i].get());
          stack.push_back({nullptr});
          stack.push_back({node->inputs[i].get()});
          // Opened now, in reverse: the first binding's cluster first.
          pending_clusters_.push_back(
              absl::StrCat("    subgraph cluster_o", index, "_b", clusters++,
                           " {\n      label=",
                           Title(absl::StrCat(rec ? "recursive " : "", "cte l",
                                              ids[i], " =")),
                           ";\n      style=dashed;\n"));
          cluster_owner_.push_back(node->inputs[i].get());
        }
        continue;
      }
      Box(index, object, *node);
      for (auto it = node->inputs.rbegin(); it != node->inputs.rend(); ++it) {
        if (*it != nullptr) stack.push_back({it->get()});
      }
      for (const NodePtr& input : node->inputs) {
        if (input == nullptr) continue;
        if (const Node* from = RowsRoot(input.get()); from != nullptr) {
          edges_to_.emplace_back(index, from, node);
        }
      }
      if (node->Is<GetOp>() && node->As<GetOp>().id.is_local) {
        auto it = bindings_.find(node->As<GetOp>().id.local);
        if (it != bindings_.end() && it->second != nullptr) {
          local_edges_.emplace_back(index, it->second, node);
        }
      }
    }
    for (const auto& [object_index, from, to] : edges_to_) {
      absl::StrAppend(&edges_, "  ", Id(object_index, *from), " -> ",
                      Id(object_index, *to), ";\n");
    }
    for (const auto& [object_index, from, to] : local_edges_) {
      absl::StrAppend(&edges_, "  ", Id(object_index, *from), " -> ",
                      Id(object_index, *to), " [style=dashed];\n");
    }
    edges_to_.clear();
    local_edges_.clear();
  }

  // A binding's cluster opens right before its value's first node.
  void OpenClusterFor(const Node* node) {
    for (size_t i = 0; i < cluster_owner_.size(); ++i) {
      if (cluster_owner_[i] == node) {
        out_ += pending_clusters_[i];
        pending_clusters_.erase(pending_clusters_.begin() + i);
        cluster_owner_.erase(cluster_owner_.begin() + i);
        return;
      }
    }
  }

  void Box(size_t index, const lir::Object& object, const Node& node) {
    const std::string id = Id(index, node);
    auto header = headers_.find(&node);
    std::string label =
        header != headers_.end() ? header->second : AnalyzeOperatorName(node);
    if (options_.annotate) {
      const std::string fields = options_.annotate(object, node);
      if (!fields.empty()) absl::StrAppend(&label, "\n", fields);
    }
    if (options_.measure) {
      const std::string measure = options_.measure(object, node);
      if (!measure.empty()) absl::StrAppend(&label, "\n", measure);
    }
    const bool highlighted =
        options_.highlighted && options_.highlighted(object, node);
    absl::StrAppend(&out_, "    ", id, " [label=", Quoted(label),
                    highlighted ? ", style=\"rounded,bold,filled\", "
                                  "fillcolor=\"#ffe4b0\", color=\"#c05000\""
                                : "",
                    "];\n");
    Cylinders(index, object, node, id);
  }

  // The arrangements `node` maintains, beside the box `box`.
  void Cylinders(size_t index, const lir::Object& object, const Node& node,
                 const std::string& box) {
    if (!options_.arrangements) return;
    const std::vector<std::string> arrangements =
        options_.arrangements(object, node);
    for (size_t a = 0; a < arrangements.size(); ++a) {
      const std::string arrangement =
          absl::StrCat("o", index, "_c", cylinders_++);
      absl::StrAppend(&out_, "    ", arrangement,
                      " [shape=cylinder, style=filled, fillcolor=\"#dde8f8\", "
                      "label=",
                      Quoted(arrangements[a]), "];\n");
      absl::StrAppend(&edges_, "  ", arrangement, " -> ", box,
                      " [style=dotted, arrowhead=none];\n");
    }
  }

  const DotOptions& options_;
  std::string& out_;
  std::string edges_;
  absl::flat_hash_map<const Node*, std::string> headers_;
  absl::flat_hash_map<const Node*, size_t> ids_;
  // The row-producing root of each local binding seen so far (a shadowing
  // binding replaces the one it shadows from then on).
  absl::flat_hash_map<uint64_t, const Node*> bindings_;
  std::vector<std::tuple<size_t, const Node*, const Node*>> edges_to_,
      local_edges_;
  size_t cylinders_ = 0;
  std::vector<std::string> pending_clusters_;
  std::vector<const Node*> cluster_owner_;
};

}  // namespace

std::string PrintDot(const Document& doc, const DotOptions& options) {
  std::string out =
      "digraph lir {\n"
      "  rankdir=BT;\n"
      "  graph [fontname=\"Helvetica\", fontsize=12];\n"
      "  node [shape=box, style=rounded, fontname=\"Helvetica\", "
      "fontsize=11];\n"
      "  edge [color=\"#404040\"];\n";
  DotWriter writer(options, out);
  for (size_t i = 0; i < doc.objects.size(); ++i) {
    writer.Object(i, doc.objects[i]);
  }
  writer.Edges();
  out += "}\n";
  return out;
}

}  // namespace lir::explain
