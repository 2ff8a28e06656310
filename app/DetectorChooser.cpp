#include "app/DetectorChooser.h"

#include "app/ExperimentDocument.h"
#include "compute/request/DetectorSource.h"
#include "compute/core/Error.h"
#include "compute/model/DetectorPresets.h"
#include "compute/model/Resolve.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace bv::app {

namespace {

constexpr int kMostRowsShown = 8;

// a row of the module list
struct ModuleRow {
    QString name, pixels, pixelSize, centre;
};

QString micrometres(double metres) {
    return QString::number(metres * 1e6, 'g', 4) + QStringLiteral(" µm");
}

QString millimetres(const glm::dvec3& v) {
    return QStringLiteral("%1, %2, %3")
        .arg(v.x * 1e3, 0, 'f', 1)
        .arg(v.y * 1e3, 0, 'f', 1)
        .arg(v.z * 1e3, 0, 'f', 1);
}

QString pixelCounts(int fast, int slow) {
    return QStringLiteral("%1 × %2").arg(fast).arg(slow);
}

// The modules where the simulation puts them (resolved: after -distance and the rotations)
// when the resolved experiment is of these panels, else as their source states them.
std::vector<ModuleRow> moduleRows(const Detector& d, const ResolvedExperiment* resolved) {
    std::vector<ModuleRow> rows;
    const bool placed = resolved && placesPanelsOf(*resolved, d);
    for (std::size_t i = 0; i < d.panels.size(); ++i) {
        const Panel& p = d.panels[i];
        const glm::dvec3 centre = placed ? resolved->panels[i].centre()
                                         : p.position(0.5 * p.fastPixels, 0.5 * p.slowPixels);
        rows.push_back({QString::fromStdString(p.name.empty() ? std::to_string(i) : p.name),
                        pixelCounts(p.fastPixels, p.slowPixels), micrometres(p.pixelSizeFast),
                        millimetres(centre)});
    }
    return rows;
}

} // namespace

