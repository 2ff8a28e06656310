#pragma once
// nonBragg's command line (bl831/nanoBragg nonBragg.c) as values, in the reference's units
// after its conversions (meters, radians, photons/m^2, g/m^3): what the user stated, before
// any default is derived (NonBraggSetup.h derives them in the reference's order).
#include <glm/vec3.hpp>

#include <cstdint>

#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace bv::amorphous {

enum class NonBraggPivot { Beam, Sample };

struct NonBraggOptions {
    static constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();

    // the amorphous sample
    std::string stol;                 // -stol/-4stol/-Q: a file or a built-in material
    double stolFileMultiplier = 1e10; // 1e10 (-stol), 1e10/4 (-4stol), 1e10/(4 pi) (-Q)
    double sampleX = 1e-4, sampleY = 1e-4, sampleZ = 1e-4; // thickness, width, height (m)
    double density = 1e6;                                  // g/m^3
    double molecules = 0.0;                                // 0: from the density
    double molecularWeight = 18.0;                         // g/mol

    // beam
    double lambda0 = 1e-10;
    double fluence = 125932015286227086360700780544.0;
    double flux = 0.0, exposure = 1.0, beamsize = 1e-4;
    double dispersion = 0.0;
    int dispsteps = -1;
    double hdivrange = -1.0, vdivrange = -1.0, hdivstep = -1.0, vdivstep = -1.0;
    int hdivsteps = -1, vdivsteps = -1;
    bool roundDiv = true;
    double sourceDistance = 10.0;
    std::string sourceFile;
    double polarization = 0.0;
    bool noPolar = false;

    // detector
    double pixelSize = 0.1e-3;
    int fpixels = 0, spixels = 0;
    double detsizeX = 102.4e-3, detsizeY = 102.4e-3;
    double distance = 100.0e-3;
    double closeDistance = kUnset;
    double Xbeam = kUnset, Ybeam = kUnset, Xclose = kUnset, Yclose = kUnset;
    double ORGX = kUnset, ORGY = kUnset;
    NonBraggPivot pivot = NonBraggPivot::Beam;
    glm::dvec3 fdet{0, 0, 1}, sdet{0, -1, 0}, odet{1, 0, 0};
    glm::dvec3 beam{1, 0, 0}, polar{0, 0, 1}, spindle{0, 0, 1}, twothetaAxis{0, 1, 0};
    double twotheta = 0.0, rotx = 0.0, roty = 0.0, rotz = 0.0;
    bool curved = false, pointPixel = false, Fmap = false;
    int oversample = -1;
    int roiXmin = -1, roiXmax = -1, roiYmin = -1, roiYmax = -1;
    double adcOffset = 40.0, quantumGain = 1.0;

    // spindle (the header's PHI and OSC_RANGE only)
    double phi0 = 0.0, osc = -1.0, phistep = -1.0;
    int phisteps = -1;

    // outputs
    std::string floatFile = "floatimage.bin", intFile = "intimage.img";
    std::string pgmFile = "image.pgm", noiseFile = "noiseimage.img";
    bool noise = true;
    double intScale = 0.0, pgmScale = 0.0;
    std::optional<long> seed; // the reference's seed variable (-seed N gives -N)
    bool printout = false;
    int printoutFpixel = -1, printoutSpixel = -1;

    // braggview's own: where the image is computed (docs/amorphous.md)
    enum class Engine { Vulkan, Host };
    Engine engine = Engine::Vulkan; // -engine vulkan|host
    bool fast = false;              // -precision fast|precise (Vulkan only)
    std::string device;             // -device N|cpu, as braggview's (Vulkan only)
    bool verbose = false;           // -v: where and how long

    // -img: a measured SMV image, whose header sets defaults before every other option and
    // whose pixels are turned back into F against sin(theta)/lambda (-stolout, -ignore)
    std::string imageIn;
    std::vector<float> imagePixels; // as the reference holds them: unsigned shorts as floats
    int imageWidth = 0, imageHeight = 0;
    std::string stolOut = "output.stol";
    std::vector<std::uint16_t> ignoreValues; // pixels of these values are left out
    std::vector<std::string> ignored;        // options nonBragg passes over (-dmin, -hkl, -mat)
};

// Throws bv::Error for an unknown option, a missing value, a value that is not a number, and
// an -img file that cannot be read as an SMV image. An empty list, or one without -stol, is
// a usage error (throws too: the caller prints the usage).
NonBraggOptions parseNonBraggArguments(const std::vector<std::string>& args);

// The reference's usage text (its option list, with braggview's additions).
std::string nonBraggUsage();

} // namespace bv::amorphous
