// `lir-opt explain`: parse a plan, check it, print it again.
#include <iostream>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "tools/lir-opt/commands.h"
#include "tools/lir-opt/flags.h"
#include "tools/lir-opt/plan_io.h"

namespace lir::cli {

int RunExplain(const CommandArgs& args) {
  if (args.operands.size() != 1) {
    return UsageError(absl::StrCat(
        args.command, ": expected exactly one FILE (or - for stdin), got ",
        args.operands.size()));
  }
  absl::StatusOr<InputText> input = ReadInput(args.operands[0]);
  if (!input.ok()) return InputError(input.status().message());

  LoadOptions load;
  load.format = absl::GetFlag(FLAGS_input_format);
  load.validate = absl::GetFlag(FLAGS_validate);
  absl::StatusOr<Document> doc = LoadDocument(*input, load);
  if (!doc.ok()) return InputError(doc.status().message());

  RenderOptions render;
  render.format = absl::GetFlag(FLAGS_format);
  render.node_identifiers = absl::GetFlag(FLAGS_node_identifiers);
  std::cout << RenderDocument(*doc, render) << std::flush;
  return kExitOk;
}

}  // namespace lir::cli
