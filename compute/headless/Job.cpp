#include "compute/headless/Job.h"

#include "compute/cli/Flags.h"
#include "compute/headless/SessionFile.h"
#include "compute/io/JsonWriter.h"
#include "compute/core/Error.h"

#include <cmath>
#include <filesystem>
#include <sstream>

namespace bv::headless {

namespace {

// the most frames a job may have ("frames": N, or a list that long)
constexpr double kMaxFrames = 1e7;

std::vector<std::string> whitespaceSplit(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string word; in >> word;)
        out.push_back(word);
    return out;
}

class JobReader {
  public:
    explicit JobReader(std::string source) : m_source(std::move(source)) {}

    [[noreturn]] void fail(const io::JsonValue& at, const std::string& message) const {
        throw Error(io::jsonWhere(m_source, at) + ": " + message);
    }

    // one token from a number or a string
    std::string token(const std::string& option, const io::JsonValue& v) const {
        if (v.isNumber() || v.isString())
            return v.text();
        fail(v, option + ": expected a number or a string as a value, got " +
                    io::JsonValue::typeName(v.type()));
    }

    // "<option>": <value> as command-line tokens appended to `out`
    void appendOption(std::vector<std::string>& out, const std::string& option,
                      const io::JsonValue& value, bool& ownSeed) const {
        const cli::Flag* flag = cli::findFlag(option);
        if (!flag) {
            std::string message = "\"" + option + "\" is not a nanoBragg option";
            const std::vector<std::string> near = cli::suggestFlagNames(option);
            for (std::size_t k = 0; k < near.size(); ++k)
                message += (k == 0                ? " (did you mean "
                            : k + 1 < near.size() ? ", "
                                                  : " or ") +
                           near[k];
            if (!near.empty())
                message += "?)";
            fail(value, message + "; braggview -h lists the options");
        }
        if (flag == cli::findFlag("--job"))
            fail(value, option + ": a job file cannot name another job");
        if (flag == cli::findFlag("-series"))
            fail(value, option + ": a job lists its frames itself; for a rotation series give "
                                 "each frame its own \"-phi\" (or render the series with -series)");
        if (flag == cli::findFlag("-seed"))
            ownSeed = true;
        const bool takesValues = !(flag->arity == cli::Arity::Fixed && flag->values == 0);
        const bool severalValues = flag->arity != cli::Arity::Fixed || flag->values > 1;
        switch (value.type()) {
        case io::JsonValue::Type::Boolean:
            if (!value.boolean())
                fail(value, option + ": false is not a value; leave the option out instead");
            if (takesValues)
                fail(value, option + ": expected its value" +
                                (flag->syntax.empty() ? std::string() : " (" + flag->syntax + ")") +
                                ", not true");
            out.push_back(option);
            return;
        case io::JsonValue::Type::Null:
            fail(value, option + ": null is not a value; leave the option out instead");
        case io::JsonValue::Type::Object:
            fail(value,
                 option + ": expected a number, a string or an array of them, not an object");
        case io::JsonValue::Type::Number:
            out.push_back(option);
            out.push_back(value.text());
            return;
        case io::JsonValue::Type::String:
            // a value spelled like an option would read back as that option (jobText)
            for (const std::string& word : whitespaceSplit(value.text()))
                if (cli::findFlag(word))
                    fail(value, option + ": \"" + word + "\" is an option, not a value");
            out.push_back(option);
            if (severalValues) {
                for (std::string& word : whitespaceSplit(value.text()))
                    out.push_back(std::move(word));
            } else {
                out.push_back(value.text());
            }
            return;
        case io::JsonValue::Type::Array:
            // [] would leave the option without the values it takes (and read back as true)
            if (value.elements().empty() && takesValues)
                fail(value, option + ": expected its value" +
                                (flag->syntax.empty() ? std::string() : " (" + flag->syntax + ")") +
                                ", not an empty array");
            out.push_back(option);
            for (const io::JsonValue& element : value.elements()) {
                // as for a string: a value spelled like an option would read back as one
                if (element.isString() && cli::findFlag(element.text()))
                    fail(element, option + ": \"" + element.text() + "\" is an option, not a value");
                out.push_back(token(option, element));
            }
            return;
        }
    }

    std::vector<std::string> options(const io::JsonValue& object, bool& ownSeed) const {
        std::vector<std::string> out;
        for (const auto& [key, value] : object.members())
            appendOption(out, key, value, ownSeed);
        return out;
    }

    std::vector<std::string> base(const io::JsonValue& v) const {
        bool ignored = false;
        switch (v.type()) {
        case io::JsonValue::Type::String:
            return whitespaceSplit(v.text());
        case io::JsonValue::Type::Object:
            return options(v, ignored);
        case io::JsonValue::Type::Array: {
            std::vector<std::string> out;
            for (const io::JsonValue& element : v.elements())
                out.push_back(token("base", element));
            return out;
        }
        default:
            fail(v, std::string("\"base\": expected nanoBragg's arguments as a string, an array or "
                                "an object of options, got ") +
                        io::JsonValue::typeName(v.type()));
        }
    }

