#include "compute/headless/Manifest.h"

#include "compute/core/Error.h"
#include "compute/core/Sha256.h"
#include "compute/io/AtomicFile.h"
#include "compute/io/Json.h"
#include "compute/request/Parameters.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace bv::headless {

namespace {

bool isDigest(const std::string& text) {
    return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

bool exists(const std::string& path) {
    std::error_code ec;
    return std::filesystem::exists(path, ec);
}

// A member of the line's object, of the type asked for.
const io::Json& member(const io::JsonDocument& doc, const io::Json& object, const char* key,
                       io::Json::value_t type, const char* expected) {
    const io::Json* value = io::jsonMember(object, key);
    if (!value)
        throw Error(doc.where(object) + ": no \"" + key + "\"");
    const bool integer = type == io::Json::value_t::number_unsigned;
    if (integer ? !value->is_number_unsigned() : value->type() != type)
        throw Error(doc.where(*value) + ": " + key + ": expected " + expected + ", got " +
                    io::jsonTypeName(*value));
    return *value;
}

std::string text(const io::JsonDocument& doc, const io::Json& value, const std::string& what) {
    if (!value.is_string())
        throw Error(doc.where(value) + ": " + what + ": expected a string, got " +
                    io::jsonTypeName(value));
    return value.get<std::string>();
}

ManifestEntry parseLine(const std::string& line, const std::string& where);

} // namespace

std::string manifestPath(const std::string& fileTemplate) {
    const std::filesystem::path p(fileTemplate);
    std::string name = p.filename().string();
    if (const std::size_t hash = name.find('#'); hash != std::string::npos) {
        name.erase(hash);
        while (!name.empty() && (name.back() == '_' || name.back() == '-' || name.back() == '.'))
            name.pop_back();
    } else {
        name = p.stem().string();
    }
    if (name.empty())
        name = "frames";
    return (p.parent_path() / (name + ".manifest.jsonl")).string();
}

std::string manifestLine(const ManifestEntry& entry) {
    io::Json line = io::Json::object();
    line["frame"] = entry.frame;
    line["command"] = entry.command;
    io::Json files = io::Json::array();
    for (const ManifestEntry::File& f : entry.files)
        files.push_back({{"option", f.option}, {"path", f.path}, {"sha256", f.sha256}});
    line["files"] = std::move(files);
    // a name that is not UTF-8 cannot be JSON: its bad bytes become U+FFFD (docs/series.md)
    return line.dump(-1, ' ', false, io::Json::error_handler_t::replace);
}

ManifestEntry parseManifestLine(const std::string& line, const std::string& source,
                                int lineNumber) {
    try {
        return parseLine(line, source);
    } catch (const Error& e) {
        // the line was parsed alone, as line 1 of `source`: its own number in the message
        const std::string first = source + ":1";
        std::string message = e.what();
        if (message.compare(0, first.size(), first) == 0)
            message.replace(0, first.size(), source + ":" + std::to_string(lineNumber));
        throw Error(message);
    }
}

namespace {

ManifestEntry parseLine(const std::string& line, const std::string& where) {
    const io::JsonDocument doc = io::parseJson(line, where);
    const io::Json& root = doc.root();
    if (!root.is_object())
        throw Error(doc.where(root) + ": expected an object, got " + io::jsonTypeName(root));
    ManifestEntry entry;
    const io::Json& frame = member(doc, root, "frame", io::Json::value_t::number_unsigned,
                                   "a frame number from 1");
    if (frame.get<std::uint64_t>() < 1 || frame.get<std::uint64_t>() > 1000000000u)
        throw Error(doc.where(frame) + ": frame: expected a frame number from 1 to 1000000000");
    entry.frame = static_cast<int>(frame.get<std::uint64_t>());
    for (const io::Json& word :
         member(doc, root, "command", io::Json::value_t::array, "an array of words"))
        entry.command.push_back(text(doc, word, "command"));
    for (const io::Json& file :
         member(doc, root, "files", io::Json::value_t::array, "an array of files")) {
        if (!file.is_object())
            throw Error(doc.where(file) + ": files: expected an object, got " +
                        io::jsonTypeName(file));
        ManifestEntry::File f;
        f.option = text(doc, member(doc, file, "option", io::Json::value_t::string, "a string"),
                        "option");
        f.path = text(doc, member(doc, file, "path", io::Json::value_t::string, "a string"),
                      "path");
        const io::Json& digest = member(doc, file, "sha256", io::Json::value_t::string, "a string");
        f.sha256 = digest.get<std::string>();
        if (!isDigest(f.sha256))
            throw Error(doc.where(digest) + ": sha256: expected 64 lowercase hexadecimal digits");
        entry.files.push_back(std::move(f));
    }
    return entry;
}

} // namespace

std::map<int, ManifestEntry> parseManifest(const std::string& text, const std::string& source) {
    std::map<int, ManifestEntry> entries;
    std::size_t start = 0;
    for (int number = 1; start < text.size(); ++number) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos)
            end = text.size();
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        ManifestEntry entry = parseManifestLine(line, source, number);
        const int frame = entry.frame;
        if (!entries.emplace(frame, std::move(entry)).second)
            throw Error(source + ":" + std::to_string(number) + ": frame " +
                        std::to_string(frame) + " has a line already");
    }
    return entries;
}

