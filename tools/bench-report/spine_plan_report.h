// The spine_plan_bench section of docs/BENCHMARKS.md (spine_plan_report.cc):
// kept apart from report.h so that the spine A/B touches the shared files
// of bench-report only where a family is dispatched.
#ifndef LIR_TOOLS_BENCH_REPORT_SPINE_PLAN_REPORT_H_
#define LIR_TOOLS_BENCH_REPORT_SPINE_PLAN_REPORT_H_

#include <ostream>

#include "tools/bench-report/report.h"

namespace bench_report {

/// Whether `f` is spine_plan_bench's A/B (it has BM_SpinePlan runs).
bool IsSpinePlanAB(const Family& f);

/// The spine_plan_bench section: merge work and batches left per policy,
/// idle turns and exertion (totals and per arrangement), the time the spine
/// model adds, and what it means for a user, from the measured numbers.
void SpinePlanSection(const Family& f, std::ostream& md);

}  // namespace bench_report

#endif  // LIR_TOOLS_BENCH_REPORT_SPINE_PLAN_REPORT_H_
