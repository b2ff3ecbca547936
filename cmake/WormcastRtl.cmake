# wormcast_enable_rtl(<executable>): the program can load Verilated models built on demand
# (tb/rtl/rtl_cache.h). A model is a shared object compiled against wormcast's headers; the symbols
# it needs (the router base classes, the topology, the clock) are resolved in the program, so the
# program exports its symbols and carries the whole of the libraries those symbols live in.
function(wormcast_enable_rtl target)
  set_target_properties(${target} PROPERTIES ENABLE_EXPORTS ON)
  if(TARGET wormcast::rtl)
    set(libs wormcast::rtl wormcast::model wormcast::sw)
  else()
    set(libs wormcast_rtl wormcast_sc wormcast_sw)
  endif()
  foreach(lib ${libs})
    target_link_options(${target} PRIVATE "LINKER:--whole-archive" "$<TARGET_FILE:${lib}>" "LINKER:--no-whole-archive")
  endforeach()
endfunction()
