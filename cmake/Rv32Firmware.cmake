# The RV32 node firmware (sw/runtime/rv32): the node runtime's sources cross-compiled for
# rv32imac/ilp32 with picolibc, its disassembly, and the ELF embedded into the model library as
# kNodeRv32Elf. Without the cross compiler the array is empty and node.cpu = rv32 is refused.
find_program(WORMCAST_RISCV_CXX riscv64-unknown-elf-g++)
find_program(WORMCAST_RISCV_OBJDUMP riscv64-unknown-elf-objdump)
set(WORMCAST_RV32_DIR ${PROJECT_BINARY_DIR}/firmware)
set(WORMCAST_RV32_ELF ${WORMCAST_RV32_DIR}/node_rv32.elf)
set(WORMCAST_RV32_DISASSEMBLY ${WORMCAST_RV32_DIR}/node_rv32.dis)
set(WORMCAST_RV32_EMBED ${WORMCAST_GENERATED}/node_rv32_elf.cpp)
set(fw_src ${PROJECT_SOURCE_DIR}/sw/runtime/rv32)
if(WORMCAST_RISCV_CXX AND WORMCAST_RISCV_OBJDUMP)
  set(WORMCAST_RV32_AVAILABLE ON)
  file(GLOB fw_deps ${fw_src}/* ${PROJECT_SOURCE_DIR}/sw/runtime/*.h ${PROJECT_SOURCE_DIR}/sw/hal/*.h
       ${PROJECT_SOURCE_DIR}/sw/topology/topology.h)
  add_custom_command(OUTPUT ${WORMCAST_RV32_ELF} ${WORMCAST_RV32_DISASSEMBLY}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${WORMCAST_RV32_DIR}
    COMMAND ${WORMCAST_RISCV_CXX} -std=c++17 -march=rv32imac -mabi=ilp32 --specs=picolibc.specs
            -ffreestanding -fno-exceptions -fno-rtti -O2 -Wall -Wextra -Werror -I${PROJECT_SOURCE_DIR}
            -nostartfiles -nostdlib -T ${fw_src}/link.ld ${fw_src}/firmware.cpp -lc -lgcc -o ${WORMCAST_RV32_ELF}
    COMMAND ${WORMCAST_RISCV_OBJDUMP} -d --no-show-raw-insn -C ${WORMCAST_RV32_ELF} > ${WORMCAST_RV32_DISASSEMBLY}
    DEPENDS ${fw_deps}
    COMMENT "Cross-compiling the RV32 node firmware"
    VERBATIM)
  add_custom_command(OUTPUT ${WORMCAST_RV32_EMBED}
    COMMAND ${CMAKE_COMMAND} -DIN=${WORMCAST_RV32_ELF} -DOUT=${WORMCAST_RV32_EMBED}
            -P ${PROJECT_SOURCE_DIR}/cmake/EmbedFirmware.cmake
    DEPENDS ${WORMCAST_RV32_ELF} ${PROJECT_SOURCE_DIR}/cmake/EmbedFirmware.cmake
    VERBATIM)
else()
  set(WORMCAST_RV32_AVAILABLE OFF)
  message(STATUS "riscv64-unknown-elf-g++ not found: node.cpu = rv32 will be unavailable")
  add_custom_command(OUTPUT ${WORMCAST_RV32_EMBED}
    COMMAND ${CMAKE_COMMAND} -DIN= -DOUT=${WORMCAST_RV32_EMBED} -P ${PROJECT_SOURCE_DIR}/cmake/EmbedFirmware.cmake
    DEPENDS ${PROJECT_SOURCE_DIR}/cmake/EmbedFirmware.cmake
    VERBATIM)
endif()
# The model library (another directory) depends on the generated source through this target.
add_custom_target(wormcast_rv32_firmware DEPENDS ${WORMCAST_RV32_EMBED})
