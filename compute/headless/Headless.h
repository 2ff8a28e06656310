#pragma once
// braggview --headless: nanoBragg's program, end to end, on the GPU engine. Takes the
// reference's command line, prints a summary in its words, simulates the image and writes
// its files (float always, SMV int image always, PGM unless -nopgm, noise unless -nonoise).
//
//     int status = bv::headless::runHeadless({"-cell", "100", "100", "100", "90", "90", "90",
//                                             "-default_F", "100", "-floatfile", "f.bin"},
//                                            std::cout, std::cerr);
//
// Exit status: 0 done (or -h); 1 any error, printed to err as "braggview: error: <message>"
// before any output file is written (each file appears whole or not at all); 2 a command line
// the reference would answer with its usage (the usage text goes to err).

#include <iosfwd>
#include <string>
#include <vector>

namespace bv::headless {

// args without the program name (and without "--headless").
int runHeadless(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace bv::headless
