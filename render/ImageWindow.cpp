#include "render/ImageWindow.h"

#include "render/ImageRenderer.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QVulkanFunctions>
#include <QVulkanInstance>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace bv::render {

namespace {
constexpr double kImageWheelStep = 1.25; // zoom per wheel notch (120 units)
constexpr double kDragThreshold = 4.0;  // framebuffer pixels before a press becomes a drag
} // namespace

ImageWindow::ImageWindow(QWindow* parent) : QVulkanWindow(parent) {
    // colours are written as they are: the CPU colour path (PNG export) gives the same bytes
    setPreferredColorFormats({VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM});
    // every core feature the device has (as QVulkanWindow does by default), so that the
    // simulator's precise shader finds shaderFloat64 where there is one
    setEnabledFeaturesModifier([this](VkPhysicalDeviceFeatures& features) {
        VkPhysicalDeviceFeatures supported{};
        const VkPhysicalDevice physical = physicalDevice();
        if (physical != VK_NULL_HANDLE && vulkanInstance())
            vulkanInstance()->functions()->vkGetPhysicalDeviceFeatures(physical, &supported);
        features = supported;
        features.robustBufferAccess = VK_FALSE;
        m_float64Enabled = supported.shaderFloat64 == VK_TRUE;
    });
}

QVulkanWindowRenderer* ImageWindow::createRenderer() {
    return new ImageRenderer(this);
}

QImage ImageWindow::grabView() {
    QImage image = grab();
    if (image.isNull())
        return image;
    const VkFormat format = colorFormat();
    if (format == VK_FORMAT_B8G8R8A8_UNORM || format == VK_FORMAT_B8G8R8A8_SRGB)
        image = image.rgbSwapped();
    return image.convertToFormat(QImage::Format_RGB32);
}

QSize ImageWindow::framebufferSize() const {
    const QSize swap = swapChainImageSize();
    if (!swap.isEmpty())
        return swap;
    return size() * devicePixelRatio();
}

bool ImageWindow::PanelView::operator==(const PanelView& o) const {
    return std::equal(std::begin(homography), std::end(homography), std::begin(o.homography)) &&
           firstRow == o.firstRow && fastPixels == o.fastPixels && slowPixels == o.slowPixels;
}

void ImageWindow::setImageSource(const ImageSource& source) {
    if (source.buffer != m_source.buffer || source.fast != m_source.fast ||
        source.slow != m_source.slow || source.panels != m_source.panels)
        ++m_sourceGeneration;
    m_source = source;
    // a detector of a new size is shown whole
    if (source.fast > 0 && source.viewSize() != m_fittedImageSize) {
        m_fittedImageSize = source.viewSize();
        m_fitPending = true;
    }
    if (m_fitPending && source.fast > 0 && !framebufferSize().isEmpty()) {
        m_fitPending = false;
        ViewTransform view = m_view;
        view.fit(QSizeF(framebufferSize()), source.viewSize());
        changeView(view);
    }
    scheduleRender();
}

void ImageWindow::setSkipped(std::vector<std::uint8_t> skipped) {
    if (skipped == m_skipped)
        return;
    m_skipped = std::move(skipped);
    ++m_skippedGeneration;
    scheduleRender();
}

void ImageWindow::setDisplaySettings(const DisplaySettings& settings) {
    m_display = settings;
    scheduleRender();
}

void ImageWindow::setView(const ViewTransform& view) {
    m_fitPending = false;
    changeView(view);
}

void ImageWindow::changeView(const ViewTransform& view) {
    if (view == m_view)
        return;
    m_view = view;
    invalidateOverlay();
    emit viewChanged();
}

void ImageWindow::fitToWindow() {
    if (m_source.fast <= 0 || framebufferSize().isEmpty()) {
        m_fitPending = true;
        return;
    }
    ViewTransform view = m_view;
    view.fit(QSizeF(framebufferSize()), m_source.viewSize());
    setView(view);
}

void ImageWindow::showOneToOne() {
    ViewTransform view = m_view;
    view.oneToOne(QSizeF(framebufferSize()));
    setView(view);
}

void ImageWindow::zoomBy(double factor) {
    const QSize size = framebufferSize();
    ViewTransform view = m_view;
    view.zoomAbout(QPointF(size.width() / 2.0, size.height() / 2.0), factor);
    setView(view);
}

