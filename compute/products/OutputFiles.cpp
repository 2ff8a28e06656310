#include "compute/products/OutputFiles.h"

#include <filesystem>

namespace bv::products {

OutputFiles OutputFiles::ofSingleRun(const OutputOptions& o) {
    OutputFiles files;
    files.floatFile = o.floatFile;
    files.intFile = o.intFile;
    if (o.writePgm)
        files.pgmFile = o.pgmFile;
    if (o.writeNoise)
        files.noiseFile = o.noiseFile;
    if (o.writeCbf)
        files.cbfFile = o.cbfFile;
    if (o.writeNexus)
        files.nexusFile = o.nexusFile;
    return files;
}

std::vector<std::pair<std::string, std::string>> OutputFiles::named() const {
    std::vector<std::pair<std::string, std::string>> out;
    const std::pair<const char*, const std::string*> all[] = {{"-floatfile", &floatFile},
                                                              {"-intfile", &intFile},
                                                              {"-pgmfile", &pgmFile},
                                                              {"-noisefile", &noiseFile},
                                                              {"-cbffile", &cbfFile},
                                                              {"-nexusfile", &nexusFile}};
    for (const auto& [option, name] : all)
        if (!name->empty())
            out.emplace_back(option, *name);
    return out;
}

bool OutputFiles::allExist() const {
    const auto files = named();
    if (files.empty())
        return false;
    for (const auto& [option, name] : files) {
        std::error_code ignored;
        if (!std::filesystem::is_regular_file(name, ignored))
            return false;
    }
    return true;
}

} // namespace bv::products
