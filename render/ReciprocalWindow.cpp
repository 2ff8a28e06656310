#include "render/ReciprocalWindow.h"

#include "compute/vk/Device.h"
#include "render/WindowDevice.h"
#include "render/WindowPass.h"
#include "render/scene/SceneRenderer.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QVulkanFunctions>
#include <QVulkanInstance>
#include <QVulkanWindowRenderer>
#include <QWheelEvent>

#include <glm/geometric.hpp>

#include <array>
#include <cmath>
#include <memory>
#include <utility>

namespace bv::render {

namespace {
constexpr double kOrbitPerPixel = 0.008;          // rad per logical pixel of drag
constexpr double kOrbitStep = 5.0 * M_PI / 180.0; // per arrow key
constexpr double kReciprocalWheelStep = 1.15;     // zoom per wheel notch (120 units)
constexpr double kKeyZoom = 1.25;
constexpr double kPickRadius = 8.0; // logical pixels
// the starting view: turned and tilted a little from the side, so the sphere reads as a ball
constexpr double kStartYaw = -0.45, kStartPitch = 0.3;
constexpr std::array<float, 4> kBackground = {0.055f, 0.063f, 0.09f, 1.0f};
} // namespace

// The renderer: SceneRenderer on a vk::Device that borrows the window's handles. Vulkan
// failures inside QVulkanWindow's callbacks have no caller to go back to: they are logged and
// the frame is drawn empty.
class ReciprocalRenderer : public QVulkanWindowRenderer {
  public:
    explicit ReciprocalRenderer(ReciprocalWindow* window) : m_window(window) {}

    void initResources() override {
        try {
            m_device = std::make_unique<vk::Device>(borrowedDevice(*m_window));
            m_renderer = std::make_unique<scene::SceneRenderer>(
                *m_device,
                scene::PipelineTarget{m_window->defaultRenderPass(), 0,
                                      m_window->sampleCountFlagBits()},
                static_cast<std::uint32_t>(m_window->concurrentFrameCount()));
        } catch (const std::exception& e) {
            qWarning("reciprocal view: %s", e.what());
            m_renderer.reset();
        }
    }

    void releaseResources() override {
        m_renderer.reset();
        m_device.reset();
    }

    void startNextFrame() override {
        const VkCommandBuffer commands = m_window->currentCommandBuffer();
        const WindowPass pass(*m_window, kBackground);
        vkCmdBeginRenderPass(commands, &pass.info, VK_SUBPASS_CONTENTS_INLINE);
        if (m_renderer && m_window->hasScene()) {
            try {
                if (m_renderer->drawing().generation != m_window->drawingGeneration())
                    m_renderer->setDrawing(m_window->drawing());
                const double ratio = m_window->devicePixelRatio();
                m_renderer->record(commands, static_cast<std::uint32_t>(m_window->currentFrame()),
                                   pass.info.renderArea.extent,
                                   m_window->camera().viewProjection(), static_cast<float>(ratio),
                                   static_cast<float>(m_window->nodeScale()));
            } catch (const std::exception& e) {
                qWarning("reciprocal view: %s", e.what());
            }
        }
        vkCmdEndRenderPass(commands);
        m_window->frameReady();
        m_window->frameDone();
    }

