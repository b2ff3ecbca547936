# cmake -DIN=<elf or empty> -DOUT=<cpp> -P EmbedFirmware.cmake: the firmware as a byte array.
set(bytes "")
set(size 0)
if(IN)
  file(READ ${IN} hex HEX)
  string(LENGTH "${hex}" n)
  math(EXPR size "${n} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
endif()
file(WRITE ${OUT} "// Generated from the RV32 node firmware by cmake/EmbedFirmware.cmake.\n#include <cstddef>\n"
  "namespace wormcast {\nextern const unsigned char kNodeRv32Elf[];\nextern const size_t kNodeRv32ElfSize;\n"
  "const unsigned char kNodeRv32Elf[] = {${bytes} 0};\nconst size_t kNodeRv32ElfSize = ${size};\n}\n")
