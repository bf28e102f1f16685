# Build-time script: one SPIR-V module per op of an elementwise family, the shader compiled
# with FIXED_OP=<code> so glslc folds the op's switch and drops every other op's code, and
# with VKT_REAL_ONLY, which leaves complex dtypes to the family's module (complex division
# was two thirds of divide's module). A pipeline's creation cost follows its module's size,
# not the specialised code's (the whole family's ~350 KB module takes several times one
# op's ~30 KB to create: bench_results/lavapipe/pipeline-time-elementwise.csv), so
# specialised pipelines are made from these. The op count is the family's
# <PREFIX>_OP_COUNT in OP_CODES (written from the op table); stale modules are removed
# first. Variables: GLSLC, SOURCE (.comp), NAME (module prefix), PREFIX (UNARY|BINARY),
# OP_CODES, INCLUDES (list), OUT_DIR, STAMP. As many glslc runs at once as the machine has
# cores.
file(STRINGS ${OP_CODES} line REGEX "^const uint ${PREFIX}_OP_COUNT = [0-9]+u;$")
if(NOT line)
  message(FATAL_ERROR "compile_op_modules: no ${PREFIX}_OP_COUNT in ${OP_CODES}")
endif()
string(REGEX REPLACE "^.* = ([0-9]+)u;$" "\\1" count "${line}")
file(GLOB stale ${OUT_DIR}/${NAME}_op*.spv)
if(stale)
  file(REMOVE ${stale})
endif()
file(MAKE_DIRECTORY ${OUT_DIR})
set(include_flags "")
foreach(dir IN LISTS INCLUDES)
  list(APPEND include_flags -I ${dir})
endforeach()
cmake_host_system_information(RESULT jobs QUERY NUMBER_OF_LOGICAL_CORES)
math(EXPR last "${count} - 1")
set(batch "")
set(batch_size 0)
foreach(op RANGE ${last})
  # execute_process runs its COMMANDs at once (as a pipeline; glslc reads and writes files).
  list(APPEND batch COMMAND ${GLSLC} --target-env=vulkan1.1 -fshader-stage=compute -O
       -DFIXED_OP=${op}u -DVKT_REAL_ONLY ${include_flags} ${SOURCE} -o ${OUT_DIR}/${NAME}_op${op}.spv)
  math(EXPR batch_size "${batch_size} + 1")
  if(batch_size EQUAL jobs OR op EQUAL last)
    execute_process(${batch} RESULTS_VARIABLE results ERROR_VARIABLE errors)
    foreach(r IN LISTS results)
      if(NOT r EQUAL 0)
        message(FATAL_ERROR "compile_op_modules: glslc failed for ${NAME}:\n${errors}")
      endif()
    endforeach()
    set(batch "")
    set(batch_size 0)
  endif()
endforeach()
file(TOUCH ${STAMP})
