#include "app/MainWindow.h"

#include "app/DisplayPanel.h"
#include "app/ExperimentDocument.h"
#include "app/LessonController.h"
#include "app/ParameterPanels.h"
#include "app/PlotPanel.h"
#include "app/ReadoutPanel.h"
#include "app/ReciprocalDock.h"
#include "app/RefinePanel.h"
#include "app/SimulationController.h"
#include "app/TracePanel.h"
#include "compute/core/Error.h"
#include "compute/model/Units.h"
#include "render/ImageWindow.h"

#include <QAction>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include "app/CompareView.h"
#include <QPainter>
#include <QScrollArea>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QVulkanInstance>

#include <cmath>

namespace bv::app {

MainWindow::MainWindow(QVulkanInstance* instance, QWidget* parent) : QMainWindow(parent) {
    setWindowTitle(tr("braggview"));
    m_document = new ExperimentDocument(this);
    m_imageWindow = new render::ImageWindow;
    m_imageWindow->setVulkanInstance(instance);
    m_container = QWidget::createWindowContainer(m_imageWindow, this);
    m_container->setMinimumSize(320, 240);
    m_container->setFocusPolicy(Qt::StrongFocus);
    m_container->setToolTip(tr("Wheel: zoom about the cursor. Drag: pan. Shift+drag: line "
                               "profile. Click: pin a pixel. F: fit, 1: one to one."));
    setCentralWidget(m_container);
    m_controller = new SimulationController(*m_document, *m_imageWindow, this);
    m_compare = new CompareView(*m_controller, *m_imageWindow, this);
    connect(m_compare, &CompareView::fitChanged, this, [this] {
        QStringList parts;
        if (const auto& fit = m_compare->fit())
            parts << tr("%1: correlation %2, measured = %3 × simulated + %4, residual %5 rms")
                         .arg(m_compare->measuredName())
                         .arg(fit->correlation, 0, 'f', 4)
                         .arg(fit->scale, 0, 'g', 5)
                         .arg(fit->background, 0, 'g', 4)
                         .arg(fit->residual, 0, 'g', 4);
        else if (!m_compare->problem().isEmpty())
            parts << tr("Cannot compare: %1").arg(m_compare->problem());
        updateObservedSpots(parts);
        if (!parts.isEmpty())
            statusBar()->showMessage(parts.join(QStringLiteral(" · ")));
        // the profiles' second curve and the readout's second value follow the fit
        const auto& fit = m_compare->fit();
        m_plots->setMeasured(fit ? m_compare->measured() : nullptr, fit ? fit->scale : 1.0,
                             fit ? fit->background : 0.0);
        updateReadout();
    });
    m_imageWindow->setOverlayPainter([this](QPainter& painter, const render::ViewTransform& view) {
        m_overlays.paint(painter, view, QSizeF(m_imageWindow->framebufferSize()));
    });

    buildDocks();
    // the Ewald construction beside the image, between it and the parameters (the right
    // column is the image's display and readout); hidden until View > Reciprocal space asks
    // for it: a second Vulkan window costs a device and frames, on lavapipe CPU time
    m_reciprocal =
        new ReciprocalDock(this, {*m_imageWindow, *m_controller, m_geometry, m_overlays}, instance);
    addDockWidget(Qt::LeftDockWidgetArea, m_reciprocal, Qt::Horizontal);
    m_reciprocal->hide();
    // its dock joins the View menu's list
    const PresentationMode::Viewer shown{*this,       *m_imageWindow, m_container,
                                         m_overlays, *m_reciprocal,
                                         [this] { setPhiAnimation(!m_playing); }};
    m_lessons = new LessonController(
        {shown, *m_document, *m_controller, m_panels, m_parameterTabs,
         [this](const Session& session) { showSession(session); }});
    buildMenus();

    m_timing = new QLabel(this);
    m_timing->setObjectName(QStringLiteral("timing"));
    m_state = new QLabel(this);
    m_state->setObjectName(QStringLiteral("state"));
    statusBar()->addWidget(m_state, 1); // the room it needs as its text changes ("step k/n")
    statusBar()->addPermanentWidget(m_timing);
    m_restartButton = new QPushButton(tr("Restart engine"), this);
    m_restartButton->setObjectName(QStringLiteral("restartEngine"));
    m_restartButton->setToolTip(m_restartAction->toolTip());
    m_restartButton->hide(); // shown while the engine is stopped
    connect(m_restartButton, &QPushButton::clicked, this, &MainWindow::restartEngine);
    statusBar()->addPermanentWidget(m_restartButton);

    connect(m_controller, &SimulationController::imageReady, this, &MainWindow::onImageReady);
    connect(m_controller, &SimulationController::runStarted, this, &MainWindow::updateStatus);
    connect(m_controller, &SimulationController::runStarted, this, &MainWindow::updateCostWarning);
    connect(m_controller, &SimulationController::progress, this, [this](int finished, int total) {
        // a heavy setting refines on screen, one slice (step) at a time
        m_state->setText(tr("computing… step %1/%2").arg(finished).arg(total));
    });
    connect(m_controller, &SimulationController::simulatorChanged, this, &MainWindow::updateStatus);
    connect(m_controller, &SimulationController::failed, this, [this](const QString& message) {
        if (m_controller->isEngineStopped())
            return; // engineStopped() says it, with the way out
        showError(tr("The image cannot be computed"),
                  message + tr("\n\nThe last good image stays on screen."));
        updateStatus();
    });
    connect(m_controller, &SimulationController::engineStopped, this, [this](const QString& message) {
        m_restartButton->show();
        showError(tr("The GPU engine stopped"),
                  message + tr("\n\nNo image is computed until the engine is restarted: "
                               "Engine > Restart engine (the parameters are kept)."));
        updateStatus();
    });
    connect(m_document, &ExperimentDocument::changed, this, &MainWindow::onDocumentChanged);
    connect(m_document, &ExperimentDocument::replaced, this, &MainWindow::refreshPanels);

    connect(m_imageWindow, &render::ImageWindow::cursorMoved, this, [this](QPointF point) {
        m_cursor = point;
        if (!m_pinned)
            updateReadout();
        m_reciprocal->imageHovered(point);
    });
    connect(m_imageWindow, &render::ImageWindow::cursorLeft, this, [this] {
        m_cursor.reset();
        if (!m_pinned)
            updateReadout();
        m_reciprocal->imageHovered(std::nullopt);
    });
    connect(m_imageWindow, &render::ImageWindow::pixelClicked, this, [this](QPointF point) {
        QPoint pixel(static_cast<int>(std::floor(point.x())), static_cast<int>(std::floor(point.y())));
        if (m_geometry && m_geometry->projected()) { // a view point: the pixel behind it
            const std::optional<ImagePixel> behind = m_geometry->pixelAt(toVec2(point));
            if (!behind)
                return; // a gap: nothing to pin
            pixel = QPoint(behind->fast, behind->slow);
        }
        pinPixel(m_pinned && *m_pinned == pixel ? std::nullopt : std::optional<QPoint>(pixel));
    });
    connect(m_imageWindow, &render::ImageWindow::lineDrawn, this, &MainWindow::setProfileLine);

    resize(1500, 950);
    updateStatus();
}

MainWindow::~MainWindow() {
    // the reciprocal dock reads this window's geometry when its view reports a hover, which
    // its window may do while it is torn down: it goes while this window is whole (QWidget
    // deletes children after this destructor, when only a QMainWindow is left; UBSan caught it)
    // (and the image window's cursor, which the dock follows, reports no more to this one)
    disconnect(m_imageWindow, nullptr, this, nullptr);
    delete m_reciprocal;
    m_reciprocal = nullptr;
    // the simulator lives on the image window's device: it goes first
    delete m_controller;
    m_controller = nullptr;
}

void MainWindow::buildDocks() {
    setDockNestingEnabled(true);
    m_parameterTabs = new QTabWidget(this);
    m_parameterTabs->setObjectName(QStringLiteral("parameterTabs"));
    m_panels = {makeBeamPanel(*m_document, nullptr), makeDetectorPanel(*m_document, nullptr),
                makeCrystalPanel(*m_document, nullptr), makeSamplingPanel(*m_document, nullptr)};
    for (ParameterPanel* panel : m_panels) {
        auto* scroll = new QScrollArea(m_parameterTabs);
        scroll->setWidget(panel);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        m_parameterTabs->addTab(scroll, panel->title());
    }
    // under the tabs, whichever is open: a setting that will take long says so
    m_costWarning = new QLabel(this);
    m_costWarning->setObjectName(QStringLiteral("costWarning"));
    m_costWarning->setWordWrap(true);
    m_costWarning->setStyleSheet(QStringLiteral("QLabel { color: #b35900; padding: 4px; }"));
    m_costWarning->hide();
    auto* parameterArea = new QWidget(this);
    auto* parameterLayout = new QVBoxLayout(parameterArea);
    parameterLayout->setContentsMargins(0, 0, 0, 0);
    parameterLayout->addWidget(m_parameterTabs, 1);
    parameterLayout->addWidget(m_costWarning);
    auto* parameters = new QDockWidget(tr("Parameters"), this);
    parameters->setObjectName(QStringLiteral("parametersDock"));
    parameters->setWidget(parameterArea);
    parameters->setMinimumWidth(430);
    addDockWidget(Qt::LeftDockWidgetArea, parameters);

    m_display = new DisplayPanel(this);
    auto* display = new QDockWidget(tr("Display"), this);
    display->setObjectName(QStringLiteral("displayDock"));
    display->setWidget(m_display);
    addDockWidget(Qt::RightDockWidgetArea, display);

    m_readout = new ReadoutPanel(this);
    auto* readout = new QDockWidget(tr("Readout"), this);
    readout->setObjectName(QStringLiteral("readoutDock"));
    readout->setWidget(m_readout);
    addDockWidget(Qt::RightDockWidgetArea, readout);

    m_plots = new PlotPanel(this);
    auto* plots = new QDockWidget(tr("Plots"), this);
    plots->setObjectName(QStringLiteral("plotsDock"));
    plots->setWidget(m_plots);
    addDockWidget(Qt::RightDockWidgetArea, plots);

    // why the pinned pixel has its value: under the parameters, while a pixel is pinned
    m_tracePanel = new TracePanel(*m_controller, this);
    m_traceDock = new QDockWidget(tr("Pixel trace"), this);
    m_traceDock->setObjectName(QStringLiteral("traceDock"));
    m_traceDock->setWidget(m_tracePanel);
    addDockWidget(Qt::LeftDockWidgetArea, m_traceDock);
    m_traceDock->hide();

    // the fit to the measured frame: beside the parameters, shown from the View menu
    m_refine = new RefinePanel(*m_document, *m_controller, *m_compare, *m_imageWindow, this);
    m_refineDock = new QDockWidget(tr("Refine"), this);
    m_refineDock->setObjectName(QStringLiteral("refineDock"));
    m_refineDock->setWidget(m_refine);
    addDockWidget(Qt::LeftDockWidgetArea, m_refineDock);
    m_refineDock->hide();

    m_display->setAutoContrastOnNewImage(true);
    m_imageWindow->setDisplaySettings(m_display->settings());
    m_overlays.setSettings(m_display->overlays());
    connect(m_display, &DisplayPanel::settingsChanged, this, [this](const render::DisplaySettings& s) {
        m_imageWindow->setDisplaySettings(s);
        m_plots->setLevels(s.black, s.white);
    });
    connect(m_display, &DisplayPanel::overlaysChanged, this, [this](const OverlaySettings& o) {
        m_overlays.setSettings(o);
        m_imageWindow->invalidateOverlay();
    });
    connect(m_display, &DisplayPanel::autoContrastRequested, this,
            [this] { autoContrast(); });
}

ParameterPanel* MainWindow::panel(const QString& title) const {
    for (ParameterPanel* p : m_panels)
        if (p->title() == title)
            return p;
    return nullptr;
}

void MainWindow::refreshPanels() {
    for (ParameterPanel* p : m_panels)
        p->refresh(m_controller->resolved());
}

void MainWindow::onDocumentChanged() {
    refreshPanels();
    updateStatus();
}

void MainWindow::onImageReady() {
    const ResolvedExperiment* resolved = m_controller->resolved();
    if (resolved)
        m_geometry.emplace(*resolved);
    else
        m_geometry.reset();
    m_overlays.setGeometry(m_geometry);
    m_overlays.setPreview(m_controller->previewDescription()); // marked until the exact image
    m_reciprocal->experimentChanged();
    const std::vector<float>& image = m_controller->image();
    if (!image.empty()) {
        const auto [lo, hi] = std::minmax_element(image.begin(), image.end());
        m_display->setImageRange(*lo, *hi);
    }
    if (m_firstImage || m_display->autoContrastOnNewImage())
        autoContrast();
    m_firstImage = false;
    if (m_pendingView) {
        m_imageWindow->setView(*m_pendingView);
        m_pendingView.reset();
    }
    m_imageWindow->invalidateOverlay();
    m_plots->setImage(&m_controller->image(), &m_controller->skipped(), m_controller->fastPixels(),
                      m_controller->slowPixels(), m_geometry);
    m_plots->setLevels(m_display->settings().black, m_display->settings().white);
    refreshPanels();
    updateReadout();
    updateStatus();
    if (m_playing) {
        const double step = units::radiansFromDegrees(m_phiStep->value());
        m_document->edit([step](Experiment& e) {
            e.crystal.phi0 = std::fmod(e.crystal.phi0 + step, 2.0 * M_PI);
        });
    }
}

void MainWindow::autoContrast() {
    const render::ImageHistogram& histogram = m_controller->histogram();
    if (!histogram.empty())
        m_display->autoContrast(histogram);
    else
        m_display->autoContrast(m_controller->image(), m_controller->skipped());
}

void MainWindow::restartEngine() {
    m_restartButton->hide();
    statusBar()->showMessage(tr("Restarting the GPU engine…"), 5000);
    m_controller->restartEngine();
    updateStatus();
}

void MainWindow::updateReadout() {
    std::optional<QPointF> point;
    if (m_pinned && m_geometry)
        point = toQPointF(m_geometry->centreOf(toVec2(*m_pinned)));
    else if (m_pinned)
        point = QPointF(m_pinned->x() + 0.5, m_pinned->y() + 0.5);
    else
        point = m_cursor;
    if (!point || !m_geometry) {
        m_readout->show(std::nullopt, m_pinned.has_value());
        return;
    }
    showReadoutAt(*point);
}

void MainWindow::showReadoutAt(QPointF imagePoint) {
    if (!m_geometry) {
        m_readout->show(std::nullopt, m_pinned.has_value());
        return;
    }
    Readout r;
    // the image pixel behind the point (none in a gap between panels or off the detector),
    // its quantities at the centre of what the point shows
    const std::optional<ImagePixel> pixel = m_geometry->pixelAt(toVec2(imagePoint));
    const int f = pixel ? pixel->fast : static_cast<int>(std::floor(imagePoint.x()));
    const int s = pixel ? pixel->slow : static_cast<int>(std::floor(imagePoint.y()));
    r.info = m_geometry->projected()
                 ? m_geometry->at(pixel ? m_geometry->centreOf({f, s}) : toVec2(imagePoint))
                 : m_geometry->atPixelCentre(f, s);
    r.intensity = pixel ? m_controller->valueAt(f, s) : std::nullopt;
    const std::vector<std::uint8_t>& skipped = m_controller->skipped();
    if (r.intensity && !skipped.empty())
        r.skipped = skipped[static_cast<std::size_t>(s) * static_cast<std::size_t>(m_controller->fastPixels()) +
                            static_cast<std::size_t>(f)] != 0;
    if (m_compare->hasMeasured()) { // the measured frame's count beside the simulated one
        r.hasMeasuredFrame = true;
        r.measured = pixel ? m_compare->measuredAt(f, s) : std::nullopt;
        if (r.measured && r.intensity && m_compare->fit())
            r.difference = static_cast<float>(*r.measured - m_compare->fit()->scale * *r.intensity -
                                              m_compare->fit()->background);
    }
    m_readout->show(r, m_pinned.has_value());
}

void MainWindow::pinPixel(const std::optional<QPoint>& pixel) {
    m_pinned = pixel;
    m_overlays.setPinned(pixel);
    m_reciprocal->setPinned(pixel);
    m_imageWindow->invalidateOverlay();
    updateReadout();
    m_tracePanel->setPixel(pixel);
    if (pixel && !m_traceDock->isVisible()) {
        m_traceDock->show();
        resizeDocks({m_traceDock}, {height() / 2}, Qt::Vertical);
    } else if (!pixel) {
        m_traceDock->hide();
    }
}

void MainWindow::setProfileLine(QPointF from, QPointF to) {
    m_overlays.setProfileLine(QLineF(from, to));
    m_plots->setLine(QLineF(from, to));
    m_imageWindow->invalidateOverlay();
}

void MainWindow::setPhiAnimation(bool playing) {
    m_playing = playing;
    if (m_playAction && m_playAction->isChecked() != playing)
        m_playAction->setChecked(playing);
    if (m_playAction)
        m_playAction->setText(playing ? tr("⏸ Pause phi") : tr("▶ Play phi"));
    if (playing && m_controller->isComplete()) // start moving now
        m_document->edit([step = units::radiansFromDegrees(m_phiStep->value())](Experiment& e) {
            e.crystal.phi0 = std::fmod(e.crystal.phi0 + step, 2.0 * M_PI);
        });
}

QImage MainWindow::renderViewOnCpu() {
    const QSize size = m_imageWindow->framebufferSize();
    QImage view(size, QImage::Format_ARGB32_Premultiplied);
    const render::DisplaySettings& display = m_imageWindow->displaySettings();
    view.fill(display.backgroundColour);
    QPainter painter(&view);
    const QImage image = render::colourImage(m_controller->image(), m_controller->fastPixels(),
                                             m_controller->slowPixels(), m_controller->skipped(), display);
    if (!image.isNull()) {
        const render::ViewTransform& t = m_imageWindow->view();
        painter.save();
        painter.translate(t.origin());
        painter.scale(t.scale(), t.scale());
        painter.drawImage(QPointF(0, 0), image);
        painter.restore();
    }
    painter.setRenderHint(QPainter::Antialiasing);
    m_overlays.paint(painter, m_imageWindow->view(), QSizeF(size));
    painter.end();
    return view.convertToFormat(QImage::Format_RGB32);
}

} // namespace bv::app
