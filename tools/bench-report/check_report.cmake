# Runs bench-report on INPUTS (JSON files separated by "|") into OUT and checks
# that it succeeded and wrote a table per family; then that --update with the
# same inputs changes nothing and puts back a section that was removed. Used
# by bench_smoke_report.
file(REMOVE ${OUT})
string(REPLACE "|" ";" INPUTS "${INPUTS}")
execute_process(COMMAND ${BENCH_REPORT} --out=${OUT} ${INPUTS}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench-report exited with ${rc}")
endif()
file(READ ${OUT} report)
# One section per input: the files are named smoke-<bench>.json.
set(needles "# Benchmarks" "| workload |")
set(families "")
foreach(input ${INPUTS})
  get_filename_component(name ${input} NAME_WE)
  string(REGEX REPLACE "^smoke-" "" name "${name}")
  list(APPEND families ${name})
  list(APPEND needles "## ${name}" "<!-- bench-report:begin ${name} -->"
       "<!-- bench-report:end ${name} -->")
  if(name STREQUAL "eval_bench")
    list(APPEND needles "| keys | schedule | compaction |" "Goals (issue 6)" "| arrangement | Materialize |")
  endif()
  if(name STREQUAL "spine_plan_bench")
    list(APPEND needles "**What it means.**"
         "| policy | idle turns per round | merge work stock | merge work funded |"
         "Per arrangement, idle_merge:1000" "| keys | no spines, ms |")
  endif()
  if(name STREQUAL "antijoin_bench")
    list(APPEND needles
         "| arrangement | records off | bytes off | records SetDifference | bytes SetDifference | records AntiJoin | bytes AntiJoin |"
         "(trace T, right1 anti-side)" "| arrangements |"
         "| phase | left rows | plan | arrangements |"
         "| phase | left rows | plan | CPU ms (median) | CPU vs off |")
    set(antijoin_input ${input})
  endif()
  if(name STREQUAL "spine_bench")
    list(APPEND needles
         "Merge work per inserted update, E = 0 empty batches"
         "Merge work per inserted update, E = 10 empty batches"
         "| B | k | idle_merge:1000 stock | idle_merge:1000 funded |"
         "Headline cells (E = 0)" "(./benchmarks-spine.png)"
         "**Claim 1: under idle_merge:1000 the stock curve approaches N/B"
         "Claim 1 holds in " "**Claim 2: the funded curve stays flat in k"
         "Claim 2 holds in " "| cells with E = 0 (sum) | 12 |"
         "| ns per merged record, wall / CPU | ns per turn, wall / CPU |"
         "| proportional:16/stock/N:65536/B:1024 |")
  endif()
endforeach()
foreach(needle ${needles})
  string(FIND "${report}" "${needle}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${OUT}: missing \"${needle}\"")
  endif()
endforeach()
string(FIND "${report}" "error:" at)
if(NOT at EQUAL -1)
  message(FATAL_ERROR "${OUT}: a run failed (\"error:\" in the report)")
endif()

# --update with the same inputs re-renders every section in place.
set(updated ${OUT}.update.md)
file(WRITE ${updated} "${report}")
execute_process(COMMAND ${BENCH_REPORT} --update --out=${updated} ${INPUTS}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "bench-report --update exited with ${rc}")
endif()
file(READ ${updated} again)
if(NOT again STREQUAL report)
  message(FATAL_ERROR "${updated}: --update with the same inputs changed the report")
endif()

# A section --update does not find is added once, before the library
# benches; a second --update replaces it.
if(DEFINED antijoin_input)
  set(begin "<!-- bench-report:begin antijoin_bench -->")
  set(end "<!-- bench-report:end antijoin_bench -->")
  string(FIND "${report}" "${begin}" from)
  string(FIND "${report}" "${end}" to)
  string(LENGTH "${end}\n" end_length)
  math(EXPR after "${to} + ${end_length}")
  string(SUBSTRING "${report}" 0 ${from} head)
  string(SUBSTRING "${report}" ${after} -1 tail)
  file(WRITE ${updated} "${head}${tail}")
  foreach(round 1 2)
    execute_process(COMMAND ${BENCH_REPORT} --update --out=${updated}
                            ${antijoin_input} RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "bench-report --update exited with ${rc}")
    endif()
  endforeach()
  file(READ ${updated} again)
  string(REGEX MATCHALL "${begin}" found "${again}")
  list(LENGTH found count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "${updated}: antijoin_bench section ${count} times, not once")
  endif()
  string(FIND "${again}" "${begin}" at_section)
  string(FIND "${again}" "Library operations on generated plans" at_intro)
  if(NOT at_intro EQUAL -1 AND at_section GREATER at_intro)
    message(FATAL_ERROR "${updated}: antijoin_bench section after the library benches' introduction")
  endif()
endif()
message(STATUS "${OUT}: all tables present; --update replaces and adds sections")
