#include "compute/products/FileHeaders.h"

#include "compute/io/NumberText.h"
#include "compute/model/Units.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <optional>

namespace bv::products {

io::SmvHeader smvHeader(const RunRequest& cl, const ResolvedExperiment& r) {
    const DetectorGeometry& d = r.detector;
    io::SmvHeader h;
    h.fpixels = d.fastPixels;
    h.spixels = d.slowPixels;
    h.pixelSizeMm = d.pixelSize * 1000.0;
    h.distanceMm = d.distance * 1000.0;
    h.wavelengthA = r.wavelength * 1e10;
    // BEAM_CENTER_X/Y as dxtbx's FormatSMVJHSim reads them (it takes every BEAMLINE=fake
    // image): the detector's origin is (-(X + pixel), SIZE2 * pixel - Y + pixel) mm, its fast
    // axis +x and slow axis -y. So that DIALS puts the image where DIALS_ORIGIN says, X and Y
    // come from that origin. The reference writes Xbeam and Ybeam here, which DIALS misplaces
    // unless the beam is centred (by 9 pixels for -Xbeam 51.73 -Ybeam 50.88 on 1024 pixels of
    // 0.1 mm; docs/reference-quirks.md).
    const double pixelMm = d.pixelSize * 1000.0;
    h.beamCenterXMm = -d.dialsOrigin.x - pixelMm;
    h.beamCenterYMm = d.slowPixels * pixelMm + pixelMm - d.dialsOrigin.y;
    h.adxvCenterXMm = d.Fbeam * 1000.0;
    h.adxvCenterYMm = (d.sizeSlow - d.Sbeam) * 1000.0;
    h.mosflmCenterXMm = (d.Sbeam - 0.5 * d.pixelSize) * 1000.0;
    h.mosflmCenterYMm = (d.Fbeam - 0.5 * d.pixelSize) * 1000.0;
    h.denzoXBeamMm = d.Sbeam * 1000.0;
    h.denzoYBeamMm = d.Fbeam * 1000.0;
    h.dialsOriginMm = d.dialsOrigin;
    h.orgX = d.orgX;
    h.orgY = d.orgY;
    h.closeDistanceMm = d.closeDistance * 1000.0;
    h.phiDeg = units::degreesFromRadians(r.phi0);
    h.oscStartDeg = units::degreesFromRadians(r.phi0);
    h.oscRangeDeg = units::degreesFromRadians(r.phi.range);
    h.twoThetaDeg = units::degreesFromRadians(cl.experiment.detector.twotheta);
    return h;
}

io::CbfHeader cbfHeader(const ResolvedExperiment& r, const std::string& path, double epochSeconds) {
    const DetectorGeometry& d = r.detector;
    io::CbfHeader h;
    h.fastPixels = d.fastPixels;
    h.slowPixels = d.slowPixels;
    h.pixelSizeM = d.pixelSize;
    h.wavelengthA = r.wavelength * 1e10;
    h.distanceM = d.closeDistance;
    // Fbeam, Sbeam: from pix0, the outer corner of the first pixel, along fdet and sdet
    h.beamFastPixels = d.Fbeam / d.pixelSize;
    h.beamSlowPixels = d.Sbeam / d.pixelSize;
    h.startAngleDeg = units::degreesFromRadians(r.phi0);
    h.angleIncrementDeg = units::degreesFromRadians(r.phi.range);
    h.exposureS = r.exposure > 0.0 ? r.exposure : 1.0;
    h.thicknessM = r.thickness.range;
    // the angle between the beam and the detector normal
    const double cosine = std::clamp(std::abs(d.beamInDetector.z), 0.0, 1.0);
    h.twoThetaDeg = units::degreesFromRadians(std::acos(cosine));
    h.flux = r.flux;
    h.polarization = r.kahnFactor;
    const std::string stem = std::filesystem::path(path).stem().string();
    h.dataName = stem.empty() ? std::string("image") : stem;
    h.timestamp = isoTimestamp(epochSeconds);
    h.software = "braggview " BRAGGVIEW_VERSION;
    return h;
}

double runStartSeconds() {
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH")) {
        // parsed as in the C locale, whatever the process's locale is
        const std::optional<double> value = io::parseDouble(epoch);
        if (value && std::isfinite(*value) && *value >= 0.0)
            return *value;
    }
    using namespace std::chrono;
    return duration<double>(system_clock::now().time_since_epoch()).count();
}

std::string isoTimestamp(double epochSeconds) {
    const double whole = std::floor(epochSeconds);
    const auto seconds = static_cast<std::time_t>(whole);
    int millis = static_cast<int>(std::lround((epochSeconds - whole) * 1000.0));
    std::time_t shown = seconds;
    if (millis >= 1000) {
        millis -= 1000;
        ++shown;
    }
    std::tm utc{};
    gmtime_r(&shown, &utc);
    char text[40];
    const std::size_t n = std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%S", &utc);
    std::string out(text, n);
    const std::string ms = std::to_string(millis);
    return out + "." + std::string(3 - ms.size(), '0') + ms;
}

} // namespace bv::products
