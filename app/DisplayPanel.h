#pragma once
// DisplayPanel: how the image is drawn (colour map, scaling, black and white levels, the
// overload level) and which overlays are on. Changes go to the ImageWindow (display
// settings) and the MainWindow (overlays); nothing here touches the experiment.
//
// Auto-contrast sets black at the 10th and white at the 99.9th percentile of the simulated
// pixels, read from the histogram the GPU counted (render/GpuHistogram.h: within one of its
// log-spaced bins, about 1 %, of the exact value); where there is none, from the host copy of
// the image.

#include "app/Overlays.h"
#include "render/Colormap.h"
#include "render/GpuHistogram.h"

#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;

namespace bv::app {

class DisplayPanel : public QWidget {
    Q_OBJECT

  public:
    explicit DisplayPanel(QWidget* parent = nullptr);

    render::DisplaySettings settings() const { return m_settings; }
    void setSettings(const render::DisplaySettings& settings);
    OverlaySettings overlays() const { return m_overlays; }
    void setOverlays(const OverlaySettings& overlays);
    // the observed spots' match, under their checkbox ("224 of 226 matched, RMSD 0.94
    // pixels"); empty: none loaded
    void setObservedSpotsSummary(const QString& summary);
    bool autoContrastOnNewImage() const;
    void setAutoContrastOnNewImage(bool on);

    // The level sliders span the image's range; a new image may widen it.
    void setImageRange(float minimum, float maximum);
    // black/white from percentiles of the (unskipped) pixels: from the GPU's histogram
    void autoContrast(const render::ImageHistogram& histogram);
    // the same on the host (no histogram)
    void autoContrast(const std::vector<float>& image, const std::vector<std::uint8_t>& skipped);

    QComboBox* colormapBox() const { return m_colormap; }
    QComboBox* scalingBox() const { return m_scaling; }
    QDoubleSpinBox* blackBox() const { return m_black; }
    QDoubleSpinBox* whiteBox() const { return m_white; }

    static constexpr double kBlackPercentile = 10.0;
    static constexpr double kWhitePercentile = 99.9;

  signals:
    void settingsChanged(const render::DisplaySettings& settings);
    void overlaysChanged(const OverlaySettings& overlays);
    void autoContrastRequested();

  private:
    void setLevels(float black, float white);
    void emitSettings();
    void showSettings();
    int tickOf(double value) const;
    double valueOfTick(int tick) const;

    render::DisplaySettings m_settings;
    OverlaySettings m_overlays;
    double m_rangeLow = 0.0, m_rangeHigh = 1000.0;
    QComboBox* m_colormap = nullptr;
    QComboBox* m_scaling = nullptr;
    QSlider* m_blackSlider = nullptr;
    QSlider* m_whiteSlider = nullptr;
    QDoubleSpinBox* m_black = nullptr;
    QDoubleSpinBox* m_white = nullptr;
    QCheckBox* m_autoOnNew = nullptr;
    QCheckBox* m_overloadOn = nullptr;
    QDoubleSpinBox* m_overload = nullptr;
    QCheckBox* m_beam = nullptr;
    QCheckBox* m_rings = nullptr;
    QCheckBox* m_spots = nullptr;
    QCheckBox* m_spotLabels = nullptr;
    QCheckBox* m_observed = nullptr;
    QLabel* m_observedSummary = nullptr;
    bool m_updating = false;
};

// The value below which `percent` % of the values lie (nearest rank), over unskipped pixels.
float percentile(const std::vector<float>& image, const std::vector<std::uint8_t>& skipped,
                 double percent);

} // namespace bv::app
