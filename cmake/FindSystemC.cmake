# FindSystemC: Debian's libsystemc-dev ships pkg-config systemc.pc, no CMake package.
# Provides the imported target SystemC::systemc (built as C++17, so SC_CPLUSPLUS is pinned).
find_package(PkgConfig REQUIRED)
pkg_check_modules(PC_SYSTEMC QUIET systemc)
find_path(SystemC_INCLUDE_DIR systemc.h HINTS ${PC_SYSTEMC_INCLUDE_DIRS} /usr/include)
find_library(SystemC_LIBRARY systemc HINTS ${PC_SYSTEMC_LIBRARY_DIRS})
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(SystemC REQUIRED_VARS SystemC_LIBRARY SystemC_INCLUDE_DIR)
if(SystemC_FOUND AND NOT TARGET SystemC::systemc)
  add_library(SystemC::systemc UNKNOWN IMPORTED)
  set_target_properties(SystemC::systemc PROPERTIES
    IMPORTED_LOCATION ${SystemC_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${SystemC_INCLUDE_DIR}
    INTERFACE_COMPILE_DEFINITIONS SC_CPLUSPLUS=201703L)
  find_package(Threads REQUIRED)
  set_property(TARGET SystemC::systemc APPEND PROPERTY INTERFACE_LINK_LIBRARIES Threads::Threads)
endif()
