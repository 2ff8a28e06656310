// Screenshots of every panel and overlay, taken the way --screenshot takes them (the swap
// chain read back into the grabbed window), for review and for docs/user-guide.md. They go
// to $BRAGGVIEW_SCREENSHOT_DIR, else to screenshots/ beside this test program. Each shot is
// checked to show the image (not a blank or black view) and the overlay's colour where one
// is switched on.

#include "GuiTestMain.h"
#include "ScreenshotSupport.h"
#include "ViewerHarness.h"
#include "app/DetectorChooser.h"
#include "app/DisplayPanel.h"
#include "app/ParameterPanels.h"
#include "app/PlotPanel.h"
#include "app/TracePanel.h"
#include "app/Viewer.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QTreeWidget>

#include <set>

using namespace bv;
using test::ViewerHarness;

namespace {

using test::coloursIn;
QString folder() { return test::screenshotFolder(); }



bool hasColour(const QImage& shot, const QRect& area, QColor colour, int tolerance = 30) {
    for (int y = area.top(); y < area.bottom(); ++y)
        for (int x = area.left(); x < area.right(); ++x) {
            const QRgb p = shot.pixel(x, y);
            if (std::abs(qRed(p) - colour.red()) < tolerance && std::abs(qGreen(p) - colour.green()) < tolerance &&
                std::abs(qBlue(p) - colour.blue()) < tolerance)
                return true;
        }
    return false;
}

} // namespace

class TestScreenshots : public QObject {
    Q_OBJECT

    ViewerHarness m_viewer;

    QImage shoot(const QString& name) {
        if (!m_viewer.waitImage() || !m_viewer.waitFrame())
            return {};
        QCoreApplication::processEvents();
        const QImage shot = app::grabMainWindow(*m_viewer.window);
        shot.save(folder() + QLatin1Char('/') + name, "PNG");
        return shot;
    }
    QRect viewArea() {
        QWidget* container = m_viewer.window->imageContainer();
        return QRect(container->mapTo(m_viewer.window.get(), QPoint(0, 0)), container->size());
    }
    app::ParameterField* field(const char* name) {
        for (app::ParameterPanel* p : m_viewer.window->panels())
            if (app::ParameterField* f = p->field(QLatin1String(name)))
                return f;
        return nullptr;
    }

  private slots:
    void cleanup() { BV_VERIFY_NO_VALIDATION_MESSAGES(); }

    void initTestCase() {
        // the built-in demo experiment, as `braggview` opens it
        QVERIFY(m_viewer.open(test::words(QStringLiteral(
            "-cell 79.1 79.1 38.4 90 90 90 -misset 10 25 5 -lambda 1.0 -N 20 -default_F 100 -distance 200 "
            "-detpixels 512 -pixel 0.2 -round_xtal -mosaic 0.3 -mosaic_dom 8 -mosaic_seed 1 -seed 1")),
            QSize(1600, 1000)));
    }

    void beamPanelAndRings() {
        m_viewer.window->parameterTabs()->setCurrentIndex(0);
        const QImage shot = shoot(QStringLiteral("viewer-beam-panel.png"));
        QVERIFY(!shot.isNull());
        QVERIFY(coloursIn(shot, viewArea()) > 20);
        QVERIFY(hasColour(shot, viewArea(), QColor(0, 150, 255))); // the rings
        QVERIFY(hasColour(shot, viewArea(), QColor(255, 140, 0))); // the beam centre
    }

    void detectorPanelTiltedRings() {
        m_viewer.window->parameterTabs()->setCurrentIndex(1);
        field("twotheta")->spinBox()->setValue(25.0);
        const QImage shot = shoot(QStringLiteral("viewer-detector-panel-twotheta.png"));
        QVERIFY(!shot.isNull());
        QVERIFY(hasColour(shot, viewArea(), QColor(0, 150, 255)));
        field("twotheta")->spinBox()->setValue(0.0);
        QVERIFY(m_viewer.waitImage());
    }

    void crystalPanelPredictedSpots() {
        m_viewer.window->parameterTabs()->setCurrentIndex(2);
        app::DisplayPanel& display = m_viewer.window->displayPanel();
        display.setOverlays({true, false, true, true});
        m_viewer.window->imageWindow().fitToWindow();
        m_viewer.window->imageWindow().zoomBy(2.5);
        const QImage shot = shoot(QStringLiteral("viewer-crystal-panel-spots.png"));
        QVERIFY(!shot.isNull());
        QVERIFY(hasColour(shot, viewArea(), QColor(230, 0, 200))); // predicted spots
        display.setOverlays({true, true, false, true});
        m_viewer.window->imageWindow().fitToWindow();
    }

