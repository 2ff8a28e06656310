#include "compute/io/Json.h"

#include "compute/io/InputFile.h"
#include "compute/io/NumberText.h"
#include "compute/core/Error.h"

#include <cctype>
#include <cmath>
#include <cstdint>

namespace bv::io {

// ---- values ------------------------------------------------------------------------------

namespace {

[[noreturn]] void wrongType(const JsonValue& value, JsonValue::Type wanted) {
    throw Error(std::string("JSON value at line ") + std::to_string(value.line()) + ", column " +
                std::to_string(value.column()) + " is " + JsonValue::typeName(value.type()) +
                ", not " + JsonValue::typeName(wanted));
}

} // namespace

bool JsonValue::boolean() const {
    if (m_type != Type::Boolean)
        wrongType(*this, Type::Boolean);
    return m_boolean;
}

double JsonValue::number() const {
    if (m_type != Type::Number)
        wrongType(*this, Type::Number);
    return m_number;
}

const std::string& JsonValue::text() const {
    if (m_type != Type::String && m_type != Type::Number)
        wrongType(*this, Type::String);
    return m_text;
}

const std::vector<JsonValue>& JsonValue::elements() const {
    if (m_type != Type::Array)
        wrongType(*this, Type::Array);
    return m_elements;
}

const std::vector<JsonValue::Member>& JsonValue::members() const {
    if (m_type != Type::Object)
        wrongType(*this, Type::Object);
    return m_members;
}

const JsonValue* JsonValue::member(std::string_view key) const {
    if (m_type != Type::Object)
        return nullptr;
    for (const Member& m : m_members)
        if (m.first == key)
            return &m.second;
    return nullptr;
}

const char* JsonValue::typeName(Type type) {
    switch (type) {
    case Type::Null:
        return "null";
    case Type::Boolean:
        return "true or false";
    case Type::Number:
        return "a number";
    case Type::String:
        return "a string";
    case Type::Array:
        return "an array";
    case Type::Object:
        return "an object";
    }
    return "";
}

// ---- the parser --------------------------------------------------------------------------

class JsonParser {
  public:
    JsonParser(std::string_view text, const std::string& source) : m_text(text), m_source(source) {
        if (m_text.substr(0, 3) == "\xEF\xBB\xBF") // a UTF-8 byte order mark
            m_pos = 3;
    }

    JsonValue document() {
        skipSpace();
        if (atEnd())
            fail("the text is empty: expected a JSON value");
        JsonValue value = parseValue(0);
        skipSpace();
        if (!atEnd())
            fail("unexpected " + shownHere() + " after the end of the JSON value");
        return value;
    }

  private:
    static constexpr int kMaxDepth = 200;

    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return m_text[m_pos]; }

