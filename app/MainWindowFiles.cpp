// MainWindow's files: sessions, job files, image exports and the headless command, each
// throwing bv::Error naming the file (the menus show it).
#include "app/MainWindow.h"

#include "app/CompareView.h"
#include "app/DisplayPanel.h"
#include "app/ExperimentDocument.h"
#include "app/Exporter.h"
#include "app/HeadlessCommand.h"
#include "app/RefinePanel.h"
#include "app/SimulationController.h"
#include "compute/core/Error.h"
#include "compute/io/DialsReflections.h"
#include "compute/io/MeasuredImage.h"
#include "compute/refine/ObservedSpots.h"
#include "compute/request/ExperimentFile.h"
#include "render/ImageWindow.h"

#include <QActionGroup>
#include <QClipboard>
#include <QFileInfo>
#include <QGuiApplication>
#include <QStatusBar>

#include <sstream>

namespace bv::app {

namespace {
constexpr int kExportWaitMs = 600000;
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
    showSession(loadSession(path));
    statusBar()->showMessage(tr("Session %1 opened").arg(path), 5000);
}

void MainWindow::showSession(const Session& s) {
    m_pendingView = s.view.view;
    m_display->setAutoContrastOnNewImage(s.view.autoContrast);
    m_display->setSettings(s.view.display);
    m_display->setOverlays(s.view.overlays);
    m_firstImage = false; // the session's levels, not an automatic contrast
    pinPixel(std::nullopt);
    m_document->setCommandLine(s.commandLine, s.precision);
}

void MainWindow::openDetectorGeometry(const QString& path) {
    runGuarded(tr("Cannot open the detector geometry"), [&] {
        m_document->openDetectorGeometry(path.toStdString());
        statusBar()->showMessage(tr("Detector geometry %1 opened").arg(path), 5000);
    });
}

void MainWindow::openExperiment(const QString& path) {
    runGuarded(tr("Cannot open the experiment"), [&] {
        m_document->openExperiment(path.toStdString());
        statusBar()->showMessage(tr("Experiment %1 opened").arg(path), 5000);
    });
}

void MainWindow::openMeasuredImage(const QString& path, int frame) {
    runGuarded(tr("Cannot open the measured image"), [&] {
        // laid out as the experiment's panels (a DIALS experiment's), as headless
        std::ostringstream notes;
        io::MeasuredImage measured = io::readMeasuredImageFor(
            path.toStdString(), static_cast<std::size_t>(frame),
            m_document->experiment().detector.panels,
            request::experimentMask(m_document->commandLine()), {},
            notes); // the pixels the simulation skips: CompareView, as they change
        m_compare->setMeasured(std::move(measured), QFileInfo(path).fileName());
        if (!notes.str().empty())
            statusBar()->showMessage(QString::fromStdString(notes.str()).trimmed(), 8000);
        for (QAction* a : m_compareModes->actions())
            a->setEnabled(true);
        if (m_compare->mode() == CompareView::Simulated)
            m_compareModes->actions().at(CompareView::Measured)->trigger();
    });
}

void MainWindow::openObservedSpots(const QString& path) {
    runGuarded(tr("Cannot open the observed spots"), [&] {
        const std::string file = path.toStdString();
        refine::ObservedSpots spots =
            refine::observedSpots(file, io::readDialsReflections(file),
                                  request::measuredImageNumber(m_document->commandLine()));
        const std::size_t count = spots.spots.size(), rows = spots.rows;
        m_compare->setObservedSpots(std::move(spots));
        statusBar()->showMessage(tr("%1: %2 of %3 spots on this frame")
                                     .arg(QFileInfo(path).fileName())
                                     .arg(count)
                                     .arg(rows),
                                 8000);
    });
}

void MainWindow::updateObservedSpots(QStringList& status) {
    std::vector<ObservedSpotPair> pairs;
    const auto& spots = m_compare->observedSpots();
    const auto& match = m_compare->spotMatch();
    if (spots && match) {
        for (std::size_t i = 0; i < spots->spots.size() && i < match->nearest.size(); ++i) {
            const io::DialsSpot& s = spots->spots[i];
            pairs.push_back({s.panel, {s.xyz.x, s.xyz.y}, match->nearest[i]});
        }
        const QString name = QFileInfo(QString::fromStdString(spots->file)).fileName();
        const QString summary = match->all.matched
                                    ? tr("%1 of %2 matched within %3 pixels, RMSD %4 pixels")
                                          .arg(match->all.matched)
                                          .arg(match->all.observed)
                                          .arg(match->radius)
                                          .arg(match->all.rmsd, 0, 'f', 3)
                                    : tr("none of %1 within %2 pixels of a simulated spot")
                                          .arg(match->all.observed)
                                          .arg(match->radius);
        const QString line = name + QStringLiteral(": ") + summary;
        status << line;
        m_display->setObservedSpotsSummary(line);
    } else if (spots && !m_compare->spotProblem().isEmpty()) {
        status << tr("Cannot match the observed spots: %1").arg(m_compare->spotProblem());
        m_display->setObservedSpotsSummary(tr("not matched: %1").arg(m_compare->spotProblem()));
    } else
        m_display->setObservedSpotsSummary({});
    m_overlays.setObservedSpots(std::move(pairs));
    m_imageWindow->invalidateOverlay();
}

void MainWindow::saveRefinedExperiment(const QString& path) {
    runGuarded(tr("Cannot save the refined experiment"),
               [&] { m_refine->saveRefinedExperiment(path); });
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
    // the float image of the headless run (background added, before the PSF, which the noise
    // image's response applies itself); the PNG is what the window shows
    const ExportSource source{m_document->commandLine(), *r, m_controller->floatImage(),
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

} // namespace bv::app
