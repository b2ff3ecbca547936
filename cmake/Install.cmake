# `cmake --install`: the libraries as imported targets wormcast::sw, wormcast::model, wormcast::rtl, wormcast::tb
# (with their SystemC, yaml-cpp, fmt, nlohmann_json and CLI11 dependencies), the headers under
# include/wormcast/ (so `systemc/...` paths never mix with SystemC's own headers), the programs,
# the scripts, the Verilog sources (share/wormcast/rtl), the examples (share/wormcast/examples), and a wormcastConfig.cmake for
# find_package(wormcast).
include(CMakePackageConfigHelpers)
set(WORMCAST_CMAKE_DIR lib/cmake/wormcast)

set_target_properties(wormcast_sw_headers PROPERTIES EXPORT_NAME sw_headers)
set_target_properties(wormcast_sw PROPERTIES EXPORT_NAME sw)
set_target_properties(wormcast_gossip_cli PROPERTIES EXPORT_NAME gossip_cli)
set_target_properties(wormcast_ibt_cli PROPERTIES EXPORT_NAME ibt_cli)
set_target_properties(wormcast_sc PROPERTIES EXPORT_NAME model)
set_target_properties(wormcast_tb PROPERTIES EXPORT_NAME tb)
set_target_properties(wormcast_rtl PROPERTIES EXPORT_NAME rtl)
install(TARGETS wormcast_sw_headers wormcast_sw wormcast_gossip_cli wormcast_ibt_cli wormcast_sc wormcast_rtl wormcast_tb
  EXPORT wormcastTargets ARCHIVE DESTINATION lib INCLUDES DESTINATION include/wormcast)
install(EXPORT wormcastTargets NAMESPACE wormcast:: DESTINATION ${WORMCAST_CMAKE_DIR})
install(TARGETS wormcast RUNTIME DESTINATION bin)

foreach(dir sw systemc tb)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir}/ DESTINATION include/wormcast/${dir}
    FILES_MATCHING PATTERN "*.h")
endforeach()
# The headers' identity, which the program checks before it compiles a model against them.
install(FILES ${PROJECT_BINARY_DIR}/rtl-include/.snapshot-id DESTINATION include/wormcast)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/scripts/ DESTINATION share/wormcast/scripts USE_SOURCE_PERMISSIONS)
# The Verilog sources: the on-demand build of a Verilated model reads them (tb/rtl/rtl_cache.h).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/rtl/ DESTINATION share/wormcast/rtl
  FILES_MATCHING PATTERN "*.sv" PATTERN "*.svh" PATTERN "*.vlt" PATTERN "*.f" PATTERN "configs.txt")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ ${PROJECT_SOURCE_DIR}/configs DESTINATION share/wormcast)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/ DESTINATION share/wormcast/examples)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/README.md DESTINATION share/wormcast)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/wormcastConfig.cmake.in
  ${PROJECT_BINARY_DIR}/wormcastConfig.cmake INSTALL_DESTINATION ${WORMCAST_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/wormcastConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/wormcastConfig.cmake ${PROJECT_BINARY_DIR}/wormcastConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/FindSystemC.cmake ${PROJECT_SOURCE_DIR}/cmake/WormcastRtl.cmake
  DESTINATION ${WORMCAST_CMAKE_DIR})
