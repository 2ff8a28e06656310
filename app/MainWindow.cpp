#include "app/MainWindow.h"

#include "app/DisplayPanel.h"
#include "app/Exporter.h"
#include "app/ExperimentDocument.h"
#include "app/HeadlessCommand.h"
#include "app/ParameterPanels.h"
#include "app/PlotPanel.h"
#include "app/ReadoutPanel.h"
#include "app/SimulationController.h"
#include "app/TracePanel.h"
#include "compute/cli/CommandLine.h"
#include "compute/model/Error.h"
#include "compute/model/Units.h"
#include "render/ImageWindow.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QPainter>
#include <QScrollArea>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QVulkanInstance>

#include <cmath>
#include <iostream>

namespace bv::app {

namespace {
constexpr int kExportWaitMs = 600000;
}

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
    m_imageWindow->setOverlayPainter([this](QPainter& painter, const render::ViewTransform& view) {
        m_overlays.paint(painter, view, QSizeF(m_imageWindow->framebufferSize()));
    });

    buildDocks();
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
    });
    connect(m_imageWindow, &render::ImageWindow::cursorLeft, this, [this] {
        m_cursor.reset();
        if (!m_pinned)
            updateReadout();
    });
    connect(m_imageWindow, &render::ImageWindow::pixelClicked, this, [this](QPointF point) {
        const QPoint pixel(static_cast<int>(std::floor(point.x())), static_cast<int>(std::floor(point.y())));
        pinPixel(m_pinned && *m_pinned == pixel ? std::nullopt : std::optional<QPoint>(pixel));
    });
    connect(m_imageWindow, &render::ImageWindow::lineDrawn, this, &MainWindow::setProfileLine);

    resize(1500, 950);
    updateStatus();
}

