// Reading session files (SessionFile.h describes the layout): the experiment by the session's
// table of fields (compute/request/SessionFields.h), every member checked against the command
// line's limits, errors naming the file, line, column and key path.

#include "compute/request/SessionFile.h"

#include "compute/core/Error.h"
#include "compute/io/JsonFields.h"
#include "compute/io/Smv.h"
#include "compute/request/DetectorSource.h"
#include "compute/request/SessionFields.h"
#include "compute/request/SessionFormat.h"
#include "compute/request/SessionRows.h"
#include "compute/request/StructureFactorSource.h"

#include <nlohmann/json.hpp>
#include <filesystem>

namespace bv::request {

namespace {

using io::JsonFields;
using sessionrows::kMaxCount;

std::string fileName(const JsonFields& files, const char* key, const std::string& directory) {
    const std::string& name = files.text(key);
    if (name.find('\0') != std::string::npos)
        files.fail(files.value(key), key, "a file name");
    return nameInDirectory(directory, name);
}

} // namespace

RunRequest parseSession(const io::JsonDocument& doc, const std::string& directory) {
    return parseSession(doc, doc.root(), "", directory);
}

RunRequest parseSession(const io::JsonDocument& doc, const io::Json& object,
                              const std::string& path, const std::string& directory) {
    if (!object.is_object())
        throw Error(doc.where(object) + ": " + (path.empty() ? "" : path + ": ") +
                    "not a braggview session (expected a JSON object, got " +
                    io::jsonTypeName(object) + ")");
    const JsonFields session(doc, object, path);
    if (session.text("format") != session::kFormat)
        session.fail(session.value("format"), "format",
                     std::string("\"") + session::kFormat + "\"");
    const long long version = session.whole("version", 0, kMaxCount);
    if (version < 1 || version > session::kVersion)
        session.fail(session.value("version"), "version",
                     "1 to " + std::to_string(session::kVersion) +
                         " (the versions this braggview reads)");
    RunRequest cl;
    cl.experiment = readSessionExperiment(session.object("experiment"), directory);
    const JsonFields files = session.object("files");
    cl.hkl = fileName(files, "hkl", directory);
    if (files.has("hklFormat")) { // how -mtz, -sfcif or -model read it (absent: -hkl's text)
        const auto format = request::hklFormatFromName(files.text("hklFormat"));
        if (!format)
            files.fail(files.value("hklFormat"), "hklFormat", "text, mtz, cif or model");
        cl.hklFormat = *format;
        if (files.has("sfColumn"))
            cl.sfColumn = files.text("sfColumn");
        cl.modelDminAngstrom =
            files.optionalLimited("modelDmin", Quantity::Resolution, Bound::NonNegative)
                .value_or(0.0) * 1e10;
    }
    cl.mat = fileName(files, "mat", directory);
    cl.sourceFile = fileName(files, "sourceFile", directory);
    cl.mask = fileName(files, "mask", directory);
    cl.dumpFile = fileName(files, "dump", directory);
    const JsonFields outputs = session.object("outputs");
    cl.outputs.intScale = outputs.limited("intScale", Quantity::IntensityScale, Bound::NonNegative);
    cl.outputs.pgmScale = outputs.limited("pgmScale", Quantity::IntensityScale, Bound::NonNegative);
    cl.outputs.adcOffset = outputs.limited("adcOffset", Quantity::AdcOffset);
    const std::optional<Precision> precision = precisionFromName(session.text("precision"));
    if (!precision)
        session.fail(session.value("precision"), "precision", "fast or precise");
    cl.precision = *precision;
    return cl;
}

void loadSessionInputs(RunRequest& cl, std::ostream& log) {
    Experiment& e = cl.experiment;
    Detector& d = e.detector;
    if (d.panelsUnread()) // a file named without its panels
        d.panels =
            readDetectorSource(d.panelsSource, "experiment.detector.panelsSource").panels;
    if (!cl.hkl.empty()) {
        try {
            e.structureFactors =
                request::readStructureFactors(cl, e.structureFactors.defaultF, log);
        } catch (const Error& error) {
            throw Error(std::string("files.hkl: ") + error.what());
        }
    }
    if (!cl.mask.empty()) {
        io::SmvImage mask;
        try {
            mask = io::readSmv(cl.mask);
        } catch (const Error& error) {
            throw Error(std::string("files.mask: ") + error.what());
        }
        const int fast = e.detector.fastPixels(), slow = e.detector.slowPixels();
        if (mask.width != fast || mask.height != slow)
            throw Error("files.mask: " + cl.mask + ": the mask is " + std::to_string(mask.width) +
                        "x" + std::to_string(mask.height) + " pixels but the session's detector is " +
                        std::to_string(fast) + "x" + std::to_string(slow));
        e.mask = std::move(mask.data);
    }
}

RunRequest readSession(const std::string& path, std::ostream& log) {
    RunRequest cl = parseSession(io::readJsonFile(path), directoryOf(path));
    try {
        loadSessionInputs(cl, log);
    } catch (const Error& error) {
        throw Error(path + ": " + error.what());
    }
    return cl;
}

std::string directoryOf(const std::string& path) {
    return std::filesystem::path(path).parent_path().string();
}

} // namespace bv::request
