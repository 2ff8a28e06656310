#include "compute/request/DetectorSource.h"

#include "compute/core/Error.h"
#include "compute/io/CrystfelGeometry.h"
#include "compute/io/DialsExperiment.h"
#include "compute/model/DetectorPresets.h"

namespace bv::request {

bool isDetectorPreset(const std::string& name) {
    return findDetectorPreset(name) != nullptr;
}

std::string detectorSourceName(const std::string& name) {
    const DetectorPreset* preset = findDetectorPreset(name);
    return preset ? preset->name : name;
}

namespace {

bool endsWith(const std::string& name, const std::string& tail) {
    return name.size() >= tail.size() &&
           name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
}

bool isDialsName(const std::string& name) {
    return endsWith(name, ".expt") || endsWith(name, ".json");
}

} // namespace

bool isDetectorFileName(const std::string& name) {
    return endsWith(name, ".geom") || isDialsName(name);
}

PanelDetector readDetectorSource(const std::string& name, const std::string& where) {
    // a reader's message names the file; `where` says who asked for it
    const auto read = [&](auto reader) {
        try {
            return reader(name).detector;
        } catch (const Error& e) {
            throw Error(where + ": " + e.what());
        }
    };
    PanelDetector panels;
    if (const DetectorPreset* preset = findDetectorPreset(name)) {
        // facing the beam at nanoBragg's default distance; -distance moves it
        panels = presetDetector(*preset, 0.1);
    } else if (endsWith(name, ".geom")) {
        panels = read(io::readCrystfelGeometry);
    } else if (isDialsName(name)) {
        panels = read([](const std::string& path) { return io::readDialsExperiment(path); });
    } else {
        std::string meant;
        for (const std::string& suggested : suggestDetectorPresets(name))
            meant += (meant.empty() ? "did you mean " : " or ") + suggested;
        throw Error(where + ": not a preset (" + (meant.empty() ? "" : meant + "? ") +
                    "-detector list shows them), nor a .expt, .json or .geom file");
    }
    validatePanels(panels, where);
    return panels;
}

} // namespace bv::request
