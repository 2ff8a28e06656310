#pragma once
// ExperimentDocument: the experiment the viewer shows, as a nanoBragg command line would state
// it (RunRequest: the Experiment, the input files it names, the output scales), plus
// the viewer's precision. Panels edit one Experiment field each through edit(); the
// SimulationController listens to changed() and decides what to recompute.
//
//     doc.loadArguments({"-cell", "100", "100", "100", "90", "90", "90", "-default_F", "100"});
//     doc.edit([](bv::Experiment& e) { e.detector.distance = 0.150; });  // emits changed()

#include "compute/request/Inputs.h"
#include "compute/request/RunRequest.h"
#include "compute/engine/Simulator.h"

#include <QObject>
#include <QString>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bv::app {

class ExperimentDocument : public QObject {
    Q_OBJECT

  public:
    explicit ExperimentDocument(QObject* parent = nullptr);

    // nanoBragg's arguments: parsed, their files read (as the headless mode reads them, except
    // that no Fdump.bin cache is written). Throws bv::Error (request::UsageError when the
    // reference would print its usage) and leaves the document as it was.
    void loadArguments(const std::vector<std::string>& args);
    // A command line whose inputs are already loaded (a session).
    void setCommandLine(const RunRequest& commandLine, engine::Precision precision);

    const RunRequest& commandLine() const { return m_commandLine; }
    const Experiment& experiment() const { return m_commandLine.experiment; }
    const OutputOptions& outputs() const { return m_commandLine.outputs; }
    engine::Precision precision() const { return m_precision; }

    // One change of the experiment; emits changed().
    void edit(const std::function<void(Experiment&)>& change);
    void setOutputs(const OutputOptions& outputs);
    void setPrecision(engine::Precision precision);

    // Input files; each throws bv::Error naming the file and leaves the document unchanged.
    void openHkl(const std::string& path);
    void openMatrix(const std::string& path);
    void openSourceFile(const std::string& path);
    void openMask(const std::string& path);
    // An SMV image's header, as nanoBragg's -img: the detector's pixel counts, pixel size,
    // distance (and close distance), beam centre (and XDS origin), the wavelength, phi and
    // the oscillation range become what `-img FILE` alone gives (the header's values, or
    // nanoBragg's defaults for those it lacks; read by cli::parseCommandLine). A mask of the
    // old size is dropped when the detector changes size.
    void openImageHeader(const std::string& path);
    void clearMask();
    void clearSourceFile();

    // The detector: several panels named as -detector names them (a preset's name, or a
    // DIALS .expt/.json or CrystFEL .geom file; request::readDetectorSource reads them all), or
    // nanoBragg's one flat detector again. A preset faces the beam at the Distance field's
    // value; a file's panels stay where the file puts them, and Distance becomes how far their
    // centre is along the beam (moving it moves them). The flat detector's own fields that a
    // detector of panels refuses (beam centre, XDS origin, close point and distance, curved)
    // are put aside on the way to panels and given back by useFlatDetector(); the shared ones
    // (distance, rotations, two-theta, sensor) carry over both ways, as on the command line.
    // A mask, which fits one detector's pixels, is dropped. Both throw bv::Error naming the
    // preset or file (and the key or line) and leave the document unchanged.
    void setDetectorSource(const std::string& source);
    void useFlatDetector();
    // File > Open detector geometry: setDetectorSource() for a .expt, .json or .geom file only.
    void openDetectorGeometry(const std::string& path);
    // File > Open experiment: a DIALS experiment list's beam, detector, crystal, goniometer
    // axis and scan (its first image) replace those of the experiment, as -experiment FILE
    // after the options that made it; a file that cannot be used throws bv::Error and leaves
    // the document unchanged.
    void openExperiment(const std::string& path);

    // What reading the inputs printed (warnings of the HKL reader, ...).
    const std::string& inputLog() const { return m_inputLog; }

  signals:
    void changed();          // any parameter
    void replaced();         // the whole experiment (a new command line or session)
    void precisionChanged(); // the simulator must be rebuilt

  private:
    RunRequest m_commandLine;
    engine::Precision m_precision = engine::Precision::Fast;
    std::string m_inputLog;
    // the flat detector's fields a detector of panels refuses, while panels are in use
    std::optional<Detector> m_flatDetector;
};

// The precision a command line asks for: its -precision when given, else the viewer's
// default (fast, DESIGN.md: float everywhere while exploring).
engine::Precision viewerPrecision(const RunRequest& commandLine);

} // namespace bv::app