MainWindow::~MainWindow() {
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
    auto* parameters = new QDockWidget(tr("Parameters"), this);
    parameters->setObjectName(QStringLiteral("parametersDock"));
    parameters->setWidget(m_parameterTabs);
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

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open session…"), QKeySequence::Open, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open session"), QString(),
                                                          tr("braggview sessions (*.json)"));
        if (!path.isEmpty())
            runGuarded(tr("Cannot open the session"), [&] { openSession(path); });
    });
    file->addAction(tr("&Save session…"), QKeySequence::Save, this, [this] {
        const QString path = askSavePath(tr("Save session"), tr("braggview sessions (*.json)"), QStringLiteral("json"));
        if (!path.isEmpty())
            runGuarded(tr("Cannot save the session"), [&] { saveSession(path); });
    });
    file->addAction(tr("Save as &job file…"), this, [this] {
        const QString path = askSavePath(tr("Save as job file"), tr("braggview job files (*.json)"), QStringLiteral("json"));
        if (!path.isEmpty())
            runGuarded(tr("Cannot save the job file"), [&] { saveJob(path); });
    });
    file->addSeparator();
    auto openInput = [this](const QString& title, const QString& filter,
                            void (ExperimentDocument::*open)(const std::string&)) {
        const QString path = QFileDialog::getOpenFileName(this, title, QString(), filter);
        if (!path.isEmpty())
            runGuarded(title, [&] { (m_document->*open)(path.toStdString()); });
    };
    file->addAction(tr("Open &HKL file…"), this, [=] {
        openInput(tr("Open structure factors"), tr("HKL files (*.hkl *.txt);;All files (*)"), &ExperimentDocument::openHkl);
    });
    file->addAction(tr("Open MOSFLM &matrix…"), this, [=] {
        openInput(tr("Open orientation matrix"), tr("Matrix files (*.mat);;All files (*)"), &ExperimentDocument::openMatrix);
    });
    file->addAction(tr("Open s&ource file…"), this, [=] {
        openInput(tr("Open source file"), tr("All files (*)"), &ExperimentDocument::openSourceFile);
    });
    file->addAction(tr("Open SMV mas&k…"), this, [=] {
        openInput(tr("Open mask"), tr("SMV images (*.img *.smv);;All files (*)"), &ExperimentDocument::openMask);
    });
    file->addAction(tr("Clear mask"), this, [this] { m_document->clearMask(); });
    file->addAction(tr("Open &detector header (-img)…"), this, [=] {
        openInput(tr("Open detector header"), tr("SMV images (*.img *.smv);;All files (*)"),
                  &ExperimentDocument::openImageHeader);
    });
    file->addSeparator();
    QMenu* exports = file->addMenu(tr("&Export image"));
    const struct {
        QString text;
        ExportFormat format;
        QString filter;
        QString suffix;
    } formats[] = {
        {tr("Raw float (-floatfile)…"), ExportFormat::Float, tr("Raw floats (*.bin)"), QStringLiteral("bin")},
        {tr("SMV int image (-intfile)…"), ExportFormat::IntImage, tr("SMV images (*.img)"), QStringLiteral("img")},
        {tr("SMV noise image (-noisefile)…"), ExportFormat::NoiseImage, tr("SMV images (*.img)"), QStringLiteral("img")},
        {tr("PGM (-pgmfile)…"), ExportFormat::Pgm, tr("Portable greymaps (*.pgm)"), QStringLiteral("pgm")},
        {tr("PNG with colours and overlays…"), ExportFormat::Png, tr("PNG images (*.png)"), QStringLiteral("png")},
    };
    for (const auto& f : formats) {
        const ExportFormat format = f.format;
        const QString filter = f.filter, suffix = f.suffix, title = f.text;
        exports->addAction(f.text, this, [=] {
            const QString path = askSavePath(title, filter, suffix);
            if (!path.isEmpty())
                runGuarded(tr("Cannot export the image"), [&] { exportImage(format, path); });
        });
    }
    file->addAction(tr("Save a screenshot of the window…"), this, [this] {
        const QString path = askSavePath(tr("Screenshot"), tr("PNG images (*.png)"), QStringLiteral("png"));
        if (!path.isEmpty())
            runGuarded(tr("Cannot save the screenshot"), [&] {
                QImage shot = grab().toImage().convertToFormat(QImage::Format_RGB32);
                QImage view = m_imageWindow->grabView();
                if (view.isNull())
                    view = renderViewOnCpu();
                QPainter painter(&shot);
                painter.drawImage(QRect(m_container->mapTo(this, QPoint(0, 0)), m_container->size()), view);
                painter.end();
                exportPng(path, shot);
            });
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* copy = edit->addAction(tr("Copy &headless command"), this, &MainWindow::copyHeadlessCommand);
    copy->setShortcut(QKeySequence(tr("Ctrl+Shift+C")));
    copy->setToolTip(tr("Put the braggview --headless command that computes this image on the clipboard"));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Fit to window"), QKeySequence(tr("Ctrl+0")), this, [this] { m_imageWindow->fitToWindow(); });
    view->addAction(tr("&1:1"), QKeySequence(tr("Ctrl+1")), this, [this] { m_imageWindow->showOneToOne(); });
    view->addAction(tr("Zoom &in"), QKeySequence::ZoomIn, this, [this] { m_imageWindow->zoomBy(1.25); });
    view->addAction(tr("Zoom &out"), QKeySequence::ZoomOut, this, [this] { m_imageWindow->zoomBy(0.8); });
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());

    QToolBar* tools = addToolBar(tr("View"));
    tools->setObjectName(QStringLiteral("toolbar"));
    tools->addAction(tr("Fit"), this, [this] { m_imageWindow->fitToWindow(); });
    tools->addAction(tr("1:1"), this, [this] { m_imageWindow->showOneToOne(); });
    tools->addAction(tr("Auto contrast"), this, [this] { autoContrast(); });
    tools->addSeparator();
    m_playAction = tools->addAction(tr("▶ Play phi"));
    m_playAction->setCheckable(true);
    m_playAction->setToolTip(tr("Rotate the crystal: each finished image advances phi by the step"));
    connect(m_playAction, &QAction::toggled, this, &MainWindow::setPhiAnimation);
    m_phiStep = new QDoubleSpinBox(tools);
    m_phiStep->setObjectName(QStringLiteral("phiStep"));
    m_phiStep->setRange(0.01, 90.0);
    m_phiStep->setValue(1.0);
    m_phiStep->setSuffix(QStringLiteral("°"));
    m_phiStep->setToolTip(tr("Phi advance per frame of the animation"));
    tools->addWidget(m_phiStep);
    tools->addSeparator();
    tools->addAction(copy);

    QMenu* engine = menuBar()->addMenu(tr("E&ngine"));
    m_restartAction = engine->addAction(tr("&Restart engine"), this, &MainWindow::restartEngine);
    m_restartAction->setObjectName(QStringLiteral("restartEngineAction"));
    m_restartAction->setToolTip(tr("Give the Vulkan device up and start a new device and "
                                   "simulator (after a lost device), keeping the parameters"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("nanoBragg &options…"), this, [this] {
        QMessageBox box(this);
        box.setWindowTitle(tr("nanoBragg options"));
        box.setText(tr("The command line the viewer and braggview --headless accept:"));
        box.setDetailedText(QString::fromStdString(cli::usageText()));
        box.exec();
    });
    help->addAction(tr("&About braggview"), this, [this] {
        QMessageBox::about(this, tr("About braggview"),
                           tr("<b>braggview %1</b><br>Simulated X-ray diffraction images of "
                              "nanocrystals on the GPU (Vulkan), with the physics of nanoBragg "
                              "by James Holton and Ken Frankel.<br>Device: %2")
                               .arg(QApplication::applicationVersion(), m_controller->deviceDescription()));
    });
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

void MainWindow::updateStatus() {
    const engine::Simulator* simulator = m_controller->simulator();
    if (m_controller->isEngineStopped()) {
        m_timing->setText(tr("engine stopped"));
        m_state->setText(tr("error: %1 (Engine > Restart engine)").arg(m_controller->lastError()));
        return;
    }
    if (!simulator) {
        m_timing->setText(tr("waiting for the Vulkan device"));
        m_state->setText(QString());
        return;
    }
    const ResolvedExperiment* r = m_controller->resolved();
    QString timing = tr("GPU %1 ms").arg(m_controller->lastGpuMilliseconds(), 0, 'f', 1);
    timing += tr(" · %1 steps/pixel · %2 dispatch(es) · %3 recording(s) · %4 · %5")
                  .arg(simulator->stepsPerPixel())
                  .arg(simulator->sliceCount())
                  .arg(simulator->recordCount())
                  .arg(QLatin1String(engine::precisionName(simulator->precision())))
                  .arg(m_controller->deviceDescription());
    m_timing->setText(timing);
    QString state;
    if (m_controller->isBusy())
        state = tr("computing…");
    else if (!m_controller->lastError().isEmpty() && !m_controller->isComplete())
        state = tr("error: %1").arg(m_controller->lastError());
    else if (r)
        state = tr("%1 × %2 pixels, ready").arg(m_controller->fastPixels()).arg(m_controller->slowPixels());
    if (!simulator->notice().empty())
        state += QStringLiteral(" · ") + QString::fromStdString(simulator->notice());
    if (const auto& exit = simulator->gridExit(); exit && !m_controller->isBusy())
        // nanoBragg's warning: its loop left the HKL grid there and stopped interpolating
        state += tr(" · WARNING: HKL grid left at pixel %1, %2: nearest F from there on")
                     .arg(exit->fast)
                     .arg(exit->slow);
    m_state->setText(state);
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
    if (m_pinned)
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
    const int f = static_cast<int>(std::floor(imagePoint.x()));
    const int s = static_cast<int>(std::floor(imagePoint.y()));
    r.info = m_geometry->atPixelCentre(f, s);
    r.intensity = m_controller->valueAt(f, s);
    const std::vector<std::uint8_t>& skipped = m_controller->skipped();
    if (r.intensity && !skipped.empty())
        r.skipped = skipped[static_cast<std::size_t>(s) * static_cast<std::size_t>(m_controller->fastPixels()) +
                            static_cast<std::size_t>(f)] != 0;
    m_readout->show(r, m_pinned.has_value());
}

void MainWindow::pinPixel(const std::optional<QPoint>& pixel) {
    m_pinned = pixel;
    m_overlays.setPinned(pixel);
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

void MainWindow::showError(const QString& title, const QString& message) {
    emit errorShown(message);
    statusBar()->showMessage(title + QStringLiteral(": ") + message.section(QLatin1Char('\n'), 0, 0), 15000);
    if (m_quietErrors) {
        std::cerr << "braggview: " << title.toStdString() << ": " << message.toStdString() << "\n";
        return;
    }
    // one box, reused: a slider dragged through bad values does not stack dialogs
    if (!m_errorBox) {
        m_errorBox = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
        m_errorBox->setAttribute(Qt::WA_DeleteOnClose);
        m_errorBox->setModal(false);
    }
    m_errorBox->setWindowTitle(title);
    m_errorBox->setText(message);
    m_errorBox->show();
    m_errorBox->raise();
}

void MainWindow::runGuarded(const QString& title, const std::function<void()>& action) {
    try {
        action();
    } catch (const cli::UsageError& e) {
        showError(title, QString::fromStdString(e.reason()));
    } catch (const Error& e) {
        showError(title, QString::fromStdString(e.what()));
    } catch (const std::exception& e) {
        showError(title, QString::fromStdString(e.what()));
    }
}

QString MainWindow::askSavePath(const QString& title, const QString& filter, const QString& suffix) {
    QFileDialog dialog(this, title, QString(), filter);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix(suffix);
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    return dialog.selectedFiles().front();
}

Session MainWindow::currentSession() const {
    Session s;
    s.commandLine = m_document->commandLine();
    s.precision = m_document->precision();
    s.view.display = m_display->settings();
    s.view.autoContrast = m_display->autoContrastOnNewImage();
    s.view.overlays = m_display->overlays();
    s.view.view = m_imageWindow->view();
    return s;
}

void MainWindow::saveSession(const QString& path) {
    app::saveSession(path, currentSession());
    statusBar()->showMessage(tr("Session saved to %1").arg(path), 5000);
}

void MainWindow::saveJob(const QString& path) {
    app::saveJob(path, currentSession());
    statusBar()->showMessage(tr("Job file saved to %1: braggview --headless --job %1").arg(path), 8000);
}

void MainWindow::openSession(const QString& path) {
    Session s = loadSession(path);
    m_pendingView = s.view.view;
    m_display->setAutoContrastOnNewImage(s.view.autoContrast);
    m_display->setSettings(s.view.display);
    m_display->setOverlays(s.view.overlays);
    m_firstImage = false; // the session's levels, not an automatic contrast
    pinPixel(std::nullopt);
    m_document->setCommandLine(s.commandLine, s.precision);
    statusBar()->showMessage(tr("Session %1 opened").arg(path), 5000);
}

QImage MainWindow::exportedPng() {
    const ResolvedExperiment* r = m_controller->resolved();
    if (!r)
        throw Error("no image yet");
    const ExportSource source{m_document->commandLine(), *r, m_controller->image(),
                              m_controller->generator()};
    return colouredImage(source, m_controller->skipped(), m_display->settings(), m_overlays);
}

void MainWindow::exportImage(ExportFormat format, const QString& path) {
    if (!m_controller->isComplete() && !m_controller->waitForComplete(kExportWaitMs))
        throw Error("the image of the current parameters could not be computed" +
                    (m_controller->lastError().isEmpty()
                         ? std::string()
                         : ": " + m_controller->lastError().toStdString()));
    const ResolvedExperiment* r = m_controller->resolved();
    const ExportSource source{m_document->commandLine(), *r, m_controller->image(),
                              m_controller->generator()};
    if (format == ExportFormat::Png)
        exportPng(path, exportedPng());
    else
        exportProduct(format, path.toStdString(), source);
    statusBar()->showMessage(tr("Wrote %1").arg(path), 5000);
}

QString MainWindow::headlessCommandText() const {
    return headlessCommand(m_document->commandLine(), m_document->precision());
}

void MainWindow::copyHeadlessCommand() {
    const QString command = headlessCommandText();
    QGuiApplication::clipboard()->setText(command);
    statusBar()->showMessage(tr("Copied: %1").arg(command), 8000);
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
