// Document helpers.
#include "lir/document.h"

namespace lir {

Document Clone(const Document& doc) {
  Document copy;
  copy.objects.reserve(doc.objects.size());
  for (const Object& object : doc.objects) {
    Object& out = copy.objects.emplace_back();
    out.name = object.name;
    out.finish = object.finish;
    if (object.plan != nullptr) out.plan = Clone(*object.plan);
    out.fast_path = object.fast_path;
  }
  copy.sources = doc.sources;
  copy.used_indexes = doc.used_indexes;
  copy.target_cluster = doc.target_cluster;
  copy.notices = doc.notices;
  copy.optimization_time = doc.optimization_time;
  copy.node_identifiers = doc.node_identifiers;
  copy.syntax = doc.syntax;
  return copy;
}

}  // namespace lir
