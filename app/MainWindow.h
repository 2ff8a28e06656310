#pragma once
// MainWindow: the viewer. The central widget hosts the ImageWindow (a QVulkanWindow in a
// window container) whose device also runs the simulation; docks hold the parameter panels
// (Beam, Detector, Crystal, Sampling), the display settings and overlays, the readout and the
// plots; the status bar shows the GPU time, the steps per pixel and the recordings.
//
// Everything a menu does is also a public method (sessions, exports, copying the headless
// command), so that the tests drive the same code paths as a user.

#include "app/Exporter.h"
#include "app/Overlays.h"
#include "app/PixelGeometry.h"
#include "app/Session.h"
#include "compute/plan/RunCost.h"

#include <QImage>
#include <QMainWindow>
#include <QPoint>
#include <QPointer>
#include <QStringList>
#include <QTimer>

#include <optional>
#include <vector>

class QAction;
class QDockWidget;
class QDoubleSpinBox;
class QLabel;
class QMessageBox;
class QPushButton;
class QTabWidget;
class QVulkanInstance;

namespace bv {
struct ResolvedExperiment;
}

namespace bv::render {
class ImageWindow;
}

class QActionGroup;

namespace bv::app {

class DisplayPanel;
class ExperimentDocument;
class LessonController;
class ParameterPanel;
class PlotPanel;
class ReciprocalDock;
class ReadoutPanel;
class RefinePanel;
class SimulationController;
class TracePanel;

// A setting whose image takes this long or longer is pointed out under the parameters.
inline constexpr double kSlowImageMilliseconds = 1000.0;

// The Parameters dock's warning for a run of `cost` expected to take `milliseconds` on the GPU
// at `stepsPerMillisecond` (the rate measured on `device`): empty below kSlowImageMilliseconds
// or before a rate is known.
QString costWarningText(const plan::RunCost& cost, std::optional<double> milliseconds,
                        double stepsPerMillisecond, const QString& device);

// `text` for a label that wraps: an option's leading hyphen ("-precision", "-oversample")
// made non-breaking (U+2011), so that a line never ends on "-" with the name on the next.
QString withOptionsWhole(const QString& text);

// The status bar's words for the detector of `resolved`: its size in pixels for nanoBragg's
// flat detector (the one-panel case); for a detector of modules, whose image
// stacks their rows (487 x 11700 for a PILATUS3 6M), the size the modules and their gaps
// cover and how many there are, as its maker gives them: "2463 × 2527 pixels, 60 modules"
// (modules that do not share one plane: their count and pixels, "4 modules, 65536 pixels").
QString detectorSizeText(const ResolvedExperiment& resolved);

class CompareView;

class MainWindow : public QMainWindow {
    Q_OBJECT

  public:
    explicit MainWindow(QVulkanInstance* instance, QWidget* parent = nullptr);
    ~MainWindow() override;

    ExperimentDocument& document() { return *m_document; }
    SimulationController& controller() { return *m_controller; }
    render::ImageWindow& imageWindow() { return *m_imageWindow; }
    QWidget* imageContainer() const { return m_container; }
    DisplayPanel& displayPanel() { return *m_display; }
    ReadoutPanel& readout() { return *m_readout; }
    TracePanel& tracePanel() { return *m_tracePanel; }
    PlotPanel& plots() { return *m_plots; }
    QTabWidget* parameterTabs() const { return m_parameterTabs; }
    // "Beam", "Detector", "Crystal", "Sampling"
    ParameterPanel* panel(const QString& title) const;
    const std::vector<ParameterPanel*>& panels() const { return m_panels; }
    const Overlays& overlays() const { return m_overlays; }
    Overlays& overlays() { return m_overlays; } // then imageWindow().invalidateOverlay()
    LessonController& lessons() { return *m_lessons; } // the Lessons menu, the presentation
    ReciprocalDock& reciprocalDock() { return *m_reciprocal; } // View > Reciprocal space
    const std::optional<PixelGeometry>& geometry() const { return m_geometry; }

    // Errors go to the status bar and stderr instead of a dialog (screenshot mode, tests).
    void setQuietErrors(bool quiet) { m_quietErrors = quiet; }

    // Sessions; both throw bv::Error naming the file and what is wrong.
    void openSession(const QString& path);
    void showSession(const Session& session); // a session read already (a lesson's)
    void saveSession(const QString& path);
    Session currentSession() const;
    // "Save as job file": a job based on the current session, one frame (app/Session.h)
    void saveJob(const QString& path);

