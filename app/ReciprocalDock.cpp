#include "app/ReciprocalDock.h"

#include "app/Overlays.h"
#include "app/SimulationController.h"
#include "compute/core/Error.h"
#include "compute/model/Units.h"
#include "render/ImageWindow.h"
#include "render/ReciprocalWindow.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>
#include <QVulkanInstance>

#include <glm/geometric.hpp>

#include <cmath>

namespace bv::app {

namespace {

QString hklText(const glm::ivec3& hkl) {
    return QStringLiteral("%1 %2 %3").arg(hkl.x).arg(hkl.y).arg(hkl.z);
}

QString swatch(const float (&c)[4], const QString& text, bool dot) {
    const QString colour = QStringLiteral("rgb(%1,%2,%3)")
                               .arg(int(c[0] * 255))
                               .arg(int(c[1] * 255))
                               .arg(int(c[2] * 255));
    return QStringLiteral("<span style='color:%1'>%2</span>&nbsp;%3")
        .arg(colour, dot ? QStringLiteral("●") : QStringLiteral("━"), text);
}

} // namespace

ReciprocalDock::ReciprocalDock(QWidget* parent, const Viewer& viewer, QVulkanInstance* instance)
    : QDockWidget(tr("Reciprocal space"), parent), m_viewer(viewer) {
    setObjectName(QStringLiteral("reciprocalDock"));
    m_view = new render::ReciprocalWindow;
    m_view->setVulkanInstance(instance);
    m_container = QWidget::createWindowContainer(m_view, this);
    m_container->setObjectName(QStringLiteral("reciprocalView"));
    m_container->setMinimumSize(280, 240);
    m_container->setFocusPolicy(Qt::StrongFocus);
    m_container->setToolTip(tr("Drag: orbit. Wheel: zoom. Double-click or R: reset. Arrows "
                               "orbit, + and - zoom, S frames the spots. Hover a node: its spot "
                               "on the image."));

    m_play = new QToolButton(this);
    m_play->setObjectName(QStringLiteral("reciprocalPlay"));
    m_phi = new QLabel(this);
    m_phi->setObjectName(QStringLiteral("reciprocalPhi"));
    auto* reset = m_reset = new QPushButton(tr("Reset view"), this);
    connect(reset, &QPushButton::clicked, this, [this] { m_view->resetView(); });
    auto* spots = m_spots = new QPushButton(tr("Frame spots"), this);
    spots->setObjectName(QStringLiteral("reciprocalFrameSpots"));
    spots->setToolTip(tr("Look closely at the origin and the detector's cap of the sphere, where "
                         "lattice points become spots (S); Reset view or R: the whole sphere"));
    connect(spots, &QPushButton::clicked, this, [this] { m_view->frameSpots(); });
    // Two rows, each narrower than the view's least width: in one row the four controls
    // needed more than the width the main window gives this dock when its columns are
    // crowded (1500 x 950 with a lesson: 285 px for 312), or when presenting (their 26 px
    // type), and Qt then squeezed the push buttons below their size hint, which cut the
    // centred "Frame spots" to "rame spots".
    auto* controls = new QVBoxLayout;
    auto* phiRow = new QHBoxLayout;
    phiRow->addWidget(m_play);
    phiRow->addWidget(m_phi);
    phiRow->addStretch(1);
    auto* viewRow = new QHBoxLayout;
    viewRow->addWidget(spots);
    viewRow->addWidget(reset);
    viewRow->addStretch(1);
    controls->addLayout(phiRow);
    controls->addLayout(viewRow);

    using Colours = scene::SceneColours;
    auto* legend = m_legend = new QLabel(this);
    legend->setObjectName(QStringLiteral("reciprocalLegend"));
    legend->setWordWrap(true);
    legend->setText(QStringList{
        swatch(Colours::inReach, tr("in reach"), true), swatch(Colours::farNode, tr("far"), true),
        swatch(Colours::sphere, tr("sphere"), false), swatch(Colours::beam, tr("beam"), false),
        swatch(Colours::spindle, tr("spindle"), false),
        swatch(Colours::detector, tr("detector"), false), swatch(Colours::ray, tr("ray"), false)}
                        .join(QStringLiteral(" &nbsp; ")));
    m_pinnedLabel = new QLabel(this);
    m_pinnedLabel->setObjectName(QStringLiteral("reciprocalPinned"));
    m_pinnedLabel->setWordWrap(true);
    m_pinnedLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* area = new QWidget(this);
    auto* layout = new QVBoxLayout(area);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_container, 1);
    layout->addLayout(controls);
    layout->addWidget(legend);
    layout->addWidget(m_pinnedLabel);
    setWidget(area);

    // the same GPU as the image, chosen before this window first makes its device
    connect(&m_viewer.image, &render::ImageWindow::deviceReady, this, [this] {
        if (!m_view->isValid())
            m_view->useDeviceOf(m_viewer.image);
    });
    connect(m_view, &render::ReciprocalWindow::nodeHovered, this, &ReciprocalDock::onNodeHovered);
    connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && m_stale)
            rebuild();
        if (!visible)
            onNodeHovered(-1); // no ring on the image for a view out of sight
    });
    m_phi->setText(phiText());
    updatePinned();
}

void ReciprocalDock::setPlayAction(QAction* play) {
    m_play->setDefaultAction(play); // checked, text and enabled follow the toolbar's
}

