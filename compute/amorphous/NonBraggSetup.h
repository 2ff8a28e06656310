#pragma once
// What nonBragg derives from its options before the pixel loop, in its order
// (nonBragg.c: detector size, beam centre defaults, fluence, the sample's molecules, the
// unit vectors, the step choices, the detector's placement, the .stol table padded for the
// spline, the sources): everything the amorphous image and the files' headers need.
#include "compute/amorphous/NonBraggOptions.h"
#include "compute/amorphous/StolSpline.h"

#include <glm/vec3.hpp>

#include <vector>

namespace bv::amorphous {

struct AmorphousSource {
    glm::dvec3 position; // relative to the sample (m); X-rays travel from it to the sample
    double weight = 1.0;
    double lambda = 1e-10;
};

struct NonBraggSetup {
    NonBraggOptions options; // as given, with the reference's later adjustments
    int fpixels = 0, spixels = 0;
    double detsizeX = 0, detsizeY = 0;
    double fluence = 0, molecules = 0;
    double sampleX = 0, sampleY = 0, sampleZ = 0, density = 0;
    glm::dvec3 beam, fdet, sdet, odet, polar, vert, pix0;
    double Xbeam = 0, Ybeam = 0, Xclose = 0, Yclose = 0, distance = 0, closeDistance = 0;
    double osc = 0; // header OSC_RANGE (radians)
    double hdivrange = 0, hdivstep = 0, vdivrange = 0, vdivstep = 0, dispersion = 0;
    double dispstepValue = 0;
    int hdivsteps = 1, vdivsteps = 1, dispsteps = 1, divsteps = 0;
    std::vector<AmorphousSource> sources;
    int oversample = 1;
    int roiXmin = 0, roiXmax = 0, roiYmin = 0, roiYmax = 0;
    StolSpline spline;
    std::vector<std::string> notes; // the reference's warnings ("clipping sample ...")
};

// Throws bv::Error for what the reference would divide by zero or allocate without bound on:
// a pixel size or detector size that is not positive, more than 2^28 pixels, a source file
// without sources, a sample of zero volume or molecular weight.
NonBraggSetup setUpNonBragg(const NonBraggOptions& options);

} // namespace bv::amorphous
