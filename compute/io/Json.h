#pragma once
// JSON input of braggview's own files (job files, viewer sessions), parsed by nlohmann::json
// (Debian's nlohmann-json3-dev) with what those files' messages and numbers need on top:
//
// - strict RFC 8259 (nlohmann's own checks): no comments, no trailing commas, nothing after
//   the top-level value, strings of valid UTF-8; a UTF-8 byte order mark is skipped;
// - no duplicate keys (nlohmann would keep the last one silently): an error naming both lines;
// - nesting at most 200 levels deep;
// - object members in the order of the file (nlohmann::ordered_json);
// - where every value starts, so that a message about a value can name its line and column;
// - numbers as they were written ("120", "1e-3"), so that a value handed on to the command
//   line is exactly what the user typed; "-0" reads as negative zero (nlohmann alone reads
//   the integer 0), so every double written by JsonWriter reads back bit for bit.
//
//     const bv::io::JsonDocument job = bv::io::readJsonFile("job.json");
//     for (const auto& [key, value] : job.root().items()) ...
//     if (const bv::io::Json* frames = bv::io::jsonMember(job.root(), "frames"))
//         throw bv::Error(job.where(*frames) + ": frames: expected an array");
//
// Malformed text throws bv::Error "<source>:<line>:<column>: <what is wrong>" (columns in
// bytes). Nothing but bv::Error leaves parseJson and readJsonFile.

#include <nlohmann/json_fwd.hpp> // the whole of nlohmann/json.hpp where a value is used

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace bv::io {

using Json = nlohmann::ordered_json;

// A parsed text: its value, and where in the text each of its values starts.
class JsonDocument {
  public:
    // A document made in memory (no text: its values have no line and column), null or
    // holding `root`.
    explicit JsonDocument(std::string source);
    JsonDocument(std::string source, Json root);
    ~JsonDocument();
    JsonDocument(JsonDocument&&) noexcept;
    JsonDocument& operator=(JsonDocument&&) noexcept;

    const Json& root() const { return *m_root; }
    // the file name (or other name) that messages give
    const std::string& source() const { return m_source; }

    // {line, column} where `value` starts, 1-based (column in bytes); {0, 0} for a value that
    // is not one of this document's (a copy, or a document made in memory)
    std::pair<int, int> lineColumn(const Json& value) const;
    // "<source>:<line>:<column>" of `value`, or "<source>" where lineColumn is {0, 0}
    std::string where(const Json& value) const;
    // a number's text as written in the file; for a number from elsewhere, the shortest text
    // that reads back to it
    std::string numberText(const Json& number) const;

  private:
    friend JsonDocument parseJson(std::string_view text, const std::string& source);
    std::pair<int, int> lineColumnAt(std::size_t offset) const;

    std::string m_source;
    std::string m_text;
    std::vector<std::size_t> m_lineStarts;                  // offset of each line's first byte
    std::unique_ptr<Json> m_root;                           // on the heap: its address is kept
    std::unordered_map<const Json*, std::size_t> m_offsets; // each value's first byte
};

// Parses `text`; `source` names it in messages (a file name).
JsonDocument parseJson(std::string_view text, const std::string& source);

// Reads and parses a file (bv::Error for a missing or unreadable file, as for every input).
JsonDocument readJsonFile(const std::string& path);

// The member called `key` of an object, or nullptr (also for a value that is no object).
const Json* jsonMember(const Json& object, std::string_view key);

// "an object", "a number", ... for messages
const char* jsonTypeName(const Json& value);

} // namespace bv::io
