#pragma once
// The reference run in tests/data/golden/noise_int_pgm, as the tests need it:
//
//   nanoBragg -cell 100 100 100 90 90 90 -lambda 6.2 -N 5 -default_F 100 -distance 100
//             -detpixels 128 -noisefile noise.img -seed 123 -intfile int.img -pgmfile image.pgm
//
// The SMV header is rebuilt by hand from the geometry the reference printed (stdout.txt),
// combined with the reference's header formulas (nanoBragg.c:3168-3179): the values are
// what it printed, the arithmetic is what it does before printing.

#include "compute/io/Smv.h"

#include <QFile>
#include <QString>

namespace golden {

inline const QString kDir = QStringLiteral(BV_TEST_DATA "/golden/noise_int_pgm/");

inline QByteArray contents(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The line of stdout.txt that starts with `prefix` (empty if none).
inline QString stdoutLine(const QString& prefix) {
    const QString text = QString::fromLatin1(contents(kDir + "stdout.txt"));
    for (const QString& line : text.split('\n'))
        if (line.startsWith(prefix))
            return line;
    return {};
}

// The line of stdout.txt that contains `text` (empty if none).
inline QString stdoutLineContaining(const QString& text) {
    const QString all = QString::fromLatin1(contents(kDir + "stdout.txt"));
    for (const QString& line : all.split('\n'))
        if (line.contains(text))
            return line;
    return {};
}

constexpr int kPixels = 128;          // -detpixels 128
constexpr double kAdcOffset = 40.0;   // the reference's default -adc
constexpr long kSeed = -123;          // -seed 123 ("seed: -123")
constexpr double kPixelSize = 0.0001; // "pixel=0.0001 meters"

inline bv::io::SmvHeader header() {
    // stdout.txt: distance=0.1 detsize=0.0128x0.0128 pixel=0.0001 meters (128x128 pixels)
    //             Xbeam=0.00645 Ybeam=0.00645  Fbeam=0.0065 Sbeam=0.0065
    //             Fclose=0.0065 Sclose=0.0065  dials origin= -6.5 6.5 -100  lambda0 = 6.2e-10
    //             phi0 = 0 (no rotation, no two-theta, no oscillation)
    const double distance = 0.1, detsizeS = 0.0128, pixel = kPixelSize, lambda0 = 6.2e-10;
    const double Xbeam = 0.00645, Ybeam = 0.00645, Fbeam = 0.0065, Sbeam = 0.0065;
    const double Fclose = 0.0065, Sclose = 0.0065;
    bv::io::SmvHeader h;
    h.fpixels = kPixels;
    h.spixels = kPixels;
    h.pixelSizeMm = pixel * 1000.0;
    h.distanceMm = distance * 1000.0;
    h.wavelengthA = lambda0 * 1e10;
    h.beamCenterXMm = Xbeam * 1000.0;
    h.beamCenterYMm = Ybeam * 1000.0;
    h.adxvCenterXMm = Fbeam * 1000.0;
    h.adxvCenterYMm = (detsizeS - Sbeam) * 1000.0;
    h.mosflmCenterXMm = (Sbeam - 0.5 * pixel) * 1000.0;
    h.mosflmCenterYMm = (Fbeam - 0.5 * pixel) * 1000.0;
    h.denzoXBeamMm = Sbeam * 1000.0;
    h.denzoYBeamMm = Fbeam * 1000.0;
    h.dialsOriginMm = {-6.5, 6.5, -100.0};
    h.orgX = Fclose / pixel + 0.5; // nanoBragg.c:1761
    h.orgY = Sclose / pixel + 0.5;
    // not printed on stdout: the golden header says CLOSE_DISTANCE=100 (an unrotated
    // detector's close distance is its distance)
    h.closeDistanceMm = distance * 1000.0;
    h.phiDeg = h.oscStartDeg = h.oscRangeDeg = h.twoThetaDeg = 0.0;
    return h;
}

} // namespace golden
