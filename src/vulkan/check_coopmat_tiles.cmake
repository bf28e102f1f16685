# Specializes linalg_dot_coopmat.spv for each tile in TILES (BMxBNxBK:WMxWN:stages, the
# tiles the tuning sweep and the tests force) in two operand layouts, and validates the result:
# its tiles are specialization constants, which nothing else checks until a device with
# cooperative matrices creates the pipeline. Writes STAMP when all pass.
# cmake -DSPV=... -DOPT=spirv-opt -DVAL=spirv-val -DSTAMP=... "-DTILES=..." -P this file
foreach(tile IN LISTS TILES)
  string(REGEX MATCH "^([0-9]+)x([0-9]+)x([0-9]+):([0-9]+)x([0-9]+):([12])$" ok "${tile}")
  if(NOT ok)
    message(FATAL_ERROR "check_coopmat_tiles: bad tile '${tile}'")
  endif()
  set(bm ${CMAKE_MATCH_1})
  set(bn ${CMAKE_MATCH_2})
  set(bk ${CMAKE_MATCH_3})
  set(wm ${CMAKE_MATCH_4})
  set(wn ${CMAKE_MATCH_5})
  set(stages ${CMAKE_MATCH_6})
  math(EXPR tm "${bm} / 16")
  math(EXPR tn "${bn} / 16")
  math(EXPR threads "32 * (${bm} / ${wm}) * (${bn} / ${wn})")
  set(shape "2:${tm} 3:${tn} 4:${bk} 11:${wm} 12:${wn} 13:${stages} 14:${threads}")
  # Row-major A and B with wide reads and direct f16 stores; both transposed, scalar reads,
  # f32 partials (split K).
  foreach(layout "5:true 6:false 7:0 9:true 10:true 15:true"
                 "5:false 6:true 7:1 9:false 10:false 15:false")
    set(out ${STAMP}.spv)
    execute_process(
      COMMAND ${OPT} --set-spec-const-default-value "${shape} ${layout}" --freeze-spec-const -O
              ${SPV} -o ${out}
      RESULT_VARIABLE rc ERROR_VARIABLE err)
    if(rc EQUAL 0)
      execute_process(COMMAND ${VAL} --target-env vulkan1.2 ${out}
                      RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE err2)
    endif()
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "linalg_dot_coopmat specialized for ${tile} (${layout}): ${err}${err2}")
    endif()
  endforeach()
endforeach()
file(REMOVE ${STAMP}.spv)
file(WRITE ${STAMP} "${TILES}\n")
