#pragma once
// A small MessagePack decoder (the format: github.com/msgpack/msgpack/blob/master/spec.md),
// for DIALS's reflection tables (DialsReflections.h). It decodes one value of a byte string
// into a tree whose strings and binary blobs are views into those bytes, so a table's
// columns are never copied. Every count and length is checked against the bytes left before
// it is believed (an array of n values needs at least n bytes), nothing is reserved on a
// count's word, and the values and their nesting are limited, so a damaged or hostile file
// costs a bounded memory (at most `maxValues` values of ~90 bytes) and never the stack.
//
//     const std::string bytes = ...;                       // the whole file
//     const bv::io::msgpack::Value v = bv::io::msgpack::decode(bytes, "strong.refl");
//     if (const auto* rows = v.member("nrows")) ...

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bv::io::msgpack {

enum class Kind { Nil, Bool, Int, Float, Str, Bin, Ext, Array, Map };

struct Value {
    Kind kind = Kind::Nil;
    bool boolean = false;
    bool isNegative = false;     // Int: the value is `signedValue`, else `unsignedValue`
    std::uint64_t unsignedValue = 0;
    std::int64_t signedValue = 0;
    double number = 0.0;         // Float (float 32 widened)
    std::string_view bytes;      // Str, Bin, Ext: into the decoded bytes
    std::vector<Value> items;    // Array: its values; Map: key, value, key, value, ...
    std::size_t offset = 0;      // where the value starts in the bytes, for messages

    bool isText(std::string_view text) const { return kind == Kind::Str && bytes == text; }
    // Map: the value of the first key that is the string `key`, or null
    const Value* member(std::string_view key) const;
    // Int: whether it is a non-negative integer (then `unsignedValue` holds it)
    bool isUnsigned() const { return kind == Kind::Int && !isNegative; }
    // for messages: "an array", "a string", ...
    const char* kindName() const;
};

// Decodes the one value `bytes` hold (nothing may follow it). Throws bv::Error
// "<name>: byte N: ..." for bytes that are no MessagePack, are cut short, nest deeper than
// `maxDepth`, hold more than `maxValues` values, or leave bytes over.
Value decode(std::string_view bytes, const std::string& name, int maxDepth = 32,
             std::size_t maxValues = std::size_t(1) << 18);

} // namespace bv::io::msgpack