void ReciprocalDock::setPresentation(bool on) {
    m_presentation = on;
    // no title bar on the projector (as LessonDock::setPresentation)
    if (on && !titleBarWidget())
        setTitleBarWidget(new QWidget(this));
    else if (!on && titleBarWidget()) {
        QWidget* empty = titleBarWidget();
        setTitleBarWidget(nullptr);
        delete empty;
    }
    // pixel sizes beside the Lesson dock's 32 px text: labels a little smaller than the text,
    // the legend smaller again but readable at the back of a room; empty: the style's own
    const QString label = on ? QStringLiteral("font-size: 26px;") : QString();
    const QString small = on ? QStringLiteral("font-size: 22px;") : QString();
    m_phi->setStyleSheet(label);
    m_play->setStyleSheet(label);
    m_reset->setStyleSheet(label);
    m_spots->setStyleSheet(label);
    m_legend->setStyleSheet(small);
    m_pinnedLabel->setStyleSheet(small);
    // the view never takes the focus from the lesson's value there (the keys are the
    // presentation's whichever widget has it, but a focused view would look like the target)
    m_container->setFocusPolicy(on ? Qt::NoFocus : Qt::StrongFocus);
}

void ReciprocalDock::experimentChanged() {
    m_stale = true;
    if (isVisible())
        rebuild();
}

void ReciprocalDock::rebuild() {
    const ResolvedExperiment* resolved = m_viewer.controller.resolved();
    if (!resolved)
        return;
    try {
        m_view->setScene(
            plan::ewaldScene(*resolved, resolved->structureFactors, resolved->phi0, {}));
        m_stale = false;
    } catch (const Error& e) {
        m_pinnedLabel->setText(
            tr("The Ewald construction cannot be drawn: %1").arg(QString::fromStdString(e.what())));
        return;
    }
    m_phi->setText(phiText());
    updatePinned(); // the ray's node moves with phi
}

std::optional<glm::dvec3> ReciprocalDock::spherePointOf(QPointF imagePoint) const {
    const std::optional<PixelGeometry>& geometry = m_viewer.geometry;
    if (!geometry || !m_view->hasScene())
        return std::nullopt;
    const glm::dvec3 position = geometry->at(toVec2(imagePoint)).position;
    if (!(glm::length(position) > 0.0))
        return std::nullopt;
    return m_view->scene().spherePoint(glm::normalize(position));
}

void ReciprocalDock::imageHovered(const std::optional<QPointF>& imagePoint) {
    if (!isVisible() || !m_view->hasScene())
        return;
    std::optional<std::size_t> node;
    if (imagePoint)
        if (const std::optional<glm::dvec3> s = spherePointOf(*imagePoint))
            node = m_view->scene().nearestNode(*s);
    m_view->setHoveredNode(node);
}

void ReciprocalDock::setPinned(const std::optional<QPoint>& pixel) {
    m_pinned = pixel;
    updatePinned();
}

void ReciprocalDock::updatePinned() {
    scene::SceneHighlights highlights = m_view->highlights();
    highlights.pinnedPoint.reset();
    highlights.pinnedNode.reset();
    const std::optional<PixelGeometry>& geometry = m_viewer.geometry;
    if (m_pinned && geometry)
        highlights.pinnedPoint = spherePointOf(toQPointF(geometry->centreOf(toVec2(*m_pinned))));
    if (highlights.pinnedPoint)
        highlights.pinnedNode = m_view->scene().nearestNode(*highlights.pinnedPoint);
    m_view->setHighlights(highlights);
    m_pinnedLabel->setText(pinnedText());
}

QString ReciprocalDock::phiText() const {
    if (!m_view->hasScene())
        return tr("φ —");
    return tr("φ = %1°").arg(units::degreesFromRadians(m_view->scene().phi), 0, 'f', 1);
}

QString ReciprocalDock::pinnedText() const {
    const scene::SceneHighlights& h = m_view->highlights();
    if (!m_pinned || !h.pinnedPoint)
        return tr("Click a pixel of the image to draw its scattered ray.");
    const plan::EwaldScene& s = m_view->scene();
    const glm::dvec3 f = s.fractionalHkl(*h.pinnedPoint);
    // |S| = 2 sin(theta) / lambda = 1/d; the readout's |q| = 4 pi sin(theta) / lambda = 2 pi |S|
    const double length = glm::length(*h.pinnedPoint);
    QString text = tr("Pixel (%1, %2): S = 1/%3 Å (|q| = %4 Å⁻¹), h k l = %5 %6 %7")
                       .arg(m_pinned->x())
                       .arg(m_pinned->y())
                       .arg(1.0 / length, 0, 'f', 2)
                       .arg(2.0 * M_PI * length, 0, 'f', 3)
                       .arg(f.x, 0, 'f', 2)
                       .arg(f.y, 0, 'f', 2)
                       .arg(f.z, 0, 'f', 2);
    if (h.pinnedNode) {
        const plan::ReciprocalNode& n = s.nodes[*h.pinnedNode];
        text += tr("\nNearest node %1 (d = %2 Å), %3 1/Å from the sphere, %4")
                    .arg(hklText(n.hkl))
                    .arg(n.dSpacing, 0, 'f', 2)
                    .arg(n.excitation, 0, 'g', 3)
                    .arg(n.inReach() ? tr("in reach: a spot") : tr("out of reach"));
    }
    return text;
}

void ReciprocalDock::onNodeHovered(int node) {
    std::optional<Overlays::Marker> marker;
    const std::optional<PixelGeometry>& geometry = m_viewer.geometry;
    if (node >= 0 && geometry) {
        const plan::ReciprocalNode& n = m_view->scene().nodes[static_cast<std::size_t>(node)];
        if (const std::optional<QPointF> at = toQPointF(geometry->project(n.diffracted)))
            marker = Overlays::Marker{*at, hklText(n.hkl)};
    }
    if (marker == m_viewer.overlays.marker())
        return;
    m_viewer.overlays.setMarker(marker);
    m_viewer.image.invalidateOverlay();
}

} // namespace bv::app
