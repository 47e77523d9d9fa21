# Every public header compiles on its own, seeing only what a consumer sees:
# include/ and the layers' dependencies, never the repository root (so a
# public header that includes an internal `src/...` header, or that forgets
# one of its own includes, fails the build). Each header is included twice,
# which also checks its include guard. Built with the tests.
file(GLOB_RECURSE lir_public_headers RELATIVE ${PROJECT_SOURCE_DIR}/include
     CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/lir/*.h)
set(lir_header_check_sources "")
foreach(header ${lir_public_headers})
  string(MAKE_C_IDENTIFIER ${header} stem)
  set(source ${PROJECT_BINARY_DIR}/header_check/${stem}.cc)
  set(content "#include \"${header}\"\n#include \"${header}\"\n")
  # Written only when it changes, so a reconfigure does not rebuild them all.
  if(EXISTS ${source})
    file(READ ${source} old_content)
  else()
    set(old_content "")
  endif()
  if(NOT old_content STREQUAL content)
    file(WRITE ${source} "${content}")
  endif()
  list(APPEND lir_header_check_sources ${source})
endforeach()
add_library(lir_header_check OBJECT ${lir_header_check_sources})
# Each header in a translation unit of its own, or the check checks nothing.
set_target_properties(lir_header_check PROPERTIES UNITY_BUILD OFF)
target_link_libraries(lir_header_check PRIVATE lir::lir)
target_compile_options(lir_header_check PRIVATE ${LIR_WARNINGS})
