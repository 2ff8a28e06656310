// MainWindow's menus and tool bar: every action calls a public method of the window (or the
// document), so the tests drive the same code paths as a user.
#include "app/MainWindow.h"

#include "app/ExperimentDocument.h"
#include "app/Exporter.h"
#include "app/LessonController.h"
#include "app/ReciprocalDock.h"
#include "app/SimulationController.h"
#include "compute/request/Usage.h"
#include "render/ImageWindow.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QPainter>
#include <QActionGroup>
#include <QToolBar>
#include "app/CompareView.h"

namespace bv::app {

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
    file->addAction(tr("Open detector &geometry (.expt, .geom)…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open detector geometry"), QString(),
            tr("Detector geometry (*.expt *.json *.geom);;DIALS experiment lists (*.expt "
               "*.json);;CrystFEL geometry (*.geom)"));
        if (!path.isEmpty())
            openDetectorGeometry(path);
    });
    file->addAction(tr("Open DIALS e&xperiment (.expt)…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open experiment"), QString(),
            tr("DIALS experiment lists (*.expt *.json);;All files (*)"));
        if (!path.isEmpty())
            openExperiment(path);
    });
    file->addAction(tr("Open &measured image (CBF, SMV, NeXus)…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("Open measured image"), QString(),
            tr("Measured images (*.cbf *.img *.smv *.h5 *.nxs);;All files (*)"));
        if (!path.isEmpty())
            openMeasuredImage(path);
    });
    file->addAction(tr("Open observed &spots (DIALS .refl)…"), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open observed spots"), QString(),
                                         tr("DIALS reflection tables (*.refl);;All files (*)"));
        if (!path.isEmpty())
            openObservedSpots(path);
    });
    file->addAction(tr("Save &refined experiment (.expt)…"), this, [this] {
        const QString path = askSavePath(tr("Save refined experiment"),
                                         tr("DIALS experiment lists (*.expt)"), QStringLiteral("expt"));
        if (!path.isEmpty())
            saveRefinedExperiment(path);
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
        {tr("NeXus/NXmx (-nexusfile)…"), ExportFormat::Nexus, tr("NeXus files (*.h5 *.nxs)"), QStringLiteral("h5")},
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
    // the measured frame's four views (app/CompareView.h): one colour scale, zoom, overlays
    QMenu* compare = view->addMenu(tr("&Compare with the measured image"));
    m_compareModes = new QActionGroup(this);
    const std::pair<QString, CompareView::Mode> modes[] = {
        {tr("&Simulated"), CompareView::Simulated},
        {tr("&Measured"), CompareView::Measured},
        {tr("&Difference (measured − scale × simulated − background)"), CompareView::Difference},
        {tr("&Blink"), CompareView::Blink}};
    for (const auto& [text, mode] : modes) {
        QAction* a = compare->addAction(text, this, [this, mode = mode] { m_compare->setMode(mode); });
        a->setCheckable(true);
        a->setChecked(mode == CompareView::Simulated);
        a->setEnabled(false); // until a measured image is opened
        a->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+%1").arg(int(mode) + 1)));
        m_compareModes->addAction(a);
    }
    view->addSeparator();
    view->addAction(tr("&Fit to window"), QKeySequence(tr("Ctrl+0")), this, [this] { m_imageWindow->fitToWindow(); });
    view->addAction(tr("&1:1"), QKeySequence(tr("Ctrl+1")), this, [this] { m_imageWindow->showOneToOne(); });
    view->addAction(tr("Zoom &in"), QKeySequence::ZoomIn, this, [this] { m_imageWindow->zoomBy(1.25); });
    view->addAction(tr("Zoom &out"), QKeySequence::ZoomOut, this, [this] { m_imageWindow->zoomBy(0.8); });
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());

    m_lessons->addMenus(menuBar(), view); // Lessons, and View > Presentation mode

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
    m_reciprocal->setPlayAction(m_playAction); // the dock's Play/Pause is this action
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
        box.setDetailedText(QString::fromStdString(request::usageText()));
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

QString MainWindow::askSavePath(const QString& title, const QString& filter, const QString& suffix) {
    QFileDialog dialog(this, title, QString(), filter);
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.setDefaultSuffix(suffix);
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    return dialog.selectedFiles().front();
}

} // namespace bv::app
