#pragma once
// ReciprocalDock: the "Reciprocal space" dock (issue 15): the Ewald construction of the
// experiment on screen (render/ReciprocalWindow), linked to the image.
//  - It follows the experiment: each new image (MainWindow::onImageReady, previews included,
//    so a slider moves the sphere live) rebuilds the scene from the controller's resolved
//    experiment at its phi0, while the dock is shown (a hidden dock costs nothing and catches
//    up when shown).
//  - Hovering a node rings where its spot lands on the image (Overlays::setMarker, at
//    PixelGeometry::project(node.diffracted)); hovering the image haloes the node nearest the
//    sphere point of the pixel under the cursor; the pinned pixel's ray runs from the sphere's
//    centre to its sphere point S, with the nearest node and its h k l written below.
//  - Play/Pause is the toolbar's phi animation (MainWindow::setPhiAnimation: each finished
//    image advances phi0 by the step, through the document like any slider); the phi readout
//    shows the scene's phi.
//  - In the presentation mode (app/PresentationMode.h) its legend and labels grow to be read
//    on a projector and the title bar goes, as the Lesson dock's; the view keeps its keys but
//    the presentation's keys (arrows, Tab, Page Down, Enter) reach the lesson first.

#include "app/PixelGeometry.h"
#include "compute/plan/EwaldScene.h"

#include <QDockWidget>
#include <QPoint>
#include <QPointF>

#include <optional>

class QAction;
class QLabel;
class QPushButton;
class QToolButton;
class QVulkanInstance;

namespace bv::render {
class ImageWindow;
class ReciprocalWindow;
}

namespace bv::app {

class Overlays;
class SimulationController;

class ReciprocalDock : public QDockWidget {
    Q_OBJECT

  public:
    // What the dock uses of the viewer: the image window (its device, its overlay), the
    // controller's resolved experiment, the image's pixel geometry, and the overlays (the
    // ring where a hovered node's spot lands).
    struct Viewer {
        render::ImageWindow& image;
        const SimulationController& controller;
        const std::optional<PixelGeometry>& geometry;
        Overlays& overlays;
    };

    ReciprocalDock(QWidget* parent, const Viewer& viewer, QVulkanInstance* instance);

    render::ReciprocalWindow& view() { return *m_view; }
    QWidget* viewContainer() const { return m_container; }
    void setPlayAction(QAction* play); // the toolbar's "Play phi"

    // From MainWindow: a new image (the experiment may have changed), the cursor over the
    // image (an image point; nullopt: it left), the pinned pixel.
    void experimentChanged();
    void imageHovered(const std::optional<QPointF>& imagePoint);
    void setPinned(const std::optional<QPoint>& pixel);

    void setPresentation(bool on);
    bool presentation() const { return m_presentation; }
    const QLabel* legend() const { return m_legend; }

    // What the labels say (the tests read them)
    QString phiText() const;
    QString pinnedText() const;

  private:
    void rebuild();
    void updatePinned();
    void onNodeHovered(int node);
    // The sphere point S of an image point: where the ray from the sample through it meets
    // the Ewald sphere; nullopt without geometry.
    std::optional<glm::dvec3> spherePointOf(QPointF imagePoint) const;

    Viewer m_viewer;
    render::ReciprocalWindow* m_view = nullptr;
    QWidget* m_container = nullptr;
    QToolButton* m_play = nullptr;
    QLabel* m_phi = nullptr;
    QLabel* m_pinnedLabel = nullptr;
    QLabel* m_legend = nullptr;
    QPushButton* m_reset = nullptr;
    QPushButton* m_spots = nullptr;
    bool m_presentation = false;
    bool m_stale = true; // the experiment changed while the dock was hidden
    std::optional<QPoint> m_pinned;
};

} // namespace bv::app
