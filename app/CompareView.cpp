#include "app/CompareView.h"

#include "app/SimulationController.h"
#include "compute/core/Error.h"
#include "compute/plan/Plan.h"
#include "render/ImageWindow.h"

#include <QPointer>

namespace bv::app {

CompareView::CompareView(SimulationController& controller, render::ImageWindow& window,
                         QObject* parent)
    : QObject(parent), m_controller(controller), m_window(window) {
    m_blink.setInterval(500);
    connect(&m_blink, &QTimer::timeout, this, [this] {
        m_blinkMeasured = !m_blinkMeasured;
        m_controller.showSource();
    });
    connect(&m_controller, &SimulationController::imageReady, this, &CompareView::onImageReady);
    // buffers of the window's device go with it
    connect(&m_window, &render::ImageWindow::deviceReleasing, this, [this] {
        m_measuredBuffer.reset(); // the window waits for its device before this
        m_differenceBuffer.reset();
    });
    // the controller may outlive this view or die first (siblings under the main window,
    // deleted in the order they were made): the filter asks whether the view is still there
    // instead of the destructor reaching into the controller
    m_controller.setSourceFilter([guard = QPointer<CompareView>(this), this](
                                     const render::ImageWindow::ImageSource& simulated) {
        if (!guard)
            return simulated;
        const bool measured = m_mode == Measured || (m_mode == Blink && m_blinkMeasured);
        VkBuffer buffer = VK_NULL_HANDLE;
        if (measured)
            buffer = measuredBuffer();
        else if (m_mode == Difference)
            buffer = differenceBuffer();
        if (buffer == VK_NULL_HANDLE)
            return simulated;
        render::ImageWindow::ImageSource source = simulated;
        source.buffer = buffer;
        return source;
    });
}

CompareView::~CompareView() = default;

void CompareView::setMeasured(io::MeasuredImage measured, const QString& name) {
    m_read = std::move(measured);
    m_measured.reset();
    m_name = name;
    releaseBuffers();
    onImageReady();
}

void CompareView::clearMeasured() {
    m_read.reset();
    m_measured.reset();
    m_name.clear();
    releaseBuffers();
    m_fit.reset();
    m_problem.clear();
    setMode(Simulated);
    emit fitChanged();
}

void CompareView::setObservedSpots(refine::ObservedSpots spots) {
    m_spots = std::move(spots);
    matchSpots();
    emit fitChanged();
}

void CompareView::clearObservedSpots() {
    m_spots.reset();
    matchSpots();
    emit fitChanged();
}

void CompareView::matchSpots() {
    m_spotMatch.reset();
    m_spotProblem.clear();
    const ResolvedExperiment* resolved = m_controller.resolved();
    const std::vector<float>& image = m_controller.image();
    if (!m_spots || !resolved || image.empty())
        return;
    try {
        // the simulator's image: the panels' rows stacked
        const plan::StackedSize size = plan::stackedSize(plan::panelEntries(resolved->panels));
        const std::size_t n = image.size();
        if (static_cast<std::size_t>(size.fast) * static_cast<std::size_t>(size.slow) != n)
            return;
        // the pixels with data: the measured frame's, else those the simulation renders
        std::vector<std::uint8_t> hasData(n, 1);
        if (m_measured && m_measured->hasData.size() == n)
            hasData = m_measured->hasData;
        else if (const std::vector<std::uint8_t>& skipped = m_controller.skipped(); skipped.size() == n)
            for (std::size_t i = 0; i < n; ++i)
                hasData[i] = !skipped[i];
        m_spotMatch = refine::matchSpots(
            *m_spots,
            refine::simulatedSpots(image, size.fast, static_cast<int>(size.slow), hasData,
                                   resolved->panels),
            resolved->panels.size());
    } catch (const Error& e) {
        m_spotProblem = QString::fromStdString(e.what());
    }
}

void CompareView::setMode(Mode mode) {
    m_mode = mode;
    m_blinkMeasured = true;
    if (mode == Blink)
        m_blink.start();
    else
        m_blink.stop();
    m_controller.showSource();
}

std::optional<float> CompareView::measuredAt(int fast, int slow) const {
    if (!m_measured || fast < 0 || slow < 0 || fast >= m_measured->width || slow >= m_measured->height)
        return std::nullopt;
    const std::size_t i = static_cast<std::size_t>(slow) * m_measured->width + fast;
    if (!m_measured->hasData[i])
        return std::nullopt;
    return m_measured->pixels[i];
}

void CompareView::releaseBuffers() {
    if (!m_measuredBuffer && !m_differenceBuffer)
        return;
    // the window may be drawing from them: show the simulation and let the device finish
    const Mode mode = m_mode;
    m_mode = Simulated;
    m_controller.showSource();
    m_mode = mode;
    if (m_window.device() != VK_NULL_HANDLE)
        vkDeviceWaitIdle(m_window.device());
    m_measuredBuffer.reset();
    m_differenceBuffer.reset();
}

void CompareView::followSkipped() {
    if (!m_read)
        return;
    const std::vector<std::uint8_t>& skipped = m_controller.skipped();
    if (m_measured && skipped == m_skippedApplied)
        return;
    m_measured = *m_read;
    io::clearSkipped(*m_measured, skipped);
    m_skippedApplied = skipped;
}

void CompareView::onImageReady() {
    followSkipped();
    m_fit.reset();
    m_problem.clear();
    const ResolvedExperiment* resolved = m_controller.resolved();
    if (m_measured && resolved && !m_controller.image().empty()) {
        try {
            const products::Comparison c =
                products::compareImages(*m_measured, m_controller.image(), *resolved);
            m_fit = c.all;
            upload();
        } catch (const Error& e) {
            m_problem = QString::fromStdString(e.what());
            releaseBuffers();
        }
    }
    matchSpots();
    emit fitChanged();
    if (m_mode != Simulated)
        m_controller.showSource();
}

void CompareView::upload() {
    const vk::Device* device = m_controller.device();
    if (!device || !m_fit)
        return;
    const std::size_t n = m_measured->pixels.size();
    const std::vector<float>& s = m_controller.image();
    std::vector<float> measured(n), difference(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (!m_measured->hasData[i])
            continue;
        measured[i] = m_measured->pixels[i];
        difference[i] = static_cast<float>(m_measured->pixels[i] - m_fit->scale * s[i] - m_fit->background);
    }
    const VkDeviceSize bytes = n * sizeof(float);
    const auto make = [&](std::unique_ptr<vk::Buffer>& buffer, const std::vector<float>& values,
                          const char* label) {
        if (!buffer || buffer->size() != bytes)
            buffer = std::make_unique<vk::Buffer>(*device, bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                                  vk::MemoryUse::Upload, label);
        buffer->write(values.data(), bytes);
    };
    make(m_measuredBuffer, measured, "the measured frame");
    make(m_differenceBuffer, difference, "the difference image");
}

} // namespace bv::app
