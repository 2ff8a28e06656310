#pragma once
// The measured frame beside the simulation, in the image window: four views of one frame,
// one colour scale, one zoom and the same overlays, as only the buffer drawn changes.
//   Simulated   the simulation, as without a measured frame
//   Measured    the measured counts (pixels without data as 0)
//   Difference  measured - k simulated - b, k and b fitted over the pixels with data
//               (products::compareImages), 0 where there is no data
//   Blink       measured and simulated in turn, twice a second
// The fit is made again for every complete image, so the difference follows the sliders. A
// pixel the shown simulation skips (its -mask, its -roi) has no data in the measured frame
// either: the frame as read is kept, and what the views and fits see follows the skipped
// pixels as they change. DIALS's observed spots (a .refl), when given, are matched to the
// simulated spots of every complete image as -compare -spots matches them headless
// (refine::matchSpots), with or without a measured frame.
//
//     CompareView compare(controller, window);
//     compare.setMeasured(bv::io::readMeasuredImage("frame_00012.cbf"), "frame_00012.cbf");
//     compare.setMode(CompareView::Difference);

#include "compute/io/MeasuredImage.h"
#include "compute/products/Comparison.h"
#include "compute/refine/ObservedSpots.h"
#include "compute/vk/Buffer.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bv::render {
class ImageWindow;
}

namespace bv::app {

class SimulationController;

class CompareView : public QObject {
    Q_OBJECT
  public:
    enum Mode { Simulated, Measured, Difference, Blink };

    CompareView(SimulationController& controller, render::ImageWindow& window,
                QObject* parent = nullptr);
    ~CompareView() override;

    void setMeasured(io::MeasuredImage measured, const QString& name);
    void clearMeasured();
    bool hasMeasured() const { return m_measured.has_value(); }
    // the frame as read, without data where the last complete simulation skipped pixels
    const io::MeasuredImage* measured() const { return m_measured ? &*m_measured : nullptr; }
    const QString& measuredName() const { return m_name; }
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }

    // The fit of the last complete image to the measured frame (none before both exist, or
    // when their sizes differ: problem() says why).
    const std::optional<products::ComparisonStats>& fit() const { return m_fit; }
    const QString& problem() const { return m_problem; }
    // DIALS's observed spots of the frame (refine::observedSpots) and their match to the
    // spots of the last complete image (none before an image; spotProblem() says why not)
    void setObservedSpots(refine::ObservedSpots spots);
    void clearObservedSpots();
    const std::optional<refine::ObservedSpots>& observedSpots() const { return m_spots; }
    const std::optional<refine::SpotMatch>& spotMatch() const { return m_spotMatch; }
    const QString& spotProblem() const { return m_spotProblem; }

    // the measured count at a pixel (nullopt outside, without data, or with no frame)
    std::optional<float> measuredAt(int fast, int slow) const;
    // the buffer the window draws in the Measured and Difference views (tests)
    VkBuffer measuredBuffer() const { return m_measuredBuffer ? m_measuredBuffer->handle() : VK_NULL_HANDLE; }
    VkBuffer differenceBuffer() const { return m_differenceBuffer ? m_differenceBuffer->handle() : VK_NULL_HANDLE; }

  signals:
    void fitChanged(); // a new fit, or none

  private:
    void onImageReady();
    void followSkipped(); // m_measured from m_read and the controller's skipped pixels
    void matchSpots();
    void releaseBuffers();
    void upload();

    SimulationController& m_controller;
    render::ImageWindow& m_window;
    std::optional<io::MeasuredImage> m_read, m_measured;
    std::vector<std::uint8_t> m_skippedApplied; // the skipped pixels m_measured has out
    QString m_name;
    Mode m_mode = Simulated;
    bool m_blinkMeasured = false;
    QTimer m_blink;
    std::optional<products::ComparisonStats> m_fit;
    QString m_problem;
    std::optional<refine::ObservedSpots> m_spots;
    std::optional<refine::SpotMatch> m_spotMatch;
    QString m_spotProblem;
    std::unique_ptr<vk::Buffer> m_measuredBuffer, m_differenceBuffer;
};

} // namespace bv::app
