# add_tle_kernel(<target> <file.tle>
#                KERNEL <name>... SIGNATURE <sig>... [OUT_NAME <symbol>...]
#                [NUM_WARPS n] [NUM_STAGES n] [ARCH sm_XX | TARGET target] [DEFINES NAME=VALUE...]
#                [INCLUDES dir...] [SPECIALIZE auto|none])
#
# Runs tlec at build time (with a depfile, so edits to the .tle file and to the modules it
# imports rebuild it) and makes <target>, a static library of the generated code whose PUBLIC
# include path holds the generated header <target>.h. The i-th SIGNATURE and OUT_NAME go with
# the i-th KERNEL. For CUDA (ARCH, default sm_90a, or TARGET cuda:sm_XX) the consumer's project
# must enable the CUDA language. For TARGET ascend:910b the library is the AscendC C++ built
# with the C++ compiler against tlec's CPU emulation of AscendC (docs/ascendc.md); building it
# for an NPU is CANN's toolchain's job. SPECIALIZE is tlec's --specialize (default auto: CUDA
# kernels with unhinted parameters also get specialized variants, chosen by the launcher).
function(add_tle_kernel target source)
  cmake_parse_arguments(PARSE_ARGV 2 TLE "" "NUM_WARPS;NUM_STAGES;ARCH;TARGET;SPECIALIZE" "KERNEL;SIGNATURE;OUT_NAME;DEFINES;INCLUDES")
  if(TLE_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "add_tle_kernel(${target}): unexpected arguments: ${TLE_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TLE_KERNEL)
    message(FATAL_ERROR "add_tle_kernel(${target}): give at least one KERNEL")
  endif()
  list(LENGTH TLE_KERNEL kernels)
  list(LENGTH TLE_SIGNATURE signatures)
  if(NOT signatures EQUAL kernels)
    message(FATAL_ERROR "add_tle_kernel(${target}): ${kernels} KERNEL but ${signatures} SIGNATURE; give one each")
  endif()
  if(TLE_TARGET AND TLE_ARCH)
    message(FATAL_ERROR "add_tle_kernel(${target}): give ARCH or TARGET, not both")
  endif()
  if(NOT TLE_TARGET)
    if(NOT TLE_ARCH)
      set(TLE_ARCH sm_90a)
    endif()
    set(TLE_TARGET "cuda:${TLE_ARCH}")
  endif()
  string(REGEX MATCH "^[a-z]+" family "${TLE_TARGET}")
  if(family STREQUAL "cuda")
    string(REGEX REPLACE "^cuda:" "" TLE_ARCH "${TLE_TARGET}")
    set(extension cu)
  elseif(family STREQUAL "ascend")
    set(extension cpp)
  else()
    message(FATAL_ERROR "add_tle_kernel(${target}): unknown TARGET '${TLE_TARGET}' (cuda:sm_XX or ascend:910b)")
  endif()
  get_filename_component(source "${source}" ABSOLUTE)
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/tle/${target}")
  set(cu "${dir}/${target}.${extension}")
  set(header "${dir}/${target}.h")

  set(args "${source}" --target "${TLE_TARGET}" -o "${cu}" -MD -MF "${cu}.d")
  math(EXPR last "${kernels} - 1")
  foreach(i RANGE ${last})
    list(GET TLE_KERNEL ${i} kernel)
    list(GET TLE_SIGNATURE ${i} signature)
    list(APPEND args --kernel "${kernel}" --signature "${signature}")
    if(TLE_OUT_NAME)
      list(GET TLE_OUT_NAME ${i} name)
      list(APPEND args --out-name "${name}")
    endif()
  endforeach()
  if(TLE_NUM_WARPS)
    list(APPEND args --num-warps ${TLE_NUM_WARPS})
  endif()
  if(TLE_NUM_STAGES)
    list(APPEND args --num-stages ${TLE_NUM_STAGES})
  endif()
  if(TLE_SPECIALIZE)
    list(APPEND args --specialize ${TLE_SPECIALIZE})
  endif()
  foreach(d IN LISTS TLE_DEFINES)
    list(APPEND args -D "${d}")
  endforeach()
  foreach(d IN LISTS TLE_INCLUDES)
    get_filename_component(d "${d}" ABSOLUTE)
    list(APPEND args -I "${d}")
  endforeach()

  file(MAKE_DIRECTORY "${dir}")
  add_custom_command(
    OUTPUT "${cu}" "${header}"
    COMMAND TLE::tlec ${args}
    DEPENDS "${source}" TLE::tlec
    DEPFILE "${cu}.d"
    COMMENT "tlec ${source} -> ${target}.${extension}, ${target}.h"
    VERBATIM)
  add_library(${target} STATIC "${cu}")
  if(family STREQUAL "ascend")
    set_target_properties(${target} PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON POSITION_INDEPENDENT_CODE ON)
    target_include_directories(${target} PUBLIC "${dir}" ${TLE_RUNTIME_INCLUDE_DIR} PRIVATE ${TLE_STDLIB_INCLUDE_DIR})
    find_package(Threads REQUIRED)  # the emulation runs the AI cores on threads
    target_link_libraries(${target} PUBLIC Threads::Threads)
    return()
  endif()
  set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES OFF CUDA_STANDARD 17 CUDA_STANDARD_REQUIRED ON
                                             POSITION_INDEPENDENT_CODE ON)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-arch=${TLE_ARCH}>)
  target_include_directories(${target} PUBLIC "${dir}" ${TLE_RUNTIME_INCLUDE_DIR} PRIVATE ${TLE_STDLIB_INCLUDE_DIR})
  find_package(CUDAToolkit REQUIRED)
  target_link_libraries(${target} PUBLIC CUDA::cudart)
endfunction()
