// corpus-report DIR: prints the fused set-difference corpus report (Markdown)
// for every *.plan file in DIR, sorted by name. Used to regenerate
// docs/corpus-report.md; see kCorpusReportCommand.
#include <iostream>
#include <string>

#include "tools/corpus-report/corpus_report.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: corpus-report DIR > corpus-report.md\n"
                 "  DIR: a directory of verbose EXPLAIN *.plan files\n";
    return 2;
  }
  absl::StatusOr<std::vector<lir::NamedDocument>> docs =
      lir::ReadPlanDirectory(argv[1]);
  if (!docs.ok()) {
    std::cerr << "corpus-report: " << docs.status().message() << "\n";
    return 1;
  }
  absl::StatusOr<std::string> report = lir::CorpusReportMarkdown(*docs);
  if (!report.ok()) {
    std::cerr << "corpus-report: " << report.status().message() << "\n";
    return 1;
  }
  std::cout << *report;
  return std::cout.good() ? 0 : 1;
}
