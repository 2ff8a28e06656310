#include "app/RefinePanel.h"

#include "app/CompareView.h"
#include "app/ExperimentDocument.h"
#include "app/RefineRunner.h"
#include "app/SimulationController.h"
#include "compute/core/Error.h"
#include "compute/io/RefinedExperiment.h"
#include "compute/model/PanelPlacement.h"
#include "compute/request/ExperimentFile.h"
#include "compute/run/PreparedRun.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <glm/geometric.hpp>

#include <algorithm>

namespace bv::app {

namespace {

QString number(double v, int digits = 7) {
    return QString::number(v, 'g', digits);
}

enum Column { Name, Start, Current, Change, Sigma, Columns };
} // namespace

RefinePanel::RefinePanel(ExperimentDocument& document, SimulationController& controller,
                         CompareView& compare, render::ImageWindow& window, QWidget* parent)
    : QWidget(parent), m_document(document), m_controller(controller), m_compare(compare) {
    m_runner = new RefineRunner(window, this);
    connect(m_runner, &RefineRunner::progressed, this, &RefinePanel::onProgress);
    connect(m_runner, &RefineRunner::finished, this, &RefinePanel::onFinished);
    connect(m_runner, &RefineRunner::failed, this, &RefinePanel::onFailed);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto* groups = new QGridLayout;
    int i = 0;
    for (const auto& [name, what] : refine::ParameterSet::groupWords()) {
        auto* box = new QCheckBox(QString::fromLatin1(name), this);
        box->setObjectName(QStringLiteral("refine_") + QString::fromLatin1(name));
        box->setToolTip(tr(what));
        groups->addWidget(box, i / 4, i % 4);
        m_groups[name] = box;
        ++i;
    }
    auto* scale = new QCheckBox(tr("scale"), this);
    scale->setChecked(true);
    scale->setEnabled(false);
    scale->setToolTip(tr("always fitted: measured = scale × simulated + background"));
    groups->addWidget(scale, i / 4, i % 4);
    m_groups.at("distance")->setChecked(true);
    layout->addLayout(groups);

    auto* row = new QHBoxLayout;
    m_pixels = new QComboBox(this);
    m_pixels->setObjectName(QStringLiteral("refinePixels"));
    m_pixels->addItems({tr("spot regions"), tr("whole image (pixels with data)")});
    m_pixels->setToolTip(tr("The pixels fitted: around the start's spots (grown by 3 pixels), "
                            "or every pixel the measured frame has data for"));
    m_background = new QComboBox(this);
    m_background->setObjectName(QStringLiteral("refineBackground"));
    m_background->addItems({tr("local background"), tr("constant background")});
    m_background->setToolTip(tr("The background under the spots: the measured frame's own, "
                                "estimated around them (32-pixel tiles), plus a fitted "
                                "constant; or the fitted constant alone"));
    m_run = new QPushButton(tr("Run"), this);
    m_run->setObjectName(QStringLiteral("refineRun"));
    m_apply = new QPushButton(tr("Apply"), this);
    m_apply->setObjectName(QStringLiteral("refineApply"));
    m_apply->setToolTip(tr("Make the refined values the experiment's (the fields update)"));
    m_discard = new QPushButton(tr("Discard"), this);
    m_discard->setObjectName(QStringLiteral("refineDiscard"));
    m_discard->setToolTip(tr("Show the experiment as the fields state it again"));
    row->addWidget(m_pixels, 1);
    row->addWidget(m_background, 1);
    row->addWidget(m_run);
    row->addWidget(m_apply);
    row->addWidget(m_discard);
    layout->addLayout(row);

    m_table = new QTableWidget(0, Columns, this);
    m_table->setObjectName(QStringLiteral("refineTable"));
    m_table->setHorizontalHeaderLabels({tr("parameter"), tr("start"), tr("current"), tr("change"), tr("σ")});
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(Name, QHeaderView::ResizeToContents);
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setMinimumHeight(150);
    layout->addWidget(m_table, 1);
    m_residual = new QLabel(this);
    m_residual->setObjectName(QStringLiteral("refineResidual"));
    m_rmsd = new QLabel(this);
    m_rmsd->setObjectName(QStringLiteral("refineRmsd"));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("refineStatus"));
    m_status->setWordWrap(true);
    for (QLabel* label : {m_residual, m_rmsd, m_status}) {
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        layout->addWidget(label);
    }
    setMessage(tr("Fits the experiment to the measured frame (File › Open measured image); "
                  "the image follows the fit."));

