#pragma once
// Exports of the image shown. The headless mode's files (raw float, SMV int image, SMV
// noise image, PGM, NeXus) come from the products step the headless mode writes them with
// (compute/products/Products.h), from the run's own resolved experiment and generator, so
// they are its bytes (the tests compare them). A PNG is the image through the colour map
// with the overlays, one image pixel per detector pixel.
//
// Every writer is atomic and throws bv::Error naming the file.

#include "app/Overlays.h"
#include "compute/request/RunRequest.h"
#include "compute/model/Resolve.h"
#include "compute/products/Products.h"
#include "render/Colormap.h"

#include <QImage>
#include <QString>

#include <cstdint>
#include <string>
#include <vector>

namespace bv::app {

enum class ExportFormat { Float, IntImage, NoiseImage, Pgm, Nexus, Png };

// A complete image and what it was computed from.
struct ExportSource {
    const RunRequest& commandLine; // the experiment and the output options
    const ResolvedExperiment& resolved;
    const std::vector<float>& image;
    // where the run's resolve() left the generator: the noise image continues it
    const products::GeneratorState& generator;
};

// Float, IntImage, NoiseImage, Pgm or Nexus: the headless mode's file of that kind (a
// one-frame NeXus file, as a single run's -nexusfile).
void exportProduct(ExportFormat format, const std::string& path, const ExportSource& source);

// The image through the colour map, overlays on top, at `scale` image pixels per detector
// pixel (whole numbers keep pixels square and sharp).
QImage colouredImage(const ExportSource& source, const std::vector<std::uint8_t>& skipped,
                     const render::DisplaySettings& display, const Overlays& overlays, int scale = 1);
void exportPng(const QString& path, const QImage& image);

} // namespace bv::app
