#include "app/PlotPanel.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>
#include <cmath>

namespace bv::app {

namespace {
QVector<double> toVector(const std::vector<double>& v) {
    return QVector<double>(v.begin(), v.end());
}

QCustomPlot* makePlot(QWidget* parent, const QString& x, const QString& y) {
    auto* plot = new QCustomPlot(parent);
    plot->setMinimumHeight(160);
    plot->xAxis->setLabel(x);
    plot->yAxis->setLabel(y);
    plot->addGraph();
    plot->graph(0)->setPen(QPen(QColor(20, 90, 200), 1.5));
    plot->graph(0)->setName(QObject::tr("simulated"));
    // the measured frame's curve, beside a measured frame (PlotPanel::setMeasured)
    plot->addGraph();
    plot->graph(1)->setPen(QPen(QColor(215, 95, 0), 1.5));
    plot->graph(1)->setName(QObject::tr("measured"));
    plot->legend->setVisible(false);
    plot->legend->setFont(QFont(plot->font().family(), 8));
    plot->legend->setBrush(QColor(255, 255, 255, 200)); // the curves show through
    plot->setProperty("photonsLabel", y);
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    return plot;
}
} // namespace

PlotPanel::PlotPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    m_tabs = new QTabWidget(this);
    layout->addWidget(m_tabs);

    auto* radialPage = new QWidget(m_tabs);
    auto* radialLayout = new QVBoxLayout(radialPage);
    radialLayout->setContentsMargins(0, 0, 0, 0);
    m_radialAxis = new QComboBox(radialPage);
    m_radialAxis->addItems({tr("against 2θ"), tr("against d")});
    m_radial = makePlot(radialPage, tr("2θ (°)"), tr("mean intensity (photons)"));
    // the direct beam's neighbourhood outshines the rings by orders of magnitude
    m_radial->yAxis->setScaleType(QCPAxis::stLogarithmic);
    m_radial->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    radialLayout->addWidget(m_radialAxis);
    radialLayout->addWidget(m_radial, 1);
    m_tabs->addTab(radialPage, tr("Radial profile"));

    m_line = makePlot(m_tabs, tr("distance along the line (pixels)"), tr("intensity (photons)"));
    m_tabs->addTab(m_line, tr("Line profile"));

    m_histogram = makePlot(m_tabs, tr("intensity (photons)"), tr("pixels"));
    m_histogram->graph(0)->setLineStyle(QCPGraph::lsStepCenter);
    m_histogram->yAxis->setScaleType(QCPAxis::stLogarithmic);
    m_histogram->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    m_histogram->xAxis->ticker()->setTickCount(4);
    m_tabs->addTab(m_histogram, tr("Histogram"));

    connect(m_tabs, &QTabWidget::currentChanged, this, &PlotPanel::refresh);
    connect(m_radialAxis, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        m_radialStale = true;
        refresh();
    });
}

void PlotPanel::setImage(const std::vector<float>* image, const std::vector<std::uint8_t>* skipped,
                         int fast, int slow, const std::optional<PixelGeometry>& geometry) {
    m_image = image;
    m_skipped = skipped;
    m_fast = fast;
    m_slow = slow;
    m_geometry = geometry;
    m_radialStale = m_lineStale = m_histogramStale = true;
    refresh();
}

void PlotPanel::setLine(const std::optional<QLineF>& line) {
    m_lineSegment = line;
    m_lineStale = true;
    if (line)
        m_tabs->setCurrentWidget(m_line);
    refresh();
}

void PlotPanel::setLevels(double black, double white) {
    m_black = black;
    m_white = white;
    m_histogramStale = true;
    refresh();
}

void PlotPanel::refresh() {
    if (!m_image)
        return;
    const QWidget* current = m_tabs->currentWidget();
    if (current == m_line && m_lineStale)
        refreshLine();
    else if (current == m_histogram && m_histogramStale)
        refreshHistogram();
    else if (current != m_line && current != m_histogram && m_radialStale)
        refreshRadial();
}

void PlotPanel::setMeasured(const io::MeasuredImage* measured, double scale, double background) {
    m_measured = measured;
    m_scale = scale;
    m_background = background;
    m_measuredImage.clear();
    if (measured) {
        m_measuredImage.assign(measured->pixels.size(), std::numeric_limits<float>::quiet_NaN());
        for (std::size_t i = 0; i < measured->pixels.size(); ++i)
            if (measured->hasData[i])
                m_measuredImage[i] = measured->pixels[i];
    }
    m_radialMeasured = m_lineMeasured = {};
    m_comparedSkipped.clear();
    m_radialStale = m_lineStale = true;
    refresh();
}

bool PlotPanel::comparing() const {
    return m_measured && m_image && m_measuredImage.size() == m_image->size();
}

const std::vector<std::uint8_t>& PlotPanel::comparedSkipped() {
    m_comparedSkipped.assign(m_image->size(), 0);
    const bool haveSkipped = m_skipped && m_skipped->size() == m_image->size();
    for (std::size_t i = 0; i < m_image->size(); ++i)
        m_comparedSkipped[i] = (haveSkipped && (*m_skipped)[i]) || !m_measured->hasData[i];
    return m_comparedSkipped;
}

