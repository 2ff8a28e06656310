// The JSON reader of job and session files (nlohmann::json underneath): what RFC 8259 allows
// is read, in file order, with each value's line and column and each number's text as written;
// everything else, duplicate keys and deep nesting included, is a bv::Error naming line and
// column. And the two helpers of fixed-layout files (sessions): the writer, whose numbers read
// back exactly, and the member reader, whose errors name the place and the key's path.

#include "compute/io/Json.h"
#include "compute/io/JsonFields.h"
#include "compute/io/JsonWriter.h"
#include "compute/core/Error.h"

#include <nlohmann/json.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include <QTemporaryDir>
#include <QTest>

using bv::io::Json;
using bv::io::JsonDocument;
using bv::io::parseJson;

namespace {

JsonDocument parse(const char* text) {
    return parseJson(text, "job.json");
}

} // namespace

class TestJson : public QObject {
    Q_OBJECT
  private slots:
    void readsEveryKindOfValue() {
        const JsonDocument doc = parse("{\n"
                                       "  \"s\": \"a\\\"b\\\\c\\/d\\n\\u00e9\\ud83d\\ude00\",\n"
                                       "  \"n\": -12.5e+2,\n"
                                       "  \"i\": 120,\n"
                                       "  \"t\": true, \"f\": false, \"z\": null,\n"
                                       "  \"a\": [1, \"two\", [], {}],\n"
                                       "  \"o\": {\"k\": 0}\n"
                                       "}");
        const Json& v = doc.root();
        QVERIFY(v.is_object());
        QCOMPARE(v.size(), std::size_t(8));
        // members in the order of the file (not sorted: "s" would come after "o")
        std::string keys;
        for (const auto& [key, value] : v.items())
            keys += key;
        QCOMPARE(keys, std::string("snitfzao"));
        QCOMPARE(v["s"].get<std::string>(), std::string("a\"b\\c/d\n\xc3\xa9\xf0\x9f\x98\x80"));
        QCOMPARE(v["n"].get<double>(), -1250.0);
        QCOMPARE(doc.numberText(v["n"]), std::string("-12.5e+2")); // as written
        QCOMPARE(doc.numberText(v["i"]), std::string("120"));
        QVERIFY(v["t"].get<bool>());
        QVERIFY(!v["f"].get<bool>());
        QVERIFY(v["z"].is_null());
        QCOMPARE(v["a"].size(), std::size_t(4));
        QVERIFY(v["a"][2].is_array());
        QCOMPARE(v["o"]["k"].get<double>(), 0.0);
        QVERIFY(bv::io::jsonMember(v, "missing") == nullptr);
        QVERIFY(bv::io::jsonMember(v, "o") == &v["o"]);
        // where each value starts
        QCOMPARE(doc.lineColumn(v["n"]), std::make_pair(3, 8));
        QCOMPARE(doc.where(v["o"]), std::string("job.json:7:8"));
        QCOMPARE(doc.where(v["o"]["k"]), std::string("job.json:7:14"));
        QCOMPARE(doc.where(v["a"][1]), std::string("job.json:6:12"));
        QCOMPARE(doc.where(v["a"][3]), std::string("job.json:6:23"));
        QCOMPARE(doc.where(v["f"]), std::string("job.json:5:19"));
        QCOMPARE(doc.where(v), std::string("job.json:1:1"));
    }

    void placesAfterNumbersAndOnManyLines() {
        // a number ends where the parser has already read the byte after it
        const JsonDocument doc = parse("[1,2 ,\r\n[3],\t{\"x\":4}, 5]");
        const Json& v = doc.root();
        QCOMPARE(doc.where(v[1]), std::string("job.json:1:4"));
        QCOMPARE(doc.where(v[2]), std::string("job.json:2:1"));
        QCOMPARE(doc.where(v[2][0]), std::string("job.json:2:2"));
        QCOMPARE(doc.where(v[3]), std::string("job.json:2:6"));
        QCOMPARE(doc.where(v[3]["x"]), std::string("job.json:2:11"));
        QCOMPARE(doc.where(v[4]), std::string("job.json:2:15"));
        QCOMPARE(doc.numberText(v[4]), std::string("5"));
    }

    void valuesFromElsewhereHaveNoPlace() {
        const JsonDocument doc = parse("{\"a\": [1.50]}");
        const Json copy = doc.root()["a"];
        QCOMPARE(doc.where(copy), std::string("job.json"));
        QCOMPARE(doc.lineColumn(copy), std::make_pair(0, 0));
        QCOMPARE(doc.numberText(doc.root()["a"][0]), std::string("1.50"));
        QCOMPARE(doc.numberText(copy[0]), std::string("1.5")); // no text: the shortest one
        const JsonDocument made("made.json", Json::parse("[-7]"));
        QCOMPARE(made.where(made.root()[0]), std::string("made.json"));
        QCOMPARE(made.numberText(made.root()[0]), std::string("-7"));
    }

