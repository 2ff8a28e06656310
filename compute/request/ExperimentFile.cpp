#include "compute/request/ExperimentFile.h"

#include "compute/core/Error.h"
#include "compute/io/DialsExperiment.h"
#include "compute/model/Units.h"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <ostream>

namespace bv::request {

namespace {

LabAxes& customAxesFromConvention(ParseContext& c) {
    Experiment& e = c.request.experiment;
    if (e.convention != Convention::Custom) {
        // the file's axes replace the convention's one by one, as the *_vector options do
        e.customAxes = e.axes();
        e.convention = Convention::Custom;
    }
    return e.customAxes;
}

// The E-vector: in the plane normal to dxtbx's polarization normal, across the beam.
glm::dvec3 polarizationVector(const glm::dvec3& normal, const glm::dvec3& beam) {
    return glm::normalize(glm::cross(normal, beam));
}

// A reciprocal cell from a direct one (Angstrom): a* = b x c / V, ...
glm::dmat3 reciprocalColumns(const io::DialsCrystal& x) {
    const double volume = glm::dot(x.a, glm::cross(x.b, x.c));
    return glm::dmat3(glm::cross(x.b, x.c) / volume, glm::cross(x.c, x.a) / volume,
                      glm::cross(x.a, x.b) / volume);
}

void setFrame(ParseContext& c, long long frame, const std::string& where) {
    const ParseContext::ExperimentScan& scan = *c.experimentScan;
    if (frame < scan.firstImage || frame > scan.lastImage)
        throw Error(where + ": no image " + std::to_string(frame) + " in the experiment's scan (" +
                    std::to_string(scan.firstImage) + " to " + std::to_string(scan.lastImage) +
                    ")");
    const double start = scan.start + static_cast<double>(frame - scan.firstImage) * scan.width;
    Crystal& crystal = c.request.experiment.crystal;
    crystal.phi0 = start;
    crystal.phi.range = std::fabs(scan.width);
    c.request.phiDegrees = units::degreesFromRadians(start);
    c.request.oscDegrees = units::degreesFromRadians(std::fabs(scan.width));
    if (scan.width < 0.0) {
        // a scan that turns backwards: the same exposure, started from its other end
        crystal.phi0 = start + scan.width;
        c.request.phiDegrees = units::degreesFromRadians(start + scan.width);
    }
}

// the file read, its errors prefixed with `where` when given
std::shared_ptr<const ReadExperiment> readExperiment(const std::string& path, int id,
                                                     const std::string& where) {
    auto read = std::make_shared<ReadExperiment>();
    read->path = path;
    read->id = id;
    try {
        read->list =
            io::readDialsExperiment(path, static_cast<std::size_t>(id), io::DialsModels::All);
    } catch (const Error& e) {
        if (where.empty())
            throw;
        throw Error(where + ": " + e.what());
    }
    return read;
}

// sets what the reading describes, as -experiment at this place among the options
void applyRead(ParseContext& c, std::shared_ptr<const ReadExperiment> read,
               const std::string& where) {
    const io::DialsExperiment& x = read->list;
    const std::string& path = read->path;
    validatePanels(x.detector, where);
    RunRequest& r = c.request;
    Experiment& e = r.experiment;
    r.experimentFile = path;
    r.experimentId = read->id;
    r.experimentRead = std::move(read);
    for (const std::string& note : x.notes)
        r.notices.push_back(note);

    e.detector.panels = x.detector.panels;
    e.detector.panelsSource = path;

    if (x.wavelength)
        e.beam.wavelength = *x.wavelength;
    if (x.beamDirection && glm::distance(*x.beamDirection, e.axes().beam) > 1e-12)
        customAxesFromConvention(c).beam = *x.beamDirection;
    if (x.polarizationFraction) {
        e.beam.polarization = true;
        e.beam.kahnFactor = 2.0 * *x.polarizationFraction - 1.0;
    }
    if (x.polarizationNormal) {
        const glm::dvec3 beam = x.beamDirection.value_or(e.axes().beam);
        const glm::dvec3 across = glm::cross(*x.polarizationNormal, beam);
        if (glm::length(across) < 1e-6)
            throw Error(where + ": " + path + ": the beam's polarization normal is along the beam");
        const glm::dvec3 vector = polarizationVector(*x.polarizationNormal, beam);
        if (glm::distance(vector, e.axes().polarization) > 1e-12 &&
            glm::distance(-vector, e.axes().polarization) > 1e-12)
            customAxesFromConvention(c).polarization = vector;
    }
    if (x.goniometer && glm::distance(x.goniometer->axis, e.axes().spindle) > 1e-12)
        customAxesFromConvention(c).spindle = x.goniometer->axis;

    if (x.crystal) {
        Crystal& crystal = e.crystal;
        // the orientation and the cell are the file's: a MOSFLM matrix (reciprocal vectors
        // times the wavelength in Angstrom), no misset, no separate cell
        const double angstrom = e.beam.wavelength * 1e10;
        crystal.mosflmMatrix = reciprocalColumns(*x.crystal) * angstrom;
        c.experimentMatrixWavelength = e.beam.wavelength;
        crystal.cell.reset();
        crystal.misset = MissetKind::None;
        crystal.missetAngles = glm::dvec3(0.0);
        r.mat.clear();
        if (x.crystal->halfMosaicity)
            crystal.mosaicSpread = 2.0 * *x.crystal->halfMosaicity;
        else if (x.crystal->mosaicity)
            crystal.mosaicSpread = *x.crystal->mosaicity;
        if (x.crystal->domainSize)
            crystal.sampleSize = glm::dvec3(*x.crystal->domainSize * 1e-10);
        crystal.spaceGroupHall = x.crystal->hallSymbol;
    }
    if (x.scan) {
        c.experimentScan = ParseContext::ExperimentScan{x.scan->firstImage, x.scan->lastImage,
                                                        x.scan->start, x.scan->width};
        setFrame(c, r.frame.value_or(x.scan->firstImage), where);
    } else {
        c.experimentScan.reset();
        if (r.frame)
            throw Error(where + ": " + path + ": -frame " + std::to_string(*r.frame) +
                        " asks for an image, but the experiment has no scan");
    }
}

} // namespace

void applyDialsExperiment(ParseContext& c, const std::string& path, std::size_t id,
                          const std::string& where) {
    applyRead(c, readExperiment(path, static_cast<int>(id), where), where);
}

std::shared_ptr<const ReadExperiment> experimentRead(const RunRequest& request,
                                                     const std::string& where) {
    if (request.experimentRead && request.experimentRead->path == request.experimentFile &&
        request.experimentRead->id == request.experimentId)
        return request.experimentRead;
    return readExperiment(request.experimentFile, request.experimentId, where);
}

void applyDialsExperiment(RunRequest& request, const std::string& path, std::size_t id) {
    ParseContext c(request);
    applyDialsExperiment(c, path, id, "-experiment " + path);
}

Detector filedDetector(const RunRequest& request) {
    RunRequest fromFile;
    ParseContext c(fromFile);
    const std::string where = "-experiment " + request.experimentFile;
    applyRead(c, experimentRead(request, where), where);
    return fromFile.experiment.detector;
}

void applyExperimentFrame(ParseContext& c, long long frame, const std::string& where) {
    c.request.frame = frame;
    if (c.request.experimentFile.empty())
        return; // -experiment, later, reads it
    if (!c.experimentScan)
        throw Error(where + ": the experiment " + c.request.experimentFile + " has no scan");
    setFrame(c, frame, where);
}

MeasuredSource measuredSource(const RunRequest& r) {
    if (!r.measured.empty())
        return {r.measured, static_cast<std::size_t>(r.measuredFrame > 0 ? r.measuredFrame - 1 : 0)};
    const std::string what = "a measured image to compare with: give -measured FILE";
    if (r.experimentFile.empty())
        throw Error("no measured image: " + what.substr(std::string("a measured image to compare with: ").size()) + " (or an -experiment whose imageset names its images)");
    const std::shared_ptr<const ReadExperiment> read = experimentRead(r);
    const io::DialsExperiment& x = read->list;
    const long long first = x.scan ? x.scan->firstImage : 1;
    const long long image = r.frame.value_or(first);
    const std::string where = "-compare: -experiment " + r.experimentFile + ": image " +
                              std::to_string(image) + ": ";
    if (!x.images.empty()) {
        const long long index = image - first;
        if (index < 0 || index >= static_cast<long long>(x.images.size()))
            throw Error(where + "the imageset lists " + std::to_string(x.images.size()) +
                        " images; give -measured FILE");
        return {x.images[static_cast<std::size_t>(index)], 0};
    }
    if (x.imageTemplate.empty())
        throw Error(where + "its imageset names no images; give -measured FILE");
    const std::size_t hash = x.imageTemplate.find('#');
    if (hash == std::string::npos) // one file of every frame (NeXus)
        return {x.imageTemplate, static_cast<std::size_t>(std::max(0LL, image - first))};
    std::size_t run = hash;
    while (run < x.imageTemplate.size() && x.imageTemplate[run] == '#')
        ++run;
    std::string number = std::to_string(image);
    if (number.size() < run - hash)
        number.insert(0, run - hash - number.size(), '0');
    return {x.imageTemplate.substr(0, hash) + number + x.imageTemplate.substr(run), 0};
}

io::MeasuredImage readMeasured(const RunRequest& request, const MeasuredSource& source,
                               std::ostream& log) {
    return io::readMeasuredImageFor(
        source.path, source.frame, request.experiment.detector.panels, experimentMask(request),
        {request.experiment.mask, request.experiment.sampling.roi}, log);
}

std::string experimentMask(const RunRequest& request) {
    if (request.experimentFile.empty())
        return {};
    return experimentRead(request)->list.mask;
}

std::optional<long long> measuredImageNumber(const RunRequest& request) {
    if (request.frame || request.experimentFile.empty())
        return request.frame;
    if (const auto& scan = experimentRead(request)->list.scan)
        return scan->firstImage;
    return std::nullopt;
}

// a -lambda or -energy after -experiment: the crystal's matrix keeps the file's cell
void keepExperimentCell(ParseContext& c) {
    if (!c.experimentMatrixWavelength || !c.request.experiment.crystal.mosflmMatrix)
        return;
    const double now = c.request.experiment.beam.wavelength;
    *c.request.experiment.crystal.mosflmMatrix *= now / *c.experimentMatrixWavelength;
    c.experimentMatrixWavelength = now;
}

} // namespace bv::request
