// MainWindow's status bar (the GPU's time and work, the state of the image) and how it
// reports errors: in the status bar always, and in one reused message box unless quiet.
#include "app/MainWindow.h"

#include "app/SimulationController.h"
#include "compute/request/Inputs.h"
#include "compute/request/RunRequest.h"
#include "compute/engine/Simulator.h"
#include "compute/core/Error.h"
#include "compute/model/Resolve.h"
#include "compute/plan/PixelGeometry.h"

#include <QLabel>
#include <QMessageBox>
#include <QStatusBar>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>

namespace bv::app {

QString detectorSizeText(const ResolvedExperiment& resolved) {
    const plan::DetectorExtent extent = plan::detectorExtent(resolved.panels);
    const QString size =
        QObject::tr("%1 × %2 pixels").arg(extent.fastPixels).arg(extent.slowPixels);
    if (extent.modules == 1) // one module (nanoBragg's flat detector too): its size
        return size;
    const QString count = QObject::tr("%1 modules").arg(extent.modules);
    if (!extent.oneFace) // modules that face different ways have no one size in pixels
        return QObject::tr("%1, %2 pixels").arg(count).arg(extent.pixels);
    return QObject::tr("%1, %2").arg(size, count);
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
    else if (r && m_controller->isPreview())
        state = tr("%1, preview (%2)")
                    .arg(detectorSizeText(*r),
                         m_controller->previewDescription());
    else if (r)
        state = tr("%1, ready")
                    .arg(detectorSizeText(*r));
    if (!simulator->notice().empty())
        state += QStringLiteral(" · ") + QString::fromStdString(simulator->notice());
    if (const auto& exit = simulator->gridExit(); exit && !m_controller->isBusy())
        // nanoBragg's warning: its loop left the HKL grid there and stopped interpolating
        state += tr(" · WARNING: HKL grid left at pixel %1, %2: nearest F from there on")
                     .arg(exit->fast)
                     .arg(exit->slow);
    m_state->setText(state);
}

QString withOptionsWhole(const QString& text) {
    QString whole = text;
    for (qsizetype i = 0; i + 1 < whole.size(); ++i)
        if (whole[i] == QLatin1Char('-') && whole[i + 1].isLetter() &&
            (i == 0 || whole[i - 1].isSpace() || whole[i - 1] == QLatin1Char('(')))
            whole[i] = QChar(0x2011);
    return whole;
}

QString costWarningText(const plan::RunCost& cost, std::optional<double> milliseconds,
                        double stepsPerMillisecond, const QString& device) {
    if (!milliseconds || *milliseconds < kSlowImageMilliseconds)
        return QString();
    const double seconds = *milliseconds / 1000.0;
    const QString time = seconds < 90.0 ? QObject::tr("%1 s").arg(seconds, 0, 'f', seconds < 10 ? 1 : 0)
                                        : QObject::tr("%1 min").arg(seconds / 60.0, 0, 'f', 1);
    // a rate a reader takes in at a glance: "7.49 M", "1.2 G" (steps/s)
    const double perSecond = stepsPerMillisecond * 1000.0;
    const QString rate = perSecond >= 1e9   ? QStringLiteral("%1 G").arg(perSecond / 1e9, 0, 'g', 3)
                         : perSecond >= 1e6 ? QStringLiteral("%1 M").arg(perSecond / 1e6, 0, 'g', 3)
                                            : QStringLiteral("%1").arg(perSecond, 0, 'g', 3);
    return QObject::tr("This setting takes about %1 an image on %2: %3 pixels × %4 steps each, "
                       "at the %5 steps/s measured here. The image refines on screen meanwhile; "
                       "fewer sub-pixels, phi steps, mosaic domains or sources make it faster.")
        .arg(time, device)
        .arg(static_cast<qulonglong>(cost.pixels))
        .arg(static_cast<qulonglong>(cost.stepsPerPixel))
        .arg(rate);
}

void MainWindow::updateCostWarning() {
    const auto rate = m_controller->rate().stepsPerMillisecond();
    QString text =
        costWarningText(m_controller->currentCost(), m_controller->expectedMilliseconds(),
                        rate.value_or(0.0), m_controller->deviceDescription());
    // before a rate is measured: the device kind's figure; and the experiment's warnings, first
    if (text.isEmpty() && m_controller->assumedCost())
        text = QString::fromStdString(*m_controller->assumedCost());
    for (const std::string& warning : m_controller->warnings())
        text = QString::fromStdString("Warning: " + warning) + (text.isEmpty() ? "" : "\n") + text;
    m_costWarning->setText(withOptionsWhole(text));
    m_costWarning->setVisible(!text.isEmpty());
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
    } catch (const request::UsageError& e) {
        showError(title, QString::fromStdString(e.reason()));
    } catch (const Error& e) {
        showError(title, QString::fromStdString(e.what()));
    } catch (const std::exception& e) {
        showError(title, QString::fromStdString(e.what()));
    }
}

} // namespace bv::app