    connect(m_run, &QPushButton::clicked, this, [this] {
        if (isRunning())
            stop();
        else
            run();
    });
    connect(m_apply, &QPushButton::clicked, this, &RefinePanel::apply);
    connect(m_discard, &QPushButton::clicked, this, &RefinePanel::discard);
    // a followed image is complete: the next step's after a pause of four times its time
    m_followPause.setSingleShot(true);
    connect(&m_followPause, &QTimer::timeout, this, &RefinePanel::showNextFollowed);
    connect(&m_controller, &SimulationController::imageReady, this, [this] {
        if (!m_followInFlight)
            return;
        m_followInFlight = false;
        m_followPause.start(static_cast<int>(std::min<qint64>(4 * m_followClock.elapsed(), 10000)));
    });
    // an edit of a field after the fit: the image shows the fields' experiment again
    connect(&m_document, &ExperimentDocument::changed, this, [this] {
        if (m_showingFit && !isRunning()) {
            m_showingFit = false;
            m_controller.setShownExperiment(std::nullopt);
            updateButtons();
        }
    });
    updateButtons();
}

RefinePanel::~RefinePanel() = default;

std::vector<std::string> RefinePanel::groups() const {
    std::vector<std::string> out;
    for (const auto& [name, what] : refine::ParameterSet::groupWords())
        if (m_groups.at(name)->isChecked())
            out.push_back(name);
    return out;
}

void RefinePanel::setGroups(const std::vector<std::string>& groups) {
    for (const std::string& g : groups)
        if (g != "scale" && m_groups.count(g) == 0)
            throw Error("-refine: no parameter group \"" + g + "\" (the groups: " +
                        refine::ParameterSet::knownGroups() + ")");
    for (const auto& [name, box] : m_groups)
        box->setChecked(std::find(groups.begin(), groups.end(), name) != groups.end());
}

void RefinePanel::setAllPixels(bool all) {
    m_pixels->setCurrentIndex(all ? 1 : 0);
}

void RefinePanel::setConstantBackground(bool constant) {
    m_background->setCurrentIndex(constant ? 1 : 0);
}

bool RefinePanel::isRunning() const {
    return m_runner->isRunning();
}

const std::optional<refine::FitReport>& RefinePanel::report() const {
    return m_runner->report();
}

bool RefinePanel::run() {
    if (isRunning())
        return false;
    m_warning.clear(); // the last fit's; this one's once it starts
    if (!m_compare.measured()) {
        setMessage(tr("Open the measured frame first: File › Open measured image."));
        return false;
    }
    try {
        m_runner->start(m_document.experiment(), *m_compare.measured(), groups(),
                        m_pixels->currentIndex() == 1 ? refine::PixelChoice::All
                                                      : refine::PixelChoice::Spots,
                        m_background->currentIndex() == 1 ? refine::BackgroundChoice::Constant
                                                          : refine::BackgroundChoice::Local,
                        m_document.precision());
    } catch (const std::exception& e) {
        setMessage(QString::fromStdString(e.what()));
        return false;
    }
    m_values.clear();
    for (const refine::Parameter& p : m_runner->parameters()->parameters())
        m_values.push_back({p.name, p.unit, p.start, p.start, 0.0});
    m_values.push_back({"scale", "", 0.0, 0.0, 0.0});
    m_values.push_back({"background", "counts", 0.0, 0.0, 0.0});
    fillTable(m_values);
    m_startResidual = -1.0;
    m_stepsShown = 0;
    stopFollowing();
    m_residual->clear();
    m_rmsd->clear();
    // what one frame cannot tell apart stays above the fit's own lines until the next run
    m_warning = QString::fromStdString(refine::groupsWarning(groups()));
    setMessage(tr("Fitting…"));
    updateButtons();
    return true;
}

