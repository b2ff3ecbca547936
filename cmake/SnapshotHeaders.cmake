cmake_minimum_required(VERSION 3.22)
# Copies the headers of sw/, systemc/ and tb/ from SRC into OUT (only those that changed, and
# removes those gone), at every build: the Verilated models built on demand are compiled against
# this snapshot, the headers the program was built from, not against a source tree edited since
# (tb/rtl/rtl_cache.cpp). An installed program has the same: include/wormcast.
file(GLOB_RECURSE headers RELATIVE ${SRC} ${SRC}/sw/*.h ${SRC}/systemc/*.h ${SRC}/tb/*.h)
file(GLOB_RECURSE old RELATIVE ${OUT} ${OUT}/*.h)
foreach(h ${headers})
  get_filename_component(dir ${OUT}/${h} DIRECTORY)
  file(MAKE_DIRECTORY ${dir})
  file(COPY_FILE ${SRC}/${h} ${OUT}/${h} ONLY_IF_DIFFERENT)
endforeach()
foreach(h ${old})
  if(NOT h IN_LIST headers)
    file(REMOVE ${OUT}/${h})
  endif()
endforeach()