void PlotPanel::showCurves(QCustomPlot* plot, const std::vector<double>& x,
                           const std::vector<double>& y, const Profile* measured) {
    if (measured) { // both in counts: the simulation as the fit maps it
        std::vector<double> fitted(y.size());
        for (std::size_t i = 0; i < y.size(); ++i)
            fitted[i] = m_scale * y[i] + m_background;
        plot->graph(0)->setData(toVector(x), toVector(fitted), true);
        plot->graph(1)->setData(toVector(measured->x), toVector(measured->y), true);
        plot->graph(0)->setName(tr("simulated × %1 %2 %3")
                                    .arg(m_scale, 0, 'g', 4)
                                    .arg(m_background < 0.0 ? QStringLiteral("−") : QStringLiteral("+"))
                                    .arg(std::fabs(m_background), 0, 'g', 4));
        plot->graph(1)->setName(tr("measured"));
    } else {
        plot->graph(0)->setData(toVector(x), toVector(y), true);
        plot->graph(1)->data()->clear();
    }
    plot->legend->setVisible(measured != nullptr);
    plot->yAxis->setLabel(measured ? tr("counts") : plot->property("photonsLabel").toString());
}

void PlotPanel::refreshRadial() {
    m_radialStale = false;
    if (!m_geometry)
        return;
    const bool compare = comparing();
    const std::vector<std::uint8_t>& skipped = compare ? comparedSkipped() : *m_skipped;
    m_radialData = radialProfile(*m_image, skipped, *m_geometry, 300);
    m_radialMeasured = compare ? radialProfile(m_measuredImage, skipped, *m_geometry, 300) : Profile{};
    const bool againstD = m_radialAxis->currentIndex() == 1;
    // the keys as the axis shows them: 2θ, or d ascending without the innermost bins, whose
    // d runs off to infinity
    const auto onAxis = [&](const Profile& p) {
        if (!againstD)
            return p;
        const double lambda = m_geometry->wavelength();
        const double dCap = 20.0 * m_geometry->finestResolution();
        Profile out;
        for (std::size_t i = p.x.size(); i-- > 0;) { // d falls as 2θ rises
            const double d = lambda / (2.0 * std::sin(p.x[i] * M_PI / 360.0));
            if (d < dCap) {
                out.x.push_back(d);
                out.y.push_back(p.y[i]);
            }
        }
        return out;
    };
    const Profile simulated = onAxis(m_radialData);
    const Profile measured = onAxis(m_radialMeasured);
    showCurves(m_radial, simulated.x, simulated.y, compare ? &measured : nullptr);
    m_radial->xAxis->setLabel(againstD ? tr("d (Å)") : tr("2θ (°)"));
    m_radial->rescaleAxes();
    if (m_radial->yAxis->range().lower <= 0.0)
        m_radial->yAxis->setRangeLower(1e-3);
    m_radial->replot();
}

void PlotPanel::refreshLine() {
    m_lineStale = false;
    if (!m_lineSegment) {
        m_lineData = m_lineMeasured = {};
        m_line->graph(0)->data()->clear();
        m_line->graph(1)->data()->clear();
        m_line->legend->setVisible(false);
        m_line->replot();
        return;
    }
    const PixelGeometry* geometry = m_geometry ? &*m_geometry : nullptr;
    m_lineData = lineProfile(*m_image, m_fast, m_slow, m_lineSegment->p1(), m_lineSegment->p2(), geometry);
    const bool compare = comparing();
    m_lineMeasured = compare ? lineProfile(m_measuredImage, m_fast, m_slow, m_lineSegment->p1(),
                                           m_lineSegment->p2(), geometry)
                             : Profile{};
    showCurves(m_line, m_lineData.x, m_lineData.y, compare ? &m_lineMeasured : nullptr);
    m_line->rescaleAxes();
    m_line->replot();
}

void PlotPanel::refreshHistogram() {
    m_histogramStale = false;
    if (m_image->empty())
        return;
    double low = 0.0, high = 0.0;
    const auto [lo, hi] = std::minmax_element(m_image->begin(), m_image->end());
    low = std::min(0.0, static_cast<double>(*lo));
    high = std::max(static_cast<double>(*hi), std::max(m_white, low + 1.0));
    const Profile h = histogram(*m_image, *m_skipped, 400, low, high);
    QVector<double> counts = toVector(h.y);
    for (double& c : counts)
        c = std::max(c, 0.5); // empty bins sit below 1 on the log axis
    m_histogram->graph(0)->setData(toVector(h.x), counts, true);
    m_histogram->clearItems();
    for (const auto& [level, colour] : {std::pair{m_black, QColor(0, 0, 0)},
                                        std::pair{m_white, QColor(220, 40, 40)}}) {
        auto* line = new QCPItemStraightLine(m_histogram);
        line->point1->setCoords(level, 0.5);
        line->point2->setCoords(level, 1.0);
        line->setPen(QPen(colour, 1.5, Qt::DashLine));
    }
    m_histogram->rescaleAxes();
    m_histogram->yAxis->setRangeLower(0.5);
    m_histogram->replot();
}

} // namespace bv::app
