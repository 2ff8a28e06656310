#include "compute/request/Inputs.h"

#include "compute/io/AtomicFile.h"
#include "compute/io/Fdump.h"
#include "compute/io/FileIdentity.h"
#include "compute/io/InputFile.h"
#include "compute/io/MatrixFile.h"
#include "compute/io/SourceFile.h"
#include "compute/request/DetectorSource.h"
#include "compute/request/StructureFactorSource.h"
#include "compute/request/Usage.h"

#include <filesystem>
#include <map>
#include <set>
#include <ostream>

namespace bv::request {

UsageError::UsageError(std::string reason, const std::string& usage)
    : Error(usage), m_reason(std::move(reason)) {}

void loadInputs(RunRequest& cl, std::ostream& log) {
    Experiment& e = cl.experiment;
    std::error_code ignored;
    const bool haveDump = cl.hkl.empty() && std::filesystem::exists(cl.dumpFile, ignored);
    if (cl.hkl.empty() && !haveDump && e.structureFactors.defaultF == 0.0)
        throw UsageError("no structure factors: give -hkl (or -mtz, -sfcif, -model), or "
                         "-default_F, or run where the " +
                             cl.dumpFile + " of an earlier -hkl run is",
                         usageText());
    checkStructureFactorOptions(cl);
    if (cl.mat.empty() && !e.crystal.cell && !e.crystal.mosflmMatrix)
        throw UsageError("no unit cell: give -cell or -mat (or an -experiment with a crystal)",
                         usageText());

    auto withOption = [](const std::string& option, auto&& read) {
        try {
            return read();
        } catch (const UsageError&) {
            throw;
        } catch (const Error& error) {
            throw Error(option + ": " + error.what());
        }
    };

    if (!cl.mat.empty()) {
        const io::MosflmMatrix m = withOption("-mat", [&] { return io::readMosflmMatrix(cl.mat); });
        if (!vectorsFormCell(m.aStar, m.bStar, m.cStar))
            throw Error("-mat " + cl.mat +
                        ": the reciprocal cell vectors a*, b*, c* (its columns) lie in one plane "
                        "or one is zero, so they cannot form a unit cell");
        e.crystal.mosflmMatrix = glm::dmat3(m.aStar, m.bStar, m.cStar); // columns a*, b*, c*
    }

    const double defaultF = e.structureFactors.defaultF;
    if (!cl.hkl.empty()) {
        e.structureFactors = withOption(structureFactorOption(cl),
                                        [&] { return readStructureFactors(cl, defaultF, log); });
        if (!cacheOutput(cl)) {
            log << "WARNING: not writing the structure-factor cache " << cl.dumpFile
                << ": it is the same file as an input (-dump names another cache file)\n";
        } else {
            try {
                io::writeFdump(cl.dumpFile, e.structureFactors);
            } catch (const Error& error) {
                log << "WARNING: unable to write the structure-factor cache " << cl.dumpFile
                    << ": " << error.what() << "\n";
            }
        }
    } else if (haveDump) {
        e.structureFactors = withOption("reading the structure-factor cache (no -hkl given)",
                                        [&] { return io::readFdump(cl.dumpFile); });
        e.structureFactors.defaultF = defaultF;
    }

    if (!cl.stol.empty())
        withOption("-stol", [&] { return io::readWholeFile(cl.stol, "amorphous scattering file"); });

    if (!cl.sourceFile.empty()) {
        const auto records = withOption("-sourcefile", [&] { return io::readSourceFile(cl.sourceFile); });
        e.beam.sourceFile.clear();
        for (const io::SourceRecord& r : records)
            e.beam.sourceFile.push_back(SourceRecord{r.X, r.Y, r.Z, r.weight, r.lambda});
    }
}

namespace {
// how messages name the structure-factor cache: "default -dump" while it is Fdump.bin
std::string dumpRole(const RunRequest& cl) {
    return cl.dumpFile == RunRequest().dumpFile ? "default -dump" : "-dump";
}
} // namespace

std::vector<NamedFile> inputFiles(const RunRequest& cl) {
    std::vector<NamedFile> files;
    const std::pair<const char*, const std::string*> named[] = {
        {structureFactorOption(cl), &cl.hkl},   {"-mat", &cl.mat}, {"-sourcefile", &cl.sourceFile},
        {"-stol", &cl.stol}, {"-img", &cl.img}, {"-mask", &cl.mask},
        {"-experiment", &cl.experimentFile}, {"-measured", &cl.measured}, {"-spots", &cl.spots}};
    for (const auto& [role, path] : named)
        if (!path->empty())
            files.push_back({role, *path, ""});
    // the -detector file (a preset is no file), so that no output writes over it
    if (const std::string& detector = cl.experiment.detector.panelsSource;
        !detector.empty() && !isDetectorPreset(detector))
        files.push_back({"-detector", detector, ""});
    std::error_code ignored;
    if (cl.hkl.empty() && std::filesystem::exists(cl.dumpFile, ignored))
        files.push_back(
            {dumpRole(cl), cl.dumpFile, "the structure-factor cache, read as no -hkl is given"});
    return files;
}

std::optional<NamedFile> cacheOutput(const RunRequest& cl) {
    if (cl.hkl.empty())
        return std::nullopt;
    const std::string cache = io::fileIdentity(cl.dumpFile);
    for (const NamedFile& input : inputFiles(cl))
        if (io::fileIdentity(input.path) == cache)
            return std::nullopt;
    return NamedFile{dumpRole(cl), cl.dumpFile, "the structure-factor cache that -hkl writes"};
}

std::vector<NamedFile> outputFiles(const RunRequest& cl) {
    const OutputOptions& o = cl.outputs;
    const OutputOptions defaults;
    // "-intfile", or "default -intfile" for the name the user did not choose
    auto role = [](const char* option, const std::string& path, const std::string& byDefault) {
        return (path == byDefault ? std::string("default ") : std::string()) + option;
    };
    std::vector<NamedFile> files;
    auto add = [&](const char* option, const std::string& path, const std::string& byDefault) {
        if (!path.empty()) // an empty name is a file not written (a detector of panels' -intfile)
            files.push_back({role(option, path, byDefault), path, ""});
    };
    add("-floatfile", o.floatFile, defaults.floatFile);
    add("-intfile", o.intFile, defaults.intFile);
    if (o.writePgm)
        add("-pgmfile", o.pgmFile, defaults.pgmFile);
    if (o.writeNoise)
        add("-noisefile", o.noiseFile, defaults.noiseFile);
    if (o.writeCbf)
        add("-cbffile", o.cbfFile, defaults.cbfFile);
    if (o.writeNexus)
        add("-nexusfile", o.nexusFile, defaults.nexusFile);
    if (!cl.refinedExperiment.empty())
        files.push_back({"-refined_experiment", cl.refinedExperiment, ""});
    if (!cl.fitReport.empty())
        files.push_back({"-fit_report", cl.fitReport, ""});
    if (const auto cache = cacheOutput(cl))
        files.push_back(*cache);
    return files;
}

void checkOutputFiles(const std::vector<NamedFile>& inputs, const std::vector<NamedFile>& outputs) {
    auto shownFile = [](const NamedFile& f) {
        // as typed (non-ASCII names stay readable), in quotes when it has a space
        return f.role + " " +
               (f.path.find(' ') == std::string::npos ? f.path : "'" + f.path + "'") +
               (f.context.empty() ? "" : " (" + f.context + ")");
    };
    std::map<std::string, const NamedFile*> readers, writers; // identity -> who names it
    for (const NamedFile& input : inputs)
        readers.emplace(io::fileIdentity(input.path), &input);
    for (const NamedFile& output : outputs) {
        const std::string identity = io::fileIdentity(output.path);
        if (const auto input = readers.find(identity); input != readers.end())
            throw Error(shownFile(output) + " is the same file as the " +
                        shownFile(*input->second) +
                        ": braggview does not write over its inputs; name another output file");
        const auto [other, inserted] = writers.emplace(identity, &output);
        if (!inserted)
            throw Error(shownFile(output) + " is the same file as the " +
                        shownFile(*other->second) + ": give each output file its own name");
    }
    // a missing or unwritable folder, or a directory where a file is meant, told before any
    // work rather than after the rendering: every target is looked at, each folder is tried
    // once (a series names thousands of files in one folder)
    std::set<std::string> triedFolders;
    for (const NamedFile& output : outputs) {
        const std::filesystem::path p(output.path);
        const std::string folder = p.has_parent_path() ? p.parent_path().string() : ".";
        try {
            if (triedFolders.insert(folder).second) {
                io::checkWritable(output.path);
            } else if (std::error_code ec; std::filesystem::is_directory(p, ec)) {
                throw Error("cannot write '" + output.path + "': it is a directory");
            }
        } catch (const Error& e) {
            throw Error(output.role + (output.context.empty() ? "" : " (" + output.context + ")") +
                        ": " + e.what());
        }
    }
}

} // namespace bv::request
