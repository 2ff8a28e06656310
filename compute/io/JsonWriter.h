#pragma once
// JSON text for the files braggview writes (viewer sessions, job files): members in the order
// they are written, two spaces of indentation, an array of numbers or strings on one line,
// and numbers with the shortest text that reads back to the same double, so that a file
// written and read again (parseJson) holds the same values bit for bit. (nlohmann's dump()
// would write every array element on a line of its own and 100.0 as "100.0"; the files this
// writes read as the documentation shows them, and keep their layout across versions.)
//
//     bv::io::JsonWriter w;
//     w.beginObject();
//     w.key("distance").number(0.1);
//     w.key("axis").beginArray().number(0).number(0).number(1).endArray();
//     w.key("automatic").null();
//     w.endObject();
//     w.text(); // "{\n  \"distance\": 0.1,\n  \"axis\": [0, 0, 1],\n  \"automatic\": null\n}\n"
//
// Using it out of order (a value in an object without a key, text() before the last
// container is closed) is a programming error: std::logic_error.

#include "compute/io/Json.h"

#include <string>
#include <string_view>
#include <vector>

namespace bv::io {

class JsonWriter {
  public:
    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    // the name of the next value, in an object
    JsonWriter& key(std::string_view name);

    // JSON has no NaN or infinity: a number that is neither throws bv::Error naming the key
    JsonWriter& number(double value);
    JsonWriter& integer(long long value);
    JsonWriter& boolean(bool value);
    JsonWriter& string(std::string_view text);
    JsonWriter& null();
    // a value read by parseJson (a number as the shortest text of its value)
    JsonWriter& value(const Json& value);

    // the document, ending in a newline
    std::string text() const;

  private:
    struct Container {
        bool object = false;
        bool scalarsOnly = true; // an array of scalars is written on one line
        std::vector<std::string> items;
        std::string key;
        bool haveKey = false;
    };
    void add(std::string text, bool scalar);
    void open(bool object);
    void close(bool object);

    std::vector<Container> m_open;
    std::string m_document;
    bool m_done = false;
};

// The shortest decimal text that reads back as `value` (std::to_chars): "0.1", "1e-10", "100".
std::string shortestNumberText(double value);

// `text` as a JSON string literal, quotes included. Bytes are written as they are (no check
// of UTF-8: a file name is kept byte for byte); control characters are escaped.
std::string jsonQuoted(std::string_view text);

} // namespace bv::io
