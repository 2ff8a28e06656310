#pragma once
// The session file's "experiment" member as a table: each stated Experiment field once, with
// its key path, its quantity and limits (those of the command line, compute/model/
// PhysicalLimits.h), and how it is written and read. The session writer and reader
// (compute/request/SessionFile.h) are the table's two views, so a field is described once
// for both and a new field is one row. The rows' order is the file's: the writer writes them
// in it and the reader reads (and checks) them in it, so the first problem a reader reports is
// the first in the file.
//
//     io::JsonWriter w;
//     w.key("experiment");
//     bv::request::writeSessionExperiment(w, experiment);
//     Experiment e = bv::request::readSessionExperiment(session.object("experiment"), dir);

#include "compute/io/JsonFields.h"
#include "compute/io/JsonWriter.h"
#include "compute/model/Experiment.h"

#include <functional>
#include <string>
#include <vector>

namespace bv::request {

struct SessionField {
    // The member of "experiment" that holds the field ("beam", "detector", "crystal",
    // "sampling", "customAxes"), "" for one of "experiment" itself.
    std::string section;
    std::string key; // its key there (a row that writes several keys: the first)
    // Writes the key(s) and value(s) into the open section; null for a row that only checks.
    std::function<void(io::JsonWriter&, const Experiment&)> write;
    // Reads the field from its section into the experiment (read so far in the rows' order);
    // `directory` is the session's, for the names of files in it.
    std::function<void(const io::JsonFields& section, Experiment&, const std::string& directory)>
        read;
};

// Every row, in the file's order.
const std::vector<SessionField>& sessionFields();

// The "experiment" object: the rows written into a new object.
void writeSessionExperiment(io::JsonWriter& w, const Experiment& experiment);
// The rows read from the "experiment" object `r` (Experiment's defaults for what no row
// sets). Throws bv::Error "<file>:<line>:<column>: experiment.<section>.<key>: expected ...".
Experiment readSessionExperiment(const io::JsonFields& r, const std::string& directory);

// A name as a session writes it: absolute ("" stays "").
std::string absoluteName(const std::string& path);
// A name in a session: a relative one joined to the session's directory.
std::string nameInDirectory(const std::string& directory, const std::string& name);

} // namespace bv::request
