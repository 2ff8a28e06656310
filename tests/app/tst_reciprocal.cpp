// The reciprocal-space dock (issue 15) on lavapipe under Xvfb, with the validation layer on:
// it draws the Ewald construction, its camera orbits, zooms and resets, a node is picked where
// the camera draws it, and the view and the image point at each other (hovering a node rings
// its spot on the image; hovering or pinning the image's spot finds the node). A slider moves
// the sphere: its radius is 1/lambda.

#include "GuiTestMain.h"
#include "ScreenshotSupport.h"
#include "ViewerHarness.h"
#include "app/MainWindow.h"
#include "app/ParameterField.h"
#include "app/ParameterPanels.h"
#include "app/ReciprocalDock.h"
#include "app/Viewer.h"
#include "render/ReciprocalWindow.h"

#include <QAction>
#include <QDoubleSpinBox>
#include <QMenu>
#include <QMenuBar>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>

#include <glm/geometric.hpp>

#include <cmath>

using namespace bv;
using test::ViewerHarness;

namespace {

// lambda 1 Angstrom: the sphere's radius is 1 1/Angstrom. A 40 A cubic cell seen to 2 A.
const QString kExperiment = QStringLiteral(
    "-cell 40 40 40 90 90 90 -N 20 -misset 5 10 15 -default_F 100 -lambda 1 -distance 100 "
    "-detpixels 256 -pixel 0.4 -fluence 1e26 -seed 7 -precision fast");

// Whether some pixel of `area` passes `test`.
template <typename Test> bool anyPixel(const QImage& shot, const QRect& area, Test test) {
    for (int y = area.top(); y < area.bottom(); ++y)
        for (int x = area.left(); x < area.right(); ++x)
            if (test(QColor(shot.pixel(x, y))))
                return true;
    return false;
}

} // namespace

class TestReciprocal : public QObject {
    Q_OBJECT

    ViewerHarness m_viewer;

    app::ReciprocalDock& dock() { return m_viewer.window->reciprocalDock(); }
    render::ReciprocalWindow& view() { return dock().view(); }
    bool waitViewFrame() {
        const auto before = view().framesRendered();
        view().requestUpdate();
        return QTest::qWaitFor([&] { return view().framesRendered() > before; }, 30000);
    }
    // The node (not the origin) nearest the sphere against its reach whose spot lands inside the
    // image and whose dot no other node in reach within a pixel hides.
    std::optional<std::size_t> clearNodeInReach() {
        const plan::EwaldScene& s = view().scene();
        const std::optional<app::PixelGeometry>& g = m_viewer.window->geometry();
        std::optional<std::size_t> best;
        double bestRatio = 1.0;
        for (std::size_t i = 0; i < s.nodes.size(); ++i) {
            const plan::ReciprocalNode& n = s.nodes[i];
            const std::optional<QPointF> spot = app::toQPointF(g->project(n.diffracted));
            const std::optional<QPointF> at = view().nodePosition(i);
            if (!n.inReach() || n.hkl == glm::ivec3(0) || !spot || !at || spot->x() < 8 ||
                spot->y() < 8 || spot->x() > g->fastPixels() - 8 || spot->y() > g->slowPixels() - 8)
                continue;
            bool clear = true;
            for (std::size_t j = 0; j < s.nodes.size() && clear; ++j)
                if (j != i && s.nodes[j].inReach()) // those are picked first
                    if (const std::optional<QPointF> other = view().nodePosition(j))
                        clear = QLineF(*at, *other).length() > 1.0;
            const double ratio = std::fabs(n.excitation) / n.reach;
            if (clear && ratio <= bestRatio) {
                best = i;
                bestRatio = ratio;
            }
        }
        return best;
    }
    void sendMove(QPointF at, Qt::MouseButtons buttons) {
        QMouseEvent move(QEvent::MouseMove, at, view().mapToGlobal(at), Qt::NoButton, buttons,
                         Qt::NoModifier);
        QCoreApplication::sendEvent(&view(), &move);
    }

  private slots:
    void initTestCase() {
        QVERIFY(m_viewer.open(test::words(kExperiment), QSize(1920, 1080)));
        // hidden until View > Reciprocal space opens it
        QVERIFY(dock().isHidden());
        QAction* open = nullptr;
        for (QAction* menu : m_viewer.window->menuBar()->actions())
            if (menu->menu() && menu->text() == QStringLiteral("&View"))
                for (QAction* a : menu->menu()->actions())
                    if (a->text() == QStringLiteral("Reciprocal space"))
                        open = a;
        QVERIFY(open);
        open->trigger();
        QVERIFY(dock().isVisible());
        m_viewer.window->resizeDocks({&dock()}, {560}, Qt::Horizontal);
        QVERIFY(m_viewer.waitFrame());
        m_viewer.window->imageWindow().fitToWindow();
        QVERIFY(QTest::qWaitFor([&] { return view().isValid() && view().hasScene(); }, 30000));
        QVERIFY(waitViewFrame());
        QVERIFY(!view().scene().nodes.empty());
    }
    void cleanup() { BV_VERIFY_NO_VALIDATION_MESSAGES(); }

