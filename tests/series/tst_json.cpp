// The strict JSON reader of job files: what RFC 8259 allows is read, in file order, with
// each value's line and column; everything else is an error naming line and column. And the
// two helpers of fixed-layout files (sessions): the writer, whose numbers read back exactly,
// and the member reader, whose errors name the key's path.

#include "compute/io/Json.h"
#include "compute/io/JsonFields.h"
#include "compute/io/JsonWriter.h"
#include "compute/core/Error.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include <QTemporaryDir>
#include <QtTest>

using bv::io::JsonValue;
using bv::io::parseJson;

namespace {

JsonValue parse(const char* text) {
    return parseJson(text, "job.json");
}

} // namespace

class TestJson : public QObject {
    Q_OBJECT
  private slots:
    void readsEveryKindOfValue() {
        const JsonValue v = parse("{\n"
                                  "  \"s\": \"a\\\"b\\\\c\\/d\\n\\u00e9\\ud83d\\ude00\",\n"
                                  "  \"n\": -12.5e+2,\n"
                                  "  \"i\": 120,\n"
                                  "  \"t\": true, \"f\": false, \"z\": null,\n"
                                  "  \"a\": [1, \"two\", [], {}],\n"
                                  "  \"o\": {\"k\": 0}\n"
                                  "}");
        QVERIFY(v.isObject());
        QCOMPARE(v.members().size(), std::size_t(8));
        // members in the order of the file
        QCOMPARE(v.members()[0].first, std::string("s"));
        QCOMPARE(v.members()[7].first, std::string("o"));
        QCOMPARE(v.member("s")->text(), std::string("a\"b\\c/d\n\xc3\xa9\xf0\x9f\x98\x80"));
        QCOMPARE(v.member("n")->number(), -1250.0);
        QCOMPARE(v.member("n")->text(), std::string("-12.5e+2")); // as written
        QCOMPARE(v.member("i")->text(), std::string("120"));
        QVERIFY(v.member("t")->boolean());
        QVERIFY(!v.member("f")->boolean());
        QVERIFY(v.member("z")->isNull());
        QCOMPARE(v.member("a")->elements().size(), std::size_t(4));
        QVERIFY(v.member("a")->elements()[2].isArray());
        QCOMPARE(v.member("o")->member("k")->number(), 0.0);
        QVERIFY(v.member("missing") == nullptr);
        // where each value starts
        QCOMPARE(v.member("n")->line(), 3);
        QCOMPARE(v.member("n")->column(), 8);
        QCOMPARE(bv::io::jsonWhere("job.json", *v.member("o")), std::string("job.json:7:8"));
    }

    void wrongTypeAccessThrows() {
        const JsonValue v = parse("[1]");
        QVERIFY_THROWS_EXCEPTION(bv::Error, v.members());
        QVERIFY_THROWS_EXCEPTION(bv::Error, v.elements()[0].boolean());
        QVERIFY(v.member("x") == nullptr);
    }

