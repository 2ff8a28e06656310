#pragma once
// The viewer as a test drives it: a Vulkan instance, the real MainWindow on it, an experiment
// loaded, shown, and waited for; plus image helpers (brightest pixel, centroid) for the
// physics checks.

#include "app/ExperimentDocument.h"
#include "app/MainWindow.h"
#include "app/SimulationController.h"
#include "render/ImageWindow.h"

#include <QTest>
#include <QVersionNumber>
#include <QVulkanInstance>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace bv::test {

// lavapipe renders a test image in well under a minute; this is the limit, not the estimate
constexpr int kImageTimeoutMs = 180000;

class ViewerHarness {
  public:
    ViewerHarness() {
        m_instance.setApiVersion(QVersionNumber(1, 1));
        if (qEnvironmentVariableIntValue("BRAGGVIEW_VALIDATION") == 1)
            m_instance.setLayers({"VK_LAYER_KHRONOS_validation"});
        m_created = m_instance.create();
    }
    ~ViewerHarness() { window.reset(); } // before the instance

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

inline std::vector<std::string> words(const QString& text) {
    std::vector<std::string> out;
    for (const QString& w : text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        out.push_back(w.toStdString());
    return out;
}

} // namespace bv::test