void RefinePanel::stop() {
    m_runner->stop();
    setMessage(tr("Stopping at the fit's next step…"));
}

void RefinePanel::onProgress(const refine::FitProgress& progress) {
    for (std::size_t i = 0; i < m_values.size() && i < progress.values.size(); ++i) {
        if (progress.stage == 0 && progress.iteration == 0)
            m_values[i].start = progress.values[i]; // the scale's and background's start
        m_values[i].value = progress.values[i];
    }
    fillTable(m_values);
    if (m_startResidual < 0.0)
        m_startResidual = progress.residual;
    m_residual->setText(tr("weighted residual (rms): %1 → %2")
                            .arg(number(m_startResidual, 5), number(progress.residual, 5)));
    setMessage(tr("Fitting… stage %1 of 2, step %2; %3 images computed")
                   .arg(progress.stage + 1)
                   .arg(progress.iteration)
                   .arg(m_runner->renders()));
    // the image follows the fit (the controller computes the newest one it is given)
    m_showingFit = true;
    follow(progress.experiment);
}

void RefinePanel::follow(const Experiment& experiment) {
    m_followNext = experiment;
    showNextFollowed();
}

void RefinePanel::showNextFollowed() {
    if (!m_followNext || m_followInFlight || m_followPause.isActive() || !isRunning())
        return;
    m_controller.setShownExperiment(*m_followNext);
    m_followNext.reset();
    ++m_stepsShown;
    m_followInFlight = true;
    m_followClock.start();
}

void RefinePanel::stopFollowing() {
    m_followNext.reset();
    m_followInFlight = false;
    m_followPause.stop();
}

void RefinePanel::onFinished() {
    stopFollowing();
    const refine::FitReport& r = *m_runner->report();
    fillTable(r.values);
    m_residual->setText(tr("weighted residual (rms): %1 → %2")
                            .arg(number(r.startResidual, 5), number(r.endResidual, 5)));
    m_rmsd->setText(tr("spot RMSD (%1 spots): %2 → %3 pixels")
                        .arg(r.spots)
                        .arg(number(r.startSpotRmsd, 4), number(r.endSpotRmsd, 4)));
    // what the fit sampled: its choice, or the frame's own that it found (FrameSampling.h)
    const Crystal& c = r.refined.crystal;
    QString sampled;
    if (c.phi.steps && *c.phi.steps > 1)
        sampled += (c.phiSampling == PhiSampling::StepCentre
                        ? tr(" Sampled: %1 phi steps at their centres")
                        : tr(" Sampled: %1 phi steps at their starts"))
                       .arg(*c.phi.steps);
    if (c.mosaicDomains && c.mosaicSpread.value_or(0.0) > 0.0)
        sampled += (sampled.isEmpty() ? tr(" Sampled: ") : QStringLiteral(", ")) +
                   tr("%1 mosaic domains").arg(*c.mosaicDomains);
    // the pairs the frame tells apart only along their difference (the three strongest)
    QString correlated;
    const std::vector<refine::Correlated> pairs = refine::correlatedPairs(r);
    for (std::size_t i = 0; i < pairs.size() && i < 3; ++i)
        correlated += (i ? QStringLiteral(", ") : tr(" Correlated: ")) +
                      tr("%1 and %2 %3")
                          .arg(QString::fromStdString(pairs[i].first),
                               QString::fromStdString(pairs[i].second), number(pairs[i].r, 3));
    setMessage(tr("Done: %1 pixels, %2 iterations, %3 images (%4).%5%6")
                   .arg(r.pixels)
                   .arg(r.iterations)
                   .arg(r.renders)
                   .arg(QString::fromStdString(r.termination))
                   .arg(sampled.isEmpty() ? QString() : sampled + QStringLiteral("."))
                   .arg(correlated.isEmpty() ? QString() : correlated + QStringLiteral(".")));
    m_showingFit = true;
    m_controller.setShownExperiment(r.refined);
    updateButtons();
    emit finished();
}

