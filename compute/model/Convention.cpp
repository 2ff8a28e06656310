#include "compute/model/Convention.h"

namespace bv {

LabAxes conventionAxes(Convention convention) {
    LabAxes axes; // the reference's initial values, which are MOSFLM's
    switch (convention) {
    case Convention::Custom:
        // the reference declares its two-theta axis as y; only the named conventions replace it
        axes.twothetaAxis = {0, 1, 0};
        break;
    case Convention::Mosflm:
    case Convention::Denzo:
        break;
    case Convention::Adxv:
        axes.beam = {0, 0, 1};
        axes.fdet = {1, 0, 0};
        axes.sdet = {0, -1, 0};
        axes.odet = {0, 0, 1};
        axes.twothetaAxis = {-1, 0, 0};
        axes.polarization = {1, 0, 0};
        axes.spindle = {1, 0, 0};
        break;
    case Convention::Xds:
        axes.beam = {0, 0, 1};
        axes.fdet = {1, 0, 0};
        axes.sdet = {0, 1, 0};
        axes.odet = {0, 0, 1};
        axes.twothetaAxis = {1, 0, 0};
        axes.polarization = {1, 0, 0};
        axes.spindle = {1, 0, 0};
        break;
    case Convention::Dials:
        axes.beam = {0, 0, 1};
        axes.fdet = {1, 0, 0};
        axes.sdet = {0, 1, 0};
        axes.odet = {0, 0, 1};
        axes.twothetaAxis = {0, 1, 0};
        axes.polarization = {0, 1, 0};
        axes.spindle = {0, 1, 0};
        break;
    }
    return axes;
}

std::optional<Pivot> conventionPivot(Convention convention) {
    switch (convention) {
    case Convention::Adxv:
    case Convention::Mosflm:
    case Convention::Denzo:
        return Pivot::Beam;
    case Convention::Xds:
    case Convention::Dials:
        return Pivot::Sample;
    case Convention::Custom:
        break;
    }
    return std::nullopt;
}

const char* conventionName(Convention convention) {
    switch (convention) {
    case Convention::Custom: return "custom";
    case Convention::Adxv: return "adxv";
    case Convention::Mosflm: return "mosflm";
    case Convention::Denzo: return "denzo";
    case Convention::Xds: return "xds";
    case Convention::Dials: return "dials";
    }
    return "?";
}

std::optional<Convention> conventionFromName(const std::string& name) {
    for (Convention c : {Convention::Custom, Convention::Adxv, Convention::Mosflm,
                         Convention::Denzo, Convention::Xds, Convention::Dials})
        if (name == conventionName(c))
            return c;
    return std::nullopt;
}

const char* pivotName(Pivot pivot) { return pivot == Pivot::Beam ? "beam" : "sample"; }

} // namespace bv
