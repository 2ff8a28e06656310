#include "app/Exporter.h"

#include "compute/core/Error.h"
#include "compute/products/FileHeaders.h"

#include <QPainter>
#include <QSaveFile>

namespace bv::app {

namespace {

void checkSize(const ExportSource& s) {
    const DetectorGeometry& d = s.resolved.detector;
    if (s.image.size() != static_cast<std::size_t>(d.fastPixels) * static_cast<std::size_t>(d.slowPixels))
        throw Error("no complete image to export yet");
}

} // namespace

void exportProduct(ExportFormat format, const std::string& path, const ExportSource& s) {
    checkSize(s);
    products::OutputFiles files;
    switch (format) {
    case ExportFormat::Float: files.floatFile = path; break;
    case ExportFormat::IntImage: files.intFile = path; break;
    case ExportFormat::NoiseImage: files.noiseFile = path; break;
    case ExportFormat::Pgm: files.pgmFile = path; break;
    case ExportFormat::Nexus: files.nexusFile = path; break;
    case ExportFormat::Png: throw Error(path + ": a PNG is not one of the headless mode's files");
    }
    // no CBF from the viewer; the NeXus file's start_time is the export's, as a run's is
    products::writeProducts(
        {s.commandLine, s.resolved, s.image, s.generator, products::runStartSeconds()}, files);
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
