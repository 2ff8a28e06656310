#pragma once
// What -detector names, read into panels: a built-in preset (compute/model/DetectorPresets.h),
// a DIALS experiment list (.expt, .json) or a CrystFEL geometry file (.geom). The -detector
// option and a session that names its detector without the panel list
// (compute/request/SessionFile.h) both read it here, so they take the same names the same way.
//
//     bv::PanelDetector d = bv::cli::readDetectorSource("eiger2-16m", "-detector eiger2-16m");
//     d.panels.size(); // 32 modules, facing the beam 100 mm from the sample

#include "compute/model/PanelDetector.h"

#include <string>

namespace bv::request {

// Whether `name` is a preset's name, in any case (a preset is never taken as a file name).
bool isDetectorPreset(const std::string& name);
// The name as a request keeps it: a preset's as the list spells it ("Pilatus3-6M" ->
// "pilatus3-6m"), a file's as given.
std::string detectorSourceName(const std::string& name);
// Whether `name` ends as a file readDetectorSource reads does: .expt, .json or .geom.
bool isDetectorFileName(const std::string& name);

// The panels as stated: a preset's facing the beam at nanoBragg's default distance (100 mm),
// with the beam at its centre; a file's where the file puts them. Checked with validatePanels.
// Throws bv::Error "<where>: ..." for a name that is neither a preset (saying which presets it
// may have meant) nor a file of a known kind, a file its reader refuses (the reader's
// message, which names the file) or panels that fail the checks.
PanelDetector readDetectorSource(const std::string& name, const std::string& where);

} // namespace bv::request
