# lld for clang's builds (scripts/sanitize.sh, scripts/fuzz.sh; Debian's lld, from
# scripts/setup.sh): it links an ASan test suite in 0.8 s where ld.bfd takes 3.3, and there are
# over a hundred. Not for gcc: pybind11 links the Python module with gcc's LTO, which only
# ld.bfd and gold read. Included by the top level and by fuzz/ configured on its own.
option(BRAGGVIEW_USE_LLD "Link with lld when the compiler is clang and accepts -fuse-ld=lld" ON)
if(BRAGGVIEW_USE_LLD AND CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=lld" BRAGGVIEW_HAVE_LLD)
  if(BRAGGVIEW_HAVE_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endif()