void RefinePanel::onFailed(const QString& message) {
    stopFollowing();
    setMessage(tr("The fit failed: %1").arg(message));
    if (m_showingFit) {
        m_showingFit = false;
        m_controller.setShownExperiment(std::nullopt);
    }
    updateButtons();
    emit finished();
}

void RefinePanel::apply() {
    const std::optional<refine::FitReport>& r = m_runner->report();
    if (!r || isRunning())
        return;
    Experiment refined = r->refined;
    // as the document states a detector of panels (ExperimentDocument::setDetectorSource):
    // Distance is where their centre lies along the beam, and a file keeps its name
    const ResolvedExperiment resolved = run::resolveQuietly(refined);
    refined.detector.distance = glm::dot(detectorCentre(resolved.panels), refined.axes().beam);
    if (const std::string& source = m_document.experiment().detector.panelsSource; !source.empty())
        refined.detector.panelsSource = source;
    m_showingFit = false;
    m_controller.setShownExperiment(std::nullopt);
    m_document.edit([&](Experiment& e) { e = refined; });
    setMessage(tr("Applied: the fields hold the refined values."));
    updateButtons();
    emit applied();
}

void RefinePanel::discard() {
    if (isRunning())
        return;
    m_showingFit = false;
    m_controller.setShownExperiment(std::nullopt);
    setMessage(tr("The image shows the experiment as the fields state it."));
    updateButtons();
}

void RefinePanel::saveRefinedExperiment(const QString& path) const {
    const std::optional<refine::FitReport>& r = m_runner->report();
    if (!r)
        throw Error("no refinement to save: run a fit first (View › Refine)");
    const RunRequest& request = m_document.commandLine();
    if (request.experimentFile.empty())
        throw Error("a refined experiment is written into the DIALS experiment list the "
                    "experiment came from: open it first (File › Open DIALS experiment)");
    // the detector's shift from where the file puts it (the fields may have moved it before
    // the fit: the fit's start is not necessarily the file's)
    io::writeRefinedExperiment(request.experimentFile, static_cast<std::size_t>(request.experimentId),
                               path.toStdString(),
                               refine::refinedModelsForFile(m_document.experiment(),
                                                            request::filedDetector(request), r->refined));
}

void RefinePanel::setMessage(const QString& message) {
    m_message = m_warning.isEmpty() ? message : tr("Warning: %1.").arg(m_warning) + "\n" + message;
    m_status->setText(m_message);
}

void RefinePanel::updateButtons() {
    const bool running = isRunning();
    m_run->setText(running ? tr("Stop") : tr("Run"));
    m_apply->setEnabled(!running && m_runner->report().has_value() && m_showingFit);
    m_discard->setEnabled(!running && m_showingFit);
    for (auto& [name, box] : m_groups)
        box->setEnabled(!running);
    m_pixels->setEnabled(!running);
    m_background->setEnabled(!running);
}

void RefinePanel::fillTable(const std::vector<refine::FittedValue>& values) {
    m_table->setRowCount(static_cast<int>(values.size()));
    for (std::size_t i = 0; i < values.size(); ++i) {
        const refine::FittedValue& v = values[i];
        const QString name = QString::fromStdString(v.name) +
                             (v.unit.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(v.unit)));
        const QString cells[Columns] = {name, number(v.start), number(v.value),
                                        number(v.value - v.start, 4),
                                        v.sigma > 0.0 ? number(v.sigma, 3) : QStringLiteral("–")};
        for (int c = 0; c < Columns; ++c) {
            QTableWidgetItem* item = m_table->item(static_cast<int>(i), c);
            if (!item) {
                item = new QTableWidgetItem;
                if (c != Name)
                    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
                m_table->setItem(static_cast<int>(i), c, item);
            }
            item->setText(cells[c]);
        }
    }
}

} // namespace bv::app
