#pragma once
// What `-detector NAME` names, as panels: a preset (compute/model/DetectorPresets.h, placed
// facing the beam at nanoBragg's default distance, 100 mm), a CrystFEL .geom or a DIALS
// .expt/.json file, validated. The command line's -detector and the viewer's Detector panel
// (its presets, File > Open detector geometry) take this one path.
//
//     bv::PanelDetector d = bv::cli::detectorPanels("eiger2-16m");   // 32 modules
//     bv::PanelDetector f = bv::cli::detectorPanels("refined.expt"); // as DIALS placed them
//
// Throws bv::Error: the reader's message (the file and the key or line), the validation's
// ("-detector NAME: panels ... overlap"), or "-detector NAME: not a preset ...".

#include "compute/model/PanelDetector.h"

#include <string>

namespace bv::cli {

PanelDetector detectorPanels(const std::string& name);

// Whether NAME is read from a file (.expt, .json, .geom) rather than being a preset's name.
bool isDetectorFile(const std::string& name);

} // namespace bv::cli
