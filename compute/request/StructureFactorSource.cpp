#include "compute/request/StructureFactorSource.h"

#include "compute/core/Error.h"
#include "compute/io/HklFile.h"
#include "compute/io/StructureFactorFiles.h"
#include "compute/model/Resolve.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <ostream>
#include <vector>

namespace bv::request {

const char* structureFactorOption(const RunRequest& request) {
    switch (request.hklFormat) {
    case RunRequest::HklFormat::Mtz:
        return "-mtz";
    case RunRequest::HklFormat::Cif:
        return "-sfcif";
    case RunRequest::HklFormat::Model:
        return "-model";
    case RunRequest::HklFormat::Text:
        break;
    }
    return "-hkl";
}

const char* hklFormatName(RunRequest::HklFormat format) {
    switch (format) {
    case RunRequest::HklFormat::Mtz:
        return "mtz";
    case RunRequest::HklFormat::Cif:
        return "cif";
    case RunRequest::HklFormat::Model:
        return "model";
    case RunRequest::HklFormat::Text:
        break;
    }
    return "text";
}

std::optional<RunRequest::HklFormat> hklFormatFromName(const std::string& name) {
    for (auto format : {RunRequest::HklFormat::Text, RunRequest::HklFormat::Mtz,
                        RunRequest::HklFormat::Cif, RunRequest::HklFormat::Model})
        if (name == hklFormatName(format))
            return format;
    return std::nullopt;
}

double detectorCornerResolution(const Experiment& e) {
    double lambda = e.beam.wavelength * (1.0 - 0.5 * e.beam.dispersion.range.value_or(0.0));
    for (const SourceRecord& s : e.beam.sourceFile)
        if (s.lambda > 0.0)
            lambda = std::min(lambda, s.lambda);

    std::vector<glm::dvec3> corners;
    if (e.detector.panelsFromSource()) {
        for (const Panel& p : e.detector.panels)
            for (double f : {0.0, double(p.fastPixels)})
                for (double s : {0.0, double(p.slowPixels)})
                    corners.push_back(p.position(f, s));
    } else {
        const DetectorGeometry d = resolveDetector(e, e.axes());
        for (double f : {0.0, d.sizeFast})
            for (double s : {0.0, d.sizeSlow})
                corners.push_back(d.pix0 + f * d.fdet + s * d.sdet);
    }
    const glm::dvec3 beam = glm::normalize(e.axes().beam);
    double twoTheta = 0.0;
    for (const glm::dvec3& corner : corners)
        if (glm::length(corner) > 0.0)
            twoTheta = std::max(
                twoTheta, std::acos(std::clamp(glm::dot(beam, glm::normalize(corner)), -1.0, 1.0)));
    // a corner at 2theta = 0 (a detector far off the beam's side has none): no reflection
    // reaches it, so the limit is the wavelength's (2theta = 180 degrees)
    if (twoTheta <= 0.0)
        twoTheta = M_PI;
    return lambda / (2.0 * std::sin(twoTheta / 2.0));
}

void checkStructureFactorOptions(const RunRequest& r) {
    using F = RunRequest::HklFormat;
    if (!r.sfColumn.empty() && r.hklFormat != F::Mtz && r.hklFormat != F::Cif)
        throw Error("-sf_column " + r.sfColumn +
                    " names a column of an -mtz or -sfcif file, and neither is given");
    if (r.modelDminAngstrom > 0.0 && r.hklFormat != F::Model)
        throw Error("-model_dmin is the resolution limit of -model, which is not given");
}

StructureFactors readStructureFactors(const RunRequest& r, double defaultF, std::ostream& log) {
    using F = RunRequest::HklFormat;
    checkStructureFactorOptions(r);
    switch (r.hklFormat) {
    case F::Mtz:
        return io::readMtz(r.hkl, r.sfColumn, defaultF, log);
    case F::Cif:
        return io::readReflectionCif(r.hkl, r.sfColumn, defaultF, log);
    case F::Model: {
        const double dmin = r.modelDminAngstrom > 0.0
                                ? r.modelDminAngstrom
                                : 0.95 * detectorCornerResolution(r.experiment) * 1e10;
        return io::readModelFactors(r.hkl, dmin, defaultF, log);
    }
    case F::Text:
        break;
    }
    return io::readHkl(r.hkl, defaultF, log);
}

} // namespace bv::request
