// braggview-headless-dev ARGS...: runHeadless() without the viewer (what
// "braggview --headless ARGS..." runs).
#include "compute/headless/Headless.h"
#include "compute/vk/Instance.h"

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && args.front() == "--headless")
        args.erase(args.begin());
    bv::vk::skipMesaDeviceSelectLayer();
    return bv::headless::runHeadless(args, std::cout, std::cerr);
}
