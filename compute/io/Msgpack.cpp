#include "compute/io/Msgpack.h"

#include "compute/core/Error.h"

#include <cstring>

namespace bv::io::msgpack {

const Value* Value::member(std::string_view key) const {
    if (kind != Kind::Map)
        return nullptr;
    for (std::size_t i = 0; i + 1 < items.size(); i += 2)
        if (items[i].isText(key))
            return &items[i + 1];
    return nullptr;
}

const char* Value::kindName() const {
    switch (kind) {
    case Kind::Nil: return "nil";
    case Kind::Bool: return "a boolean";
    case Kind::Int: return "an integer";
    case Kind::Float: return "a number";
    case Kind::Str: return "a string";
    case Kind::Bin: return "binary data";
    case Kind::Ext: return "an extension value";
    case Kind::Array: return "an array";
    case Kind::Map: return "a map";
    }
    return "a value";
}

namespace {

class Decoder {
  public:
    Decoder(std::string_view bytes, const std::string& name, int maxDepth, std::size_t maxValues)
        : m_bytes(bytes), m_name(name), m_maxDepth(maxDepth), m_valuesLeft(maxValues) {}

    Value value(int depth) {
        if (depth > m_maxDepth)
            fail(m_at, "nested deeper than " + std::to_string(m_maxDepth) + " levels");
        if (m_valuesLeft == 0)
            fail(m_at, "more values than a table holds (its columns are binary blobs): not "
                       "the file expected?");
        --m_valuesLeft;
        Value v;
        v.offset = m_at;
        const std::uint8_t tag = byte();
        if (tag <= 0x7f) {
            v.kind = Kind::Int;
            v.unsignedValue = tag;
        } else if (tag >= 0xe0) {
            v.kind = Kind::Int;
            v.isNegative = true;
            v.signedValue = static_cast<std::int8_t>(tag);
        } else if (tag <= 0x8f) {
            children(v, Kind::Map, tag & 0x0fu, depth);
        } else if (tag <= 0x9f) {
            children(v, Kind::Array, tag & 0x0fu, depth);
        } else if (tag <= 0xbf) {
            text(v, Kind::Str, tag & 0x1fu);
        } else {
            switch (tag) {
            case 0xc0: break;
            case 0xc2: case 0xc3:
                v.kind = Kind::Bool;
                v.boolean = tag == 0xc3;
                break;
            case 0xc4: text(v, Kind::Bin, big(1)); break;
            case 0xc5: text(v, Kind::Bin, big(2)); break;
            case 0xc6: text(v, Kind::Bin, big(4)); break;
            case 0xc7: ext(v, big(1)); break;
            case 0xc8: ext(v, big(2)); break;
            case 0xc9: ext(v, big(4)); break;
            case 0xca: {
                const std::uint32_t bits = static_cast<std::uint32_t>(big(4));
                float f;
                std::memcpy(&f, &bits, 4);
                v.kind = Kind::Float;
                v.number = f;
                break;
            }
            case 0xcb: {
                const std::uint64_t bits = big(8);
                v.kind = Kind::Float;
                std::memcpy(&v.number, &bits, 8);
                break;
            }
            case 0xcc: case 0xcd: case 0xce: case 0xcf:
                v.kind = Kind::Int;
                v.unsignedValue = big(std::size_t(1) << (tag - 0xcc));
                break;
            case 0xd0: case 0xd1: case 0xd2: case 0xd3: {
                const std::size_t n = std::size_t(1) << (tag - 0xd0);
                const std::uint64_t bits = big(n);
                // sign-extend the n-byte two's complement
                const std::uint64_t sign = std::uint64_t(1) << (8 * n - 1);
                const std::int64_t s = n == 8 ? static_cast<std::int64_t>(bits)
                                              : static_cast<std::int64_t>(bits ^ sign) -
                                                    static_cast<std::int64_t>(sign);
                v.kind = Kind::Int;
                if (s < 0) {
                    v.isNegative = true;
                    v.signedValue = s;
                } else {
                    v.unsignedValue = static_cast<std::uint64_t>(s);
                }
                break;
            }
            case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8:
                ext(v, std::size_t(1) << (tag - 0xd4));
                break;
            case 0xd9: text(v, Kind::Str, big(1)); break;
            case 0xda: text(v, Kind::Str, big(2)); break;
            case 0xdb: text(v, Kind::Str, big(4)); break;
            case 0xdc: children(v, Kind::Array, big(2), depth); break;
            case 0xdd: children(v, Kind::Array, big(4), depth); break;
            case 0xde: children(v, Kind::Map, big(2), depth); break;
            case 0xdf: children(v, Kind::Map, big(4), depth); break;
            default: fail(v.offset, "0xc1 is no MessagePack value (not a MessagePack file?)");
            }
        }
        if (v.kind == Kind::Int && !v.isNegative)
            v.signedValue = v.unsignedValue <= static_cast<std::uint64_t>(INT64_MAX)
                                ? static_cast<std::int64_t>(v.unsignedValue)
                                : INT64_MAX;
        return v;
    }

