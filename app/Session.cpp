#include "app/Session.h"

#include "compute/request/Job.h"
#include "compute/request/SessionFile.h"
#include "compute/io/AtomicFile.h"
#include "compute/io/JsonFields.h"
#include "compute/io/JsonWriter.h"
#include "compute/core/Error.h"

#include <QFileInfo>

#include <sstream>

namespace bv::app {

namespace {

using io::JsonFields;

void writeView(io::JsonWriter& w, const ViewState& v) {
    const render::DisplaySettings& d = v.display;
    w.beginObject();
    w.key("colormap").string(render::colormapKey(d.colormap));
    w.key("scaling").string(render::scalingName(d.scaling));
    w.key("black").number(static_cast<double>(d.black));
    w.key("white").number(static_cast<double>(d.white));
    w.key("overloadOn").boolean(d.overloadOn);
    w.key("overload").number(static_cast<double>(d.overload));
    w.key("autoContrast").boolean(v.autoContrast);
    w.key("overlays").beginObject();
    w.key("beamCentre").boolean(v.overlays.beamCentre);
    w.key("rings").boolean(v.overlays.rings);
    w.key("spots").boolean(v.overlays.spots);
    w.key("spotLabels").boolean(v.overlays.spotLabels);
    w.key("observedSpots").boolean(v.overlays.observedSpots);
    w.endObject();
    if (v.view) {
        w.key("origin").beginArray().number(v.view->origin().x()).number(v.view->origin().y()).endArray();
        w.key("scale").number(v.view->scale());
    }
    w.endObject();
}

ViewState readView(const JsonFields& r) {
    ViewState v;
    render::DisplaySettings& d = v.display;
    if (!render::colormapFromKey(QString::fromStdString(r.text("colormap")), &d.colormap))
        r.fail(r.value("colormap"), "colormap", "grey, inverted-grey, viridis or heat");
    if (!render::scalingFromKey(QString::fromStdString(r.text("scaling")), &d.scaling))
        r.fail(r.value("scaling"), "scaling", "linear, sqrt or log");
    d.black = static_cast<float>(r.number("black"));
    d.white = static_cast<float>(r.number("white"));
    d.overloadOn = r.boolean("overloadOn");
    d.overload = static_cast<float>(r.number("overload"));
    v.autoContrast = r.boolean("autoContrast");
    const JsonFields o = r.object("overlays");
    v.overlays = {o.boolean("beamCentre"), o.boolean("rings"), o.boolean("spots"),
                  o.boolean("spotLabels"),
                  !o.has("observedSpots") || o.boolean("observedSpots")}; // sessions before it: on
    if (r.has("scale")) {
        const io::Json& origin = r.value("origin");
        if (!origin.is_array() || origin.size() != 2)
            r.fail(origin, "origin", "[x, y]");
        render::ViewTransform t;
        t.set(QPointF(r.number(origin[0], "origin[0]"), r.number(origin[1], "origin[1]")),
              r.number("scale", JsonFields::Positive));
        v.view = t;
    }
    return v;
}

} // namespace

std::string sessionText(const Session& session) {
    RunRequest cl = session.commandLine;
    cl.precision = session.precision;
    io::JsonWriter w;
    w.beginObject();
    request::writeSessionMembers(w, cl);
    w.key("view");
    writeView(w, session.view);
    w.endObject();
    return w.text();
}

Session sessionFromJson(const io::JsonDocument& doc, const std::string& directory) {
    const std::string& source = doc.source();
    Session s;
    s.commandLine = request::parseSession(doc, directory);
    s.precision = s.commandLine.precision;
    const JsonFields fields(doc, doc.root());
    if (fields.has("view")) // a session without one (written by a job, or by hand) fits the image
        s.view = readView(fields.object("view"));
    std::ostringstream log; // the viewer reads its HKL warnings nowhere else either
    try {
        request::loadSessionInputs(s.commandLine, log);
    } catch (const Error& e) {
        throw Error(source + ": " + e.what());
    }
    return s;
}

void saveSession(const QString& path, const Session& session) {
    const std::string text = sessionText(session);
    io::AtomicFile file(path.toStdString());
    file.write(text.data(), text.size());
    file.commit();
}

Session loadSession(const QString& path) {
    const std::string file = path.toStdString();
    return sessionFromJson(io::readJsonFile(file), request::directoryOf(file));
}

std::string sessionJobText(const Session& session, const QString& path) {
    RunRequest cl = session.commandLine;
    cl.precision = session.precision;
    std::string stem = QFileInfo(path).completeBaseName().toStdString();
    for (char& c : stem)
        if (c == '#') // the run of # is the frame number's
            c = '_';
    if (stem.empty())
        stem = "frame";
    request::Job job;
    job.source = path.toStdString();
    job.sessionObject = io::parseJson(request::sessionText(cl), job.source).root();
    job.base = {"-floatfile", stem + "_####.bin"};
    // SMV holds one flat detector: a detector of panels is written as its stacked float image
    // only (a job naming -intfile or -noisefile for it is refused)
    if (!cl.experiment.detector.panelsFromSource())
        job.base.insert(job.base.end(),
                        {"-intfile", stem + "_####.img", "-noisefile", stem + "_noise_####.img"});
    job.frames.resize(1);
    return request::jobText(job);
}

void saveJob(const QString& path, const Session& session) {
    const std::string text = sessionJobText(session, path);
    io::AtomicFile file(path.toStdString());
    file.write(text.data(), text.size());
    file.commit();
}

} // namespace bv::app
