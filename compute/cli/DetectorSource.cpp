#include "compute/cli/DetectorSource.h"

#include "compute/core/Error.h"
#include "compute/io/CrystfelGeometry.h"
#include "compute/io/DialsExperiment.h"
#include "compute/model/DetectorPresets.h"

namespace bv::cli {

bool isDetectorPreset(const std::string& name) {
    return findDetectorPreset(name) != nullptr;
}

PanelDetector readDetectorSource(const std::string& name, const std::string& where) {
    const auto endsWith = [&](const std::string& tail) {
        return name.size() >= tail.size() &&
               name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
    };
    PanelDetector panels;
    if (const DetectorPreset* preset = findDetectorPreset(name)) {
        // facing the beam at nanoBragg's default distance; -distance moves it
        panels = presetDetector(*preset, 0.1);
    } else if (endsWith(".geom")) {
        panels = io::readCrystfelGeometry(name).detector;
    } else if (endsWith(".expt") || endsWith(".json")) {
        panels = io::readDialsExperiment(name).detector;
    } else {
        throw Error(where + ": not a preset (-detector list shows them), nor a .expt, .json or "
                            ".geom file");
    }
    validatePanels(panels, where);
    return panels;
}

} // namespace bv::cli
