// readDialsReflections: a real strong.refl (dials.find_spots on a braggview CBF,
// tests/data/dials/strong.refl; its values as DIALS's own flex table prints them), tables
// written here in MessagePack by hand (a small writer below: the format's own spec), and the
// refusals, each naming the file and what is wrong. The MessagePack decoder's number forms.

#include "compute/core/Error.h"
#include "compute/io/DialsReflections.h"
#include "compute/io/Msgpack.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace {

// ---- a MessagePack writer of the forms a reflection table uses ----------------------------
std::string big(std::uint64_t v, int bytes) {
    std::string s;
    for (int i = bytes - 1; i >= 0; --i)
        s += static_cast<char>((v >> (8 * i)) & 0xff);
    return s;
}
std::string str(const std::string& s) { return "\xd9" + big(s.size(), 1) + s; }
std::string unsignedInt(std::uint64_t v) { return "\xcf" + big(v, 8); }
std::string bin(const std::string& data) { return "\xc6" + big(data.size(), 4) + data; }
std::string array(const std::vector<std::string>& items) {
    std::string s = "\xdd" + big(items.size(), 4);
    for (const std::string& i : items)
        s += i;
    return s;
}
std::string map(const std::vector<std::pair<std::string, std::string>>& items) {
    std::string s = "\xdf" + big(items.size(), 4);
    for (const auto& [k, v] : items)
        s += k + v;
    return s;
}
std::string little(const void* p, std::size_t n) {
    // this test runs on little-endian hosts, as DIALS writes
    return std::string(static_cast<const char*>(p), n);
}
std::string doubles(const std::vector<double>& v) { return little(v.data(), 8 * v.size()); }
std::string sizes(const std::vector<std::uint64_t>& v) { return little(v.data(), 8 * v.size()); }
std::string ints(const std::vector<std::int32_t>& v) { return little(v.data(), 4 * v.size()); }

std::string column(const std::string& type, std::uint64_t rows, const std::string& data) {
    return array({str(type), array({unsignedInt(rows), bin(data)})});
}

// two spots; `replace` swaps a column for another value
std::string table(const std::vector<std::pair<std::string, std::string>>& columns,
                  std::uint64_t rows = 2, std::uint64_t version = 2) {
    return array({str("dials::af::reflection_table"), unsignedInt(version),
                  map({{str("identifiers"), map({})}, {str("nrows"), unsignedInt(rows)},
                       {str("data"), map([&] {
                            std::vector<std::pair<std::string, std::string>> c;
                            for (const auto& [name, value] : columns)
                                c.push_back({str(name), value});
                            return c;
                        }())}})});
}

std::vector<std::pair<std::string, std::string>> twoSpots() {
    return {{"xyzobs.px.value", column("vec3<double>", 2, doubles({10.25, 20.5, 0.5, 3, 4, 7.5}))},
            {"panel", column("std::size_t", 2, sizes({0, 3}))},
            {"id", column("int", 2, ints({0, -1}))},
            {"flags", column("std::size_t", 2, sizes({32, 36}))},
            {"intensity.sum.value", column("double", 2, doubles({1, 2}))},
            {"shoebox", column("Shoebox<>", 2, std::string(17, '\0'))}};
}

QString refusal(const std::string& bytes) {
    try {
        bv::io::parseDialsReflections(bytes, "t.refl");
    } catch (const bv::Error& e) {
        return QString::fromStdString(e.what());
    }
    return "no error";
}

} // namespace

class TestDialsReflections : public QObject {
    Q_OBJECT
  private slots:
    void readsARealStrongRefl() {
        const auto t = bv::io::readDialsReflections(std::string(BV_TEST_DATA) + "/dials/strong.refl");
        // as dials.python's flex.reflection_table.from_file prints it (tests/data/dials/README.md)
        QCOMPARE(t.version, 1);
        QCOMPARE(t.spots.size(), std::size_t(226));
        const bv::io::DialsSpot& s = t.spots.at(0);
        QVERIFY(std::fabs(s.xyz.x - 84.99491153906372) < 1e-9 && std::fabs(s.xyz.y - 1.8901675277908252) < 1e-9 &&
                std::fabs(s.xyz.z - 0.5) < 1e-9);
        for (const bv::io::DialsSpot& spot : t.spots) {
            QCOMPARE(spot.panel, std::size_t(0));
            QCOMPARE(spot.experimentId, 0);
            QVERIFY(spot.flags & 32); // strong
        }
        QVERIFY(t.columns.size() > 4);
    }

    void readsAHandMadeTable() {
        const auto t = bv::io::parseDialsReflections(table(twoSpots()), "t.refl");
        QCOMPARE(t.spots.size(), std::size_t(2));
        QCOMPARE(t.spots[0].xyz.x, 10.25);
        QCOMPARE(t.spots[0].xyz.y, 20.5);
        QCOMPARE(t.spots[1].xyz.z, 7.5);
        QCOMPARE(t.spots[1].panel, std::size_t(3));
        QCOMPARE(t.spots[1].experimentId, -1);
        QCOMPARE(t.spots[1].flags, std::uint64_t(36));
        QCOMPARE(t.columns.size(), std::size_t(6));
        // only the centres are needed: the rest default
        const auto bare = bv::io::parseDialsReflections(table({twoSpots()[0]}, 2, 1), "t.refl");
        QCOMPARE(bare.spots[1].panel, std::size_t(0));
        QCOMPARE(bare.version, 1);
    }

