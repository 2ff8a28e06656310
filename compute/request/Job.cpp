#include "compute/request/Job.h"

#include "compute/request/Suggestions.h"
#include "compute/request/Parameters.h"
#include "compute/core/Error.h"
#include "compute/request/SessionFile.h"
#include "compute/io/JsonWriter.h"

#include <cmath>
#include <filesystem>
#include <sstream>

namespace bv::request {

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

std::string indexed(const std::string& path, std::size_t index) {
    return path + "[" + std::to_string(index) + "]";
}

// A frame in messages: counted from 1, as the frame loop and its files count ("frame 3"),
// never as the JSON path does ("frames[2]").
std::string frameName(std::size_t index) {
    return "frame " + std::to_string(index + 1);
}

// the path of an option in a frame ("frame 3: -misset") or in the base ("base.-misset")
std::string optionPath(const std::string& parent, const std::string& option) {
    return parent + (parent.rfind("frame ", 0) == 0 ? ": " : ".") + option;
}

class JobReader {
  public:
    explicit JobReader(const io::JsonDocument& doc) : m_doc(doc) {}

    [[noreturn]] void fail(const io::Json& at, const std::string& message) const {
        throw Error(m_doc.where(at) + ": " + message);
    }

    // one token from a number (as written) or a string; `path` names the value
    std::string token(const std::string& path, const io::Json& v) const {
        if (v.is_number())
            return m_doc.numberText(v);
        if (v.is_string())
            return v.get_ref<const std::string&>();
        fail(v, path + ": expected a number or a string as a value, got " + io::jsonTypeName(v));
    }

    // "<option>": <value> of the object at `parent` as command-line tokens appended to `out`
    void appendOption(std::vector<std::string>& out, const std::string& parent,
                      const std::string& option, const io::Json& value, bool& ownSeed) const {
        const std::string path = optionPath(parent, option);
        const Flag* flag = findFlag(option);
        if (!flag) {
            std::string message = parent + ": \"" + option + "\" is not a nanoBragg option";
            const std::vector<std::string> near = suggestFlagNames(option);
            for (std::size_t k = 0; k < near.size(); ++k)
                message += (k == 0                ? " (did you mean "
                            : k + 1 < near.size() ? ", "
                                                  : " or ") +
                           near[k];
            if (!near.empty())
                message += "?)";
            fail(value, message + "; braggview -h lists the options");
        }
        if (flag == findFlag("--job"))
            fail(value, path + ": a job file cannot name another job");
        if (flag == findFlag("-series"))
            fail(value, path + ": a job lists its frames itself; for a rotation series give "
                               "each frame its own \"-phi\" (or render the series with -series)");
        if (flag == findFlag("-seed"))
            ownSeed = true;
        const bool takesValues = !(flag->arity == Arity::Fixed && flag->values == 0);
        const bool severalValues = flag->arity != Arity::Fixed || flag->values > 1;
        const std::string syntax = flag->syntax.empty() ? std::string() : " (" + flag->syntax + ")";
        if (value.is_boolean()) {
            if (!value.get<bool>())
                fail(value, path + ": false is not a value; leave the option out instead");
            if (takesValues)
                fail(value, path + ": expected its value" + syntax + ", not true");
            out.push_back(option);
        } else if (value.is_null()) {
            fail(value, path + ": null is not a value; leave the option out instead");
        } else if (value.is_object()) {
            fail(value, path + ": expected a number, a string or an array of them, not an object");
        } else if (value.is_number()) {
            out.push_back(option);
            out.push_back(m_doc.numberText(value));
        } else if (value.is_string()) {
            const std::string& text = value.get_ref<const std::string&>();
            // a value spelled like an option would read back as that option (jobText)
            for (const std::string& word : whitespaceSplit(text))
                if (findFlag(word))
                    fail(value, path + ": \"" + word + "\" is an option, not a value");
            out.push_back(option);
            if (severalValues) {
                for (std::string& word : whitespaceSplit(text))
                    out.push_back(std::move(word));
            } else {
                out.push_back(text);
            }
        } else {
            if (!value.is_array()) // binary or discarded: parseJson makes neither
                fail(value, path + ": expected a number, a string or an array of them");
            // [] would leave the option without the values it takes (and read back as true)
            if (value.empty() && takesValues)
                fail(value, path + ": expected its value" + syntax + ", not an empty array");
            out.push_back(option);
            for (std::size_t i = 0; i < value.size(); ++i) {
                const io::Json& element = value[i];
                // as for a string: a value spelled like an option would read back as one
                if (element.is_string() && findFlag(element.get_ref<const std::string&>()))
                    fail(element, indexed(path, i) + ": \"" +
                                      element.get_ref<const std::string&>() +
                                      "\" is an option, not a value");
                out.push_back(token(indexed(path, i), element));
            }
        }
    }