    Job read(const io::JsonValue& root) const {
        if (!root.isObject())
            fail(root,
                 std::string("a job file is a JSON object with \"base\" and \"frames\", not ") +
                     io::JsonValue::typeName(root.type()));
        Job job;
        job.source = m_source;
        const io::JsonValue* frames = nullptr;
        for (const auto& [key, value] : root.members()) {
            if (key == "base") {
                job.base = this->base(value);
            } else if (key == "session") {
                if (value.isObject()) {
                    // checked now, so that a bad session stops the job before it starts
                    (void)parseSession(value, m_source, directoryOf(m_source));
                    job.sessionObject = value;
                } else if (value.isString() && !value.text().empty() &&
                           value.text().find('\0') == std::string::npos) {
                    job.session = value.text();
                } else {
                    fail(value, "\"session\": expected the name of a session file, or a "
                                "session object");
                }
            } else if (key == "frames") {
                frames = &value;
            } else if (key == "comment") {
                // free text for the reader of the file
            } else {
                fail(value, "unknown member \"" + key +
                                "\" (a job file has \"base\", \"frames\", \"session\" and "
                                "\"comment\")");
            }
        }
        if (!frames)
            fail(root, "the job has no \"frames\" (a list of objects of options, or a count)");
        if (frames->isNumber()) {
            const double count = frames->number();
            // range first: converting a number beyond long long's range is undefined
            if (!(count >= 1.0) || count > kMaxFrames || count != std::floor(count))
                fail(*frames, "\"frames\": expected a whole number of frames from 1, or a list");
            job.frames.resize(static_cast<std::size_t>(count));
            return job;
        }
        if (!frames->isArray())
            fail(*frames, std::string("\"frames\": expected a list of objects of options or a "
                                      "count, got ") +
                              io::JsonValue::typeName(frames->type()));
        if (frames->elements().empty())
            fail(*frames, "\"frames\" is empty: a job needs at least one frame");
        if (static_cast<double>(frames->elements().size()) > kMaxFrames)
            fail(*frames, "\"frames\": too many frames");
        for (const io::JsonValue& f : frames->elements()) {
            if (!f.isObject())
                fail(f,
                     std::string("a frame is an object of options ({\"-distance\": 120}), not ") +
                         io::JsonValue::typeName(f.type()));
            JobFrame frame;
            frame.overrides = options(f, frame.ownSeed);
            frame.line = f.line();
            frame.column = f.column();
            job.frames.push_back(std::move(frame));
        }
        return job;
    }

  private:
    std::string m_source;
};

} // namespace

std::string Job::where(std::size_t index) const {
    const JobFrame& f = frames.at(index);
    std::string text = source;
    if (f.line > 0)
        text += ":" + std::to_string(f.line) + ":" + std::to_string(f.column);
    return text + ": frame " + std::to_string(index + 1);
}

std::vector<std::string> Job::arguments(std::size_t index,
                                        const std::vector<std::string>& extra) const {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    const JobFrame& f = frames.at(index);
    args.insert(args.end(), f.overrides.begin(), f.overrides.end());
    return args;
}

Job parseJob(const io::JsonValue& root, const std::string& source) {
    return JobReader(source).read(root);
}

Job readJob(const std::string& path) {
    return parseJob(io::readJsonFile(path), path);
}

std::string Job::sessionPath() const {
    if (session.empty() || std::filesystem::path(session).is_absolute())
        return session;
    return (std::filesystem::path(directoryOf(source)) / session).string();
}

namespace {

// tokens -> {"-option": value(s)} with true for an option without values
void writeOptions(io::JsonWriter& w, const std::vector<std::string>& tokens) {
    std::vector<std::pair<std::string, std::vector<std::string>>> options;
    for (const std::string& token : tokens) {
        if (cli::findFlag(token) || options.empty()) {
            for (auto it = options.begin(); it != options.end(); ++it)
                if (it->first == token) { // a later one wins, as on the command line
                    options.erase(it);
                    break;
                }
            options.push_back({token, {}});
        } else {
            options.back().second.push_back(token);
        }
    }
    w.beginObject();
    for (const auto& [name, values] : options) {
        w.key(name);
        if (values.empty()) {
            w.boolean(true);
        } else if (values.size() == 1) {
            w.string(values[0]);
        } else {
            w.beginArray();
            for (const std::string& v : values)
                w.string(v);
            w.endArray();
        }
    }
    w.endObject();
}

} // namespace

std::string jobText(const Job& job) {
    io::JsonWriter w;
    w.beginObject();
    if (job.sessionObject)
        w.key("session").value(*job.sessionObject);
    else if (!job.session.empty())
        w.key("session").string(job.session);
    if (!job.hasSession() || !job.base.empty()) {
        w.key("base").beginArray();
        for (const std::string& token : job.base)
            w.string(token);
        w.endArray();
    }
    w.key("frames").beginArray();
    for (const JobFrame& frame : job.frames)
        writeOptions(w, frame.overrides);
    w.endArray();
    w.endObject();
    return w.text();
}

cli::CommandLine sessionBase(const Job& job, std::ostream& log) {
    if (job.sessionObject) {
        cli::CommandLine cl = parseSession(*job.sessionObject, job.source, directoryOf(job.source));
        try {
            loadSessionInputs(cl, log);
        } catch (const Error& e) {
            throw Error(io::jsonWhere(job.source, *job.sessionObject) + ": \"session\": " +
                        e.what());
        }
        return cl;
    }
    if (job.session.empty())
        throw Error(job.source + ": the job has no \"session\"");
    try {
        return readSession(job.sessionPath(), log);
    } catch (const Error& e) {
        throw Error(job.source + ": \"session\": " + e.what());
    }
}

} // namespace bv::headless
