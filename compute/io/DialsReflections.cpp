#include "compute/io/DialsReflections.h"

#include "compute/core/Error.h"
#include "compute/io/InputFile.h"
#include "compute/io/Msgpack.h"

#include <cmath>
#include <cstring>
#include <optional>

namespace bv::io {

namespace {

using msgpack::Kind;
using msgpack::Value;

// a little-endian number of `size` bytes at `p`
std::uint64_t littleEndian(const char* p, std::size_t size) {
    std::uint64_t v = 0;
    for (std::size_t i = size; i-- > 0;)
        v = (v << 8) | static_cast<std::uint8_t>(p[i]);
    return v;
}

double littleEndianDouble(const char* p) {
    const std::uint64_t bits = littleEndian(p, 8);
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
}

struct Column {
    std::string type;
    std::string_view data; // the elements' bytes
};

class TableReader {
  public:
    TableReader(const std::string& name) : m_name(name) {}

    [[noreturn]] void fail(const std::string& what) const { throw Error(m_name + ": " + what); }

    // COLUMN: [TYPE, [N, BINARY]]
    Column column(const std::string& name, const Value& v, std::uint64_t rows) const {
        const std::string where = "column " + name + ": ";
        if (v.kind != Kind::Array || v.items.size() != 2 || v.items[0].kind != Kind::Str)
            fail(where + "expected [type name, [rows, data]], got " + v.kindName());
        const Value& body = v.items[1];
        if (body.kind != Kind::Array || body.items.size() != 2 || !body.items[0].isUnsigned() ||
            (body.items[1].kind != Kind::Bin && body.items[1].kind != Kind::Str))
            fail(where + "expected [rows, binary data] after its type name");
        if (body.items[0].unsignedValue != rows)
            fail(where + std::to_string(body.items[0].unsignedValue) + " rows, the table " +
                 std::to_string(rows));
        return {std::string(v.items[0].bytes), body.items[1].bytes};
    }

    // a column of fixed-size elements of `type`: checks the type and the data's size
    void expect(const std::string& name, const Column& c, const char* type, std::size_t element,
                std::uint64_t rows) const {
        if (c.type != type)
            fail("column " + name + ": of type " + c.type + ", expected " + type);
        // rows was checked against the data of xyzobs.px.value: no overflow below
        if (c.data.size() / element != rows || c.data.size() % element != 0)
            fail("column " + name + ": " + std::to_string(c.data.size()) + " bytes of data for " +
                 std::to_string(rows) + " rows of " + std::to_string(element) + " bytes");
    }

  private:
    const std::string& m_name;
};

} // namespace

DialsReflections parseDialsReflections(const std::string& bytes, const std::string& name) {
    const TableReader reader(name);
    if (!bytes.empty() && static_cast<std::uint8_t>(bytes[0]) == 0x80)
        reader.fail("a Python pickle, not MessagePack: a reflection table of a DIALS before "
                    "2019; read it with a newer DIALS and save it again");
    const Value top =
        msgpack::decode(bytes, name + ": no DIALS reflection table (MessagePack) can be read");
    if (top.kind != Kind::Array || top.items.size() != 3 ||
        !top.items[0].isText("dials::af::reflection_table"))
        reader.fail("not a DIALS reflection table (a MessagePack array of "
                    "\"dials::af::reflection_table\", its version and its contents expected)");
    DialsReflections table;
    const Value& version = top.items[1];
    if (!version.isUnsigned() || version.unsignedValue < 1 || version.unsignedValue > 2)
        reader.fail("a reflection table of version " +
                    (version.kind == Kind::Int ? std::to_string(version.signedValue)
                                               : std::string("(not a number)")) +
                    "; versions 1 and 2 are read");
    table.version = static_cast<int>(version.unsignedValue);
    const Value& contents = top.items[2];
    if (contents.kind != Kind::Map)
        reader.fail("the table's contents are " + std::string(contents.kindName()) + ", not a map");
    const Value* nrows = contents.member("nrows");
    const Value* data = contents.member("data");
    if (!nrows || !nrows->isUnsigned())
        reader.fail("no row count (nrows)");
    if (!data || data->kind != Kind::Map)
        reader.fail("no columns (data)");
    const std::uint64_t rows = nrows->unsignedValue;

    std::optional<Column> xyz, panel, id, flags;
    for (std::size_t i = 0; i + 1 < data->items.size(); i += 2) {
        const Value& key = data->items[i];
        if (key.kind != Kind::Str)
            reader.fail("a column named by " + std::string(key.kindName()) + ", not a string");
        const std::string columnName(key.bytes);
        for (const std::string& seen : table.columns)
            if (seen == columnName)
                reader.fail("column " + columnName + " twice");
        table.columns.push_back(columnName);
        std::optional<Column>* wanted = columnName == "xyzobs.px.value" ? &xyz
                                        : columnName == "panel"         ? &panel
                                        : columnName == "id"            ? &id
                                        : columnName == "flags"         ? &flags
                                                                        : nullptr;
        const Column c = reader.column(columnName, data->items[i + 1], rows);
        if (wanted)
            *wanted = c;
    }
    if (!xyz)
        reader.fail("no column xyzobs.px.value (the observed spot centres, in pixels): a "
                    "table of spots found (dials.find_spots) or indexed has it");
    // the data's own size bounds the rows before anything is allocated for them
    reader.expect("xyzobs.px.value", *xyz, "vec3<double>", 24, rows);
    if (panel)
        reader.expect("panel", *panel, "std::size_t", 8, rows);
    if (id)
        reader.expect("id", *id, "int", 4, rows);
    if (flags)
        reader.expect("flags", *flags, "std::size_t", 8, rows);

    table.spots.resize(static_cast<std::size_t>(rows));
    for (std::size_t r = 0; r < table.spots.size(); ++r) {
        DialsSpot& s = table.spots[r];
        for (int k = 0; k < 3; ++k)
            s.xyz[k] = littleEndianDouble(xyz->data.data() + 24 * r + 8 * static_cast<std::size_t>(k));
        if (!std::isfinite(s.xyz.x) || !std::isfinite(s.xyz.y) || !std::isfinite(s.xyz.z))
            reader.fail("row " + std::to_string(r) + ": xyzobs.px.value is not a finite position");
        if (panel) {
            const std::uint64_t p = littleEndian(panel->data.data() + 8 * r, 8);
            if (p > 1u << 20)
                reader.fail("row " + std::to_string(r) + ": panel " + std::to_string(p));
            s.panel = static_cast<std::size_t>(p);
        }
        if (id)
            s.experimentId = static_cast<std::int32_t>(
                static_cast<std::uint32_t>(littleEndian(id->data.data() + 4 * r, 4)));
        if (flags)
            s.flags = littleEndian(flags->data.data() + 8 * r, 8);
    }
    return table;
}

DialsReflections readDialsReflections(const std::string& path) {
    return parseDialsReflections(readWholeFile(path, "DIALS reflection table", kImageFileMaxBytes),
                                 path);
}

} // namespace bv::io
