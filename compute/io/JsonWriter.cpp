#include "compute/io/JsonWriter.h"

#include "compute/core/Error.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace bv::io {

std::string shortestNumberText(double value) {
    char buffer[64];
    const std::to_chars_result r = std::to_chars(buffer, buffer + sizeof(buffer), value);
    return std::string(buffer, r.ptr);
}

std::string jsonQuoted(std::string_view text) {
    std::string out = "\"";
    for (const char ch : text) {
        const unsigned char c = static_cast<unsigned char>(ch);
        switch (ch) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (c < 0x20) {
                static const char hex[] = "0123456789abcdef";
                out += "\\u00";
                out += hex[c >> 4];
                out += hex[c & 15];
            } else {
                out += ch;
            }
        }
    }
    return out + "\"";
}

void JsonWriter::add(std::string text, bool scalar) {
    if (m_done)
        throw std::logic_error("JsonWriter: a second top-level value");
    if (m_open.empty()) {
        m_document = std::move(text);
        m_done = true;
        return;
    }
    Container& c = m_open.back();
    if (c.object) {
        if (!c.haveKey)
            throw std::logic_error("JsonWriter: a value in an object without a key");
        c.items.push_back(jsonQuoted(c.key) + ": " + text);
        c.haveKey = false;
    } else {
        c.items.push_back(std::move(text));
        c.scalarsOnly = c.scalarsOnly && scalar;
    }
}

void JsonWriter::open(bool object) {
    if (m_done)
        throw std::logic_error("JsonWriter: a second top-level value");
    if (!m_open.empty() && m_open.back().object && !m_open.back().haveKey)
        throw std::logic_error("JsonWriter: a value in an object without a key");
    Container c;
    c.object = object;
    m_open.push_back(std::move(c));
}

void JsonWriter::close(bool object) {
    if (m_open.empty() || m_open.back().object != object || m_open.back().haveKey)
        throw std::logic_error("JsonWriter: end of a container that is not open");
    Container c = std::move(m_open.back());
    m_open.pop_back();
    const char* brackets = object ? "{}" : "[]";
    std::string text(1, brackets[0]);
    if (!object && c.scalarsOnly) {
        for (std::size_t i = 0; i < c.items.size(); ++i)
            text += (i ? ", " : "") + c.items[i];
    } else if (!c.items.empty()) {
        // the container's own lines are indented by its depth; its items one level more
        const std::string indent(2 * m_open.size(), ' ');
        for (std::size_t i = 0; i < c.items.size(); ++i)
            text += (i ? ",\n" : "\n") + indent + "  " + c.items[i];
        text += "\n" + indent;
    }
    text += brackets[1];
    add(std::move(text), false);
}

JsonWriter& JsonWriter::beginObject() {
    open(true);
    return *this;
}

JsonWriter& JsonWriter::endObject() {
    close(true);
    return *this;
}

JsonWriter& JsonWriter::beginArray() {
    open(false);
    return *this;
}

JsonWriter& JsonWriter::endArray() {
    close(false);
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
    if (m_open.empty() || !m_open.back().object || m_open.back().haveKey)
        throw std::logic_error("JsonWriter: a key outside an object");
    m_open.back().key = std::string(name);
    m_open.back().haveKey = true;
    return *this;
}

JsonWriter& JsonWriter::number(double value) {
    if (!std::isfinite(value)) {
        const bool named = !m_open.empty() && m_open.back().haveKey;
        throw Error((named ? "\"" + m_open.back().key + "\": " : std::string()) +
                    shortestNumberText(value) + " cannot be written: JSON has no NaN or infinity");
    }
    add(shortestNumberText(value), true);
    return *this;
}

JsonWriter& JsonWriter::integer(long long value) {
    add(std::to_string(value), true);
    return *this;
}

JsonWriter& JsonWriter::boolean(bool value) {
    add(value ? "true" : "false", true);
    return *this;
}

JsonWriter& JsonWriter::string(std::string_view text) {
    add(jsonQuoted(text), true);
    return *this;
}

JsonWriter& JsonWriter::null() {
    add("null", true);
    return *this;
}

JsonWriter& JsonWriter::value(const Json& v) {
    switch (v.type()) {
    case Json::value_t::null:
        return null();
    case Json::value_t::boolean:
        return boolean(v.get<bool>());
    case Json::value_t::number_integer:
        add(std::to_string(v.get<std::int64_t>()), true);
        return *this;
    case Json::value_t::number_unsigned:
        add(std::to_string(v.get<std::uint64_t>()), true);
        return *this;
    case Json::value_t::number_float:
        return number(v.get<double>());
    case Json::value_t::string:
        return string(v.get_ref<const std::string&>());
    case Json::value_t::array:
        beginArray();
        for (const Json& e : v)
            value(e);
        return endArray();
    case Json::value_t::object:
        beginObject();
        for (const auto& [name, member] : v.items()) {
            key(name);
            value(member);
        }
        return endObject();
    case Json::value_t::binary:
    case Json::value_t::discarded:
        break;
    }
    throw std::logic_error("JsonWriter: a value that JSON text cannot hold");
}

std::string JsonWriter::text() const {
    if (!m_done || !m_open.empty())
        throw std::logic_error("JsonWriter: the document is not complete");
    return m_document + "\n";
}

} // namespace bv::io
