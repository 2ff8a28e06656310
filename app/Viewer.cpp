#include "app/Viewer.h"

#include "DemoExperiment.h"
#include "app/ExperimentDocument.h"
#include "app/LessonController.h"
#include "app/CompareView.h"
#include "app/MainWindow.h"
#include "compute/request/ExperimentFile.h"
#include "app/PresentationMode.h"
#include "app/ReciprocalDock.h"
#include "app/RefinePanel.h"
#include "app/SimulationController.h"
#include "compute/request/Inputs.h"
#include "compute/request/RunRequest.h"
#include "render/ImageWindow.h"
#include "render/ReciprocalWindow.h"

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QPainter>
#include <QScreen>
#include <QTimer>
#include <QVersionNumber>
#include <QVulkanInstance>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <iostream>

namespace bv::app {

namespace {

// Waits until the controller has the complete image and a frame of it was drawn, then saves
// the whole window; any failure ends the program with status 1.
class ScreenshotTaker : public QObject {
  public:
    ScreenshotTaker(MainWindow& window, std::string path, int timeoutSeconds, QSize size)
        : m_window(window), m_path(std::move(path)), m_timeoutMs(timeoutSeconds * 1000),
          m_size(size) {
        connect(&m_window.controller(), &SimulationController::failed, this,
                [this](const QString& message) { finish(1, message); });
        connect(&m_window.refinePanel(), &RefinePanel::finished, this, [this] {
            if (!m_window.refinePanel().report())
                finish(1, m_window.refinePanel().message());
        });
        connect(&m_timer, &QTimer::timeout, this, &ScreenshotTaker::check);
        m_timer.start(20);
        m_clock.start();
    }

  private:
    void check() {
        SimulationController& controller = m_window.controller();
        render::ImageWindow& view = m_window.imageWindow();
        if (m_clock.elapsed() > m_timeoutMs) {
            finish(1, controller.hasDevice()
                          ? QStringLiteral("the image was not complete after %1 s")
                                .arg(m_timeoutMs / 1000)
                          : QStringLiteral("the window got no Vulkan device (is a Vulkan "
                                           "driver with surface support installed?)"));
            return;
        }
        // a fit the words asked for (-refine) ends first: the image is then its result
        if (!controller.isComplete() || m_window.refinePanel().isRunning()) {
            m_framesAtComplete = -1;
            return;
        }
        // a frame drawn after the image was complete: the screen shows it
        if (m_framesAtComplete < 0) {
            m_framesAtComplete = static_cast<long long>(view.framesRendered());
            view.scheduleRender();
            return;
        }
        if (static_cast<long long>(view.framesRendered()) <= m_framesAtComplete)
            return;
        // a size asked for is the size written, or an error (a window manager or the
        // panels' least sizes may refuse it)
        if (m_size.isValid() && m_window.size() != m_size) {
            finish(1, QStringLiteral("the window could not be made %1x%2 (it is %3x%4; its "
                                     "panels need at least %5x%6, the screen is %7x%8)")
                          .arg(m_size.width())
                          .arg(m_size.height())
                          .arg(m_window.width())
                          .arg(m_window.height())
                          .arg(m_window.minimumSizeHint().width())
                          .arg(m_window.minimumSizeHint().height())
                          .arg(m_window.screen()->size().width())
                          .arg(m_window.screen()->size().height()));
            return;
        }
        const QImage shot = grabMainWindow(m_window);
        if (shot.isNull()) {
            finish(1, QStringLiteral("the window could not be grabbed"));
            return;
        }
        if (!shot.save(QString::fromStdString(m_path), "PNG")) {
            finish(1, QStringLiteral("%1: cannot write the PNG").arg(QString::fromStdString(m_path)));
            return;
        }
        std::cout << "braggview: screenshot written to " << m_path << "\n";
        finish(0, {});
    }

    void finish(int status, const QString& message) {
        if (m_done)
            return;
        m_done = true;
        m_timer.stop();
        if (status != 0)
            std::cerr << "braggview: error: " << message.toStdString() << "\n";
        QCoreApplication::exit(status);
    }

