# The layers of the project and which layers each may use (docs/architecture.md draws them).
# One table, two checks:
#  - bv_check_layer_links(): at configure time, every layer's library links only libraries of
#    the layers it may use (a forbidden link stops cmake with a message);
#  - `cmake -DSOURCE_DIR=<tree> -P cmake/Layers.cmake`: every #include "compute/..",
#    "render/..", "app/.." of every source file names a layer its folder may use (ctest runs
#    this as layering.includes; tests/layering holds a tree that must fail it).
#
# A layer is a folder; its library is braggview_<last part of the folder>.

if(CMAKE_SCRIPT_MODE_FILE)
  cmake_minimum_required(VERSION 3.25)
endif()

set(BV_LAYERS
  compute/core compute/random compute/model compute/io compute/request compute/cli compute/plan
  compute/vk compute/engine compute/run compute/products compute/amorphous
  compute/detector_response compute/refine compute/headless render/scene render app)

set(BV_LAYER_USES_compute/core "")
set(BV_LAYER_USES_compute/random compute/core)
set(BV_LAYER_USES_compute/model compute/core compute/random)
set(BV_LAYER_USES_compute/io compute/core compute/random compute/model)
# The run request and the parameter table: above model and io, below every front end.
set(BV_LAYER_USES_compute/request compute/core compute/random compute/model compute/io)
set(BV_LAYER_USES_compute/cli compute/core compute/random compute/model compute/io
    compute/request)
set(BV_LAYER_USES_compute/plan compute/core compute/random compute/model)
# The Vulkan wrappers know nothing of the physics: no model, no plan.
set(BV_LAYER_USES_compute/vk compute/core)
set(BV_LAYER_USES_compute/engine compute/core compute/random compute/model compute/plan compute/vk)
# One run's preparation (resolve, plan, the Simulator's plan), used by every front end.
set(BV_LAYER_USES_compute/run
  compute/core compute/random compute/model compute/plan compute/vk compute/engine)
# products take a request, never words: no cli. The noise image of a run with -response_* is
# noisify's chain (compute/detector_response, on the CPU), made where every noise image is.
set(BV_LAYER_USES_compute/products
  compute/core compute/random compute/model compute/io compute/request compute/plan
  compute/detector_response)
# nonBragg's amorphous background and noisify's detector response: CPU physics and the two
# programs' command lines, on io and the reference's generator only.
set(BV_LAYER_USES_compute/amorphous compute/core compute/random compute/model compute/io
    compute/vk)
set(BV_LAYER_USES_compute/detector_response compute/core compute/random compute/model compute/io
    compute/vk)
# Refinement against a measured frame: the forward model is handed in, so no GPU here.
set(BV_LAYER_USES_compute/refine compute/core compute/random compute/model compute/io)
set(BV_LAYER_USES_compute/headless
  compute/core compute/random compute/model compute/io compute/request compute/cli compute/plan
  compute/vk compute/engine compute/run compute/products compute/amorphous
  compute/detector_response compute/refine)
# The reciprocal view's drawing (camera, vertices, pipelines) is free of Qt: it builds and is
# benchmarked where there is no Qt. It draws plan::EwaldScene, hence plan and what plan uses.
set(BV_LAYER_USES_render/scene compute/core compute/random compute/model compute/plan compute/vk)
set(BV_LAYER_USES_render compute/core compute/random compute/model compute/plan compute/vk
    render/scene)
set(BV_LAYER_USES_app ${BV_LAYERS})

function(bv_layer_library layer out)
  get_filename_component(leaf ${layer} NAME)
  set(${out} braggview_${leaf} PARENT_SCOPE)
endfunction()

# Configure-time check of the links between the layers' libraries.
function(bv_check_layer_links)
  set(layer_libraries "")
  foreach(layer IN LISTS BV_LAYERS)
    bv_layer_library(${layer} lib)
    list(APPEND layer_libraries ${lib})
  endforeach()
  foreach(layer IN LISTS BV_LAYERS)
    bv_layer_library(${layer} lib)
    if(NOT TARGET ${lib})
      continue()
    endif()
    set(allowed ${lib})
    foreach(used IN LISTS BV_LAYER_USES_${layer})
      bv_layer_library(${used} used_lib)
      list(APPEND allowed ${used_lib})
    endforeach()
    get_target_property(type ${lib} TYPE)
    set(links "")
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      get_target_property(links ${lib} LINK_LIBRARIES)
    endif()
    get_target_property(interface_links ${lib} INTERFACE_LINK_LIBRARIES)
    foreach(link IN LISTS links interface_links)
      if(link IN_LIST layer_libraries AND NOT link IN_LIST allowed)
        message(FATAL_ERROR "layering: ${lib} (${layer}) links ${link}, which ${layer} may not "
                            "use (cmake/Layers.cmake lists what each layer may use)")
      endif()
    endforeach()
  endforeach()
endfunction()

# Script mode: check the includes of every source file under SOURCE_DIR.
if(CMAKE_SCRIPT_MODE_FILE AND CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  if(NOT SOURCE_DIR)
    message(FATAL_ERROR "usage: cmake -DSOURCE_DIR=<source tree> -P Layers.cmake")
  endif()
  set(violations 0)
  foreach(layer IN LISTS BV_LAYERS)
    file(GLOB_RECURSE sources LIST_DIRECTORIES false
         ${SOURCE_DIR}/${layer}/*.h ${SOURCE_DIR}/${layer}/*.cpp ${SOURCE_DIR}/${layer}/*.in)
    foreach(source IN LISTS sources)
      # a file of a layer nested in this one (render/scene in render) is checked as that layer's
      set(nested FALSE)
      foreach(other IN LISTS BV_LAYERS)
        string(LENGTH "${other}" other_length)
        string(LENGTH "${layer}" layer_length)
        string(FIND "${source}" "${SOURCE_DIR}/${other}/" at)
        if(other_length GREATER layer_length AND at EQUAL 0)
          set(nested TRUE)
        endif()
      endforeach()
      if(nested)
        continue()
      endif()
      file(STRINGS ${source} includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"(compute|render|app)/")
      foreach(line IN LISTS includes)
        string(REGEX MATCH "\"((compute/[a-z_]+)|render/scene|render|app)/" match "${line}")
        set(target_layer ${CMAKE_MATCH_1})
        if(target_layer STREQUAL layer OR target_layer IN_LIST BV_LAYER_USES_${layer})
          continue()
        endif()
        file(RELATIVE_PATH where ${SOURCE_DIR} ${source})
        string(STRIP "${line}" line)
        message(SEND_ERROR "layering: ${where}: ${line}: ${layer} may not use ${target_layer}")
        math(EXPR violations "${violations} + 1")
      endforeach()
    endforeach()
  endforeach()
  if(violations GREATER 0)
    message(FATAL_ERROR "${violations} include(s) across a forbidden layer boundary "
                        "(cmake/Layers.cmake lists what each layer may use)")
  endif()
  message(STATUS "layering: every include follows cmake/Layers.cmake")
endif()
