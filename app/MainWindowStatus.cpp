// MainWindow's status bar (the GPU's time and work, the state of the image) and how it
// reports errors: in the status bar always, and in one reused message box unless quiet.
#include "app/MainWindow.h"

#include "app/SimulationController.h"
#include "compute/cli/CommandLine.h"
#include "compute/engine/Simulator.h"
#include "compute/core/Error.h"

#include <QLabel>
#include <QMessageBox>
#include <QStatusBar>

#include <iostream>

namespace bv::app {

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

} // namespace bv::app
