// libFuzzer target: the job-file loader, bv::io::readJsonFile (compute/io/Json.h, on
// nlohmann::json) and, where compute/request/Job.cpp exists, bv::request::parseJob
// (compute/request/Job.h). Input: the bytes of a job file. Only bv::Error may escape (no
// nlohmann exception). Every value of an accepted document has a place (line and column),
// and a number its text. Beyond that, the documented round trips must hold: a string
// survives jsonQuoted + parseJson, and a job that parseJob
// accepts survives jobText + parseJson + parseJob unchanged ("jobText writes a job file that
// readJob reads back to the same job", docs/series.md).
// A session embedded in a job ("session": {...}) is read by parseJob (parseSession, compute/
// request/SessionFile.h, compiled in too) and must survive the round trip as it was written;
// session files have their own target, fuzz_session.

#include "FuzzInput.h"

#include "compute/io/Json.h"
#include "compute/io/JsonWriter.h"
#include "compute/core/Error.h"
#if BV_FUZZ_HAVE_JOB
#include "compute/request/Job.h"
#endif

#include <cmath>
#include <optional>

namespace {

using bv::fuzz::require;
using bv::io::Json;
using bv::io::JsonDocument;

// every value: its place, its type's name, a number's text, and the string round trip
void walk(const JsonDocument& doc, const Json& v, int depth) {
    require(depth <= 201, "parseJson: nested deeper than its limit of 200");
    const auto [line, column] = doc.lineColumn(v);
    require(line >= 1 && column >= 1, "JsonDocument: a value without a place");
    (void)doc.where(v);
    (void)bv::io::jsonTypeName(v);
    if (v.is_number()) {
        require(!doc.numberText(v).empty(), "JsonDocument: a number without its text");
    } else if (v.is_string()) {
        const std::string& text = v.get_ref<const std::string&>();
        const std::string quoted = bv::io::jsonQuoted(text);
        try {
            const JsonDocument back = bv::io::parseJson(quoted, "quoted");
            require(back.root().is_string() && back.root().get_ref<const std::string&>() == text,
                    "jsonQuoted + parseJson does not give the string back");
        } catch (const bv::Error& e) {
            bv::fuzz::rejected(e.what());
            require(false, "parseJson refuses what jsonQuoted wrote");
        }
    } else if (v.is_object()) {
        for (const auto& [key, value] : v.items()) {
            require(bv::io::jsonMember(v, key) == &value, "jsonMember does not find a member");
            walk(doc, value, depth + 1);
        }
    } else if (v.is_array()) {
        for (const Json& e : v)
            walk(doc, e, depth + 1);
    }
}

#if BV_FUZZ_HAVE_JOB
void checkJob(const JsonDocument& doc) {
    bv::request::Job job;
    try {
        job = bv::request::parseJob(doc);
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
        return;
    }
    require(!job.frames.empty(), "parseJob: a job without frames");
    const std::size_t shown = job.frames.size() < 8 ? job.frames.size() : 8;
    for (std::size_t i = 0; i < shown; ++i) {
        (void)job.where(i);
        (void)job.arguments(i, {"-noprogress"});
    }
    if (job.frames.size() > 1000) // the round trip of "frames": 10000000 would take long
        return;
    const std::string text = bv::request::jobText(job);
    bv::request::Job back;
    try {
        back = bv::request::parseJob(bv::io::parseJson(text, "again.json"));
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
        require(false, "jobText wrote a job file that parseJob refuses");
    }
    require(back.base == job.base && back.session == job.session,
            "jobText round trip: the base differs");
    require(back.sessionObject.has_value() == job.sessionObject.has_value(),
            "jobText round trip: the embedded session is lost");
    if (job.sessionObject) {
        bv::io::JsonWriter a, b;
        a.value(*job.sessionObject);
        b.value(*back.sessionObject);
        require(a.text() == b.text(), "jobText round trip: the embedded session differs");
    }
    require(back.frames.size() == job.frames.size(), "jobText round trip: frame count differs");
    for (std::size_t i = 0; i < job.frames.size(); ++i) {
        require(back.frames[i].overrides == job.frames[i].overrides,
                "jobText round trip: a frame's options differ");
        require(back.frames[i].ownSeed == job.frames[i].ownSeed,
                "jobText round trip: a frame's ownSeed differs");
    }
}
#endif

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = bv::fuzz::writeInput("job.json", data, size);
    std::optional<JsonDocument> doc;
    try {
        doc.emplace(bv::io::readJsonFile(path));
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
        return 0;
    }
    walk(*doc, doc->root(), 0);
#if BV_FUZZ_HAVE_JOB
    checkJob(*doc);
#endif
    return 0;
}
