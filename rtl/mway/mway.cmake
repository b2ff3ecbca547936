# The m-way router RTL: lint tests of its three units (wc_mw_router, wc_mw_node_if,
# wc_mw_channel) and of the whole fabric, per test set of configs.txt, with the unit parameters
# wc_mw_fabric derives (the on-demand build derives the same, tb/rtl/mway/mw_models.cpp).
# Included from rtl/CMakeLists.txt.

file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/files.f WC_MW_SOURCES REGEX "^[A-Za-z0-9_./-]+\\.sv$")
list(TRANSFORM WC_MW_SOURCES PREPEND ${CMAKE_CURRENT_LIST_DIR}/)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/files.f
             ${CMAKE_CURRENT_LIST_DIR}/configs.txt)
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/configs.txt WC_MW_CONFIG_LINES REGEX "^[a-zA-Z]")

# idx_width(n) and $clog2(n + 1) of the Verilog, for the unit parameters derived from a config.
function(wc_mw_count_width out n)
  set(b 0)
  math(EXPR lim "1 << ${b}")
  while(lim LESS n OR lim EQUAL n)
    math(EXPR b "${b} + 1")
    math(EXPR lim "1 << ${b}")
  endwhile()
  set(${out} ${b} PARENT_SCOPE)
endfunction()
function(wc_mw_idx_width out n)
  if(n GREATER 1)
    math(EXPR nm1 "${n} - 1")
    wc_mw_count_width(w ${nm1})
  else()
    set(w 1)
  endif()
  set(${out} ${w} PARENT_SCOPE)
endfunction()

set(WC_MW_LINT_ARGS --lint-only -Wall --assert -I${CMAKE_CURRENT_LIST_DIR}/..)

# One configuration: name, its "Key=value" list, the test hook ("" or "Bug=n").
function(wc_mw_config name kvs hook)
  set(P_Radix1 1)
  set(P_Radix2 1)
  set(P_Radix3 1)
  set(fabric_args "")
  foreach(kv ${kvs})
    string(REPLACE "=" ";" kvl "${kv}")
    list(GET kvl 0 key)
    list(GET kvl 1 value)
    set(P_${key} ${value})
    list(APPEND fabric_args -G${kv})
  endforeach()
  set(P_Bug 0)
  if(hook)
    string(REPLACE "=" ";" kvl "${hook}")
    list(GET kvl 1 P_Bug)
    list(APPEND fabric_args -G${hook})
  endif()
  # The unit parameters wc_mw_fabric derives.
  set(maxr ${P_Radix0})
  foreach(d 1 2 3)
    if(d LESS P_NumDims AND P_Radix${d} GREATER maxr)
      set(maxr ${P_Radix${d}})
    endif()
  endforeach()
  wc_mw_idx_width(coord_w ${maxr})
  wc_mw_count_width(len_w ${P_MaxMsgLen})
  wc_mw_idx_width(idx_w ${P_MaxMsgLen})
  set(buf_n ${P_Buffers})
  if(P_InjBuffers GREATER buf_n)
    set(buf_n ${P_InjBuffers})
  endif()
  set(common -GNumDims=${P_NumDims} -GCoordW=${coord_w} -GIdW=${P_IdW} -GLenW=${len_w} -GIdxW=${idx_w}
             -GBufN=${buf_n} -GAlgorithm=${P_Algorithm} -GBug=${P_Bug})
  set(router_args ${common} -GRows=${P_Buffers} -GBufLen=${P_BufLen} -GHeaderBid=${P_HeaderBid})
  set(node_args ${common} -GInjRows=${P_InjBuffers} -GEjRows=${P_EjBuffers} -GBufLen=${P_BufLen}
                -GHeaderBid=${P_HeaderBid})
  set(channel_args ${common})

  if(WORMCAST_TESTS AND NOT hook)
    # Each unit as Verilated, and the whole fabric for the networks of at most 16 channels (a
    # larger one lints the same modules, composed more often).
    set(cmds "")
    foreach(unit "wc_mw_router;${router_args}" "wc_mw_node_if;${node_args}" "wc_mw_channel;${channel_args}")
      list(POP_FRONT unit top)
      add_test(NAME rtl.lint.mway.${name}.${top}
        COMMAND ${WC_VERILATOR} ${WC_MW_LINT_ARGS} --top-module ${top} ${unit} ${WC_RTL_WAIVERS} ${WC_MW_SOURCES})
      set_tests_properties(rtl.lint.mway.${name}.${top} PROPERTIES LABELS rtl TIMEOUT 300)
    endforeach()
    math(EXPR nch "${P_Radix0} * ${P_Radix1}")
    if(P_NumDims GREATER 2)
      math(EXPR nch "${nch} * ${P_Radix2}")
    endif()
    if(P_NumDims GREATER 3)
      math(EXPR nch "${nch} * ${P_Radix3}")
    endif()
    if(nch LESS_EQUAL 16)
      add_test(NAME rtl.lint.mway.${name}.wc_mw_fabric
        COMMAND ${WC_VERILATOR} ${WC_MW_LINT_ARGS} --top-module wc_mw_fabric ${fabric_args} ${WC_RTL_WAIVERS}
                ${WC_MW_SOURCES})
      set_tests_properties(rtl.lint.mway.${name}.wc_mw_fabric PROPERTIES LABELS rtl TIMEOUT 900)
    endif()
  endif()
endfunction()

set(WC_MW_FIRST "")
foreach(line ${WC_MW_CONFIG_LINES})
  string(REGEX REPLACE "[ \t]+" ";" fields "${line}")
  list(POP_FRONT fields name)
  if(NOT WC_MW_FIRST)
    set(WC_MW_FIRST ${name})
    set(WC_MW_FIRST_KVS "${fields}")
  endif()
  wc_mw_config(${name} "${fields}" "")
endforeach()
