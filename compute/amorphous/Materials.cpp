#include "compute/amorphous/Materials.h"

#include "compute/core/Error.h"
#include "generated/StolTables.h"

#include <filesystem>

namespace bv::amorphous {

namespace {

struct Material {
    const char* name;
    std::string_view text;
};

const Material kMaterials[] = {{"water", kWaterStol},
                               {"air", kAirStol},
                               {"ice", kIceStol},
                               {"nanoice", kNanoiceStol},
                               {"unity", kUnityStol}};

} // namespace

std::vector<std::string> materialNames() {
    std::vector<std::string> names;
    for (const Material& m : kMaterials)
        names.emplace_back(m.name);
    return names;
}

std::optional<std::string_view> builtinStolText(std::string_view name) {
    constexpr std::string_view suffix = ".stol";
    if (name.size() > suffix.size() && name.substr(name.size() - suffix.size()) == suffix)
        name.remove_suffix(suffix.size());
    for (const Material& m : kMaterials)
        if (name == m.name)
            return m.text;
    return std::nullopt;
}

io::StolTable stolTable(const std::string& nameOrPath) {
    std::error_code ec;
    if (std::filesystem::exists(nameOrPath, ec))
        return io::readStolFile(nameOrPath);
    if (const std::optional<std::string_view> text = builtinStolText(nameOrPath))
        return io::parseStolText(*text, nameOrPath + " (built in)");
    std::string known;
    for (const std::string& n : materialNames())
        known += (known.empty() ? "" : ", ") + n;
    throw Error("-stol " + nameOrPath + ": no such file, and not a built-in material (" + known +
                ")");
}

} // namespace bv::amorphous
