# Writes a .cpp defining a uint32_t array with the words of a SPIR-V file.
file(READ ${INPUT} hex HEX)
string(LENGTH "${hex}" hexlen)
math(EXPR bytes "${hexlen} / 2")
# SPIR-V is a stream of little-endian 32-bit words: bytes b0 b1 b2 b3 -> 0xb3b2b1b0
string(REGEX REPLACE "([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])([0-9a-f][0-9a-f])"
       "0x\\4\\3\\2\\1u," words "${hex}")
string(REGEX REPLACE "((0x[0-9a-f]+u,){8})" "\\1\n" words "${words}")
file(WRITE ${OUTPUT} "#include <cstddef>\n#include <cstdint>\nextern const std::uint32_t ${SYMBOL}[];\nextern const std::size_t ${SYMBOL}_size;\nconst std::uint32_t ${SYMBOL}[] = {\n${words}};\nconst std::size_t ${SYMBOL}_size = ${bytes};\n")