    void samplingPanelAndViridis() {
        m_viewer.window->parameterTabs()->setCurrentIndex(3);
        app::DisplayPanel& display = m_viewer.window->displayPanel();
        render::DisplaySettings s = display.settings();
        s.colormap = render::Colormap::Viridis;
        s.scaling = render::Scaling::Log;
        display.setSettings(s);
        const QImage shot = shoot(QStringLiteral("viewer-sampling-panel-viridis-log.png"));
        QVERIFY(!shot.isNull());
        QVERIFY(hasColour(shot, viewArea(), QColor(0x44, 0x01, 0x54), 12)); // viridis' dark end
        s.colormap = render::Colormap::Heat;
        s.scaling = render::Scaling::Sqrt;
        display.setSettings(s);
        QVERIFY(!shoot(QStringLiteral("viewer-heat-sqrt.png")).isNull());
        s.colormap = render::Colormap::InvertedGrey;
        s.scaling = render::Scaling::Linear;
        display.setSettings(s);
    }

    void readoutAndPlots() {
        m_viewer.window->parameterTabs()->setCurrentIndex(0);
        const QPoint brightest = test::brightestNear(m_viewer.image(), m_viewer.fast(), m_viewer.slow(),
                                                     QPointF(256, 256), 256);
        m_viewer.window->pinPixel(brightest);
        m_viewer.window->setProfileLine(QPointF(20, 256), QPointF(490, 256));
        app::PlotPanel& plots = m_viewer.window->plots();
        plots.tabs()->setCurrentIndex(1);
        QVERIFY(!shoot(QStringLiteral("viewer-readout-line-profile.png")).isNull());
        QVERIFY(!plots.lineData().x.empty());
        plots.tabs()->setCurrentIndex(0);
        QVERIFY(!shoot(QStringLiteral("viewer-radial-profile.png")).isNull());
        QVERIFY(!plots.radialData().x.empty());
        plots.tabs()->setCurrentIndex(2);
        QVERIFY(!shoot(QStringLiteral("viewer-histogram.png")).isNull());
        m_viewer.window->pinPixel(std::nullopt);
    }

    void pixelTrace() {
        // a pinned spot pixel and why it has its value (the Pixel trace dock)
        const QPoint brightest = test::brightestNear(m_viewer.image(), m_viewer.fast(), m_viewer.slow(),
                                                     QPointF(256, 256), 256);
        m_viewer.window->pinPixel(brightest);
        QVERIFY2(m_viewer.window->tracePanel().trace().has_value(),
                 qPrintable(m_viewer.window->tracePanel().statusText()));
        QVERIFY(!shoot(QStringLiteral("viewer-pixel-trace.png")).isNull());
        m_viewer.window->pinPixel(std::nullopt);
    }

    void zoomedOneToOne() {
        m_viewer.window->imageWindow().showOneToOne();
        m_viewer.window->imageWindow().zoomBy(4.0);
        QVERIFY(!shoot(QStringLiteral("viewer-zoomed.png")).isNull());
        m_viewer.window->imageWindow().fitToWindow();
    }

    void exportedPngWithOverlays() {
        const QImage png = m_viewer.window->exportedPng();
        QCOMPARE(png.size(), QSize(512, 512));
        png.save(folder() + QStringLiteral("/export-demo.png"), "PNG");
    }

    void detectorPresetAndItsModules() {
        // the Detector panel: a preset chosen, its modules listed, drawn with their gaps
        m_viewer.window->parameterTabs()->setCurrentIndex(1);
        auto* chooser =
            m_viewer.window->panel(QStringLiteral("Detector"))->findChild<app::DetectorChooser*>();
        QVERIFY(chooser);
        chooser->choose(chooser->choice()->findData(QStringLiteral("jungfrau-4m")));
        QVERIFY(m_viewer.waitImage());
        m_viewer.window->imageWindow().fitToWindow();
        const QImage shot = shoot(QStringLiteral("viewer-detector-panel-preset.png"));
        QVERIFY(!shot.isNull());
        QCOMPARE(chooser->modules()->topLevelItemCount(), 8);
        QVERIFY(coloursIn(shot, viewArea()) > 20);
    }

    void detectorFromADialsExperimentList() {
        // File > Open detector geometry: four modules of a tilted group, as DIALS placed them
        auto* chooser =
            m_viewer.window->panel(QStringLiteral("Detector"))->findChild<app::DetectorChooser*>();
        m_viewer.window->openDetectorGeometry(
            QStringLiteral(BV_TEST_DATA "/detectors/four-module-tilted.expt"));
        QVERIFY(m_viewer.waitImage());
        m_viewer.window->imageWindow().fitToWindow();
        const QImage shot = shoot(QStringLiteral("viewer-detector-panel-expt.png"));
        QVERIFY(!shot.isNull());
        QCOMPARE(chooser->modules()->topLevelItemCount(), 4);
        QVERIFY(coloursIn(shot, viewArea()) > 20);

        // back to the demo's flat detector 200 mm away, for the shots that follow
        chooser->choose(0);
        field("distance")->setValue(200.0);
        QVERIFY(m_viewer.waitImage());
        QCOMPARE(m_viewer.fast(), 512);
        m_viewer.window->imageWindow().fitToWindow();
        m_viewer.window->parameterTabs()->setCurrentIndex(0);
    }