DetectorChooser::DetectorChooser(ExperimentDocument& document, QWidget* parent)
    : QWidget(parent), m_document(document) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(3);

    m_choice = new QComboBox(this);
    m_choice->setObjectName(QStringLiteral("detectorChoice"));
    m_choice->setToolTip(
        tr("The detector: nanoBragg's one flat detector (the Pixels fields below), a real "
           "detector's modules with their gaps (nanoBragg -detector NAME; placed facing the beam, "
           "its centre at the Distance), or the geometry file last opened (File > Open detector "
           "geometry: a DIALS .expt or a CrystFEL .geom, its panels where the file puts them)."));
    m_choice->addItem(tr("nanoBragg flat detector"), QString());
    for (const DetectorPreset& preset : detectorPresets())
        m_choice->addItem(QStringLiteral("%1 (%2)").arg(QString::fromStdString(preset.description),
                                                        QString::fromStdString(preset.name)),
                          QString::fromStdString(preset.name));
    layout->addWidget(m_choice);
    connect(m_choice, qOverload<int>(&QComboBox::activated), this, &DetectorChooser::choose);

    m_source = new QLabel(this);
    m_source->setObjectName(QStringLiteral("detectorSource"));
    m_source->setWordWrap(true);
    m_source->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_source);

    m_modules = new QTreeWidget(this);
    m_modules->setObjectName(QStringLiteral("detectorModules"));
    m_modules->setColumnCount(4);
    m_modules->setHeaderLabels(
        {tr("Module"), tr("Pixels"), tr("Pixel"), tr("Centre x, y, z (mm)")});
    m_modules->headerItem()->setToolTip(1, tr("Pixels along fast × along slow"));
    m_modules->headerItem()->setToolTip(
        3, tr("The module's centre in the laboratory frame (the beam along +x from the sample "
              "at the origin, MOSFLM's axes), where the simulation puts it: after the "
              "Distance, the rotations and two-theta"));
    m_modules->setRootIsDecorated(false);
    m_modules->setUniformRowHeights(true);
    m_modules->setSelectionMode(QAbstractItemView::NoSelection);
    m_modules->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_modules->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_modules->header()->setStretchLastSection(true);
    layout->addWidget(m_modules);

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("detectorError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("QLabel { color: #b00020; }"));
    m_error->hide();
    layout->addWidget(m_error);
}

void DetectorChooser::choose(int index) {
    if (m_refreshing || index < 0 || index >= m_choice->count())
        return;
    const std::string source = m_choice->itemData(index).toString().toStdString();
    try {
        if (source.empty())
            m_document.useFlatDetector();
        else if (source != m_document.experiment().detector.panelsSource)
            m_document.setDetectorSource(source);
        m_error->hide();
    } catch (const Error& e) {
        // a file gone or changed since it was opened: the detector stays as it was
        m_error->setText(QString::fromUtf8(e.what()));
        m_error->show();
        selectCurrent();
    }
}

void DetectorChooser::selectCurrent() {
    const QString source = QString::fromStdString(m_document.experiment().detector.panelsSource);
    const QSignalBlocker block(m_choice);
    m_choice->setCurrentIndex(std::max(0, m_choice->findData(source)));
}

void DetectorChooser::refresh(const ResolvedExperiment* resolved) {
    m_refreshing = true;
    const Detector& d = m_document.experiment().detector;
    const QString source = QString::fromStdString(d.panelsSource);
    // the file last opened stays in the list (one item), to come back to after a preset
    if (!source.isEmpty() && m_choice->findData(source) < 0) {
        const int presets = static_cast<int>(detectorPresets().size()) + 1;
        if (m_choice->count() > presets)
            m_choice->removeItem(presets);
        m_choice->addItem(tr("File: %1").arg(QFileInfo(source).fileName()), source);
        m_choice->setItemData(presets, source, Qt::ToolTipRole);
    }
    selectCurrent();

    if (!d.panelsFromSource()) {
        m_source->setText(tr("One flat panel: its size and pixels are the Pixels fields below."));
        m_modules->clear();
        m_modules->hide();
        m_refreshing = false;
        return;
    }
    const DetectorPreset* preset = findDetectorPreset(d.panelsSource);
    const int count = static_cast<int>(d.panels.size());
    QString text = preset ? tr("%1 modules of the preset <b>%2</b> (%3)")
                                .arg(count)
                                .arg(source, QString::fromStdString(preset->description))
                          : tr("%1 panels from <b>%2</b>")
                                .arg(count)
                                .arg(QFileInfo(source).fileName().toHtmlEscaped());
    if (resolved && placesPanelsOf(*resolved, d))
        text += tr("; the image stacks their rows: %1 pixels")
                    .arg(pixelCounts(resolved->detector.fastPixels, resolved->detector.slowPixels));
    m_source->setText(text);
    m_source->setToolTip(preset ? QString() : source); // a file's whole path

    const std::vector<ModuleRow> rows = moduleRows(d, resolved);
    if (m_modules->topLevelItemCount() != static_cast<int>(rows.size())) {
        m_modules->clear();
        for (std::size_t i = 0; i < rows.size(); ++i)
            new QTreeWidgetItem(m_modules);
    }
    for (std::size_t i = 0; i < rows.size(); ++i) {
        QTreeWidgetItem* item = m_modules->topLevelItem(static_cast<int>(i));
        const QString columns[] = {rows[i].name, rows[i].pixels, rows[i].pixelSize, rows[i].centre};
        for (int c = 0; c < 4; ++c)
            if (item->text(c) != columns[c])
                item->setText(c, columns[c]);
    }
    // as tall as its rows, up to about eight of them (a PILATUS 6M has 60: it scrolls)
    const int rowHeight = std::max(1, m_modules->sizeHintForRow(0));
    m_modules->setFixedHeight(std::min(kMostRowsShown, static_cast<int>(rows.size())) * rowHeight +
                              m_modules->header()->sizeHint().height() +
                              2 * m_modules->frameWidth() + 2);
    m_modules->show();
    m_refreshing = false;
}

} // namespace bv::app