    void malformedTextNamesLineAndColumn_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected"); // the message starts with this
        QTest::newRow("empty") << QByteArray("") << "job.json:1:1: the text is empty";
        QTest::newRow("trailing comma in object")
            << QByteArray("{\"a\": 1,\n}") << "job.json:2:1: expected a member name after ','";
        QTest::newRow("trailing comma in array")
            << QByteArray("[1, 2,]") << "job.json:1:7: expected a value after ','";
        QTest::newRow("missing colon") << QByteArray("{\"a\" 1}") << "job.json:1:6: expected ':'";
        QTest::newRow("missing comma")
            << QByteArray("{\"a\": 1\n \"b\": 2}") << "job.json:2:2: expected '}' or ','";
        QTest::newRow("unquoted key")
            << QByteArray("{a: 1}") << "job.json:1:2: expected a member name in double quotes";
        QTest::newRow("single quotes") << QByteArray("['x']") << "job.json:1:2: expected a value";
        QTest::newRow("comment") << QByteArray("{} // note")
                                 << "job.json:1:4: unexpected '/' after the end";
        QTest::newRow("two documents") << QByteArray("{}\n{}") << "job.json:2:1: unexpected '{'";
        QTest::newRow("unclosed string")
            << QByteArray("[\"abc") << "job.json:1:2: the string is not closed";
        QTest::newRow("unclosed array") << QByteArray("[1, 2") << "job.json:1:6: expected ']'";
        QTest::newRow("control character")
            << QByteArray("[\"a\tb\"]") << "job.json:1:4: a control character";
        QTest::newRow("bad escape")
            << QByteArray("[\"a\\qb\"]") << "job.json:1:4: unknown escape \\q";
        QTest::newRow("lone low surrogate")
            << QByteArray("[\"\\udc00\"]") << "job.json:1:9: a \\u escape of a low surrogate";
        QTest::newRow("leading zero")
            << QByteArray("[012]") << "job.json:1:3: a number must not start with 0";
        QTest::newRow("leading plus") << QByteArray("[+1]") << "job.json:1:2: expected a value";
        QTest::newRow("bare point")
            << QByteArray("[1.]") << "job.json:1:4: expected a digit after the decimal point";
        QTest::newRow("huge number")
            << QByteArray("[1e999]") << "job.json:1:2: the number 1e999 is too large";
        QTest::newRow("NaN") << QByteArray("[NaN]") << "job.json:1:2: expected a value";
        QTest::newRow("truth") << QByteArray("[tru]") << "job.json:1:2: expected a value, got 't'";
        QTest::newRow("duplicate key") << QByteArray("{\"a\": 1,\n \"a\": 2}")
                                       << "job.json:2:2: duplicate member \"a\" (first at line 1)";
        QTest::newRow("invalid UTF-8")
            << QByteArray("[\"\xc3\x28\"]") << "job.json:1:3: the string is not valid UTF-8";
    }
    void malformedTextNamesLineAndColumn() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        try {
            parseJson(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                      "job.json");
            QFAIL("no error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).startsWith(expected), e.what());
        }
    }

    void deepNestingIsRefused() {
        const std::string deep(100000, '[');
        try {
            parseJson(deep, "deep.json");
            QFAIL("no error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).contains("nested more than 200 levels"), e.what());
        }
    }

    void byteOrderMarkIsSkipped() {
        QCOMPARE(parse("\xEF\xBB\xBF{\"a\": 1}").member("a")->number(), 1.0);
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
        const JsonValue back = parse(("[" + bv::io::jsonQuoted(text) + "]").c_str());
        QCOMPARE(back.elements()[0].text(), text);
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
        const double back = parse(w.text().c_str()).elements()[0].number();
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

    void aParsedValueIsWrittenAsItWas() {
        const JsonValue v = parse("{\"n\": 1E5, \"s\": \"\\u00e9\", \"a\": [true, null]}");
        bv::io::JsonWriter w;
        w.value(v);
        QCOMPARE(QString::fromStdString(w.text()),
                 QString::fromUtf8("{\n  \"n\": 1E5,\n  \"s\": \"\xc3\xa9\",\n  \"a\": [true, null]\n}\n"));
    }

    // ---- JsonFields ---------------------------------------------------------------------------
    void fieldsReadByName() {
        const JsonValue root = parse("{\"detector\": {\"distance\": 0.1, \"beamX\": null,\n"
                                     " \"axis\": [0, -1, 0], \"steps\": 3, \"curved\": false}}");
        const bv::io::JsonFields detector = bv::io::JsonFields(root, "view.json").object("detector");
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
    }
    void fieldErrorsNamePlaceAndPath() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        const JsonValue root = parse(text.toUtf8().constData());
        try {
            bv::io::JsonFields(root, "view.json").object("d").number("distance", bv::io::JsonFields::Positive);
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
        QTest::newRow("below") << "-11" << false;
    }
    void wholeNumbersKeepTheirRange() {
        QFETCH(QString, value);
        QFETCH(bool, accepted);
        const JsonValue root = parse(("{\"n\": " + value + "}").toUtf8().constData());
        bool ok = true;
        try {
            bv::io::JsonFields(root, "view.json").whole("n", -10, 10);
        } catch (const bv::Error&) {
            ok = false;
        }
        QCOMPARE(ok, accepted);
    }
};

QTEST_APPLESS_MAIN(TestJson)
#include "tst_json.moc"
