#include "compute/cli/DetectorSource.h"

#include "compute/core/Error.h"
#include "compute/io/CrystfelGeometry.h"
#include "compute/io/DialsExperiment.h"
#include "compute/model/DetectorPresets.h"

namespace bv::cli {

namespace {

bool endsWith(const std::string& name, const std::string& tail) {
    return name.size() >= tail.size() &&
           name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
}

} // namespace

bool isDetectorFile(const std::string& name) {
    return endsWith(name, ".geom") || endsWith(name, ".expt") || endsWith(name, ".json");
}

PanelDetector detectorPanels(const std::string& name) {
    PanelDetector panels;
    if (const DetectorPreset* preset = findDetectorPreset(name)) {
        // facing the beam at nanoBragg's default distance; -distance moves it
        panels = presetDetector(*preset, 0.1);
    } else if (endsWith(name, ".geom")) {
        panels = io::readCrystfelGeometry(name).detector;
    } else if (endsWith(name, ".expt") || endsWith(name, ".json")) {
        panels = io::readDialsExperiment(name).detector;
    } else {
        throw Error("-detector " + name +
                    ": not a preset (-detector list shows them), nor a .expt, .json or .geom "
                    "file");
    }
    validatePanels(panels, "-detector " + name);
    return panels;
}

} // namespace bv::cli
