# Writes OUT with the source tree's commit (git describe --always --dirty), only when it changed,
# so every build knows its commit without reconfiguring and without needless recompiles.
execute_process(COMMAND git -C ${SRC} describe --always --dirty --abbrev=12
  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR commit STREQUAL "")
  set(commit "unknown")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/WriteIfChanged.cmake)
write_if_changed(${OUT} "// Generated at build time: the commit of the source tree.\n#define WORMCAST_COMMIT \"${commit}\"\n")