void ImageWindow::setOverlayPainter(OverlayPainter painter) {
    m_overlayPainter = std::move(painter);
    invalidateOverlay();
}

void ImageWindow::invalidateOverlay() {
    m_overlayDirty = true;
    scheduleRender();
}

const QImage& ImageWindow::overlay() {
    const QSize size = framebufferSize();
    if (m_overlayDirty || m_overlay.size() != size) {
        if (m_overlay.size() != size)
            m_overlay = QImage(size, QImage::Format_RGBA8888_Premultiplied);
        m_overlay.fill(Qt::transparent);
        if (m_overlayPainter && !size.isEmpty()) {
            QPainter painter(&m_overlay);
            painter.setRenderHint(QPainter::Antialiasing);
            m_overlayPainter(painter, m_view);
        }
        m_overlayDirty = false;
        ++m_overlayGeneration;
    }
    return m_overlay;
}

void ImageWindow::setRenderHeld(bool held) {
    m_renderHeld = held;
    if (!held && m_renderPending)
        scheduleRender();
}

void ImageWindow::scheduleRender() {
    if (m_renderHeld) {
        m_renderPending = true;
        return;
    }
    m_renderPending = false;
    requestUpdate();
}

void ImageWindow::recreateDevice() {
    setImageSource({});
    // the platform surface goes: QVulkanWindow releases the swap chain, the renderer's
    // resources and the device; showing the window again starts it on a new device
    destroy();
    show();
}

void ImageWindow::rendererReady() {
    ++m_deviceGeneration;
    emit deviceReady();
}

void ImageWindow::rendererReleasing() {
    emit deviceReleasing();
}

void ImageWindow::swapChainResized() {
    if (m_fitPending && m_source.fast > 0) {
        m_fitPending = false;
        ViewTransform view = m_view;
        view.fit(QSizeF(framebufferSize()), m_source.viewSize());
        changeView(view);
    }
    invalidateOverlay();
}

void ImageWindow::frameDone() {
    ++m_framesRendered;
    emit frameRendered();
}

void ImageWindow::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton)
        return;
    m_pressPoint = m_lastPoint = toFramebuffer(event->position());
    m_dragged = false;
    m_drag = (event->modifiers() & Qt::ShiftModifier) ? Drag::Line : Drag::Pan;
}

void ImageWindow::mouseMoveEvent(QMouseEvent* event) {
    const QPointF point = toFramebuffer(event->position());
    emit cursorMoved(m_view.toImage(point));
    if (m_drag == Drag::None)
        return;
    const QPointF fromPress = point - m_pressPoint;
    if (!m_dragged && std::hypot(fromPress.x(), fromPress.y()) < kDragThreshold)
        return;
    m_dragged = true;
    if (m_drag == Drag::Pan) {
        ViewTransform view = m_view;
        view.pan(point - m_lastPoint);
        setView(view);
    }
    m_lastPoint = point;
}

void ImageWindow::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || m_drag == Drag::None)
        return;
    const QPointF point = toFramebuffer(event->position());
    if (!m_dragged)
        emit pixelClicked(m_view.toImage(point));
    else if (m_drag == Drag::Line)
        emit lineDrawn(m_view.toImage(m_pressPoint), m_view.toImage(point));
    m_drag = Drag::None;
}

void ImageWindow::wheelEvent(QWheelEvent* event) {
    const double notches = event->angleDelta().y() / 120.0;
    if (notches == 0.0)
        return;
    ViewTransform view = m_view;
    view.zoomAbout(toFramebuffer(event->position()), std::pow(kImageWheelStep, notches));
    setView(view);
    event->accept();
}

void ImageWindow::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_F: fitToWindow(); break;
    case Qt::Key_1: showOneToOne(); break;
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomBy(kImageWheelStep);
        break;
    case Qt::Key_Minus:
        zoomBy(1.0 / kImageWheelStep);
        break;
    default: QVulkanWindow::keyPressEvent(event); return;
    }
    event->accept();
}

bool ImageWindow::event(QEvent* event) {
    if (event->type() == QEvent::Leave)
        emit cursorLeft();
    return QVulkanWindow::event(event);
}

} // namespace bv::render
