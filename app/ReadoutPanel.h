#pragma once
// ReadoutPanel: what the pixel under the cursor (or the pinned pixel) means: its indices,
// the simulated intensity (the host copy of the image the GPU computed), and, from
// PixelGeometry at the pixel's centre, 2θ, the resolution d, |q| and the fractional h k l.

#include "app/PixelGeometry.h"

#include <QWidget>

#include <optional>

class QLabel;

namespace bv::app {

struct Readout {
    PixelInfo info;
    std::optional<float> intensity; // nullopt: outside the image
    bool skipped = false;           // masked or outside the region of interest
};

class ReadoutPanel : public QWidget {
    Q_OBJECT

  public:
    explicit ReadoutPanel(QWidget* parent = nullptr);

    void show(const std::optional<Readout>& readout, bool pinned);
    // The text shown for one quantity ("pixel", "intensity", "twoTheta", "d", "q", "hkl").
    QString text(const QString& key) const;

    static QString formatIntensity(float photons);

  private:
    QLabel* m_title = nullptr;
    QLabel* m_pixel = nullptr;
    QLabel* m_intensity = nullptr;
    QLabel* m_twoTheta = nullptr;
    QLabel* m_d = nullptr;
    QLabel* m_q = nullptr;
    QLabel* m_hkl = nullptr;
    QLabel* m_note = nullptr;
};

} // namespace bv::app