    // line and column of byte `pos`
    std::pair<int, int> where(std::size_t pos) const {
        int line = 1, column = 1;
        for (std::size_t i = 0; i < pos && i < m_text.size(); ++i) {
            if (m_text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        return {line, column};
    }

    [[noreturn]] void failAt(std::size_t pos, const std::string& message) const {
        const auto [line, column] = where(pos);
        throw Error(m_source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                    message);
    }
    [[noreturn]] void fail(const std::string& message) const { failAt(m_pos, message); }

    // the character at the cursor, for messages
    std::string shownHere() const {
        if (atEnd())
            return "end of text";
        const unsigned char c = static_cast<unsigned char>(peek());
        if (c >= 0x20 && c < 0x7f)
            return std::string("'") + static_cast<char>(c) + "'";
        return quoteToken(m_text.substr(m_pos, 1));
    }

    void skipSpace() {
        while (!atEnd()) {
            const char c = peek();
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
                return;
            ++m_pos;
        }
    }

    void expect(char c, const char* context) {
        if (atEnd() || peek() != c)
            fail(std::string("expected '") + c + "' " + context + ", got " + shownHere());
        ++m_pos;
    }

    JsonValue start(JsonValue::Type type) const {
        JsonValue v;
        v.m_type = type;
        const auto [line, column] = where(m_pos);
        v.m_line = line;
        v.m_column = column;
        return v;
    }

    JsonValue parseValue(int depth) {
        if (atEnd())
            fail("unexpected end of text: expected a value");
        switch (peek()) {
        case '{':
            return parseObject(depth + 1);
        case '[':
            return parseArray(depth + 1);
        case '"': {
            JsonValue v = start(JsonValue::Type::String);
            v.m_text = parseString();
            return v;
        }
        case 't':
            return parseWord("true", JsonValue::Type::Boolean, true);
        case 'f':
            return parseWord("false", JsonValue::Type::Boolean, false);
        case 'n':
            return parseWord("null", JsonValue::Type::Null, false);
        default:
            break;
        }
        if (peek() == '-' || (peek() >= '0' && peek() <= '9'))
            return parseNumber();
        fail("expected a value (an object, array, string, number, true, false or null), got " +
             shownHere());
    }

    JsonValue parseWord(std::string_view word, JsonValue::Type type, bool value) {
        JsonValue v = start(type);
        if (m_text.substr(m_pos, word.size()) != word)
            fail("expected a value, got " + shownHere() + " (JSON words are true, false and null)");
        m_pos += word.size();
        if (!atEnd() && std::isalnum(static_cast<unsigned char>(peek())))
            fail("unexpected " + shownHere() + " after " + std::string(word));
        v.m_boolean = value;
        return v;
    }

    JsonValue parseNumber() {
        JsonValue v = start(JsonValue::Type::Number);
        const std::size_t begin = m_pos;
        auto digits = [&](const char* what) {
            if (atEnd() || peek() < '0' || peek() > '9')
                fail(std::string("expected a digit ") + what + ", got " + shownHere());
            while (!atEnd() && peek() >= '0' && peek() <= '9')
                ++m_pos;
        };
        if (peek() == '-')
            ++m_pos;
        if (!atEnd() && peek() == '0') {
            ++m_pos;
            if (!atEnd() && peek() >= '0' && peek() <= '9')
                fail("a number must not start with 0 followed by more digits");
        } else {
            digits("in the number");
        }
        if (!atEnd() && peek() == '.') {
            ++m_pos;
            digits("after the decimal point");
        }
        if (!atEnd() && (peek() == 'e' || peek() == 'E')) {
            ++m_pos;
            if (!atEnd() && (peek() == '+' || peek() == '-'))
                ++m_pos;
            digits("in the exponent");
        }
        v.m_text = std::string(m_text.substr(begin, m_pos - begin));
        const auto value = parseDouble(v.m_text);
        if (!value || !std::isfinite(*value))
            failAt(begin, "the number " + v.m_text + " is too large");
        v.m_number = *value;
        return v;
    }

    unsigned hex4() {
        unsigned value = 0;
        for (int i = 0; i < 4; ++i) {
            if (atEnd() || !std::isxdigit(static_cast<unsigned char>(peek())))
                fail("expected 4 hexadecimal digits after \\u, got " + shownHere());
            const char c = peek();
            value = value * 16u + static_cast<unsigned>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
            ++m_pos;
        }
        return value;
    }

    static void appendUtf8(std::string& out, unsigned code) {
        if (code < 0x80) {
            out += static_cast<char>(code);
        } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else if (code < 0x10000) {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        } else {
            out += static_cast<char>(0xF0 | (code >> 18));
            out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
        }
    }

    // length of the valid UTF-8 sequence at m_pos (a byte >= 0x80), 0 when invalid
    std::size_t utf8Length() const {
        const auto byte = [&](std::size_t i) {
            return m_pos + i < m_text.size() ? static_cast<unsigned char>(m_text[m_pos + i]) : 0u;
        };
        const unsigned b0 = byte(0);
        auto cont = [&](std::size_t i) { return (byte(i) & 0xC0u) == 0x80u; };
        if (b0 >= 0xC2 && b0 <= 0xDF)
            return cont(1) ? 2 : 0;
        if (b0 >= 0xE0 && b0 <= 0xEF) {
            const unsigned b1 = byte(1);
            if ((b0 == 0xE0 && b1 < 0xA0) || (b0 == 0xED && b1 > 0x9F)) // overlong, surrogate
                return 0;
            return cont(1) && cont(2) ? 3 : 0;
        }
        if (b0 >= 0xF0 && b0 <= 0xF4) {
            const unsigned b1 = byte(1);
            if ((b0 == 0xF0 && b1 < 0x90) || (b0 == 0xF4 && b1 > 0x8F))
                return 0;
            return cont(1) && cont(2) && cont(3) ? 4 : 0;
        }
        return 0;
    }

    std::string parseString() {
        const std::size_t begin = m_pos;
        ++m_pos; // the opening quote
        std::string out;
        for (;;) {
            if (atEnd())
                failAt(begin, "the string is not closed (no '\"' before the end of the text)");
            const unsigned char c = static_cast<unsigned char>(peek());
            if (c == '"') {
                ++m_pos;
                return out;
            }
            if (c < 0x20)
                fail("a control character (" + quoteToken(m_text.substr(m_pos, 1)) +
                     ") inside a string: write it as an escape such as \\n");
            if (c >= 0x80) {
                const std::size_t n = utf8Length();
                if (n == 0)
                    fail("the string is not valid UTF-8 (byte " +
                         quoteToken(m_text.substr(m_pos, 1)) + ")");
                out.append(m_text.substr(m_pos, n));
                m_pos += n;
                continue;
            }
            if (c != '\\') {
                out += static_cast<char>(c);
                ++m_pos;
                continue;
            }
            ++m_pos;
            if (atEnd())
                failAt(begin, "the string is not closed (no '\"' before the end of the text)");
            const char e = peek();
            ++m_pos;
            switch (e) {
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case '/':
                out += '/';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                unsigned code = hex4();
                if (code >= 0xD800 && code <= 0xDBFF) {
                    if (m_text.substr(m_pos, 2) != "\\u")
                        fail("a \\u escape of a high surrogate must be followed by a low one");
                    m_pos += 2;
                    const unsigned low = hex4();
                    if (low < 0xDC00 || low > 0xDFFF)
                        fail("a \\u escape of a high surrogate must be followed by a low one");
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                } else if (code >= 0xDC00 && code <= 0xDFFF) {
                    fail("a \\u escape of a low surrogate without a high one before it");
                }
                appendUtf8(out, code);
                break;
            }
            default:
                failAt(m_pos - 2,
                       "unknown escape \\" + std::string(1, e) +
                           " in a string (JSON knows \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)");
            }
        }
    }

    JsonValue parseArray(int depth) {
        if (depth > kMaxDepth)
            fail("nested more than " + std::to_string(kMaxDepth) + " levels deep");
        JsonValue v = start(JsonValue::Type::Array);
        ++m_pos;
        skipSpace();
        if (!atEnd() && peek() == ']') {
            ++m_pos;
            return v;
        }
        for (;;) {
            skipSpace();
            if (!atEnd() && peek() == ']')
                fail("expected a value after ',' (JSON allows no trailing comma)");
            v.m_elements.push_back(parseValue(depth));
            skipSpace();
            if (!atEnd() && peek() == ',') {
                ++m_pos;
                continue;
            }
            expect(']', "or ',' after an array element");
            return v;
        }
    }

    JsonValue parseObject(int depth) {
        if (depth > kMaxDepth)
            fail("nested more than " + std::to_string(kMaxDepth) + " levels deep");
        JsonValue v = start(JsonValue::Type::Object);
        ++m_pos;
        skipSpace();
        if (!atEnd() && peek() == '}') {
            ++m_pos;
            return v;
        }
        for (;;) {
            skipSpace();
            if (atEnd() || peek() != '"')
                fail(!atEnd() && peek() == '}'
                         ? std::string(
                               "expected a member name after ',' (JSON allows no trailing comma)")
                         : "expected a member name in double quotes, got " + shownHere());
            const std::size_t keyPos = m_pos;
            std::string key = parseString();
            for (const JsonValue::Member& m : v.m_members)
                if (m.first == key)
                    failAt(keyPos, "duplicate member \"" + key + "\" (first at line " +
                                       std::to_string(m.second.line()) + ")");
            skipSpace();
            expect(':', "after the member name");
            skipSpace();
            JsonValue value = parseValue(depth);
            v.m_members.emplace_back(std::move(key), std::move(value));
            skipSpace();
            if (!atEnd() && peek() == ',') {
                ++m_pos;
                continue;
            }
            expect('}', "or ',' after an object member");
            return v;
        }
    }

    std::string_view m_text;
    const std::string& m_source;
    std::size_t m_pos = 0;
};

JsonValue parseJson(std::string_view text, const std::string& source) {
    return JsonParser(text, source).document();
}

JsonValue readJsonFile(const std::string& path) {
    const std::string text = readWholeFile(path, "JSON file");
    return parseJson(text, path);
}

std::string jsonWhere(const std::string& source, const JsonValue& value) {
    return source + ":" + std::to_string(value.line()) + ":" + std::to_string(value.column());
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

} // namespace bv::io
