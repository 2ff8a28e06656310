#pragma once
// TracePanel: why the pinned pixel has its value. When a pixel is pinned, and again when each
// new image of it is complete, it runs the trace variant of the diffraction shader for that
// pixel on the controller's Simulator (compute/engine/PixelTrace.h: the same shader code, the
// same tables, the same precision as the image on screen) and shows the chain of quantities
// as a tree: quantity, value, unit. The trace ends in the value the image holds there.
//
// The PixelTracer (its pipelines are kept for the next click) is built on first use and
// dropped whenever the controller's Simulator is rebuilt or goes (simulatorChanged, which the
// controller emits while the device still exists).

#include "compute/engine/PixelTrace.h"

#include <QPoint>
#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QTreeWidget;

namespace bv::app {

class SimulationController;

class TracePanel : public QWidget {
    Q_OBJECT

  public:
    explicit TracePanel(SimulationController& controller, QWidget* parent = nullptr);
    ~TracePanel() override;

    // The pixel to trace (the pinned one), or nullopt.
    void setPixel(const std::optional<QPoint>& pixel);
    const std::optional<QPoint>& pixel() const { return m_pixel; }
    // The trace shown; nullopt while there is none (no pixel, no complete image, an error).
    const std::optional<engine::PixelTrace>& trace() const { return m_trace; }
    // What the panel says above the tree (how to pin, waiting, an error).
    QString statusText() const;
    QTreeWidget* tree() const { return m_tree; }

  private:
    void refresh();
    void showTrace(const engine::PixelTrace& trace);
    void showStatus(const QString& text);

    SimulationController& m_controller;
    std::unique_ptr<engine::PixelTracer> m_tracer;
    std::optional<QPoint> m_pixel;
    std::optional<engine::PixelTrace> m_trace;
    QLabel* m_status = nullptr;
    QTreeWidget* m_tree = nullptr;
};

} // namespace bv::app
