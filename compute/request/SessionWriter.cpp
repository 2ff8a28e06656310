// Writing session files (SessionFile.h describes the layout): the experiment by the session's
// table of fields (compute/request/SessionFields.h) in SI units, numbers as the shortest text
// that reads back bit for bit (io::JsonWriter).

#include "compute/request/SessionFile.h"

#include "compute/request/SessionFields.h"
#include "compute/request/StructureFactorSource.h"
#include "compute/request/SessionFormat.h"

namespace bv::request {

void writeSessionMembers(io::JsonWriter& w, const RunRequest& cl) {
    w.key("format").string(session::kFormat);
    // the oldest version that holds this session, so that an earlier braggview reads what it
    // can and refuses a detector of panels rather than drawing a flat one (SessionFormat.h)
    w.key("version").integer(cl.experiment.detector.panelsFromSource() ? session::kVersion
                                                                       : session::kVersionFlat);
    w.key("experiment");
    writeSessionExperiment(w, cl.experiment);
    w.key("files").beginObject();
    w.key("hkl").string(absoluteName(cl.hkl));
    if (cl.hklFormat != RunRequest::HklFormat::Text) { // -mtz, -sfcif, -model
        w.key("hklFormat").string(hklFormatName(cl.hklFormat));
        w.key("sfColumn").string(cl.sfColumn);
        w.key("modelDmin").number(cl.modelDminAngstrom / 1e10); // m, as every length here
    }
    w.key("mat").string(absoluteName(cl.mat));
    w.key("sourceFile").string(absoluteName(cl.sourceFile));
    w.key("mask").string(absoluteName(cl.mask));
    w.key("dump").string(absoluteName(cl.dumpFile));
    w.endObject();
    w.key("outputs").beginObject();
    w.key("intScale").number(cl.outputs.intScale);
    w.key("pgmScale").number(cl.outputs.pgmScale);
    w.key("adcOffset").number(cl.outputs.adcOffset);
    w.endObject();
    w.key("precision").string(precisionName(cl.precision));
}

std::string sessionText(const RunRequest& cl) {
    io::JsonWriter w;
    w.beginObject();
    writeSessionMembers(w, cl);
    w.endObject();
    return w.text();
}

} // namespace bv::request
