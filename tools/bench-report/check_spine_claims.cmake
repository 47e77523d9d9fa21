# Runs bench-report on a hand-made spine_bench JSON (INPUT) whose numbers
# make each of the section's two claims hold in one row and fail in the
# other, and checks that the report says so: the verdicts come from the
# numbers, not from the text. Used by bench_report_spine_claims.
file(REMOVE ${OUT})
execute_process(COMMAND ${BENCH_REPORT} --out=${OUT} ${INPUT}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench-report exited with ${rc}")
endif()
file(READ ${OUT} report)
# N/B = 1024: 1050 is within 10% (holds); N/B = 16: 48.5 is not. Funded:
# 3 to 3.5 is flat and under 8192/1024 + 16 = 24; 2 to 20 is neither flat
# nor under 8192/65536 + 16 = 16.125.
foreach(needle
        "| 0 | 1024 | 1024 | 1056 | 3 | 1050 | 1.025 | 0.994 | yes | yes |"
        "| 0 | 65536 | 16 | 48.5 | 2 | 48.5 | 3.031 | 1.000 | yes | **no** |"
        "Claim 1 holds in 1 of 2 (E, B) rows and is false in 1."
        "| idle_merge:1000 | 0 | 1024 | 3 | 3.5 | 3 | 3.5 (4096) | 1.167 | yes | 24 | yes | yes |"
        "| idle_merge:1000 | 0 | 65536 | 2 | 20 | 2 | 20 (4096) | 10.000 | **no** | 16.1 | **no** | **no** |"
        "Claim 2 holds in 1 of 2 (policy, E, B) rows and is false in 1: flat in 1, within the bound in 1.")
  string(FIND "${report}" "${needle}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${OUT}: missing \"${needle}\"")
  endif()
endforeach()
message(STATUS "${OUT}: the claims' verdicts follow the numbers")
