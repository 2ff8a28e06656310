#include "app/PlotPanel.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
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

void PlotPanel::refreshRadial() {
    m_radialStale = false;
    if (!m_geometry)
        return;
    m_radialData = radialProfile(*m_image, *m_skipped, *m_geometry, 300);
    std::vector<double> x = m_radialData.x;
    const bool againstD = m_radialAxis->currentIndex() == 1;
    if (againstD) {
        const double lambda = m_geometry->wavelength();
        for (double& t : x)
            t = lambda / (2.0 * std::sin(t * M_PI / 360.0));
        // d falls as 2θ rises: reverse so the keys ascend
        std::reverse(x.begin(), x.end());
        std::vector<double> y(m_radialData.y.rbegin(), m_radialData.y.rend());
        // leave out the innermost bins, whose d runs off to infinity
        const double dCap = 20.0 * m_geometry->finestResolution();
        std::vector<double> xs, ys;
        for (std::size_t i = 0; i < x.size(); ++i)
            if (x[i] < dCap) {
                xs.push_back(x[i]);
                ys.push_back(y[i]);
            }
        m_radial->graph(0)->setData(toVector(xs), toVector(ys), true);
        m_radial->xAxis->setLabel(tr("d (Å)"));
    } else {
        m_radial->graph(0)->setData(toVector(x), toVector(m_radialData.y), true);
        m_radial->xAxis->setLabel(tr("2θ (°)"));
    }
    m_radial->rescaleAxes();
    if (m_radial->yAxis->range().lower <= 0.0)
        m_radial->yAxis->setRangeLower(1e-3);
    m_radial->replot();
}

void PlotPanel::refreshLine() {
    m_lineStale = false;
    if (!m_lineSegment) {
        m_lineData = {};
        m_line->graph(0)->data()->clear();
        m_line->replot();
        return;
    }
    m_lineData = lineProfile(*m_image, m_fast, m_slow, m_lineSegment->p1(), m_lineSegment->p2(),
                             m_geometry ? &*m_geometry : nullptr);
    m_line->graph(0)->setData(toVector(m_lineData.x), toVector(m_lineData.y), true);
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
