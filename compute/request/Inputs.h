#pragma once
// The files of a run request: what it reads (loadInputs reads them into the experiment) and
// what it writes, with the check that no output is an input or another output.
//
//     bv::RunRequest r = bv::cli::parseCommandLine(args);
//     bv::request::checkOutputFiles(bv::request::inputFiles(r), bv::request::outputFiles(r));
//     bv::request::loadInputs(r, std::cerr);

#include "compute/core/Error.h"
#include "compute/request/RunRequest.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace bv::request {

// The reference's usage stop: nothing to take structure factors from, or no unit cell.
// what() is the whole usage text; reason() says what was missing.
class UsageError : public Error {
  public:
    UsageError(std::string reason, const std::string& usage);
    const std::string& reason() const { return m_reason; }

  private:
    std::string m_reason;
};

// Reads -mat into experiment.crystal.mosflmMatrix, -sourcefile into experiment.beam.sourceFile
// and the structure factors: from -hkl (then caches them in dumpFile; a cache that cannot be
// written is a warning on `log`), else from dumpFile if it exists, else only -default_F.
// Throws UsageError, before reading anything, when there is neither -hkl, nor a dump file, nor
// a non-zero -default_F, or neither -cell nor -mat (the reference prints its usage then).
void loadInputs(RunRequest& request, std::ostream& log);

// A file a run reads or writes, and what names it: an option ("-hkl", "-floatfile"), or words
// ("the job file", "the structure-factor cache").
struct NamedFile {
    std::string role;
    std::string path;
    std::string context; // for messages, e.g. "frame 3" (may be empty)
};

// What the run reads: -hkl, -mat, -sourcefile, -stol, -img, -mask, the -detector file (not a
// preset), and the structure-factor cache (-dump, default Fdump.bin) when loadInputs will read
// it (no -hkl and the file exists).
std::vector<NamedFile> inputFiles(const RunRequest& request);

// What a single run (not a series or job) writes: the float and int images, the PGM, noise
// and CBF images when on, and the structure-factor cache that -hkl writes (as nanoBragg
// writes its Fdump.bin) unless that file is one of the inputs (loadInputs then keeps the
// input and skips the cache, with a warning).
std::vector<NamedFile> outputFiles(const RunRequest& request);

// The cache loadInputs writes (request.dumpFile), or nothing: without -hkl, or when the cache
// names the same file as one of the inputs.
std::optional<NamedFile> cacheOutput(const RunRequest& request);

// Throws bv::Error, naming both, when an output is the same file as an input or as an
// earlier output (compared by file identity, compute/io/FileIdentity.h, so "./a.img", a link
// to a.img and a.img are one file), and when an output cannot be written (its folder missing
// or unwritable, a directory in its place: io::checkWritable, which creates and removes a
// temporary once in each folder). Nothing else is read or written by the check.
void checkOutputFiles(const std::vector<NamedFile>& inputs, const std::vector<NamedFile>& outputs);

} // namespace bv::request
