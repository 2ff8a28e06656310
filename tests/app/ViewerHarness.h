#pragma once
// The viewer as a test drives it: a Vulkan instance, the real MainWindow on it, an experiment
// loaded, shown, and waited for; plus image helpers (brightest pixel, centroid) for the
// physics checks.
//
// With BRAGGVIEW_VALIDATION=1 (tests/app/CMakeLists.txt sets it for these suites) the
// instance loads the Khronos validation layer, and every error or warning it reports about
// the window's device (the renderer, the simulator and the histogram borrow it) lands in
// takeValidationMessages(); each suite's cleanup() fails the test function when there is any.

#include "app/ExperimentDocument.h"
#include "app/MainWindow.h"
#include "app/SimulationController.h"
#include "render/ImageWindow.h"

#include "tests/TestSupport.h"

#include <QTest>
#include <QVersionNumber>
#include <QVulkanInstance>

#include <cmath>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace bv::test {

// What the validation layer said since the last take().
class ValidationMessages {
  public:
    static ValidationMessages& instance() {
        static ValidationMessages messages;
        return messages;
    }
    void add(const QString& message) {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_messages << message;
    }
    QStringList take() {
        std::lock_guard<std::mutex> lock(m_mutex);
        QStringList out;
        out.swap(m_messages);
        return out;
    }

  private:
    std::mutex m_mutex;
    QStringList m_messages;
};

inline QStringList takeValidationMessages() { return ValidationMessages::instance().take(); }

// QVulkanInstance's debug output filter (VK_EXT_debug_report): keeps errors and warnings,
// lets Qt print them too.
inline bool collectValidation(VkDebugReportFlagsEXT flags, VkDebugReportObjectTypeEXT, uint64_t,
                              size_t, int32_t, const char* prefix, const char* message) {
    const VkDebugReportFlagsEXT problems = VK_DEBUG_REPORT_ERROR_BIT_EXT |
                                           VK_DEBUG_REPORT_WARNING_BIT_EXT |
                                           VK_DEBUG_REPORT_PERFORMANCE_WARNING_BIT_EXT;
    if (flags & problems)
        ValidationMessages::instance().add(QStringLiteral("%1: %2").arg(QString::fromUtf8(prefix),
                                                                         QString::fromUtf8(message)));
    return false;
}

// For a suite's cleanup(): fails the test function that made the layer speak.
#define BV_VERIFY_NO_VALIDATION_MESSAGES()                                                       \
    do {                                                                                         \
        const QStringList said = bv::test::takeValidationMessages();                             \
        QVERIFY2(said.isEmpty(), qPrintable(said.join(QLatin1Char('\n'))));                      \
    } while (false)

// lavapipe renders a test image in well under a minute; this is the limit, not the estimate
constexpr int kImageTimeoutMs = 180000;

class ViewerHarness {
  public:
    ViewerHarness() {
        m_instance.setApiVersion(QVersionNumber(1, 1));
        if (qEnvironmentVariableIntValue("BRAGGVIEW_VALIDATION") == 1)
            m_instance.setLayers({"VK_LAYER_KHRONOS_validation"});
        m_instance.installDebugOutputFilter(collectValidation);
        m_created = m_instance.create();
    }
    ~ViewerHarness() { window.reset(); } // before the instance

    // Whether the validation layer is on (BRAGGVIEW_VALIDATION=1 and the layer installed).
    bool validating() const {
        return m_instance.layers().contains("VK_LAYER_KHRONOS_validation") &&
               m_instance.extensions().contains("VK_EXT_debug_report");
    }
    QVulkanInstance& vulkanInstance() { return m_instance; }

    // Opens the window on nanoBragg's arguments and waits for the complete image.
    bool open(const std::vector<std::string>& args, QSize size = QSize(1500, 950)) {
        if (!m_created) {
            qWarning("no Vulkan instance (VkResult %d)", m_instance.errorCode());
            return false;
        }
        window = std::make_unique<app::MainWindow>(&m_instance);
        window->setQuietErrors(true);
        if (!args.empty())
            window->document().loadArguments(args);
        window->resize(size);
        window->show();
        return waitImage();
    }
    bool waitImage() { return window->controller().waitForComplete(kImageTimeoutMs); }
    // a frame drawn after now
    bool waitFrame() {
        render::ImageWindow& view = window->imageWindow();
        const auto before = view.framesRendered();
        view.scheduleRender();
        return QTest::qWaitFor([&] { return view.framesRendered() > before; }, 30000);
    }

    app::SimulationController& controller() { return window->controller(); }
    app::ExperimentDocument& document() { return window->document(); }
    const std::vector<float>& image() { return controller().image(); }
    int fast() { return controller().fastPixels(); }
    int slow() { return controller().slowPixels(); }

    std::unique_ptr<app::MainWindow> window;

  private:
    QVulkanInstance m_instance;
    bool m_created = false;
};

inline float at(const std::vector<float>& image, int fast, int f, int s) {
    return image[static_cast<std::size_t>(s) * static_cast<std::size_t>(fast) + static_cast<std::size_t>(f)];
}

// The brightest pixel within `radius` of `around` (Chebyshev), inside the image.
inline QPoint brightestNear(const std::vector<float>& image, int fast, int slow, QPointF around, int radius) {
    QPoint best(-1, -1);
    float value = -1.0f;
    const int f0 = static_cast<int>(std::floor(around.x())), s0 = static_cast<int>(std::floor(around.y()));
    for (int s = std::max(0, s0 - radius); s <= std::min(slow - 1, s0 + radius); ++s)
        for (int f = std::max(0, f0 - radius); f <= std::min(fast - 1, f0 + radius); ++f)
            if (at(image, fast, f, s) > value) {
                value = at(image, fast, f, s);
                best = QPoint(f, s);
            }
    return best;
}

// Intensity-weighted centre (image coordinates, pixel centres at +0.5) of the window of
// half-width `half` about `peak`, above the window's smallest value.
inline QPointF centroid(const std::vector<float>& image, int fast, int slow, QPoint peak, int half) {
    double floor = 1e300;
    for (int s = peak.y() - half; s <= peak.y() + half; ++s)
        for (int f = peak.x() - half; f <= peak.x() + half; ++f)
            if (f >= 0 && s >= 0 && f < fast && s < slow)
                floor = std::min(floor, double(at(image, fast, f, s)));
    double sum = 0.0, x = 0.0, y = 0.0;
    for (int s = peak.y() - half; s <= peak.y() + half; ++s)
        for (int f = peak.x() - half; f <= peak.x() + half; ++f)
            if (f >= 0 && s >= 0 && f < fast && s < slow) {
                const double w = double(at(image, fast, f, s)) - floor;
                sum += w;
                x += w * (f + 0.5);
                y += w * (s + 0.5);
            }
    return sum > 0.0 ? QPointF(x / sum, y / sum) : QPointF(peak) + QPointF(0.5, 0.5);
}

using bv::testing::words; // nanoBragg arguments from one string

} // namespace bv::test
