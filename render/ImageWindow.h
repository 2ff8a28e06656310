#pragma once
// ImageWindow: the QVulkanWindow that shows the diffraction image. Its device is the one the
// simulator runs on (the app builds the Simulator on it when deviceReady() fires, and must
// destroy it when deviceReleasing() fires), so the renderer (ImageRenderer) draws the float
// buffer the compute shader wrote: no copy to the CPU for display.
//
// Owns the view (zoom/pan: ViewTransform), the display settings (Colormap.h) and the
// overlay, which the app paints with QPainter (setOverlayPainter) in view coordinates; the
// renderer uploads it as a texture when it changes and blends it over the image.
//
// Mouse: the wheel zooms about the cursor, a left drag pans, Shift + left drag draws a line
// (lineDrawn), a click without a drag pins a pixel (pixelClicked), and moving reports the
// image point under the cursor (cursorMoved). Keys: F fits, 1 shows 1:1, + and - zoom.
//
// Frames are drawn only when something changed (scheduleRender). While the simulator's
// commands are in flight the app holds rendering (setRenderHeld): a frame submitted behind
// them on the same queue would only wait for them and block the GUI thread in the next
// frame's fence; the held frame is drawn as soon as the run ends (and, for a run of several
// slices, between two slices: app/SimulationController.h).

#include "render/Colormap.h"
#include "render/ViewTransform.h"

// the Vulkan prototypes first: Qt's Vulkan headers turn them off (VK_NO_PROTOTYPES), and the
// renderer (ImageRenderer.h) calls the loader's functions through compute/vk and render/scene
#include <vulkan/vulkan.h>

#include <QImage>
#include <QSizeF>
#include <QVulkanWindow>

#include <cstdint>
#include <functional>
#include <vector>

class QPainter;

namespace bv::render {

class ImageWindow : public QVulkanWindow {
    Q_OBJECT

  public:
    // One panel of a multi-panel detector as drawn: the map from a view point (x, y) to its
    // pixel (row-major 3 x 3 homography: (F, S, W) = H (x, y, 1), pixel (F/W, S/W) where
    // W > 0; compute/model/DetectorProjection.h), and where its pixels are in the image
    // (rows firstRow.. of the stacked image; docs/numerics/detector-panels.md).
    struct PanelView {
        float homography[9] = {};
        int firstRow = 0, fastPixels = 0, slowPixels = 0;
        bool operator==(const PanelView& o) const;
    };
    // The storage buffer to draw (fast-major floats) on this window's device, and its size.
    // With panels, image points are view points on the panels' common plane, each drawn from
    // its panel's pixels; without, image points are the image's pixels. viewWidth x
    // viewHeight: the extent of the image points (fast x slow without panels).
    struct ImageSource {
        VkBuffer buffer = VK_NULL_HANDLE;
        int fast = 0, slow = 0;
        std::vector<PanelView> panels;
        double viewWidth = 0.0, viewHeight = 0.0;
        QSizeF viewSize() const { return QSizeF(viewWidth, viewHeight); }
    };
    using OverlayPainter = std::function<void(QPainter&, const ViewTransform&)>;

    explicit ImageWindow(QWindow* parent = nullptr);

    QVulkanWindowRenderer* createRenderer() override;

    // Whether the device was created with shaderFloat64 (valid after deviceReady()).
    bool float64Enabled() const { return m_float64Enabled; }

    void setImageSource(const ImageSource& source);
    const ImageSource& imageSource() const { return m_source; }
    // Counts changes of the source: a buffer destroyed and another created may reuse the
    // handle, so the renderer rebinds by generation, not by handle.
    std::uint64_t imageSourceGeneration() const { return m_sourceGeneration; }
    // One byte per pixel (fast-major), non-zero where the simulation skipped the pixel; empty:
    // none skipped.
    void setSkipped(std::vector<std::uint8_t> skipped);
    const std::vector<std::uint8_t>& skipped() const { return m_skipped; }
    std::uint64_t skippedGeneration() const { return m_skippedGeneration; }

    void setDisplaySettings(const DisplaySettings& settings);
    const DisplaySettings& displaySettings() const { return m_display; }

    const ViewTransform& view() const { return m_view; }
    void setView(const ViewTransform& view);
    void fitToWindow();
    void showOneToOne();
    void zoomBy(double factor); // about the centre of the view

    void setOverlayPainter(OverlayPainter painter);
    void invalidateOverlay(); // the overlay's content changed: repaint it
    // The overlay as the renderer uploads it: premultiplied RGBA, framebuffer size.
    const QImage& overlay();
    std::uint64_t overlayGeneration() const { return m_overlayGeneration; }

    void setRenderHeld(bool held);
    bool renderHeld() const { return m_renderHeld; }
    void scheduleRender();
    std::uint64_t framesRendered() const { return m_framesRendered; }

    // The next frame read back from the swap chain (QVulkanWindow::grab), in the colours
    // shown: Qt 6.4 returns a B8G8R8A8 swap chain's bytes as RGBA, so they are swapped back
    // here. Null where the swap chain cannot be read (no TRANSFER_SRC usage).
    QImage grabView();

    // Framebuffer size in device pixels (the swap chain's, or the window's times its ratio).
    QSize framebufferSize() const;

    // Gives the Vulkan device up and makes a new one ("Restart engine", after a lost
    // device): the native window is destroyed, which makes QVulkanWindow release everything
    // (deviceReleasing()), and created again, which makes it choose a device anew
    // (deviceReady()). Frames and the image source stop until then.
    void recreateDevice();
    // devices made so far (counts deviceReady())
    int deviceGeneration() const { return m_deviceGeneration; }

  signals:
    void deviceReady();     // device(), graphicsQueue(), physicalDevice() are valid
    void deviceReleasing(); // destroy everything made on the device now
    void cursorMoved(QPointF imagePoint);
    void cursorLeft();
    void pixelClicked(QPointF imagePoint);
    void lineDrawn(QPointF from, QPointF to); // image points
    void viewChanged();
    void frameRendered();

  protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;

  private:
    friend class ImageRenderer;
    // called by the renderer
    void rendererReady();
    void rendererReleasing();
    void swapChainResized();
    void frameDone();

    QPointF toFramebuffer(QPointF logical) const { return logical * devicePixelRatio(); }
    void changeView(const ViewTransform& view);

    bool m_float64Enabled = false;
    int m_deviceGeneration = 0;
    ImageSource m_source;
    std::uint64_t m_sourceGeneration = 1;
    std::vector<std::uint8_t> m_skipped;
    std::uint64_t m_skippedGeneration = 1;
    DisplaySettings m_display;
    ViewTransform m_view;
    bool m_fitPending = true;
    QSizeF m_fittedImageSize; // the image (or panels' view) size the view was last fitted to
    OverlayPainter m_overlayPainter;
    QImage m_overlay;
    bool m_overlayDirty = true;
    std::uint64_t m_overlayGeneration = 1;
    bool m_renderHeld = false;
    bool m_renderPending = false;
    std::uint64_t m_framesRendered = 0;

    enum class Drag { None, Pan, Line };
    Drag m_drag = Drag::None;
    QPointF m_pressPoint;   // framebuffer pixels
    QPointF m_lastPoint;    // framebuffer pixels
    bool m_dragged = false; // moved far enough to be a drag, not a click
};

} // namespace bv::render