  private:
    ReciprocalWindow* m_window;
    std::unique_ptr<vk::Device> m_device;
    std::unique_ptr<scene::SceneRenderer> m_renderer;
};

ReciprocalWindow::ReciprocalWindow(QWindow* parent) : QVulkanWindow(parent) {
    setPreferredColorFormats({VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM});
}

QVulkanWindowRenderer* ReciprocalWindow::createRenderer() {
    return new ReciprocalRenderer(this);
}

bool ReciprocalWindow::useDeviceOf(const QVulkanWindow& other) {
    const VkPhysicalDeviceProperties* wanted = other.physicalDeviceProperties();
    if (!wanted)
        return false;
    const QVector<VkPhysicalDeviceProperties> devices = availablePhysicalDevices();
    for (int i = 0; i < devices.size(); ++i)
        if (devices[i].vendorID == wanted->vendorID && devices[i].deviceID == wanted->deviceID &&
            std::strcmp(devices[i].deviceName, wanted->deviceName) == 0) {
            setPhysicalDeviceIndex(i);
            return true;
        }
    return false;
}

void ReciprocalWindow::setScene(plan::EwaldScene scene) {
    // the highlighted nodes stay the same h k l in the new scene (its order may differ)
    auto same = [&](std::optional<std::size_t> index) -> std::optional<std::size_t> {
        if (!index || *index >= m_scene.nodes.size())
            return std::nullopt;
        return scene.find(m_scene.nodes[*index].hkl);
    };
    m_highlights.hoveredNode = same(m_highlights.hoveredNode);
    m_highlights.pinnedNode = same(m_highlights.pinnedNode);
    m_scene = std::move(scene);
    m_hasScene = true;
    m_nodePositions.clear();
    m_nodePositions.reserve(m_scene.nodes.size());
    m_reachPositions.clear();
    m_reachNodes.clear();
    m_shownNodes.clear();
    for (std::size_t i = 0; i < m_scene.nodes.size(); ++i) {
        if (!scene::nodeShown(m_scene, m_scene.nodes[i]))
            continue; // not drawn: not picked
        m_nodePositions.push_back(m_scene.nodes[i].r);
        m_shownNodes.push_back(i);
        if (m_scene.nodes[i].inReach()) {
            m_reachPositions.push_back(m_scene.nodes[i].r);
            m_reachNodes.push_back(i);
        }
    }
    frameCamera();
    rebuildDrawing();
}

void ReciprocalWindow::setHighlights(const scene::SceneHighlights& highlights) {
    if (highlights == m_highlights)
        return;
    m_highlights = highlights;
    rebuildDrawing();
}

void ReciprocalWindow::setHoveredNode(std::optional<std::size_t> node) {
    scene::SceneHighlights h = m_highlights;
    h.hoveredNode = node;
    setHighlights(h);
}

void ReciprocalWindow::rebuildDrawing() {
    const std::uint64_t generation = m_drawing.generation + 1;
    m_drawing = scene::drawScene(m_scene, m_highlights);
    m_drawing.generation = generation;
    requestUpdate();
}

void ReciprocalWindow::frameCamera() {
    updateViewport();
    const scene::SceneBounds bounds =
        m_framingSpots ? scene::spotBounds(m_scene) : scene::sceneBounds(m_scene);
    if (m_framed) {
        m_camera.reframe(bounds.centre, bounds.radius);
        return;
    }
    // up: the spindle; at yaw 0 the beam runs left to right across the view
    const glm::dvec3 up = glm::normalize(m_scene.spindle);
    glm::dvec3 front = glm::cross(m_scene.beam, up);
    if (glm::length(front) < 1e-6) // a beam along the spindle: any side will do
        front = glm::cross(up, std::fabs(up.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0));
    m_camera.frame(bounds.centre, bounds.radius, up, front, kStartYaw, kStartPitch);
    m_framed = true;
}

void ReciprocalWindow::updateViewport() {
    const QSize pixels =
        swapChainImageSize().isEmpty() ? size() * devicePixelRatio() : swapChainImageSize();
    if (pixels.width() == m_camera.width() && pixels.height() == m_camera.height())
        return;
    m_camera.setViewport(pixels.width(), pixels.height());
    if (m_framed)
        m_camera.reframe(m_camera.centre(), m_camera.radius());
}

void ReciprocalWindow::orbit(double deltaYaw, double deltaPitch) {
    m_camera.orbit(deltaYaw, deltaPitch);
    emit cameraChanged();
    requestUpdate();
}

void ReciprocalWindow::zoomBy(double factor) {
    m_camera.zoom(factor);
    emit cameraChanged();
    requestUpdate();
}

void ReciprocalWindow::frameSpots() {
    m_framingSpots = true;
    frameCamera();
    emit cameraChanged();
    requestUpdate();
}

void ReciprocalWindow::resetView() {
    if (m_framingSpots) {
        m_framingSpots = false;
        frameCamera();
    }
    m_camera.reset();
    emit cameraChanged();
    requestUpdate();
}

std::optional<std::size_t> ReciprocalWindow::nodeAt(QPointF point) const {
    const double ratio = devicePixelRatio();
    const glm::dvec2 cursor(point.x() * ratio, point.y() * ratio);
    // the nodes in reach first: they are the ones drawn on top, and the ones that make spots
    if (const auto hit = m_camera.pick(m_reachPositions, cursor, kPickRadius * ratio))
        return m_reachNodes[*hit];
    if (const auto hit = m_camera.pick(m_nodePositions, cursor, kPickRadius * ratio))
        return m_shownNodes[*hit];
    return std::nullopt;
}

double ReciprocalWindow::nodeScale() const {
    if (!m_hasScene)
        return 1.0;
    return scene::nodeScale(m_scene, m_camera.pixelsPerUnit() / devicePixelRatio());
}

std::optional<QPointF> ReciprocalWindow::nodePosition(std::size_t node) const {
    if (node >= m_scene.nodes.size())
        return std::nullopt;
    const std::optional<glm::dvec2> at = m_camera.project(m_scene.nodes[node].r);
    if (!at)
        return std::nullopt;
    const double ratio = devicePixelRatio();
    return QPointF(at->x / ratio, at->y / ratio);
}

QImage ReciprocalWindow::grabView() {
    QImage image = grab();
    if (image.isNull())
        return image;
    // Qt 6.4 hands a B8G8R8A8 swap chain's bytes over as RGBA (render/ImageWindow.h)
    if (colorFormat() == VK_FORMAT_B8G8R8A8_UNORM || colorFormat() == VK_FORMAT_B8G8R8A8_SRGB)
        image = image.rgbSwapped();
    return image.convertToFormat(QImage::Format_RGB32);
}

void ReciprocalWindow::frameDone() {
    ++m_framesRendered;
    emit frameRendered();
}

void ReciprocalWindow::hoverAt(QPointF point) {
    const std::optional<std::size_t> node = nodeAt(point);
    if (node == m_highlights.hoveredNode)
        return;
    setHoveredNode(node);
    emit nodeHovered(node ? static_cast<int>(*node) : -1);
}

void ReciprocalWindow::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return;
    m_dragging = true;
    m_lastPoint = event->position();
}

