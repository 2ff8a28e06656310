#pragma once
// PlotPanel: QCustomPlot views of the image shown, following it: the radial profile (mean
// intensity against 2θ or d), the line profile along the line drawn with Shift + drag, and
// the intensity histogram with the black and white levels marked. Only the visible plot is
// recomputed when a new image arrives.
//
// Beside a measured frame (setMeasured, the compare views' fit) the radial and line profiles
// draw two curves in counts, with a legend: the measured frame's, and the simulation's as the
// fit maps it, k × simulated + b, both over the same pixels (those simulated that have data),
// so that where the model explains the frame the curves lie on each other.

#include "app/PixelGeometry.h"
#include "app/Profiles.h"
#include "compute/io/MeasuredImage.h"

#include <QLineF>
#include <QWidget>

#include <cstdint>
#include <optional>
#include <vector>

class QComboBox;
class QCustomPlot;
class QTabWidget;

namespace bv::app {

class PlotPanel : public QWidget {
    Q_OBJECT

  public:
    explicit PlotPanel(QWidget* parent = nullptr);

    // The image the plots follow (borrowed until the next call).
    void setImage(const std::vector<float>* image, const std::vector<std::uint8_t>* skipped,
                  int fast, int slow, const std::optional<PixelGeometry>& geometry);
    void setLine(const std::optional<QLineF>& line);
    void setLevels(double black, double white);
    // The measured frame (borrowed until the next call; nullptr: none) and the fit
    // measured = scale × simulated + background; a frame of another size is left out.
    void setMeasured(const io::MeasuredImage* measured, double scale, double background);

    QTabWidget* tabs() const { return m_tabs; }
    QCustomPlot* radialPlot() const { return m_radial; }
    QCustomPlot* linePlot() const { return m_line; }
    QCustomPlot* histogramPlot() const { return m_histogram; }
    const Profile& radialData() const { return m_radialData; }
    const Profile& lineData() const { return m_lineData; }
    // the measured curves (empty without a measured frame); radialData() and lineData() stay
    // the simulation's own, in photons
    const Profile& radialMeasured() const { return m_radialMeasured; }
    const Profile& lineMeasured() const { return m_lineMeasured; }

  private:
    bool comparing() const;
    // the pixels both curves use: the simulation's skipped ones and those without data
    const std::vector<std::uint8_t>& comparedSkipped();
    void showCurves(QCustomPlot* plot, const std::vector<double>& x, const std::vector<double>& y,
                    const Profile* measured);
    void refresh();
    void refreshRadial();
    void refreshLine();
    void refreshHistogram();

    QTabWidget* m_tabs = nullptr;
    QCustomPlot* m_radial = nullptr;
    QCustomPlot* m_line = nullptr;
    QCustomPlot* m_histogram = nullptr;
    QComboBox* m_radialAxis = nullptr;
    const std::vector<float>* m_image = nullptr;
    const std::vector<std::uint8_t>* m_skipped = nullptr;
    int m_fast = 0, m_slow = 0;
    std::optional<PixelGeometry> m_geometry;
    std::optional<QLineF> m_lineSegment;
    double m_black = 0.0, m_white = 1.0;
    Profile m_radialData, m_lineData;
    const io::MeasuredImage* m_measured = nullptr;
    double m_scale = 1.0, m_background = 0.0;
    std::vector<float> m_measuredImage; // NaN where there is no data (a gap in a line)
    std::vector<std::uint8_t> m_comparedSkipped;
    Profile m_radialMeasured, m_lineMeasured;
    bool m_radialStale = true, m_lineStale = true, m_histogramStale = true;
};

} // namespace bv::app
