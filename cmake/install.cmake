# Installation and packaging: `cmake --install` puts the layer libraries, the
# public headers of include/ (never the internal headers of src/), lir-opt
# (tools/lir-opt/CMakeLists.txt), the CMake package (lirConfig.cmake,
# lirConfigVersion.cmake, lirTargets*.cmake under lib/cmake/lir) and lir.pc.
# Included from the top CMakeLists.txt after the layers are defined.
include(CMakePackageConfigHelpers)

set(LIR_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/lir)

install(TARGETS ${LIR_LAYERS} lir
        EXPORT lirTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/lir
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h" PATTERN "*.def")
install(EXPORT lirTargets NAMESPACE lir:: DESTINATION ${LIR_INSTALL_CMAKEDIR})

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/lirConfig.cmake.in
  ${PROJECT_BINARY_DIR}/lirConfig.cmake
  INSTALL_DESTINATION ${LIR_INSTALL_CMAKEDIR})
# 0.x: a consumer asking for 0.1 accepts 0.1.* only (minor versions may break).
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/lirConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/lirConfig.cmake
              ${PROJECT_BINARY_DIR}/lirConfigVersion.cmake
        DESTINATION ${LIR_INSTALL_CMAKEDIR})

# lir.pc: the layers, most dependent first (static linking resolves left to
# right), and the pkg-config modules of what they link.
set(LIR_PC_LIBS "")
foreach(layer ${LIR_LAYERS})
  set(LIR_PC_LIBS "-l${layer} ${LIR_PC_LIBS}")
endforeach()
string(STRIP "${LIR_PC_LIBS}" LIR_PC_LIBS)
set(LIR_PC_REQUIRES "re2 libcrypto nlohmann_json")
# The Abseil components, read off what the layers link.
set(absl_modules "")
foreach(layer ${LIR_LAYERS})
  get_target_property(deps ${layer} LINK_LIBRARIES)
  foreach(dep ${deps})
    if(dep MATCHES "^absl::")
      string(REPLACE "absl::" "absl_" module ${dep})
      list(APPEND absl_modules ${module})
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES absl_modules)
list(JOIN absl_modules " " absl_modules)
string(APPEND LIR_PC_REQUIRES " ${absl_modules}")
# The prefix is found from lir.pc's own place, so the installed tree can move.
file(RELATIVE_PATH LIR_PC_PREFIX_FROM_PCDIR
     ${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig
     ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" LIR_PC_PREFIX_FROM_PCDIR "${LIR_PC_PREFIX_FROM_PCDIR}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/lir.pc.in ${PROJECT_BINARY_DIR}/lir.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/lir.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