void ReciprocalWindow::mouseMoveEvent(QMouseEvent* event) {
    if (m_dragging && (event->buttons() & Qt::LeftButton)) {
        const QPointF delta = event->position() - m_lastPoint;
        m_lastPoint = event->position();
        // dragging right turns the scene right: the eye goes the other way
        orbit(-delta.x() * kOrbitPerPixel, delta.y() * kOrbitPerPixel);
        return;
    }
    hoverAt(event->position());
}

void ReciprocalWindow::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton)
        m_dragging = false;
}

void ReciprocalWindow::mouseDoubleClickEvent(QMouseEvent*) {
    resetView();
}

void ReciprocalWindow::wheelEvent(QWheelEvent* event) {
    const double notches = event->angleDelta().y() / 120.0;
    if (notches != 0.0)
        zoomBy(std::pow(kReciprocalWheelStep, notches));
}

void ReciprocalWindow::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_Left:
        orbit(kOrbitStep, 0.0);
        break;
    case Qt::Key_Right:
        orbit(-kOrbitStep, 0.0);
        break;
    case Qt::Key_Up:
        orbit(0.0, kOrbitStep);
        break;
    case Qt::Key_Down:
        orbit(0.0, -kOrbitStep);
        break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(kKeyZoom);
        break;
    case Qt::Key_Minus:
        zoomBy(1.0 / kKeyZoom);
        break;
    case Qt::Key_R:
        resetView();
        break;
    case Qt::Key_S:
        frameSpots();
        break;
    default:
        QVulkanWindow::keyPressEvent(event);
    }
}

bool ReciprocalWindow::event(QEvent* event) {
    if (event->type() == QEvent::Leave && m_highlights.hoveredNode) {
        setHoveredNode(std::nullopt);
        emit nodeHovered(-1);
    }
    return QVulkanWindow::event(event);
}

void ReciprocalWindow::resizeEvent(QResizeEvent* event) {
    QVulkanWindow::resizeEvent(event);
    if (m_hasScene)
        updateViewport();
}

} // namespace bv::render