    void theDockDrawsTheConstruction() {
        QVERIFY(m_viewer.waitFrame());
        const QImage shot = app::grabMainWindow(*m_viewer.window);
        shot.save(test::screenshotFolder() + QStringLiteral("/reciprocal-dock.png"), "PNG");
        QWidget* box = dock().viewContainer();
        const QRect area(box->mapTo(m_viewer.window.get(), QPoint(0, 0)), box->size());
        // a node in reach (orange), the sphere's circles (cyan over the dark background)
        QVERIFY(anyPixel(shot, area, [](QColor c) {
            return c.red() > 220 && c.green() > 120 && c.green() < 190 && c.blue() < 80;
        }));
        QVERIFY(anyPixel(shot, area, [](QColor c) {
            return c.blue() > 70 && c.green() > 60 && c.red() < c.green() - 25;
        }));
        QVERIFY(test::coloursIn(shot, area) > 20);
    }

    void orbitZoomAndResetComeBack() {
        const glm::dvec3 eye = view().camera().eye();
        const double distance = view().camera().distance();
        const QPointF centre(view().width() / 2.0, view().height() / 2.0);
        QTest::mousePress(&view(), Qt::LeftButton, Qt::NoModifier, centre.toPoint());
        sendMove(centre + QPointF(60, 25), Qt::LeftButton);
        QTest::mouseRelease(&view(), Qt::LeftButton, Qt::NoModifier,
                            (centre + QPointF(60, 25)).toPoint());
        QVERIFY(glm::length(view().camera().eye() - eye) > 1e-3);
        QWheelEvent wheel(centre, view().mapToGlobal(centre), QPoint(), QPoint(0, 240),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(&view(), &wheel);
        QVERIFY(view().camera().distance() < distance * 0.9); // two notches closer
        QTest::keyClick(&view(), Qt::Key_R);
        QVERIFY(glm::length(view().camera().eye() - eye) < 1e-9);
        QCOMPARE(view().camera().distance(), distance);
        // the keys, and a double click back
        QTest::keyClick(&view(), Qt::Key_Left);
        QTest::keyClick(&view(), Qt::Key_Plus);
        QVERIFY(view().camera().distance() < distance);
        QVERIFY(glm::length(view().camera().eye() - eye) > 1e-3);
        QTest::mouseDClick(&view(), Qt::LeftButton, Qt::NoModifier, centre.toPoint());
        QVERIFY(glm::length(view().camera().eye() - eye) < 1e-9);
    }

    // S (or Frame spots) looks closely at the origin and the detector's cap of the sphere:
    // every outline point still in the window, the camera nearer than for the whole sphere;
    // R goes back to the whole sphere.
    void frameSpotsLooksAtTheDetectorsCap() {
        const double whole = view().camera().distance();
        const plan::EwaldScene& s = view().scene();
        QVERIFY(!s.detectorOutline.empty());
        QTest::keyClick(&view(), Qt::Key_S);
        QVERIFY(view().framingSpots());
        QVERIFY(view().camera().distance() < whole * 0.8);
        const double w = view().camera().width(), h = view().camera().height();
        for (const std::vector<glm::dvec3>& outline : s.detectorOutline)
            for (const glm::dvec3& p : outline) {
                const std::optional<glm::dvec2> at = view().camera().project(p);
                QVERIFY(at);
                QVERIFY(at->x >= 0.0 && at->x <= w && at->y >= 0.0 && at->y <= h);
            }
        QVERIFY(m_viewer.waitFrame());
        app::grabMainWindow(*m_viewer.window)
            .save(test::screenshotFolder() + QStringLiteral("/reciprocal-spots.png"), "PNG");
        QTest::keyClick(&view(), Qt::Key_R);
        QVERIFY(!view().framingSpots());
        QCOMPARE(view().camera().distance(), whole);
    }

    void hoveringANodeRingsItsSpotOnTheImage() {
        const std::optional<std::size_t> node = clearNodeInReach();
        QVERIFY(node.has_value());
        const QPointF at = *view().nodePosition(*node);
        QCOMPARE(view().nodeAt(at).value_or(99999), *node);
        QSignalSpy hovered(&view(), &render::ReciprocalWindow::nodeHovered);
        sendMove(at, Qt::NoButton);
        QCOMPARE(hovered.count(), 1);
        QCOMPARE(hovered.front().front().toInt(), int(*node));
        const plan::ReciprocalNode& n = view().scene().nodes[*node];
        const std::optional<app::Overlays::Marker>& marker = m_viewer.window->overlays().marker();
        QVERIFY(marker.has_value());
        QCOMPARE(marker->label, QStringLiteral("%1 %2 %3").arg(n.hkl.x).arg(n.hkl.y).arg(n.hkl.z));
        const QPointF spot = app::toQPointF(*m_viewer.window->geometry()->project(n.diffracted));
        QVERIFY(QLineF(marker->point, spot).length() < 1e-6);
        // the simulated image has a spot there: the brightest pixel within two is bright
        std::vector<float> sorted = m_viewer.image();
        std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
        const QPoint peak =
            test::brightestNear(m_viewer.image(), m_viewer.fast(), m_viewer.slow(), spot, 2);
        QVERIFY(test::at(m_viewer.image(), m_viewer.fast(), peak.x(), peak.y()) >
                10.0f * sorted[sorted.size() / 2]);
        sendMove(QPointF(2, 2), Qt::NoButton); // nothing there
        QVERIFY(!m_viewer.window->overlays().marker().has_value());
    }

    void theImageFindsItsNodeAndThePinnedRay() {
        const std::optional<std::size_t> node = clearNodeInReach();
        QVERIFY(node.has_value());
        const plan::ReciprocalNode n = view().scene().nodes[*node];
        const QPointF spot = app::toQPointF(*m_viewer.window->geometry()->project(n.diffracted));
        emit m_viewer.window->imageWindow().cursorMoved(spot);
        QCOMPARE(view().highlights().hoveredNode.value_or(99999), *node);
        emit m_viewer.window->imageWindow().cursorLeft();
        QVERIFY(!view().highlights().hoveredNode.has_value());

        const QPoint pixel(int(std::floor(spot.x())), int(std::floor(spot.y())));
        m_viewer.window->pinPixel(pixel);
        QVERIFY(view().highlights().pinnedPoint.has_value());
        QCOMPARE(view().highlights().pinnedNode.value_or(99999), *node);
        // S lies on the sphere
        const glm::dvec3 s = *view().highlights().pinnedPoint;
        QVERIFY(std::fabs(glm::length(s - view().scene().sphereCentre) - view().scene().radius) <
                1e-9);
        const QString hkl = QStringLiteral("%1 %2 %3").arg(n.hkl.x).arg(n.hkl.y).arg(n.hkl.z);
        QVERIFY2(dock().pinnedText().contains(QStringLiteral("Nearest node ") + hkl),
                 qPrintable(dock().pinnedText()));
        // |q| two ways: 2 pi |S| in the dock, 4 pi sin(theta) / lambda in the readout
        const double q = m_viewer.window->geometry()->atPixelCentre(pixel.x(), pixel.y()).q;
        QVERIFY2(dock().pinnedText().contains(QStringLiteral("|q| = %1").arg(q, 0, 'f', 3)),
                 qPrintable(dock().pinnedText()));
        sendMove(*view().nodePosition(*node), Qt::NoButton); // its spot ringed on the image too
        QVERIFY(waitViewFrame());
        QVERIFY(m_viewer.waitFrame());
        app::grabMainWindow(*m_viewer.window)
            .save(test::screenshotFolder() + QStringLiteral("/reciprocal-pinned.png"), "PNG");
        m_viewer.window->pinPixel(std::nullopt);
        QVERIFY(!view().highlights().pinnedPoint.has_value());
        sendMove(QPointF(2, 2), Qt::NoButton);
    }

    void aWavelengthSliderResizesTheSphere() {
        QVERIFY(std::fabs(view().scene().radius - 1.0) < 1e-9); // 1 / (1 Angstrom)
        app::ParameterField* wavelength =
            m_viewer.window->panel(QStringLiteral("Beam"))->field(QStringLiteral("wavelength"));
        QVERIFY(wavelength);
        wavelength->spinBox()->setValue(1.25);
        QVERIFY(m_viewer.waitImage());
        QVERIFY2(std::fabs(view().scene().radius - 0.8) < 1e-9, // 1 / 1.25
                 qPrintable(QString::number(view().scene().radius)));
        wavelength->spinBox()->setValue(1.0);
        QVERIFY(m_viewer.waitImage());
    }

    void playMovesPhi() {
        auto* play = dock().findChild<QToolButton*>(QStringLiteral("reciprocalPlay"));
        QVERIFY(play && play->defaultAction());
        const double phi = view().scene().phi;
        play->click();
        QVERIFY(m_viewer.window->phiAnimationPlaying());
        QVERIFY(
            QTest::qWaitFor([&] { return view().scene().phi > phi + 1.5 * M_PI / 180.0; }, 60000));
        play->click();
        QVERIFY(!m_viewer.window->phiAnimationPlaying());
        QVERIFY(m_viewer.waitImage());
        // the readout says the scene's phi, in degrees
        const QString degrees = QString::number(view().scene().phi * 180.0 / M_PI, 'f', 1);
        QVERIFY2(dock().phiText().contains(degrees), qPrintable(dock().phiText()));
    }
};

BV_GUI_TEST_MAIN(TestReciprocal)
#include "tst_reciprocal.moc"