    void backgroundAndPointSpread() {
        // the Sampling panel's Background and Detector response sections, scrolled into view,
        // with the radial profile: a water layer (which outshines this 0.16 um crystal by far,
        // so the overload colour is off), then the crystal alone through a Gaussian PSF
        m_viewer.window->parameterTabs()->setCurrentIndex(3);
        app::ParameterPanel* sampling = m_viewer.window->panel(QStringLiteral("Sampling"));
        auto* scroll = qobject_cast<QScrollArea*>(m_viewer.window->parameterTabs()->currentWidget());
        QVERIFY(scroll);
        app::DisplayPanel& display = m_viewer.window->displayPanel();
        const render::DisplaySettings before = display.settings();
        m_viewer.window->plots().tabs()->setCurrentIndex(0);
        const double bragg = m_viewer.window->plots().radialData().y.back();
        auto* material = sampling->findChild<QComboBox*>(QStringLiteral("backgroundMaterial"));
        material->setCurrentIndex(material->findText(QStringLiteral("water")));
        QVERIFY(m_viewer.waitImage());
        field("backgroundThickness")->setValue(20.0);
        QVERIFY(m_viewer.waitImage());
        render::DisplaySettings s = display.settings();
        s.overloadOn = false;
        display.setSettings(s);
        scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
        QVERIFY(!shoot(QStringLiteral("viewer-background-water.png")).isNull());
        // the profile's outer rings carry the layer
        QVERIFY(m_viewer.window->plots().radialData().y.back() > 10.0 * bragg);

        material->setCurrentIndex(0);
        sampling->findChild<QCheckBox*>(QStringLiteral("response"))->setChecked(true);
        auto* psf = sampling->findChild<QComboBox*>(QStringLiteral("psf"));
        psf->setCurrentIndex(psf->findText(QStringLiteral("gauss")));
        QVERIFY(m_viewer.waitImage());
        field("psfFwhm")->setValue(1000.0); // 5 pixels
        QVERIFY(m_viewer.waitImage());
        display.setSettings(before);
        m_viewer.window->imageWindow().fitToWindow();
        m_viewer.window->imageWindow().zoomBy(2.5);
        scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
        QVERIFY(!shoot(QStringLiteral("viewer-psf-gauss.png")).isNull());

        // back to the demo as it was, for the shots that follow
        sampling->findChild<QCheckBox*>(QStringLiteral("response"))->setChecked(false);
        QVERIFY(m_viewer.waitImage());
        m_viewer.window->imageWindow().fitToWindow();
        scroll->verticalScrollBar()->setValue(0);
        m_viewer.window->parameterTabs()->setCurrentIndex(0);
    }

    void refiningThenEngineStopped() {
        // a heavy run, shown a third of the way (the status says which step)
        app::SimulationController& controller = m_viewer.controller();
        controller.setWorkPerSlice(1u << 18);
        QVERIFY(m_viewer.waitImage());
        QImage refining;
        const QMetaObject::Connection watcher = connect(
            &controller, &app::SimulationController::progress, this, [&](int finished, int total) {
                if (refining.isNull() && finished >= total / 3)
                    refining = app::grabMainWindow(*m_viewer.window);
            });
        m_viewer.document().edit([](Experiment& e) { e.crystal.phi0 += 0.02; });
        QVERIFY(m_viewer.waitImage());
        disconnect(watcher);
        QVERIFY(!refining.isNull());
        refining.save(folder() + QStringLiteral("/viewer-refining.png"), "PNG");
        QVERIFY(coloursIn(refining, viewArea()) > 5);

        // a lost device: the message and the way out
        controller.setWorkPerSlice(0);
        QVERIFY(m_viewer.waitImage());
        controller.simulateDeviceLoss();
        m_viewer.document().edit([](Experiment& e) { e.crystal.phi0 += 0.02; });
        QTRY_VERIFY_WITH_TIMEOUT(controller.isEngineStopped(), 30000);
        QCoreApplication::processEvents();
        const QImage stopped = app::grabMainWindow(*m_viewer.window);
        stopped.save(folder() + QStringLiteral("/viewer-engine-stopped.png"), "PNG");
        m_viewer.window->restartEngine();
        QVERIFY(!shoot(QStringLiteral("viewer-engine-restarted.png")).isNull());
    }
};

BV_GUI_TEST_MAIN(TestScreenshots)
#include "tst_screenshots.moc"
