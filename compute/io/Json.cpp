#include "compute/io/Json.h"

#include "compute/core/Error.h"
#include "compute/io/InputFile.h"
#include "compute/io/JsonWriter.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iterator>
#include <map>

namespace bv::io {

namespace {

constexpr int kMaxDepth = 200;

// The text as nlohmann reads it, counting the bytes it has taken: at each parser event the
// count says how far the parse has come, which is how values get their places (nlohmann's
// parser reports none).
class CountingIterator {
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    CountingIterator(const char* begin, const char* at, std::size_t* taken)
        : m_begin(begin), m_at(at), m_taken(taken) {}
    reference operator*() const { return *m_at; }
    CountingIterator& operator++() {
        ++m_at;
        *m_taken = static_cast<std::size_t>(m_at - m_begin);
        return *this;
    }
    CountingIterator operator++(int) {
        CountingIterator before = *this;
        ++*this;
        return before;
    }
    bool operator==(const CountingIterator& other) const { return m_at == other.m_at; }
    bool operator!=(const CountingIterator& other) const { return m_at != other.m_at; }

  private:
    const char* m_begin;
    const char* m_at;
    std::size_t* m_taken;
};

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool isNumberChar(char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

// nlohmann's message without its prefix "[json.exception.parse_error.101] parse error at
// line 1, column 7: " (the place is given in our own form)
std::string nlohmannMessage(const char* what) {
    const std::string text = what;
    const std::size_t column = text.find(", column ");
    const std::size_t colon = text.find(": ", column == std::string::npos ? 0 : column);
    if (colon != std::string::npos)
        return text.substr(colon + 2);
    const std::size_t bracket = text.find("] ");
    return bracket == std::string::npos ? text : text.substr(bracket + 2);
}

// Every value in document order (a container before its members), as the parser met them.
void collect(const Json& value, std::vector<const Json*>& out) {
    out.push_back(&value);
    if (value.is_structured())
        for (const Json& member : value)
            collect(member, out);
}

} // namespace

JsonDocument::JsonDocument(std::string source) : JsonDocument(std::move(source), Json()) {}
JsonDocument::JsonDocument(std::string source, Json root)
    : m_source(std::move(source)), m_root(std::make_unique<Json>(std::move(root))) {}
JsonDocument::~JsonDocument() = default;
JsonDocument::JsonDocument(JsonDocument&&) noexcept = default;
JsonDocument& JsonDocument::operator=(JsonDocument&&) noexcept = default;

std::pair<int, int> JsonDocument::lineColumnAt(std::size_t offset) const {
    const auto after = std::upper_bound(m_lineStarts.begin(), m_lineStarts.end(), offset);
    const std::size_t line = static_cast<std::size_t>(after - m_lineStarts.begin());
    return {static_cast<int>(line), static_cast<int>(offset - m_lineStarts[line - 1] + 1)};
}

std::pair<int, int> JsonDocument::lineColumn(const Json& value) const {
    const auto found = m_offsets.find(&value);
    if (found == m_offsets.end())
        return {0, 0};
    return lineColumnAt(found->second);
}

std::string JsonDocument::where(const Json& value) const {
    const auto [line, column] = lineColumn(value);
    if (line == 0)
        return m_source;
    return m_source + ":" + std::to_string(line) + ":" + std::to_string(column);
}

std::string JsonDocument::numberText(const Json& number) const {
    const auto found = m_offsets.find(&number);
    if (number.is_number() && found != m_offsets.end()) {
        std::size_t end = found->second;
        while (end < m_text.size() && isNumberChar(m_text[end]))
            ++end;
        if (end > found->second)
            return m_text.substr(found->second, end - found->second);
    }
    if (number.is_number_unsigned())
        return std::to_string(number.get<std::uint64_t>());
    if (number.is_number_integer())
        return std::to_string(number.get<std::int64_t>());
    if (number.is_number_float())
        return shortestNumberText(number.get<double>());
    return number.dump();
}

JsonDocument parseJson(std::string_view text, const std::string& source) {
    JsonDocument doc(source);
    doc.m_text = std::string(text);
    const std::string& t = doc.m_text;
    doc.m_lineStarts.push_back(0);
    for (std::size_t i = 0; i < t.size(); ++i)
        if (t[i] == '\n')
            doc.m_lineStarts.push_back(i + 1);

    auto failAt = [&doc](std::size_t offset, const std::string& message) {
        const auto [line, column] = doc.lineColumnAt(offset);
        return Error(doc.m_source + ":" + std::to_string(line) + ":" + std::to_string(column) +
                     ": " + message);
    };

    // The parser calls back after each token: a container's opening bracket, a key, a whole
    // scalar (a number with the byte after it, which nlohmann reads to see the number end).
    // Between the bytes taken at one call and the next value there is only white space and
    // the separators ',' and ':', so the next value starts at the first byte that is neither.
    std::size_t taken = 0;
    std::size_t last = t.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0; // a byte order mark
    auto nextStart = [&t, &last]() {
        std::size_t at = last;
        while (at < t.size() && (isSpace(t[at]) || t[at] == ',' || t[at] == ':'))
            ++at;
        return at;
    };
    std::vector<std::size_t> starts;                      // every value's, in document order
    std::vector<std::map<std::string, std::size_t>> keys; // per open container: keys and places
    const Json::parser_callback_t callback = [&](int depth, Json::parse_event_t event,
                                                 Json& parsed) {
        switch (event) {
        case Json::parse_event_t::object_start:
        case Json::parse_event_t::array_start:
            if (depth >= kMaxDepth)
                throw failAt(nextStart(),
                             "nested more than " + std::to_string(kMaxDepth) + " levels deep");
            starts.push_back(nextStart());
            keys.emplace_back();
            break;
        case Json::parse_event_t::key: {
            const std::size_t at = nextStart();
            const auto [first, fresh] = keys.back().emplace(parsed.get<std::string>(), at);
            if (!fresh)
                throw failAt(at, "duplicate member " + jsonQuoted(parsed.get<std::string>()) +
                                     " (first at line " +
                                     std::to_string(doc.lineColumnAt(first->second).first) + ")");
            break;
        }
        case Json::parse_event_t::value: {
            const std::size_t at = nextStart();
            starts.push_back(at);
            if (parsed.is_number_integer() && parsed == 0 && at < t.size() && t[at] == '-')
                parsed = -0.0;
            break;
        }
        case Json::parse_event_t::object_end:
        case Json::parse_event_t::array_end:
            keys.pop_back();
            break;
        }
        last = taken;
        return true;
    };

    const CountingIterator begin(t.data(), t.data(), &taken);
    const CountingIterator end(t.data(), t.data() + t.size(), &taken);
    try {
        *doc.m_root = Json::parse(begin, end, callback, /*allow_exceptions=*/true,
                                  /*ignore_comments=*/false);
    } catch (const Json::parse_error& e) {
        // e.byte counts the bytes read, the offending one included (1-based)
        const std::size_t offset = std::min<std::size_t>(e.byte > 0 ? e.byte - 1 : 0, t.size());
        throw failAt(offset, nlohmannMessage(e.what()));
    } catch (const Json::out_of_range& e) {
        // 406: a number beyond double's range; the parse stopped right after it
        const std::size_t at = nextStart();
        if (e.id == 406) {
            std::size_t endOfNumber = at;
            while (endOfNumber < t.size() && isNumberChar(t[endOfNumber]))
                ++endOfNumber;
            throw failAt(at, "the number " + t.substr(at, endOfNumber - at) + " is too large");
        }
        throw failAt(at, nlohmannMessage(e.what()));
    } catch (const Json::exception& e) {
        throw Error(doc.m_source + ": " + nlohmannMessage(e.what()));
    }

    std::vector<const Json*> values;
    collect(doc.root(), values);
    // the same walk as the parser's: one start per value (else no places rather than wrong ones)
    if (values.size() == starts.size())
        for (std::size_t i = 0; i < values.size(); ++i)
            doc.m_offsets.emplace(values[i], starts[i]);
    return doc;
}

JsonDocument readJsonFile(const std::string& path) {
    const std::string text = readWholeFile(path, "JSON file");
    return parseJson(text, path);
}

const Json* jsonMember(const Json& object, std::string_view key) {
    if (!object.is_object())
        return nullptr;
    const auto found = object.find(std::string(key));
    return found == object.end() ? nullptr : &*found;
}

const char* jsonTypeName(const Json& value) {
    if (value.is_null())
        return "null";
    if (value.is_boolean())
        return "true or false";
    if (value.is_number())
        return "a number";
    if (value.is_string())
        return "a string";
    if (value.is_array())
        return "an array";
    if (value.is_object())
        return "an object";
    return "no JSON value"; // binary or discarded: parseJson makes neither
}

} // namespace bv::io