    // File > Open detector geometry: a DIALS .expt/.json or CrystFEL .geom file's panels
    // become the detector (ExperimentDocument::openDetectorGeometry); a file that cannot be
    // read is reported (a dialog, or errorShown() alone when quiet), the experiment unchanged.
    void openDetectorGeometry(const QString& path);
    // File > Open experiment: a DIALS .expt (ExperimentDocument::openExperiment), reported as
    // openDetectorGeometry reports
    void openExperiment(const QString& path);
    // File > Open measured image: a CBF, SMV or NeXus frame (its `frame`, from 0) beside the
    // simulation (app/CompareView.h); View > Compare picks the view. Reported as above.
    void openMeasuredImage(const QString& path, int frame = 0);
    // DIALS's observed spots (a .refl) of the frame (-frame, or the -experiment scan's first
    // image; every spot without either), matched to the simulated spots of each image
    void openObservedSpots(const QString& path);
    CompareView& compareView() { return *m_compare; }
    // View > Refine: the fit to the measured frame, the image following it (app/RefinePanel.h)
    RefinePanel& refinePanel() { return *m_refine; }
    QDockWidget* refineDock() const { return m_refineDock; }
    // File > Save refined experiment; reported as openExperiment reports
    void saveRefinedExperiment(const QString& path);

    // Waits for the image of the current parameters, then writes it; throws bv::Error.
    void exportImage(ExportFormat format, const QString& path);
    QImage exportedPng(); // what exportImage(Png) writes

    QString headlessCommandText() const;
    void copyHeadlessCommand();

    // The readout of an image point (what the cursor shows there).
    void showReadoutAt(QPointF imagePoint);
    // Pins a pixel (the readout keeps showing it), or unpins with nullopt.
    void pinPixel(const std::optional<QPoint>& pixel);
    void setProfileLine(QPointF from, QPointF to);

    // Phi animation: each completed image advances phi by the step (degrees).
    void setPhiAnimation(bool playing);
    bool phiAnimationPlaying() const { return m_playing; }

    // The view (container size) drawn by the CPU colour path, overlays included.
    QImage renderViewOnCpu();

    // Engine > Restart engine: a new Vulkan device and Simulator after the engine stopped.
    void restartEngine();
    QAction* restartEngineAction() const { return m_restartAction; }

  signals:
    void errorShown(const QString& message);

  private:
    void buildDocks();
    void buildMenus();
    void onImageReady();
    void onDocumentChanged();
    void refreshPanels();
    void updateStatus();
    void updateCostWarning(); // the Parameters dock's line about a setting that takes long
    void updateReadout();
    // the observed spots' pairs to the overlays and their match to the status line's parts
    void updateObservedSpots(QStringList& status);
    void autoContrast(); // from the GPU histogram, else the host image
    void showError(const QString& title, const QString& message);
    void runGuarded(const QString& title, const std::function<void()>& action);
    QString askSavePath(const QString& title, const QString& filter, const QString& suffix);

    ExperimentDocument* m_document = nullptr;
    render::ImageWindow* m_imageWindow = nullptr;
    QWidget* m_container = nullptr;
    SimulationController* m_controller = nullptr;
    CompareView* m_compare = nullptr;
    QActionGroup* m_compareModes = nullptr;
    DisplayPanel* m_display = nullptr;
    ReadoutPanel* m_readout = nullptr;
    TracePanel* m_tracePanel = nullptr; // in m_traceDock, shown while a pixel is pinned
    QDockWidget* m_traceDock = nullptr;
    RefinePanel* m_refine = nullptr;
    QDockWidget* m_refineDock = nullptr;
    PlotPanel* m_plots = nullptr;
    LessonController* m_lessons = nullptr;
    ReciprocalDock* m_reciprocal = nullptr;
    QTabWidget* m_parameterTabs = nullptr;
    std::vector<ParameterPanel*> m_panels;
    QLabel* m_costWarning = nullptr;
    QLabel* m_timing = nullptr;
    QLabel* m_state = nullptr;
    QPointer<QMessageBox> m_errorBox;
    QAction* m_playAction = nullptr;
    QAction* m_restartAction = nullptr;
    QPushButton* m_restartButton = nullptr;
    QDoubleSpinBox* m_phiStep = nullptr;

    Overlays m_overlays;
    std::optional<PixelGeometry> m_geometry;
    std::optional<QPointF> m_cursor;
    std::optional<QPoint> m_pinned;
    std::optional<render::ViewTransform> m_pendingView; // a session's view, for its first image
    bool m_quietErrors = false;
    bool m_playing = false;
    bool m_firstImage = true;
};

} // namespace bv::app