    void refusals_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const auto bytes = [](const std::string& s) { return QByteArray(s.data(), static_cast<int>(s.size())); };
        auto spots = twoSpots();
        QTest::newRow("empty") << QByteArray()
                               << "t.refl: no DIALS reflection table (MessagePack) can be read: byte 0: the file ends inside a value";
        QTest::newRow("pickle") << QByteArray("\x80\x02}q\x00", 5) << "t.refl: a Python pickle";
        QTest::newRow("JSON") << QByteArray("{\"a\": 1}") << "can be read: byte 1: 7 bytes after the value";
        QTest::newRow("another tag")
            << bytes(array({str("dials::af::shoebox"), unsignedInt(1), map({})})) << "not a DIALS reflection table";
        QTest::newRow("version 3") << bytes(table(spots, 2, 3)) << "a reflection table of version 3";
        const std::string whole = table(spots);
        QTest::newRow("cut short") << bytes(whole.substr(0, whole.size() - 5))
                                   << "the file ends inside binary data";
        QTest::newRow("bytes after") << bytes(whole + "\xc0") << "1 bytes after the value";
        QTest::newRow("no centres") << bytes(table({spots[1]})) << "no column xyzobs.px.value";
        auto wrongType = spots;
        wrongType[0].second = column("vec2<double>", 2, doubles({1, 2, 3, 4}));
        QTest::newRow("wrong type") << bytes(table(wrongType))
                                    << "column xyzobs.px.value: of type vec2<double>, expected vec3<double>";
        auto wrongRows = spots;
        wrongRows[1].second = column("std::size_t", 3, sizes({0, 0, 0}));
        QTest::newRow("rows") << bytes(table(wrongRows)) << "column panel: 3 rows, the table 2";
        auto short_ = spots;
        short_[2].second = column("int", 2, ints({0}));
        QTest::newRow("short data") << bytes(table(short_))
                                    << "column id: 4 bytes of data for 2 rows of 4 bytes";
        auto nan = spots;
        nan[0].second = column("vec3<double>", 2, doubles({1, 2, 3, 4, NAN, 6}));
        QTest::newRow("not finite") << bytes(table(nan)) << "row 1: xyzobs.px.value is not a finite";
        auto twice = spots;
        twice.push_back(spots[1]);
        QTest::newRow("twice") << bytes(table(twice)) << "column panel twice";
        // a count far beyond the bytes: refused before anything is made for it
        QTest::newRow("huge array") << QByteArray("\xdd\xff\xff\xff\xff\x01", 6)
                                    << "byte 0: an array of 4294967295 entries in the 1 bytes left";
        QTest::newRow("huge binary") << bytes("\xc6\xff\xff\xff\xf0" + std::string(3, 'x'))
                                     << "the file ends inside binary data (4294967280 bytes needed, 3 left)";
        std::string deep;
        for (int i = 0; i < 40; ++i)
            deep += "\x91";
        deep += "\xc0";
        QTest::newRow("deep") << bytes(deep) << "nested deeper than 32 levels";
        QTest::newRow("0xc1") << QByteArray("\xc1", 1) << "byte 0: 0xc1 is no MessagePack value";
    }
    void refusals() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        const QString got = refusal(bytes.toStdString());
        QVERIFY2(got.contains(message), qPrintable(got));
    }

    void aMissingFile() {
        try {
            bv::io::readDialsReflections("/nonexistent/strong.refl");
            QFAIL("no error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).contains("/nonexistent/strong.refl"), e.what());
        }
    }

    void msgpackNumbers() {
        using bv::io::msgpack::decode;
        // the spec's forms: fixints, int8 to int64 (sign-extended), uint16, float32, float64
        QCOMPARE(decode("\x05", "m").unsignedValue, std::uint64_t(5));
        QCOMPARE(decode("\xff", "m").signedValue, std::int64_t(-1));
        QCOMPARE(decode("\xd0\x80", "m").signedValue, std::int64_t(-128));
        QCOMPARE(decode(std::string("\xd1\xff\x00", 3), "m").signedValue, std::int64_t(-256));
        QCOMPARE(decode("\xd3\xff\xff\xff\xff\xff\xff\xff\xfe", "m").signedValue, std::int64_t(-2));
        QCOMPARE(decode(std::string("\xd2\x00\x00\x01\x00", 5), "m").unsignedValue, std::uint64_t(256));
        QCOMPARE(decode(std::string("\xcd\x01\x00", 3), "m").unsignedValue, std::uint64_t(256));
        QCOMPARE(decode(std::string("\xca\x3f\xc0\x00\x00", 5), "m").number, 1.5);
        QCOMPARE(decode(std::string("\xcb\x40\x09\x21\xfb\x54\x44\x2d\x18", 9), "m").number, M_PI);
        const auto m = decode("\x82\xa1" "a\x01\xa1" "b\x92\xc3\xc0", "m");
        QCOMPARE(m.member("a")->unsignedValue, std::uint64_t(1));
        QCOMPARE(m.member("b")->items.size(), std::size_t(2));
        QVERIFY(m.member("b")->items[0].boolean);
        QVERIFY(!m.member("c"));
    }
};

QTEST_APPLESS_MAIN(TestDialsReflections)
#include "tst_dialsreflections.moc"
