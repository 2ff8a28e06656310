# Runs the layering check over tests/layering/violation and passes only if it fails there,
# naming each made-up file and the boundary it crosses.
cmake_minimum_required(VERSION 3.25)
execute_process(
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_CURRENT_LIST_DIR}/violation
          -P ${CMAKE_CURRENT_LIST_DIR}/../../cmake/Layers.cmake
  RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_VARIABLE out)
string(REGEX REPLACE "[ \t\r\n]+" " " err "${err}")
if(rc EQUAL 0)
  message(FATAL_ERROR "the layering check passed a tree that breaks it:\n${out}${err}")
endif()
foreach(expected
    "compute/vk/UsesModel.cpp: #include \"compute/model/Detector.h\": compute/vk may not use compute/model"
    "compute/random/UsesIo.h: #include \"compute/io/HklFile.h\": compute/random may not use compute/io"
    "2 include(s) across a forbidden layer boundary")
  string(FIND "${err}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the layering check did not say: ${expected}\nit said: ${err}")
  endif()
endforeach()
message(STATUS "the layering check refused both made-up includes")
