#include "app/ExperimentDocument.h"

#include "app/CommandReader.h"
#include "compute/request/DetectorSource.h"
#include "compute/request/ExperimentFile.h"
#include "compute/io/HklFile.h"
#include "compute/io/MatrixFile.h"
#include "compute/io/Smv.h"
#include "compute/io/SourceFile.h"
#include "compute/model/DetectorPresets.h"
#include "compute/model/PanelPlacement.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <sstream>

namespace bv::app {

ExperimentDocument::ExperimentDocument(QObject* parent) : QObject(parent) {}

engine::Precision viewerPrecision(const RunRequest& commandLine) {
    if (!commandLine.wasGiven("-precision"))
        return engine::Precision::Fast;
    return commandLine.precision == Precision::Fast ? engine::Precision::Fast
                                                         : engine::Precision::Precise;
}

void ExperimentDocument::loadArguments(const std::vector<std::string>& args) {
    RunRequest commandLine = readCommand(args);
    if (commandLine.help)
        throw Error("-h asks for the usage text; the viewer needs an experiment");
    std::ostringstream log;
    if (commandLine.hkl.empty()) {
        // as the headless mode: -default_F, or the Fdump.bin of an earlier -hkl run
        request::loadInputs(commandLine, log);
    } else {
        // the same, except that the viewer writes no structure-factor cache: everything but
        // -hkl through loadInputs (its checks satisfied by the file to come), then the file
        RunRequest others = commandLine;
        others.hkl.clear();
        others.dumpFile = "/nonexistent/braggview-viewer-reads-no-dump";
        const double defaultF = others.experiment.structureFactors.defaultF;
        others.experiment.structureFactors.defaultF = 1.0;
        request::loadInputs(others, log);
        others.experiment.structureFactors = io::readHkl(commandLine.hkl, defaultF, log);
        others.hkl = commandLine.hkl;
        others.dumpFile = commandLine.dumpFile;
        commandLine = std::move(others);
    }
    m_commandLine = std::move(commandLine);
    m_flatDetector.reset();
    m_precision = viewerPrecision(m_commandLine);
    m_inputLog = log.str();
    emit replaced();
    emit precisionChanged();
    emit changed();
}

void ExperimentDocument::setCommandLine(const RunRequest& commandLine,
                                        engine::Precision precision) {
    m_commandLine = commandLine;
    m_flatDetector.reset();
    const bool newPrecision = precision != m_precision;
    m_precision = precision;
    emit replaced();
    if (newPrecision)
        emit precisionChanged();
    emit changed();
}

void ExperimentDocument::edit(const std::function<void(Experiment&)>& change) {
    change(m_commandLine.experiment);
    emit changed();
}

void ExperimentDocument::setOutputs(const OutputOptions& outputs) {
    m_commandLine.outputs = outputs;
}

void ExperimentDocument::setPrecision(engine::Precision precision) {
    if (precision == m_precision)
        return;
    m_precision = precision;
    m_commandLine.precision =
        precision == engine::Precision::Fast ? Precision::Fast : Precision::Precise;
    emit precisionChanged();
    emit changed();
}

void ExperimentDocument::openHkl(const std::string& path) {
    std::ostringstream log;
    StructureFactors f =
        io::readHkl(path, m_commandLine.experiment.structureFactors.defaultF, log);
    m_commandLine.experiment.structureFactors = std::move(f);
    m_commandLine.hkl = path;
    m_inputLog = log.str();
    emit replaced();
    emit changed();
}

void ExperimentDocument::openMatrix(const std::string& path) {
    const io::MosflmMatrix m = io::readMosflmMatrix(path);
    m_commandLine.experiment.crystal.mosflmMatrix = glm::dmat3(m.aStar, m.bStar, m.cStar);
    m_commandLine.mat = path;
    emit replaced();
    emit changed();
}

void ExperimentDocument::openSourceFile(const std::string& path) {
    const std::vector<SourceRecord> records = io::readSourceFile(path);
    m_commandLine.experiment.beam.sourceFile = records;
    m_commandLine.sourceFile = path;
    emit replaced();
    emit changed();
}

void ExperimentDocument::openMask(const std::string& path) {
    io::SmvImage image = io::readSmv(path);
    const Detector& d = m_commandLine.experiment.detector;
    if (image.width != d.fastPixels() || image.height != d.slowPixels())
        throw Error(path + ": the mask is " + std::to_string(image.width) + "x" +
                    std::to_string(image.height) + " pixels but the detector is " +
                    std::to_string(d.fastPixels()) + "x" + std::to_string(d.slowPixels()));
    m_commandLine.experiment.mask = std::move(image.data);
    m_commandLine.mask = path;
    emit replaced();
    emit changed();
}

void ExperimentDocument::openImageHeader(const std::string& path) {
    // nanoBragg's own reading of the header (errors name -img, the file and the key)
    const RunRequest header = readCommand({"-img", path});
    const Detector& from = header.experiment.detector;
    Experiment& e = m_commandLine.experiment;
    Detector& d = e.detector;
    const bool resized =
        from.fastPixels() != d.fastPixels() || from.slowPixels() != d.slowPixels();
    d.pixelSize = from.pixelSize;
    d.sizeFast = from.sizeFast;
    d.sizeSlow = from.sizeSlow;
    d.distance = from.distance;
    d.closeDistance = from.closeDistance;
    d.beamX = from.beamX;
    d.beamY = from.beamY;
    d.orgX = from.orgX;
    d.orgY = from.orgY;
    e.beam.wavelength = header.experiment.beam.wavelength;
    e.crystal.phi0 = header.experiment.crystal.phi0;
    e.crystal.phi.range = header.experiment.crystal.phi.range;
    if (resized && !e.mask.empty()) {
        e.mask.clear();
        m_commandLine.mask.clear();
    }
    m_commandLine.img = path;
    emit replaced();
    emit changed();
}

void ExperimentDocument::clearMask() {
    m_commandLine.experiment.mask.clear();
    m_commandLine.mask.clear();
    emit replaced();
    emit changed();
}

void ExperimentDocument::clearSourceFile() {
    m_commandLine.experiment.beam.sourceFile.clear();
    m_commandLine.sourceFile.clear();
    emit replaced();
    emit changed();
}

void ExperimentDocument::setDetectorSource(const std::string& source) {
    const PanelDetector panels = request::readDetectorSource(source, "-detector " + source);
    Experiment& e = m_commandLine.experiment;
    Detector& d = e.detector;
    // the panels as stated, not moved: where a file's centre is, and whether the simulation
    // can take them at all (non-square pixels, a panel edge-on to the sample) before the
    // experiment changes
    std::vector<PanelGeometry> placed;
    try {
        placed = resolvePanels(panels.panels, Detector{}, false, e.axes());
    } catch (const Error& error) {
        throw Error("-detector " + source + ": " + error.what());
    }
    if (!d.panelsFromSource()) {
        m_flatDetector = d;
        d.clearBeamPlacement();
        d.curved = false;
    }
    d.panels = panels.panels;
    d.panelsSource = source;
    if (findDetectorPreset(source)) {
        d.distanceStated = true; // as -detector NAME -distance D: the centre D down the beam
    } else {
        d.distanceStated = false;
        d.distance = glm::dot(detectorCentre(placed), e.axes().beam);
    }
    e.mask.clear();
    m_commandLine.mask.clear();
    emit replaced();
    emit changed();
}

void ExperimentDocument::openDetectorGeometry(const std::string& path) {
    if (!request::isDetectorFileName(path))
        throw Error(path + ": not a detector geometry file (.expt or .json from DIALS, .geom "
                           "from CrystFEL)");
    setDetectorSource(path);
}

void ExperimentDocument::openExperiment(const std::string& path) {
    // read it whole before anything changes: a bad file leaves the experiment as it was
    RunRequest opened = m_commandLine;
    request::applyDialsExperiment(opened, path);
    setDetectorSource(path); // the flat detector kept for "use the flat detector" again
    opened.experiment.detector = m_commandLine.experiment.detector;
    opened.experiment.mask = m_commandLine.experiment.mask;
    opened.mask = m_commandLine.mask;
    m_commandLine = std::move(opened);
    emit replaced();
    emit changed();
}

void ExperimentDocument::useFlatDetector() {
    Detector& d = m_commandLine.experiment.detector;
    if (!d.panelsFromSource())
        return;
    if (m_flatDetector) {
        const Detector& flat = *m_flatDetector;
        d.beamX = flat.beamX;
        d.beamY = flat.beamY;
        d.closeX = flat.closeX;
        d.closeY = flat.closeY;
        d.orgX = flat.orgX;
        d.orgY = flat.orgY;
        d.closeDistance = flat.closeDistance;
        d.curved = flat.curved;
        m_flatDetector.reset();
    }
    d.panels.clear();
    d.panelsSource.clear();
    d.distanceStated = false;
    m_commandLine.experiment.mask.clear();
    m_commandLine.mask.clear();
    emit replaced();
    emit changed();
}

} // namespace bv::app
