#pragma once
// A small, strict JSON reader (RFC 8259) for job files: no comments, no trailing commas, no
// duplicate keys, nothing after the top-level value; strings must be valid UTF-8. Every
// value remembers where it starts, so that a message about it can name the line and column.
// Object members keep the order of the file. Numbers keep the text they were written with
// ("120", "1e-3"), so that a value handed on to the command line is exactly what the user
// typed.
//
//     bv::io::JsonValue job = bv::io::readJsonFile("job.json");
//     for (const auto& [key, value] : job.members()) ...
//     const bv::io::JsonValue* frames = job.member("frames");
//     throw bv::Error(bv::io::jsonWhere("job.json", *frames) + ": expected an array");
//
// Malformed text throws bv::Error "<source>:<line>:<column>: <what was expected>".

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bv::io {

class JsonValue {
  public:
    enum class Type { Null, Boolean, Number, String, Array, Object };
    using Member = std::pair<std::string, JsonValue>;

    Type type() const { return m_type; }
    bool isNull() const { return m_type == Type::Null; }
    bool isBoolean() const { return m_type == Type::Boolean; }
    bool isNumber() const { return m_type == Type::Number; }
    bool isString() const { return m_type == Type::String; }
    bool isArray() const { return m_type == Type::Array; }
    bool isObject() const { return m_type == Type::Object; }

    // Where the value starts in the text, 1-based (column in bytes).
    int line() const { return m_line; }
    int column() const { return m_column; }

    // The contents; each throws bv::Error when the value is of another type.
    bool boolean() const;
    double number() const;           // the number's value
    const std::string& text() const; // a string's text, or a number as written
    const std::vector<JsonValue>& elements() const;
    const std::vector<Member>& members() const;

    // The member called `key` of an object, or nullptr (also for a value that is no object).
    const JsonValue* member(std::string_view key) const;

    // "an object", "a number", ... for messages
    static const char* typeName(Type type);

  private:
    friend class JsonParser;
    Type m_type = Type::Null;
    int m_line = 1, m_column = 1;
    bool m_boolean = false;
    double m_number = 0.0;
    std::string m_text;
    std::vector<JsonValue> m_elements;
    std::vector<Member> m_members;
};

// Parses `text`; `source` names it in messages (a file name). Nesting deeper than 200
// levels is refused.
JsonValue parseJson(std::string_view text, const std::string& source);

// Reads and parses a file (bv::Error for a missing or unreadable file, as for every input).
JsonValue readJsonFile(const std::string& path);

// "<source>:<line>:<column>" of a value, for messages about it.
std::string jsonWhere(const std::string& source, const JsonValue& value);

// `text` as a JSON string literal, quotes included (for writers of JSON).
std::string jsonQuoted(std::string_view text);

} // namespace bv::io
