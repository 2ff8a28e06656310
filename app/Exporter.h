#pragma once
// Exports of the image shown, as the headless mode writes them for the same experiment (the
// tests compare the files byte for byte): raw float, SMV int image (scaled as -scale says,
// automatically by default), SMV noise image (the run's random generator continued after
// resolve(), as in the reference), PGM; and a PNG of the image through the colour map with
// the overlays, one image pixel per detector pixel.
//
// Every writer is atomic (compute/io) and throws bv::Error naming the file.

#include "app/Overlays.h"
#include "compute/cli/CommandLine.h"
#include "compute/model/Resolve.h"
#include "render/Colormap.h"

#include <QImage>
#include <QString>

#include <cstdint>
#include <vector>

namespace bv::app {

struct ExportSource {
    const cli::CommandLine& commandLine; // the experiment the image was computed from
    const ResolvedExperiment& resolved;
    const std::vector<float>& image;
};

void exportFloat(const std::string& path, const ExportSource& source);
void exportIntImage(const std::string& path, const ExportSource& source);
void exportNoiseImage(const std::string& path, const ExportSource& source);
void exportPgm(const std::string& path, const ExportSource& source);

// The image through the colour map, overlays on top, at `scale` image pixels per detector
// pixel (whole numbers keep pixels square and sharp).
QImage colouredImage(const ExportSource& source, const std::vector<std::uint8_t>& skipped,
                     const render::DisplaySettings& display, const Overlays& overlays, int scale = 1);
void exportPng(const QString& path, const QImage& image);

} // namespace bv::app
