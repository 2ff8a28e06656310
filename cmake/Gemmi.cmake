# gemmi (Debian gemmi-dev, header-only) reads MTZ, mmCIF and PDB files and computes structure
# factors (compute/io/StructureFactorFiles.h); its CIF parser needs PEGTL (tao-pegtl-dev) and
# its number formatting stb_sprintf (libstb-dev). scripts/setup.sh installs all three. One
# imported target, braggview_gemmi, for compute/io and for the fuzz build that clones it.
if(NOT TARGET braggview_gemmi)
  find_path(BV_GEMMI_INCLUDE_DIR gemmi/mtz.hpp)
  find_path(BV_PEGTL_INCLUDE_DIR tao/pegtl.hpp)
  if(NOT BV_GEMMI_INCLUDE_DIR OR NOT BV_PEGTL_INCLUDE_DIR)
    message(FATAL_ERROR "gemmi's headers (Debian gemmi-dev) and PEGTL's (tao-pegtl-dev) are "
                        "needed for -mtz, -sfcif and -model: run scripts/setup.sh")
  endif()
  add_library(braggview_gemmi INTERFACE IMPORTED)
  target_include_directories(braggview_gemmi SYSTEM INTERFACE ${BV_GEMMI_INCLUDE_DIR}
                                                              ${BV_PEGTL_INCLUDE_DIR})
endif()
