#pragma once
// RefinePanel: the Refine dock. The experiment fitted to the measured frame (File > Open
// measured image) as `-refine` fits it headless (compute/refine, docs/refinement.md), with the
// image following the fit:
//   - the groups of -refine as check boxes (scale and background are always fitted), the
//     spot regions or every pixel with data (-refine_pixels all), Run / Stop;
//   - a table of each parameter's start, current value, change and uncertainty (after the
//     fit), the weighted residual, and the spot RMSD before and after;
//   - at each step the fit accepts, the image (and the compare views, readout and plots
//     that follow it) shows the fit's experiment (SimulationController::setShownExperiment),
//     while the document, and so the fields, keep the experiment as stated;
//   - when it is done, Apply makes the refined experiment the document's (the fields
//     update); Discard shows the document's again. saveRefinedExperiment() writes the
//     DIALS experiment list with the refined models (File > Save refined experiment).
// The fit runs on RefineRunner (its own thread; the images on the viewer's GPU).

#include "compute/refine/Refinement.h"

#include <QElapsedTimer>
#include <QString>
#include <QTimer>
#include <QWidget>

#include <map>
#include <optional>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace bv::render {
class ImageWindow;
}

namespace bv::app {

class CompareView;
class ExperimentDocument;
class RefineRunner;
class SimulationController;

class RefinePanel : public QWidget {
    Q_OBJECT
  public:
    RefinePanel(ExperimentDocument& document, SimulationController& controller,
                CompareView& compare, render::ImageWindow& window, QWidget* parent = nullptr);
    ~RefinePanel() override;

    // -refine's group names ("distance", ..., "ncells") checked; setGroups() checks those named
    // (and "scale", always fitted, is taken), and throws bv::Error for any other name
    std::vector<std::string> groups() const;
    void setGroups(const std::vector<std::string>& groups);
    void setAllPixels(bool all);
    void setConstantBackground(bool constant); // -refine_background constant

    // Run: starts a fit of the document's experiment to the measured frame; false, with
    // message() saying why, when it cannot start (no measured frame, no group, ...).
    bool run();
    void stop();
    bool isRunning() const;
    // the result, after finished(); Apply and Discard
    const std::optional<refine::FitReport>& report() const;
    void apply();
    void discard();
    // File > Save refined experiment: the experiment list the document's -experiment came
    // from, with the refined models (compute/io/RefinedExperiment.h); throws bv::Error.
    void saveRefinedExperiment(const QString& path) const;

    const QString& message() const { return m_message; }
    QTableWidget* table() const { return m_table; }
    // the steps shown while the fit ran (each one image of the fit's experiment asked for)
    int stepsShown() const { return m_stepsShown; }
    RefineRunner& runner() { return *m_runner; }

  signals:
    void finished(); // a fit ended: report() holds its result, or message() why not
    void applied();

  private:
    void onProgress(const refine::FitProgress& progress);
    void onFinished();
    void onFailed(const QString& message);
    void setMessage(const QString& message);
    void updateButtons();
    void fillTable(const std::vector<refine::FittedValue>& values);
    // The image follows the fit, paced: a step's experiment is shown once the image before it
    // is complete and four times that image's time has passed since, so that on a device
    // whose whole frame is slow beside the fit's renderings (lavapipe, on the fit's own
    // cores) the followed images take about a fifth of the time; on a GPU every step shows.
    void follow(const Experiment& experiment);
    void showNextFollowed();
    void stopFollowing();

    ExperimentDocument& m_document;
    SimulationController& m_controller;
    CompareView& m_compare;
    RefineRunner* m_runner = nullptr;
    std::map<std::string, QCheckBox*> m_groups;
    QComboBox* m_pixels = nullptr;
    QComboBox* m_background = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_apply = nullptr;
    QPushButton* m_discard = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_residual = nullptr;
    QLabel* m_rmsd = nullptr;
    QLabel* m_status = nullptr;
    QString m_message;
    QString m_warning; // refine::groupsWarning of the running or last fit's groups
    std::vector<refine::FittedValue> m_values; // start and current of the fit running
    double m_startResidual = -1.0;
    int m_stepsShown = 0;
    bool m_showingFit = false; // the controller shows the fit's experiment
    std::optional<Experiment> m_followNext; // the newest step not shown yet
    bool m_followInFlight = false;          // a followed image asked for, not complete
    QElapsedTimer m_followClock;            // since it was asked for
    QTimer m_followPause;                   // the pause after it
};

} // namespace bv::app