std::optional<std::map<int, ManifestEntry>> readManifest(const std::string& path) {
    if (!exists(path))
        return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in)
        throw Error(path + ": cannot read the manifest");
    return parseManifest(text.str(), path);
}

std::vector<std::string> changedOptions(const std::vector<std::string>& before,
                                        const std::vector<std::string>& now) {
    // the words as (option, its values), in order; a word no option is named is a value
    using Groups = std::vector<std::pair<std::string, std::vector<std::string>>>;
    const auto grouped = [](const std::vector<std::string>& words) {
        Groups groups;
        for (const std::string& w : words) {
            if (request::findFlag(w) || groups.empty())
                groups.push_back({w, {}});
            else
                groups.back().second.push_back(w);
        }
        return groups;
    };
    const Groups a = grouped(before), b = grouped(now);
    const auto valuesOf = [](const Groups& groups, const std::string& option) {
        std::vector<std::vector<std::string>> values;
        for (const auto& [name, v] : groups)
            if (name == option)
                values.push_back(v);
        return values;
    };
    std::vector<std::string> changed;
    for (const Groups* groups : {&b, &a})
        for (const auto& [option, values] : *groups)
            if (std::find(changed.begin(), changed.end(), option) == changed.end() &&
                valuesOf(a, option) != valuesOf(b, option))
                changed.push_back(option);
    return changed;
}

std::vector<std::string> frameCommand(const RunRequest& request, long noiseSeed,
                                      const products::OutputFiles& files) {
    // the files first: commandWords ends with -misset_seed, which the parser (as nanoBragg)
    // also reads as -misset when three more words follow it
    std::vector<std::string> words;
    for (const auto& [option, path] : files.named()) {
        words.push_back(option);
        words.push_back(path);
    }
    const std::vector<std::string> stated = request::commandWords(request);
    words.insert(words.end(), stated.begin(), stated.end());
    // commandWords always states the seed: the frame's noise seed in its place
    for (std::size_t i = 0; i + 1 < words.size(); ++i)
        if (words[i] == "-seed")
            words[i + 1] = std::to_string(-noiseSeed);
    const Crystal& crystal = request.experiment.crystal;
    if (crystal.misset == MissetKind::Random && !crystal.missetSeed) {
        words.push_back("-misset_seed");
        words.push_back(std::to_string(-request.experiment.seed));
    }
    return words;
}

std::optional<std::string> staleReason(const ManifestEntry* line,
                                       const std::vector<std::string>& command,
                                       const products::OutputFiles& files) {
    const auto named = files.named();
    if (!line) {
        for (const auto& [option, path] : named)
            if (exists(path))
                return std::string("on disk but not in the manifest");
        return std::string();
    }
    if (line->command != command) {
        std::string list;
        for (const std::string& option : changedOptions(line->command, command))
            list += (list.empty() ? "" : ", ") + option;
        return "parameters changed" + (list.empty() ? std::string() : " (" + list + ")");
    }
    for (const auto& [option, path] : named) {
        const auto kept = std::find_if(line->files.begin(), line->files.end(),
                                       [&, &o = option, &p = path](const ManifestEntry::File& f) {
                                           return f.option == o && f.path == p;
                                       });
        if (kept == line->files.end())
            return "no digest of " + path + " in the manifest";
        if (!exists(path))
            return "missing (" + path + ")";
        std::string digest;
        try {
            digest = sha256OfFile(path);
        } catch (const Error&) {
            return "unreadable (" + path + ")";
        }
        if (digest != kept->sha256)
            return "file hash differs (" + path + ")";
    }
    return std::nullopt;
}

ManifestEntry writtenEntry(int frame, std::vector<std::string> command,
                           const products::OutputFiles& files) {
    ManifestEntry entry;
    entry.frame = frame;
    entry.command = std::move(command);
    for (const auto& [option, path] : files.named())
        entry.files.push_back({option, path, sha256OfFile(path)});
    return entry;
}

ManifestWriter::ManifestWriter(std::string path, const std::map<int, ManifestEntry>& kept)
    : m_path(std::move(path)), m_lastCommit(std::chrono::steady_clock::now()) {
    for (const auto& [frame, entry] : kept)
        m_lines.emplace(frame, manifestLine(entry));
}

void ManifestWriter::set(int frame, std::string line) {
    m_lines[frame] = std::move(line);
    m_dirty = true;
}

void ManifestWriter::commitSoon() {
    if (m_dirty && std::chrono::steady_clock::now() - m_lastCommit >= std::chrono::seconds(1))
        commit();
}

void ManifestWriter::commitIfChanged() {
    if (m_dirty)
        commit();
}

void ManifestWriter::commit() {
    io::AtomicFile file(m_path);
    for (const auto& [frame, line] : m_lines) {
        file.write(line);
        file.write("\n");
    }
    file.commit();
    m_dirty = false;
    m_lastCommit = std::chrono::steady_clock::now();
}

} // namespace bv::headless
