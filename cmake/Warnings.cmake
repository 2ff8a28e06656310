# One INTERFACE target carries the project's warning flags; every target links it.
add_library(braggview_warnings INTERFACE)
target_compile_options(braggview_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
  -Wnon-virtual-dtor -Wold-style-cast -Woverloaded-virtual -Wnull-dereference)
