// libFuzzer target: the job-file loader, bv::io::readJsonFile (compute/io/Json.h) and, where
// compute/headless/Job.cpp exists, bv::headless::parseJob (compute/headless/Job.h).
// Input: the bytes of a job file. Only bv::Error may escape. Beyond that, the documented
// round trips must hold: a string survives jsonQuoted + parseJson, and a job that parseJob
// accepts survives jobText + parseJson + parseJob unchanged ("jobText writes a job file that
// readJob reads back to the same job", docs/series.md).
// A session embedded in a job ("session": {...}) is read by parseJob (parseSession, compute/
// headless/SessionFile.h, compiled in too) and must survive the round trip as it was written;
// session files have their own target, fuzz_session.

#include "FuzzInput.h"

#include "compute/io/Json.h"
#include "compute/core/Error.h"
#if BV_FUZZ_HAVE_JOB
#include "compute/headless/Job.h"
#include "compute/io/JsonWriter.h"
#endif

#include <cmath>

namespace {

using bv::fuzz::require;
using bv::io::JsonValue;

// every accessor of every value, and the string round trip
void walk(const JsonValue& v, int depth) {
    require(depth <= 201, "parseJson: nested deeper than its limit of 200");
    require(v.line() >= 1 && v.column() >= 1, "JsonValue: line/column not 1-based");
    (void)bv::io::jsonWhere("job.json", v);
    (void)JsonValue::typeName(v.type());
    switch (v.type()) {
    case JsonValue::Type::Null:
        break;
    case JsonValue::Type::Boolean:
        (void)v.boolean();
        break;
    case JsonValue::Type::Number:
        (void)v.number();
        require(!v.text().empty(), "JsonValue: a number without its text");
        break;
    case JsonValue::Type::String: {
        const std::string quoted = bv::io::jsonQuoted(v.text());
        try {
            const JsonValue back = bv::io::parseJson(quoted, "quoted");
            require(back.isString() && back.text() == v.text(),
                    "jsonQuoted + parseJson does not give the string back");
        } catch (const bv::Error& e) {
            bv::fuzz::rejected(e.what());
            require(false, "parseJson refuses what jsonQuoted wrote");
        }
        break;
    }
    case JsonValue::Type::Array:
        for (const JsonValue& e : v.elements())
            walk(e, depth + 1);
        break;
    case JsonValue::Type::Object:
        for (const auto& [key, value] : v.members()) {
            require(v.member(key) != nullptr, "JsonValue::member does not find a member");
            walk(value, depth + 1);
        }
        break;
    }
}

#if BV_FUZZ_HAVE_JOB
void checkJob(const JsonValue& root) {
    bv::headless::Job job;
    try {
        job = bv::headless::parseJob(root, "job.json");
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
    const std::string text = bv::headless::jobText(job);
    bv::headless::Job back;
    try {
        back = bv::headless::parseJob(bv::io::parseJson(text, "again.json"), "again.json");
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
    JsonValue root;
    try {
        root = bv::io::readJsonFile(path);
    } catch (const bv::Error& e) {
        bv::fuzz::rejected(e.what());
        return 0;
    }
    walk(root, 0);
#if BV_FUZZ_HAVE_JOB
    checkJob(root);
#endif
    return 0;
}
