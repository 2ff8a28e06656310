#pragma once
// What resolve() makes of nanoBragg's words, for the tests that check a resolved experiment
// (the plan's preview sampling, the Ewald scene, the spots the shader draws).
//
//     const bv::ResolvedExperiment r = bv::testing::resolvedOf("-cell 10 10 10 90 90 90 ...");
//
// The resolved experiment borrows the Experiment's structure factors, so the Experiment is
// kept here, until the next call.

#include "compute/cli/CommandLine.h"
#include "compute/model/Resolve.h"
#include "compute/random/ReferenceRandom.h"
#include "tests/TestSupport.h"

#include <QString>

#include <sstream>
#include <string>
#include <vector>

namespace bv::testing {

inline ResolvedExperiment resolvedOf(const std::vector<std::string>& args) {
    static Experiment kept;
    kept = cli::parseCommandLine(args).experiment;
    random::ReferenceRandom rng;
    std::ostringstream log;
    return resolve(kept, rng, log);
}

inline ResolvedExperiment resolvedOf(const QString& options) {
    return resolvedOf(words(options));
}

// Two modules side by side with a 4 mm gap, in the frame of `r`'s flat detector (0.2 mm
// pixels, 100 mm away): "left" 50 x 100 pixels from -12 to -2 mm along fast, "right" 40 x 100
// from 2 to 10 mm, both from -10 to 10 mm along slow; as a preset's or a file's panels.
inline ResolvedExperiment twoModules(ResolvedExperiment r) {
    const DetectorGeometry& d = r.detector;
    r.panels.clear();
    r.panelsFromSource = true;
    for (int i = 0; i < 2; ++i) {
        PanelGeometry p;
        p.name = i == 0 ? "left" : "right";
        p.fdet = d.fdet;
        p.sdet = d.sdet;
        p.odet = d.odet;
        p.pixelSize = 0.2e-3;
        p.fastPixels = i == 0 ? 50 : 40; // 10 mm and 8 mm wide
        p.slowPixels = 100;
        p.pix0 = 0.1 * d.odet + (i == 0 ? -0.012 : 0.002) * d.fdet - 0.010 * d.sdet;
        r.panels.push_back(p);
    }
    return r;
}

} // namespace bv::testing
