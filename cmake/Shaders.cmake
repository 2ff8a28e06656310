# Shaders are compiled at build time by glslangValidator and embedded as uint32_t arrays.
# A GLSL error fails the build; glslangValidator names the file and the line.
find_program(GLSLANG_VALIDATOR glslangValidator REQUIRED)

# bv_embed_shaders(TARGET name SOURCES a.comp b.frag ... [DEPENDS includes...])
# Produces a static library `name` whose header <shaders/name.h> declares, for each
# source `x.comp`, `extern const std::uint32_t x_comp_spv[]` and `x_comp_spv_size` (bytes).
function(bv_embed_shaders)
  cmake_parse_arguments(ARG "" "TARGET" "SOURCES;DEPENDS" ${ARGN})
  set(outdir ${CMAKE_CURRENT_BINARY_DIR}/embedded)
  file(MAKE_DIRECTORY ${outdir}/shaders)
  set(generated_sources)
  set(declarations "")
  foreach(src ${ARG_SOURCES})
    get_filename_component(name ${src} NAME)
    string(REPLACE "." "_" symbol ${name})
    set(spv ${outdir}/${name}.spv)
    set(cpp ${outdir}/${symbol}_spv.cpp)
    add_custom_command(
      OUTPUT ${spv}
      COMMAND ${GLSLANG_VALIDATOR} -V --target-env vulkan1.1 -o ${spv} ${CMAKE_CURRENT_SOURCE_DIR}/${src}
      DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${src} ${ARG_DEPENDS}
      COMMENT "glslangValidator ${src}"
      VERBATIM)
    add_custom_command(
      OUTPUT ${cpp}
      COMMAND ${CMAKE_COMMAND} -DINPUT=${spv} -DOUTPUT=${cpp} -DSYMBOL=${symbol}_spv
              -P ${PROJECT_SOURCE_DIR}/cmake/EmbedSpirv.cmake
      DEPENDS ${spv} ${PROJECT_SOURCE_DIR}/cmake/EmbedSpirv.cmake
      VERBATIM)
    list(APPEND generated_sources ${cpp})
    string(APPEND declarations "extern const std::uint32_t ${symbol}_spv[];\nextern const std::size_t ${symbol}_spv_size;\n")
  endforeach()
  file(CONFIGURE OUTPUT ${outdir}/shaders/${ARG_TARGET}.h
       CONTENT "#pragma once\n#include <cstddef>\n#include <cstdint>\n${declarations}")
  add_library(${ARG_TARGET} STATIC ${generated_sources})
  target_include_directories(${ARG_TARGET} PUBLIC ${outdir})
endfunction()
