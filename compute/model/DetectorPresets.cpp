#include "compute/model/DetectorPresets.h"

#include "compute/core/EditDistance.h"
#include "compute/core/Error.h"

#include <cctype>

namespace bv {

namespace {

// Sources (the numbers below are typed from them; tests/compute/model/tst_detectorpresets.cpp
// types them again from the same sources):
//
// [pyFAI] silx-kit/pyFAI, src/pyFAI/detectors/_dectris.py and _psi.py: the module sizes,
//   gaps and full image shapes of the DECTRIS and PSI detectors, as the manufacturers'
//   image layouts give them: Eiger2 MODULE_SIZE (512, 1028), MODULE_GAP (38, 12) (slow,
//   fast); Eiger2_4M MAX_SHAPE (2162, 2068); Eiger2_16M MAX_SHAPE (4362, 4148); Pilatus
//   MODULE_SIZE (195, 487), MODULE_GAP (17, 7), pixel 172 um, Pilatus6M MAX_SHAPE
//   (2527, 2463); Jungfrau4M (_psi.py) MODULE_SIZE (514, 1030), MODULE_GAP (36, 8),
//   MAX_SHAPE (2164, 2068), pixel 75 um.
// [EIGER2] T. Donath et al., "EIGER2 hybrid-photon-counting X-ray detectors for advanced
//   synchrotron diffraction experiments", J. Synchrotron Rad. 30 (2023),
//   doi:10.1107/S160057752300454X: 75 um pixels.
// [PILATUS] DECTRIS, User Manual PILATUS3 V2.1, which covers the PILATUS3 6M (its section
//   9.2 flags the module gaps in the image); the numbers themselves are pyFAI's above.
// [JF] European XFEL, "JUNGFRAU detector documentation", General Introduction
//   (rtd.xfel.eu/docs/jungfrau-detector-documentation): 75 um pitch, 256 x 256 pixel chips,
//   4 x 2 chips per module of 1024 columns x 512 rows, sensor typically 320 um of Si. The
//   image module of 1030 x 514 ([pyFAI] Jungfrau4M) is 6 and 2 pixels larger than the
//   chips' 1024 x 512: the larger sensor pixels along the chip borders take more than one
//   image pixel. The preset draws the image's grid of equal 75 um pixels.
// [ePix10k] G. Blaj et al., "Performance of ePix10K, a high dynamic range, gain
//   auto-ranging pixel detector for FELs", arXiv:1903.06805 (2019): modules of 4 ASICs,
//   352 x 384 pixels of 100 um. The 2M camera at LCLS (MFX) has 16 of them: OM's psana
//   data layer (ondamonitor) reshapes its frames to (16 x 352, 384), 352 rows of 384.
//   The real camera groups its modules in quadrants (psana's composite detectors
//   EPIX10KA2M and EPIX10KAQUAD), and no published gap between them was found: the 4 x 4
//   grid and its 20-pixel (2 mm) gap here are a placeholder (gapPublished = false), good
//   for a picture of the pattern, not for a real layout.
DetectorPreset eiger2(std::string name, std::string description, int modulesFast, int modulesSlow) {
    DetectorPreset p;
    p.name = std::move(name);
    p.description = std::move(description);
    p.modulesFast = modulesFast;
    p.modulesSlow = modulesSlow;
    p.moduleFast = 1028; // [pyFAI] Eiger2 MODULE_SIZE (512, 1028)
    p.moduleSlow = 512;
    p.gapFast = 12; // [pyFAI] Eiger2 MODULE_GAP
    p.gapSlow = 38;
    p.pixelSize = 75e-6; // [EIGER2]
    p.material = "Si";   // DECTRIS sells 450 and 750 um sensors: no one thickness is standard
    return p;
}

std::vector<DetectorPreset> makePresets() {
    std::vector<DetectorPreset> presets;
    presets.push_back(eiger2("eiger2-16m", "DECTRIS EIGER2 X 16M", 4, 8)); // 4148 x 4362
    presets.push_back(eiger2("eiger2-4m", "DECTRIS EIGER2 X 4M", 2, 4));   // 2068 x 2162

    DetectorPreset pilatus;
    pilatus.name = "pilatus3-6m";
    pilatus.description = "DECTRIS PILATUS3 6M";
    pilatus.modulesFast = 5; // 2463 x 2527 pixels [pyFAI] Pilatus6M MAX_SHAPE
    pilatus.modulesSlow = 12;
    pilatus.moduleFast = 487; // [pyFAI] Pilatus MODULE_SIZE (195, 487)
    pilatus.moduleSlow = 195;
    pilatus.gapFast = 7; // [pyFAI] Pilatus MODULE_GAP (17, 7)
    pilatus.gapSlow = 17;
    pilatus.pixelSize = 172e-6; // [pyFAI] Pilatus pixel1, pixel2
    pilatus.material = "Si";    // 450 or 1000 um, as ordered
    presets.push_back(pilatus);

    DetectorPreset jungfrau;
    jungfrau.name = "jungfrau-4m";
    jungfrau.description = "PSI JUNGFRAU 4M";
    jungfrau.modulesFast = 2; // [pyFAI] Jungfrau4M MAX_SHAPE (2164, 2068): 2 x 4 modules
    jungfrau.modulesSlow = 4;
    jungfrau.moduleFast = 1030; // [pyFAI] MODULE_SIZE (514, 1030); [JF] 1024 x 512 + borders
    jungfrau.moduleSlow = 514;
    jungfrau.gapFast = 8; // [pyFAI] MODULE_GAP (36, 8)
    jungfrau.gapSlow = 36;
    jungfrau.pixelSize = 75e-6;  // [JF]
    jungfrau.thickness = 320e-6; // [JF] "typically 320 um thick Si"
    jungfrau.material = "Si";
    presets.push_back(jungfrau);

    DetectorPreset epix;
    epix.name = "epix10k-2m";
    epix.description = "SLAC ePix10k 2M (LCLS)";
    epix.modulesFast = 4; // 16 modules [ePix10k]; the 4 x 4 grid is a placeholder
    epix.modulesSlow = 4;
    epix.moduleFast = 384; // [ePix10k] 352 rows of 384 pixels
    epix.moduleSlow = 352;
    epix.gapFast = 20; // not published: a placeholder (see [ePix10k] above)
    epix.gapSlow = 20;
    epix.gapPublished = false;
    epix.pixelSize = 100e-6; // [ePix10k]
    epix.material = "Si";
    presets.push_back(epix);
    return presets;
}

} // namespace

const std::vector<DetectorPreset>& detectorPresets() {
    static const std::vector<DetectorPreset> presets = makePresets();
    return presets;
}

namespace {

std::string lowered(std::string text) {
    for (char& ch : text)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return text;
}

} // namespace

const DetectorPreset* findDetectorPreset(const std::string& name) {
    // as the manufacturers write them (Pilatus3-6M) or as listed: the names differ by more
    // than case, so no two presets can meet here
    const std::string wanted = lowered(name);
    for (const DetectorPreset& p : detectorPresets())
        if (p.name == wanted)
            return &p;
    return nullptr;
}

std::vector<std::string> suggestDetectorPresets(const std::string& name) {
    const std::string wanted = lowered(name);
    std::vector<std::string> names;
    if (wanted.size() >= 3) // "pilatus", "eiger2": the presets it begins
        for (const DetectorPreset& p : detectorPresets())
            if (p.name.compare(0, wanted.size(), wanted) == 0)
                names.push_back(p.name);
    if (!names.empty())
        return names;
    std::size_t best = typoAllowance(wanted.size()) + 1;
    for (const DetectorPreset& p : detectorPresets()) {
        const std::size_t d = editDistance(wanted, p.name);
        if (d < best) {
            best = d;
            names.clear();
        }
        if (d == best)
            names.push_back(p.name);
    }
    return names;
}

PanelDetector presetDetector(const DetectorPreset& preset, double distance, const LabAxes& axes) {
    if (!(distance > 0.0))
        throw Error(preset.name + ": the distance must be greater than 0");
    // the image's first corner: half the image back along fast and slow from the beam spot
    const glm::dvec3 spot = distance * axes.beam;
    const glm::dvec3 corner =
        spot - 0.5 * preset.widthFast() * axes.fdet - 0.5 * preset.widthSlow() * axes.sdet;
    PanelDetector detector;
    for (int j = 0; j < preset.modulesSlow; ++j) {
        for (int i = 0; i < preset.modulesFast; ++i) {
            Panel p;
            p.name = "m" + std::to_string(j) + "_" + std::to_string(i);
            p.fast = axes.fdet;
            p.slow = axes.sdet;
            p.pixelSizeFast = p.pixelSizeSlow = preset.pixelSize;
            p.fastPixels = preset.moduleFast;
            p.slowPixels = preset.moduleSlow;
            p.origin =
                corner +
                double(i * (preset.moduleFast + preset.gapFast)) * preset.pixelSize * axes.fdet +
                double(j * (preset.moduleSlow + preset.gapSlow)) * preset.pixelSize * axes.sdet;
            p.thickness = preset.thickness;
            p.material = preset.material;
            detector.panels.push_back(p);
        }
    }
    return detector;
}

} // namespace bv
