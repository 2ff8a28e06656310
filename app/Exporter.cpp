#include "app/Exporter.h"

#include "compute/headless/Frames.h"

#include "compute/io/FloatImageFile.h"
#include "compute/io/ImageStatistics.h"
#include "compute/io/IntImage.h"
#include "compute/io/NoiseImage.h"
#include "compute/io/PgmFile.h"
#include "compute/io/Smv.h"
#include "compute/model/Error.h"
#include "compute/model/Units.h"
#include "compute/random/ReferenceRandom.h"

#include <QFileInfo>
#include <QPainter>
#include <QSaveFile>

#include <sstream>

namespace bv::app {

namespace {

io::ImageStatistics statisticsOf(const ExportSource& s) {
    const DetectorGeometry& d = s.resolved.detector;
    return io::statistics(s.image, d.fastPixels, d.slowPixels, s.resolved.roi,
                          s.commandLine.experiment.mask, d.pixelSize, s.resolved.oversample);
}

// The header the headless mode writes: the same function, so exports equal its files.
io::SmvHeader smvHeader(const ExportSource& s) { return headless::smvHeader(s.commandLine, s.resolved); }

void checkSize(const ExportSource& s) {
    const DetectorGeometry& d = s.resolved.detector;
    if (s.image.size() != static_cast<std::size_t>(d.fastPixels) * static_cast<std::size_t>(d.slowPixels))
        throw Error("no complete image to export yet");
}

} // namespace

void exportFloat(const std::string& path, const ExportSource& s) {
    checkSize(s);
    io::writeFloatImage(path, s.image);
}

void exportIntImage(const std::string& path, const ExportSource& s) {
    checkSize(s);
    const DetectorGeometry& d = s.resolved.detector;
    const io::ImageStatistics stats = statisticsOf(s);
    const double scale = io::intImageScale(s.commandLine.outputs.intScale, stats.maxI);
    const std::vector<std::uint16_t> pixels = io::intImage(
        s.image, d.fastPixels, d.slowPixels, scale, s.commandLine.outputs.adcOffset, s.resolved.roi);
    io::writeSmv(path, smvHeader(s), pixels);
}

void exportNoiseImage(const std::string& path, const ExportSource& s) {
    checkSize(s);
    const DetectorGeometry& d = s.resolved.detector;
    // the run's generator as the headless mode leaves it: resolve() draws first (misset,
    // mosaic domains), the noise continues the sequence
    random::ReferenceRandom rng;
    std::ostringstream log;
    (void)resolve(s.commandLine.experiment, rng, log);
    long seed = s.commandLine.experiment.seed;
    const io::NoiseImage noise = io::noiseImage(rng, seed, s.image, d.fastPixels, d.slowPixels,
                                                s.commandLine.outputs.adcOffset, s.resolved.roi);
    io::writeSmv(path, smvHeader(s), noise.data);
}

void exportPgm(const std::string& path, const ExportSource& s) {
    checkSize(s);
    const DetectorGeometry& d = s.resolved.detector;
    const io::ImageStatistics stats = statisticsOf(s);
    const double intScale = io::intImageScale(s.commandLine.outputs.intScale, stats.maxI);
    const double scale = io::pgmScale(s.commandLine.outputs.pgmScale, intScale, stats.rmsd);
    io::writePgm(path, d.fastPixels, d.slowPixels, s.image, scale, s.resolved.roi);
}

QImage colouredImage(const ExportSource& s, const std::vector<std::uint8_t>& skipped,
                     const render::DisplaySettings& display, const Overlays& overlays, int scale) {
    checkSize(s);
    const DetectorGeometry& d = s.resolved.detector;
    QImage image = render::colourImage(s.image, d.fastPixels, d.slowPixels, skipped, display);
    if (scale > 1)
        image = image.scaled(image.size() * scale, Qt::IgnoreAspectRatio, Qt::FastTransformation);
    image = image.convertToFormat(QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    render::ViewTransform view;
    view.set(QPointF(0.0, 0.0), scale);
    overlays.paint(painter, view, QSizeF(image.size()));
    painter.end();
    return image.convertToFormat(QImage::Format_RGB32);
}

void exportPng(const QString& path, const QImage& image) {
    // QSaveFile: written beside the target and renamed, as every other export
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit())
        throw Error(path.toStdString() + ": cannot write the PNG: " + file.errorString().toStdString());
}

} // namespace bv::app
