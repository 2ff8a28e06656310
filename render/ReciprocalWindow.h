#pragma once
// ReciprocalWindow: the QVulkanWindow of the reciprocal-space view (issue 15). It shows a
// plan::EwaldScene through render/scene (ReciprocalDrawing -> SceneRenderer) from an
// OrbitCamera, and reports the node under the cursor.
//
// Device: QVulkanWindow makes its own logical device. useDeviceOf() puts it on the physical
// device of another window (the image's), so both views run on the same GPU; the image's
// VkDevice is not shared (Qt offers no way to hand a window an existing one), which also
// means this window's frames never queue behind the simulator's commands.
//
// Mouse: a left drag orbits, the wheel zooms, a double click resets; moving reports the node
// under the cursor (nodeHovered, -1 for none) and haloes it. Keys: arrows orbit, + and - zoom,
// R resets. Frames are drawn only when the scene, the highlights or the camera change.

#include "render/scene/OrbitCamera.h"
#include "render/scene/ReciprocalDrawing.h"

// the Vulkan prototypes first: Qt's Vulkan headers turn them off (VK_NO_PROTOTYPES), and the
// renderer calls the loader's functions, as compute/vk does
#include <vulkan/vulkan.h>

#include <QImage>
#include <QVulkanWindow>

#include <cstdint>
#include <optional>
#include <vector>

namespace bv::render {

class ReciprocalWindow : public QVulkanWindow {
    Q_OBJECT

  public:
    explicit ReciprocalWindow(QWindow* parent = nullptr);
    QVulkanWindowRenderer* createRenderer() override;

    // Chooses the physical device `other` uses (call once `other` has its device, before
    // this window is first shown); false when it is not among this instance's devices.
    bool useDeviceOf(const QVulkanWindow& other);

    // A new scene keeps the camera's angles and zoom; the first one frames the camera.
    void setScene(plan::EwaldScene scene);
    const plan::EwaldScene& scene() const { return m_scene; }
    bool hasScene() const { return m_hasScene; }

    void setHighlights(const scene::SceneHighlights& highlights);
    const scene::SceneHighlights& highlights() const { return m_highlights; }
    void setHoveredNode(std::optional<std::size_t> node); // no signal: the caller knows

    const scene::OrbitCamera& camera() const { return m_camera; }
    void orbit(double deltaYaw, double deltaPitch); // rad
    void zoomBy(double factor);
    void resetView(); // also back to the whole scene after frameSpots()
    // Frames the spots' part of the construction (scene::spotBounds) instead of the whole
    // sphere, and keeps it as the scene changes, until resetView(). Key S.
    void frameSpots();
    bool framingSpots() const { return m_framingSpots; }

    // The node whose dot is under a window point (logical pixels), if any; a node in reach
    // (drawn on top) before any other.
    std::optional<std::size_t> nodeAt(QPointF point) const;
    // The factor on the nodes' dot sizes at the camera's zoom now (scene::nodeScale).
    double nodeScale() const;
    // Where a node is drawn, in logical window pixels (nullopt: behind the eye).
    std::optional<QPointF> nodePosition(std::size_t node) const;

    // The next frame read back from the swap chain, in the colours shown (null where the swap
    // chain cannot be read).
    QImage grabView();
    std::uint64_t framesRendered() const { return m_framesRendered; }
    // A counter of the drawing the renderer shows (changes with the scene or the highlights).
    std::uint64_t drawingGeneration() const { return m_drawing.generation; }
    const scene::SceneDrawing& drawing() const { return m_drawing; }

  signals:
    void nodeHovered(int node); // index into scene().nodes, -1: none
    void cameraChanged();
    void frameRendered();

  protected:
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override; // Leave: nothing hovered
    void resizeEvent(QResizeEvent* event) override;

  private:
    friend class ReciprocalRenderer;
    void rebuildDrawing();
    void frameCamera();
    void updateViewport();
    void hoverAt(QPointF point);
    void frameDone();

    plan::EwaldScene m_scene;
    bool m_hasScene = false;
    std::vector<glm::dvec3> m_nodePositions;  // for picking: the nodes drawn
    std::vector<std::size_t> m_shownNodes;    // their indices
    std::vector<glm::dvec3> m_reachPositions; // ... of the nodes in reach, picked first
    std::vector<std::size_t> m_reachNodes;    // their indices
    scene::SceneHighlights m_highlights;
    scene::SceneDrawing m_drawing;
    scene::OrbitCamera m_camera;
    bool m_framed = false;
    bool m_framingSpots = false; // frameSpots() until resetView()
    std::uint64_t m_framesRendered = 0;
    bool m_dragging = false;
    QPointF m_lastPoint;
};

} // namespace bv::render