    std::size_t at() const { return m_at; }

    [[noreturn]] void fail(std::size_t offset, const std::string& what) const {
        throw Error(m_name + ": byte " + std::to_string(offset) + ": " + what);
    }

  private:
    std::size_t left() const { return m_bytes.size() - m_at; }

    void need(std::size_t n, const char* what) const {
        if (n > left())
            fail(m_at, std::string("the file ends inside ") + what + " (" + std::to_string(n) +
                           " bytes needed, " + std::to_string(left()) + " left)");
    }

    std::uint8_t byte() {
        need(1, "a value");
        return static_cast<std::uint8_t>(m_bytes[m_at++]);
    }

    // an n-byte big-endian unsigned number
    std::uint64_t big(std::size_t n) {
        need(n, "a number");
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < n; ++i)
            v = (v << 8) | static_cast<std::uint8_t>(m_bytes[m_at + i]);
        m_at += n;
        return v;
    }

    void text(Value& v, Kind kind, std::uint64_t length) {
        need(length, kind == Kind::Str ? "a string" : "binary data");
        v.kind = kind;
        v.bytes = m_bytes.substr(m_at, static_cast<std::size_t>(length));
        m_at += static_cast<std::size_t>(length);
    }

    void ext(Value& v, std::uint64_t length) {
        need(1, "an extension value");
        ++m_at; // its type byte: no extension type means anything to the tables read here
        text(v, Kind::Ext, length);
    }

    void children(Value& v, Kind kind, std::uint64_t count, int depth) {
        v.kind = kind;
        const std::uint64_t values = kind == Kind::Map ? 2 * count : count;
        // every value takes at least one byte: a count beyond the bytes left is damage.
        // Nothing is reserved on the count's word: the items grow as values are decoded, so
        // a tree holds at most a few times the bytes it was decoded from
        if (values > left())
            fail(v.offset, std::string(kind == Kind::Map ? "a map of " : "an array of ") +
                               std::to_string(count) + " entries in the " +
                               std::to_string(left()) + " bytes left");
        for (std::uint64_t i = 0; i < values; ++i)
            v.items.push_back(value(depth + 1));
    }

    std::string_view m_bytes;
    const std::string& m_name;
    int m_maxDepth;
    std::size_t m_valuesLeft;
    std::size_t m_at = 0;
};

} // namespace

Value decode(std::string_view bytes, const std::string& name, int maxDepth,
             std::size_t maxValues) {
    Decoder d(bytes, name, maxDepth, maxValues);
    Value v = d.value(0);
    if (d.at() != bytes.size())
        d.fail(d.at(), std::to_string(bytes.size() - d.at()) + " bytes after the value");
    return v;
}

} // namespace bv::io::msgpack