    MainWindow& m_window;
    std::string m_path;
    int m_timeoutMs;
    QSize m_size; // empty: whatever size the window has
    QTimer m_timer;
    QElapsedTimer m_clock;
    long long m_framesAtComplete = -1;
    bool m_done = false;
};

} // namespace

// With BRAGGVIEW_VALIDATION=1: the validation layer's errors and warnings (Qt prints them);
// in screenshot mode any of them makes the exit status 1, as the tests want.
namespace {
std::atomic<int> g_validationProblems{0};

bool countValidationProblem(VkDebugReportFlagsEXT flags, VkDebugReportObjectTypeEXT, uint64_t,
                            size_t, int32_t, const char*, const char*) {
    if (flags & (VK_DEBUG_REPORT_ERROR_BIT_EXT | VK_DEBUG_REPORT_WARNING_BIT_EXT |
                 VK_DEBUG_REPORT_PERFORMANCE_WARNING_BIT_EXT))
        ++g_validationProblems;
    return false;
}
} // namespace

bool haveDisplay() {
    return std::getenv("DISPLAY") || std::getenv("WAYLAND_DISPLAY") ||
           std::getenv("QT_QPA_PLATFORM");
}

QImage grabMainWindow(MainWindow& window) {
    QImage shot = window.grab().toImage().convertToFormat(QImage::Format_RGB32);
    QWidget* container = window.imageContainer();
    QImage view = window.imageWindow().grabView();
    if (view.isNull())
        view = window.renderViewOnCpu();
    if (!view.isNull()) {
        QPainter painter(&shot);
        const QRect target(container->mapTo(&window, QPoint(0, 0)), container->size());
        painter.drawImage(target, view);
    }
    // the reciprocal-space view, when its dock is open, is a Vulkan window of its own
    ReciprocalDock& reciprocal = window.reciprocalDock();
    if (reciprocal.isVisible()) {
        const QImage scene = reciprocal.view().grabView();
        if (!scene.isNull()) {
            QPainter painter(&shot);
            QWidget* box = reciprocal.viewContainer();
            painter.drawImage(QRect(box->mapTo(&window, QPoint(0, 0)), box->size()), scene);
        }
    }
    return shot;
}

int runViewer(int argc, char** argv, const ViewerOptions& options) {
    // Qt sees only the program name: nanoBragg's options are not Qt's
    (void)argc;
    int qtArgc = 1;
    char* qtArgv[] = {argv[0], nullptr};
    QApplication application(qtArgc, qtArgv);
    QApplication::setApplicationName(QStringLiteral("braggview"));
    QApplication::setApplicationVersion(QStringLiteral(BRAGGVIEW_VERSION));
    const bool screenshot = !options.screenshot.empty();

    QVulkanInstance instance;
    instance.setApiVersion(QVersionNumber(1, 1));
    if (qEnvironmentVariableIntValue("BRAGGVIEW_VALIDATION") == 1) { // as the headless mode
        instance.setLayers({"VK_LAYER_KHRONOS_validation"});
        instance.installDebugOutputFilter(countValidationProblem);
    }
    if (!instance.create()) {
        std::cerr << "braggview: error: cannot create a Vulkan instance (VkResult "
                  << instance.errorCode() << "); install a Vulkan driver (mesa-vulkan-drivers "
                  << "gives lavapipe) or use --headless\n";
        return 1;
    }

    MainWindow window(&instance);
    try {
        if (!options.lesson.empty()) {
            const QString name = QString::fromStdString(options.lesson);
            const std::vector<Lesson>& lessons = window.lessons().lessons();
            const auto found = std::find_if(lessons.begin(), lessons.end(),
                                            [&](const Lesson& l) { return l.name == name; });
            if (found == lessons.end()) {
                QStringList names;
                for (const Lesson& l : lessons)
                    names << l.name;
                std::cerr << "braggview: no lesson \"" << options.lesson << "\"; the lessons are "
                          << names.join(QStringLiteral(", ")).toStdString() << "\n";
                return 2;
            }
            window.lessons().openLesson(static_cast<int>(found - lessons.begin()));
        } else if (!options.session.empty())
            window.openSession(QString::fromStdString(options.session));
        else if (options.arguments.empty())
            window.document().loadArguments(demoArguments());
        else
            window.document().loadArguments(options.arguments);
        // the files the words name beside the experiment: a screenshot of a run whose file
        // could not be read is not made (the message on stderr, exit 1); the window shows a
        // dialog and goes on
        window.setQuietErrors(screenshot);
        int fileErrors = 0;
        const QMetaObject::Connection counting = QObject::connect(
            &window, &MainWindow::errorShown, &window, [&fileErrors] { ++fileErrors; });
        // -spots FILE: DIALS's observed spots against the simulated ones, measured frame or not
        if (const RunRequest& r = window.document().commandLine(); !r.spots.empty())
            window.openObservedSpots(QString::fromStdString(r.spots));
        // -measured FILE (or -compare with an -experiment's own image): the measured frame
        // beside the simulation, shown as the difference with -compare, else as measured
        if (const RunRequest& r = window.document().commandLine(); !r.measured.empty() || r.compare) {
            const request::MeasuredSource m = request::measuredSource(r);
            window.openMeasuredImage(QString::fromStdString(m.path), static_cast<int>(m.frame));
            if (r.compare && window.compareView().hasMeasured())
                window.compareView().setMode(CompareView::Difference);
            // -refine GROUPS: the Refine dock with them, its fit started on the first image
            // (the device is there then); the screenshot waits for the fit's end
            if (!r.refine.empty() && window.compareView().hasMeasured()) {
                window.refinePanel().setGroups(r.refine);
                window.refinePanel().setAllPixels(r.refineAllPixels);
                window.refinePanel().setConstantBackground(r.refineConstantBackground);
                window.refineDock()->show();
                window.resizeDocks({window.refineDock()}, {window.height() * 3 / 5}, Qt::Vertical);
                QObject::connect(
                    &window.controller(), &SimulationController::imageReady, &window.refinePanel(),
                    [&window, screenshot] {
                        if (window.refinePanel().run())
                            return;
                        std::cerr << "braggview: " << (screenshot ? "error: " : "")
                                  << "the fit did not start: "
                                  << window.refinePanel().message().toStdString() << "\n";
                        if (screenshot) // no PNG of a fit that was asked for and not made
                            QCoreApplication::exit(1);
                    },
                    Qt::SingleShotConnection);
            }
        }
        QObject::disconnect(counting);
        if (screenshot && fileErrors > 0)
            return 1;
    } catch (const request::UsageError& e) {
        std::cerr << "braggview: " << e.reason() << "\n";
        return 2;
    } catch (const Error& e) {
        std::cerr << "braggview: error: " << e.what() << "\n";
        return 1;
    }
    window.setQuietErrors(screenshot);
    if (options.windowSize.isValid()) {
        window.resize(options.windowSize);
        // presenting takes this size rather than the screen's, from its top-left corner
        if (const QScreen* screen = window.screen())
            window.lessons().presentation().setStage(
                QRect(screen->geometry().topLeft(), options.windowSize));
    }
    window.show();
    if (options.presentation) {
        try {
            window.lessons().presentation().enter();
        } catch (const Error& e) { // no lesson could be opened
            std::cerr << "braggview: error: " << e.what() << "\n";
            return 1;
        }
    }
    if (screenshot) {
        ScreenshotTaker taker(window, options.screenshot, options.timeoutSeconds,
                              options.windowSize);
        const int status = QApplication::exec();
        if (status == 0 && g_validationProblems > 0) {
            std::cerr << "braggview: error: the Vulkan validation layer reported "
                      << g_validationProblems << " problem(s) (above)\n";
            return 1;
        }
        return status;
    }
    return QApplication::exec();
}

} // namespace bv::app