    std::vector<std::string> options(const io::Json& object, const std::string& path,
                                     bool& ownSeed) const {
        std::vector<std::string> out;
        for (const auto& [key, value] : object.items())
            appendOption(out, path, key, value, ownSeed);
        return out;
    }

    std::vector<std::string> base(const io::Json& v) const {
        bool ignored = false;
        if (v.is_string())
            return whitespaceSplit(v.get_ref<const std::string&>());
        if (v.is_object())
            return options(v, "base", ignored);
        if (!v.is_array())
            fail(v, std::string("\"base\": expected nanoBragg's arguments as a string, an array "
                                "or an object of options, got ") +
                        io::jsonTypeName(v));
        std::vector<std::string> out;
        for (std::size_t i = 0; i < v.size(); ++i)
            out.push_back(token(indexed("base", i), v[i]));
        return out;
    }

    Job read() const {
        const io::Json& root = m_doc.root();
        if (!root.is_object())
            fail(root,
                 std::string("a job file is a JSON object with \"base\" and \"frames\", not ") +
                     io::jsonTypeName(root));
        Job job;
        job.source = m_doc.source();
        const io::Json* frames = nullptr;
        for (const auto& [key, value] : root.items()) {
            if (key == "base") {
                job.base = this->base(value);
            } else if (key == "session") {
                if (value.is_object()) {
                    // read now, so that a bad session stops the job before it starts, and once
                    job.sessionRequest =
                        parseSession(m_doc, value, "session", directoryOf(job.source));
                    job.sessionObject = value;
                } else if (value.is_string() && !value.get_ref<const std::string&>().empty() &&
                           value.get_ref<const std::string&>().find('\0') == std::string::npos) {
                    job.session = value.get<std::string>();
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
        if (frames->is_number()) {
            const double count = frames->get<double>();
            // range first: converting a number beyond long long's range is undefined
            if (!(count >= 1.0) || count > kMaxFrames || count != std::floor(count))
                fail(*frames, "\"frames\": expected a whole number of frames from 1, or a list");
            job.frames.resize(static_cast<std::size_t>(count));
            return job;
        }
        if (!frames->is_array())
            fail(*frames, std::string("\"frames\": expected a list of objects of options or a "
                                      "count, got ") +
                              io::jsonTypeName(*frames));
        if (frames->empty())
            fail(*frames, "\"frames\" is empty: a job needs at least one frame");
        if (static_cast<double>(frames->size()) > kMaxFrames)
            fail(*frames, "\"frames\": too many frames");
        for (std::size_t i = 0; i < frames->size(); ++i) {
            const io::Json& f = (*frames)[i];
            if (!f.is_object())
                fail(f, frameName(i) + ": a frame is an object of options ({\"-distance\": 120}), not " +
                            io::jsonTypeName(f));
            JobFrame frame;
            frame.overrides = options(f, frameName(i), frame.ownSeed);
            const auto [line, column] = m_doc.lineColumn(f);
            frame.line = line;
            frame.column = column;
            job.frames.push_back(std::move(frame));
        }
        return job;
    }

  private:
    const io::JsonDocument& m_doc;
};

} // namespace

std::string Job::where(std::size_t index) const {
    const JobFrame& f = frames.at(index);
    std::string text = source;
    if (f.line > 0)
        text += ":" + std::to_string(f.line) + ":" + std::to_string(f.column);
    return text + ": " + frameName(index);
}

std::vector<std::string> Job::arguments(std::size_t index,
                                        const std::vector<std::string>& extra) const {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    const JobFrame& f = frames.at(index);
    args.insert(args.end(), f.overrides.begin(), f.overrides.end());
    return args;
}

Job parseJob(const io::JsonDocument& doc) {
    return JobReader(doc).read();
}

Job readJob(const std::string& path) {
    return parseJob(io::readJsonFile(path));
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
        if (findFlag(token) || options.empty()) {
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
        const Flag* flag = findFlag(name);
        // a string for an option of several values is split at white space when read, so
        // such an option's values are written as an array, even one value ("-roi": ["a b"])
        const bool severalValues =
            flag && (flag->arity != Arity::Fixed || flag->values > 1);
        if (values.empty()) {
            w.boolean(true);
        } else if (values.size() == 1 && !severalValues) {
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

RunRequest sessionBase(const Job& job, std::ostream& log) {
    if (job.sessionObject) {
        // read when the job was (parseJob); only the files the session names are new (a job
        // made in code, with no request, has its object read here)
        RunRequest cl;
        if (job.sessionRequest) {
            cl = *job.sessionRequest;
        } else {
            const io::JsonDocument session(job.source, *job.sessionObject);
            cl = parseSession(session, session.root(), "session", directoryOf(job.source));
        }
        try {
            loadSessionInputs(cl, log);
        } catch (const Error& e) {
            throw Error(job.source + ": \"session\": " + e.what());
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

} // namespace bv::request
