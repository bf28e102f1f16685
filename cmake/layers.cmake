# The library's layers, each one CMake object library that sees only itself and the layers
# below it: an include that runs back up (core including compile/, a backend including the
# other backend) fails to build. Each layer's include root is a folder of links to the
# src/ folders it may use, so "compile/trace.h" simply does not exist for core's sources.
# Order, lowest first: core (with common) < compile < cpu, vulkan (backends never see each other).
# All layers' objects are archived together as libvktensor.a (the root CMakeLists.txt).

# vkt_layer(<name> DIRS <src folders of its own> SEES <src folders below> SOURCES <files...>)
function(vkt_layer name)
  cmake_parse_arguments(L "" "" "DIRS;SEES;SOURCES" ${ARGN})
  set(root ${PROJECT_BINARY_DIR}/layers/${name})
  file(MAKE_DIRECTORY ${root})
  foreach(dir IN LISTS L_DIRS L_SEES)
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/src/${dir} ${root}/${dir} SYMBOLIC)
  endforeach()
  add_library(vkt_${name} OBJECT ${L_SOURCES})
  target_include_directories(vkt_${name} PRIVATE ${root} ${PROJECT_SOURCE_DIR}/include)
  # No fused multiply-add unless chosen: the cpu backend is the reference, and its bits must
  # not depend on the compiler's whims (elementwise_unary.cpp opts in: src/cpu's list).
  target_compile_options(vkt_${name} PRIVATE ${VKT_WARNINGS} -ffp-contract=off)
  target_compile_features(vkt_${name} PRIVATE cxx_std_20)
  target_link_libraries(vkt_${name} PRIVATE OpenMP::OpenMP_CXX)
  set_property(GLOBAL APPEND PROPERTY VKT_LAYERS vkt_${name})
endfunction()