    void negativeZeroKeepsItsSign() {
        // nlohmann alone reads "-0" as the integer 0; a written -0.0 must read back as itself
        const JsonDocument doc = parse("[-0, 0, -0.0, -0e3]");
        for (std::size_t i : {0, 2, 3}) {
            const double x = doc.root()[i].get<double>();
            QVERIFY2(x == 0.0 && std::signbit(x), qPrintable(QString::number(i)));
        }
        QVERIFY(!std::signbit(doc.root()[1].get<double>()));
    }

    void typeNamesForMessages() {
        const JsonDocument doc = parse("[null, true, 1, 1.5, -2, \"s\", [], {}]");
        const char* names[] = {"null",        "true or false", "a number", "a number",
                               "a number",    "a string",      "an array", "an object"};
        for (std::size_t i = 0; i < 8; ++i)
            QCOMPARE(bv::io::jsonTypeName(doc.root()[i]), names[i]);
        QVERIFY(bv::io::jsonMember(doc.root(), "0") == nullptr); // an array has no members
    }

    void malformedTextNamesLineAndColumn_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("place");   // the message starts with this
        QTest::addColumn<QString>("problem"); // and says this after it
        // the place is the last byte the parser read: the offending byte, or the last byte of
        // the offending token ("12" after "0", the key "b" after a missing comma)
        QTest::newRow("empty") << QByteArray("") << "job.json:1:1: " << "unexpected end of input";
        QTest::newRow("trailing comma in object")
            << QByteArray("{\"a\": 1,\n}") << "job.json:2:1: " << "unexpected '}'";
        QTest::newRow("trailing comma in array")
            << QByteArray("[1, 2,]") << "job.json:1:7: " << "unexpected ']'";
        QTest::newRow("missing colon") << QByteArray("{\"a\" 1}") << "job.json:1:6: " << "expected ':'";
        QTest::newRow("missing comma")
            << QByteArray("{\"a\": 1\n \"b\": 2}") << "job.json:2:4: " << "expected '}'";
        QTest::newRow("unquoted key")
            << QByteArray("{a: 1}") << "job.json:1:2: " << "expected string literal";
        QTest::newRow("single quotes") << QByteArray("['x']") << "job.json:1:2: " << "invalid literal";
        QTest::newRow("comment") << QByteArray("{} // note") << "job.json:1:4: "
                                 << "expected end of input";
        QTest::newRow("two documents") << QByteArray("{}\n{}") << "job.json:2:1: "
                                       << "expected end of input";
        QTest::newRow("unclosed string")
            << QByteArray("[\"abc") << "job.json:1:6: " << "missing closing quote";
        QTest::newRow("unclosed array") << QByteArray("[1, 2") << "job.json:1:6: "
                                        << "unexpected end of input";
        QTest::newRow("control character")
            << QByteArray("[\"a\tb\"]") << "job.json:1:4: " << "control character U+0009";
        QTest::newRow("bad escape")
            << QByteArray("[\"a\\qb\"]") << "job.json:1:5: " << "forbidden character after backslash";
        QTest::newRow("lone low surrogate")
            << QByteArray("[\"\\udc00\"]") << "job.json:1:8: " << "surrogate U+DC00..U+DFFF";
        QTest::newRow("leading zero") << QByteArray("[012]") << "job.json:1:4: " << "unexpected number";
        QTest::newRow("leading plus") << QByteArray("[+1]") << "job.json:1:2: " << "invalid literal";
        QTest::newRow("bare point")
            << QByteArray("[1.]") << "job.json:1:4: " << "invalid number";
        QTest::newRow("huge number")
            << QByteArray("[1e999]") << "job.json:1:2: " << "the number 1e999 is too large";
        QTest::newRow("huge integer")
            << QByteArray("[0, " + QByteArray(400, '9') + "]") << "job.json:1:5: " << "is too large";
        QTest::newRow("NaN") << QByteArray("[NaN]") << "job.json:1:2: " << "invalid literal";
        QTest::newRow("infinity") << QByteArray("[-Infinity]") << "job.json:1:3: " << "invalid number";
        QTest::newRow("truth") << QByteArray("[tru]") << "job.json:1:5: " << "invalid literal";
        QTest::newRow("duplicate key") << QByteArray("{\"a\": 1,\n \"a\": 2}") << "job.json:2:2: "
                                       << "duplicate member \"a\" (first at line 1)";
        QTest::newRow("duplicate key, nested")
            << QByteArray("{\"a\": {\"b\": 1}, \"c\": {\"b\": 2, \"d\": [{\"e\": 1, \"e\": 1}]}}")
            << "job.json:1:46: " << "duplicate member \"e\"";
        QTest::newRow("invalid UTF-8")
            << QByteArray("[\"\xc3\x28\"]") << "job.json:1:4: " << "ill-formed UTF-8";
    }
    void malformedTextNamesLineAndColumn() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, place);
        QFETCH(QString, problem);
        try {
            parseJson(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                      "job.json");
            QFAIL("no error");
        } catch (const bv::Error& e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.startsWith(place), e.what());
            QVERIFY2(what.contains(problem), e.what());
            QVERIFY2(!what.contains("json.exception"), e.what()); // nlohmann's prefix is gone
        }
    }

    void duplicateKeysInDifferentObjectsAreFine() {
        const JsonDocument doc = parse("[{\"a\": 1}, {\"a\": 2, \"b\": {\"a\": 3}}]");
        QCOMPARE(doc.root()[1]["b"]["a"].get<int>(), 3);
    }

    void deepNestingIsRefused() {
        const std::string deep(100000, '[');
        try {
            parseJson(deep, "deep.json");
            QFAIL("no error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).startsWith("deep.json:1:201: nested more than 200 levels"),
                     e.what());
        }
        // 200 levels are fine
        const std::string deepest = std::string(200, '[') + std::string(200, ']');
        QVERIFY(parseJson(deepest, "deep.json").root().is_array());
    }

    void byteOrderMarkIsSkipped() {
        const JsonDocument doc = parse("\xEF\xBB\xBF{\"a\": 1}");
        QCOMPARE(doc.root()["a"].get<double>(), 1.0);
        QCOMPARE(doc.where(doc.root()["a"]), std::string("job.json:1:10")); // columns in bytes
    }

    void fileErrorsNameTheFile() {
        QTemporaryDir dir;
        const std::string missing = dir.filePath("none.json").toStdString();
        try {
            bv::io::readJsonFile(missing);
            QFAIL("no error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).contains("none.json"), e.what());
        }
    }

    void quotingRoundTrips() {
        const std::string text = "a\"b\\c\n\t\x01 \xc3\xa9";
        const JsonDocument back = parse(("[" + bv::io::jsonQuoted(text) + "]").c_str());
        QCOMPARE(back.root()[0].get<std::string>(), text);
    }

    // ---- JsonWriter ---------------------------------------------------------------------------
    void writerLaysOutAsDocumented() {
        bv::io::JsonWriter w;
        w.beginObject();
        w.key("distance").number(0.1);
        w.key("axis").beginArray().number(0).number(0).number(1).endArray();
        w.key("automatic").null();
        w.key("rows").beginArray();
        w.beginArray().integer(1).string("a\"b").endArray();
        w.beginObject().key("on").boolean(true).endObject();
        w.endArray();
        w.key("empty").beginObject().endObject();
        w.endObject();
        QCOMPARE(QString::fromStdString(w.text()),
                 QStringLiteral("{\n"
                                "  \"distance\": 0.1,\n"
                                "  \"axis\": [0, 0, 1],\n"
                                "  \"automatic\": null,\n"
                                "  \"rows\": [\n"
                                "    [1, \"a\\\"b\"],\n"
                                "    {\n"
                                "      \"on\": true\n"
                                "    }\n"
                                "  ],\n"
                                "  \"empty\": {}\n"
                                "}\n"));
    }

    void writtenNumbersReadBackExactly_data() {
        QTest::addColumn<double>("value");
        QTest::newRow("a tenth") << 0.1;
        QTest::newRow("0.1 + 0.2") << 0.1 + 0.2;
        QTest::newRow("a third") << 1.0 / 3.0;
        QTest::newRow("a wavelength") << 1.2345678901234567e-10;
        QTest::newRow("smallest denormal") << std::numeric_limits<double>::denorm_min();
        QTest::newRow("largest") << std::numeric_limits<double>::max();
        QTest::newRow("negative zero") << -0.0;
        QTest::newRow("a fluence") << 125932015286227086360700780544.0;
    }
    void writtenNumbersReadBackExactly() {
        QFETCH(double, value);
        bv::io::JsonWriter w;
        w.beginArray().number(value).endArray();
        const double back = parse(w.text().c_str()).root()[0].get<double>();
        QCOMPARE(std::memcmp(&back, &value, sizeof value), 0);
    }

    void notANumberIsRefusedWithItsKey() {
        bv::io::JsonWriter w;
        w.beginObject().key("distance");
        try {
            w.number(std::nan(""));
            QFAIL("no error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).startsWith("\"distance\": "), e.what());
            QVERIFY2(QString(e.what()).contains("JSON has no NaN or infinity"), e.what());
        }
    }

    void writerMisuseIsALogicError() {
        QVERIFY_THROWS_EXCEPTION(std::logic_error, bv::io::JsonWriter().beginObject().number(1));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, bv::io::JsonWriter().beginArray().key("x"));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, bv::io::JsonWriter().beginArray().text());
        QVERIFY_THROWS_EXCEPTION(std::logic_error, bv::io::JsonWriter().beginArray().endObject());
    }

    void aParsedValueIsWrittenWithItsValues() {
        // members in their order; a number as the shortest text of its value (1E5 -> 1e+05)
        const JsonDocument doc =
            parse("{\"n\": 1E5, \"s\": \"\\u00e9\", \"i\": -3, \"z\": -0, \"a\": [true, null]}");
        bv::io::JsonWriter w;
        w.value(doc.root());
        QCOMPARE(QString::fromStdString(w.text()),
                 QString::fromUtf8("{\n  \"n\": 1e+05,\n  \"s\": \"\xc3\xa9\",\n  \"i\": -3,\n"
                                   "  \"z\": -0,\n  \"a\": [true, null]\n}\n"));
    }

    // ---- JsonFields ---------------------------------------------------------------------------
    void fieldsReadByName() {
        const JsonDocument doc = parseJson("{\"detector\": {\"distance\": 0.1, \"beamX\": null,\n"
                                           " \"axis\": [0, -1, 0], \"steps\": 3, \"curved\": false}}",
                                           "view.json");
        const bv::io::JsonFields detector = bv::io::JsonFields(doc, doc.root()).object("detector");
        QCOMPARE(detector.number("distance", bv::io::JsonFields::Positive), 0.1);
        QVERIFY(!detector.optionalNumber("beamX"));
        QCOMPARE(detector.vector("axis").y, -1.0);
        QCOMPARE(detector.whole("steps", 0, 10), 3LL);
        QCOMPARE(detector.boolean("curved"), false);
        QVERIFY(detector.has("axis") && !detector.has("unknown"));
    }

    void fieldErrorsNamePlaceAndPath_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("wrong kind") << "{\"d\": {\"distance\": \"far\"}}"
                                    << "view.json:1:20: d.distance: expected a number greater than 0, got 'far'";
        QTest::newRow("out of range") << "{\"d\": {\"distance\": -2}}"
                                      << "view.json:1:20: d.distance: expected a number greater than 0, got -2";
        QTest::newRow("missing") << "{\"d\": {}}" << "view.json:1:7: d: \"distance\" is missing";
        QTest::newRow("not an object") << "{\"d\": [1]}" << "view.json:1:7: d: expected an object, got an array";
        QTest::newRow("as written") << "{\"d\":\n {\"distance\": -2.50E0}}"
                                    << "view.json:2:15: d.distance: expected a number greater than 0, got -2.50E0";
    }
    void fieldErrorsNamePlaceAndPath() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const JsonDocument doc = parseJson(text.toStdString(), "view.json");
        try {
            bv::io::JsonFields(doc, doc.root()).object("d").number("distance", bv::io::JsonFields::Positive);
            QFAIL("no error");
        } catch (const bv::Error& e) {
            QCOMPARE(QString(e.what()), message);
        }
    }

    void wholeNumbersKeepTheirRange_data() {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("inside") << "7" << true;
        QTest::newRow("bound") << "-10" << true;
        QTest::newRow("fraction") << "2.5" << false;
        QTest::newRow("beyond long long") << "1e300" << false;
        QTest::newRow("beyond int64, as an integer") << "99999999999999999999999" << false;
        QTest::newRow("below") << "-11" << false;
    }
    void wholeNumbersKeepTheirRange() {
        QFETCH(QString, value);
        QFETCH(bool, accepted);
        const JsonDocument doc = parse(("{\"n\": " + value + "}").toUtf8().constData());
        bool ok = true;
        try {
            bv::io::JsonFields(doc, doc.root()).whole("n", -10, 10);
        } catch (const bv::Error&) {
            ok = false;
        }
        QCOMPARE(ok, accepted);
    }
};

QTEST_APPLESS_MAIN(TestJson)
#include "tst_json.moc"
