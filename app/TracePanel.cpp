#include "app/TracePanel.h"

#include "app/SimulationController.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <exception>

namespace bv::app {

namespace {

void addRows(QTreeWidgetItem* parent, QTreeWidget* tree, const std::vector<engine::TraceRow>& rows,
             int depth) {
    for (const engine::TraceRow& row : rows) {
        const QStringList columns = {QString::fromStdString(row.quantity),
                                     QString::fromStdString(row.value),
                                     QString::fromStdString(row.unit)};
        auto* item =
            parent ? new QTreeWidgetItem(parent, columns) : new QTreeWidgetItem(tree, columns);
        for (int column = 0; column < 3; ++column)
            item->setToolTip(column, columns[column]); // the whole text where a column elides it
        addRows(item, tree, row.children, depth + 1);
        // open: the value and what makes it, and the first unit down to its first step
        const bool open =
            depth == 0 ? (row.quantity == "value" || row.quantity == "unit 0")
                       : (parent && parent->text(0) == "unit 0" && row.quantity == "first step");
        item->setExpanded(open);
    }
}

} // namespace

TracePanel::TracePanel(SimulationController& controller, QWidget* parent)
    : QWidget(parent), m_controller(controller) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("traceStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("traceTree"));
    m_tree->setColumnCount(3);
    m_tree->setHeaderLabels({tr("Quantity"), tr("Value"), tr("Unit")});
    m_tree->setAlternatingRowColors(true);
    m_tree->setUniformRowHeights(true);
    // quantities whole; values elided at a width that leaves the units in view (each row's
    // tooltip has the whole text, and the columns can be widened)
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::Interactive);
    m_tree->header()->resizeSection(1, 150);
    m_tree->header()->setStretchLastSection(true);
    m_tree->headerItem()->setToolTip(
        0, tr("The quantities the diffraction shader computed for the pinned pixel, recorded "
              "by its trace variant: the same code, tables and precision as the image. F_latt "
              "is shown without its sign (only F_latt² counts)."));
    layout->addWidget(m_tree, 1);

    connect(&m_controller, &SimulationController::imageReady, this, &TracePanel::refresh);
    connect(&m_controller, &SimulationController::simulatorChanged, this, [this] {
        m_tracer.reset(); // it borrows the Simulator that is now rebuilt or gone
        refresh();
    });
    refresh();
}

TracePanel::~TracePanel() = default;

void TracePanel::setPixel(const std::optional<QPoint>& pixel) {
    m_pixel = pixel;
    refresh();
}

QString TracePanel::statusText() const {
    return m_status->text();
}

void TracePanel::showStatus(const QString& text) {
    m_trace.reset();
    m_tree->clear();
    m_status->setText(text);
}

void TracePanel::refresh() {
    if (!m_pixel) {
        showStatus(tr("Click a pixel to pin it: its trace shows here."));
        return;
    }
    const engine::Simulator* simulator = m_controller.simulator();
    if (!simulator) {
        showStatus(tr("No trace: the GPU engine is not running."));
        return;
    }
    if (!m_controller.isComplete()) {
        // the Simulator holds the plan being computed, not the one on screen: wait for it
        showStatus(tr("Pixel %1, %2: waiting for the image…").arg(m_pixel->x()).arg(m_pixel->y()));
        return;
    }
    try {
        if (!m_tracer)
            m_tracer = std::make_unique<engine::PixelTracer>(*simulator);
        showTrace(m_tracer->trace(m_pixel->x(), m_pixel->y()));
    } catch (const std::exception& e) {
        showStatus(tr("No trace: %1").arg(QString::fromStdString(e.what())));
    }
}

void TracePanel::showTrace(const engine::PixelTrace& trace) {
    m_trace = trace;
    m_tree->clear();
    addRows(nullptr, m_tree, engine::traceRows(trace), 0);
    m_status->setText(tr("Pixel %1, %2, from the %3 shader's trace variant")
                          .arg(trace.fast)
                          .arg(trace.slow)
                          .arg(QString::fromLatin1(precisionName(trace.precision))));
}

} // namespace bv::app
