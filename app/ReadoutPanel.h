#pragma once
// ReadoutPanel: what the pixel under the cursor (or the pinned pixel) means: its indices,
// the simulated intensity (the host copy of the image the GPU computed), beside a measured
// frame its count and the difference from the fitted simulation, and, from
// PixelGeometry at the pixel's centre, 2θ, the resolution d, |q| and the fractional h k l.

#include "app/PixelGeometry.h"

#include <QWidget>

#include <optional>

class QFormLayout;
class QLabel;

namespace bv::app {

struct Readout {
    PixelInfo info;
    std::optional<float> intensity; // nullopt: outside the image
    bool skipped = false;           // masked or outside the region of interest
    // with a measured frame beside the simulation (app/CompareView.h): its count here (nullopt:
    // no data at this pixel) and measured - k simulated - b of the fit
    bool hasMeasuredFrame = false;
    std::optional<float> measured;
    std::optional<float> difference;
};

class ReadoutPanel : public QWidget {
    Q_OBJECT

  public:
    explicit ReadoutPanel(QWidget* parent = nullptr);

    void show(const std::optional<Readout>& readout, bool pinned);
    // The text shown for one quantity ("pixel", "intensity", "measured", "difference",
    // "twoTheta", "d", "q", "hkl"); the measured and difference rows show only beside a
    // measured frame.
    QString text(const QString& key) const;

    static QString formatIntensity(float photons);

  private:
    QLabel* m_title = nullptr;
    QLabel* m_pixel = nullptr;
    QLabel* m_intensity = nullptr;
    QLabel* m_measured = nullptr;
    QLabel* m_difference = nullptr;
    QFormLayout* m_form = nullptr;
    QLabel* m_twoTheta = nullptr;
    QLabel* m_d = nullptr;
    QLabel* m_q = nullptr;
    QLabel* m_hkl = nullptr;
    QLabel* m_note = nullptr;
};

} // namespace bv::app
