// Numbers in text files: fscanf("%lg")/atof syntax, whole tokens, any locale.

#include "compute/io/NumberText.h"

#include <QTest>

#include <clocale>
#include <cmath>

class TestNumberText : public QObject {
    Q_OBJECT
  private slots:
    void wholeTokens_data() {
        QTest::addColumn<QString>("token");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<double>("value");
        QTest::newRow("integer") << "12" << true << 12.0;
        QTest::newRow("negative") << "-3" << true << -3.0;
        QTest::newRow("plus sign") << "+2.5" << true << 2.5;
        QTest::newRow("decimal") << "0.0215254335" << true << 0.0215254335;
        QTest::newRow("exponent") << "1.0e-10" << true << 1.0e-10;
        QTest::newRow("leading point") << ".5" << true << 0.5;
        QTest::newRow("trailing point") << "5." << true << 5.0;
        QTest::newRow("trailing junk") << "1.5x" << false << 0.0;
        QTest::newRow("comma decimal") << "1,5" << false << 0.0;
        QTest::newRow("word") << "abc" << false << 0.0;
        QTest::newRow("empty") << "" << false << 0.0;
        QTest::newRow("lone sign") << "-" << false << 0.0;
        QTest::newRow("double sign") << "+-1" << false << 0.0;
        QTest::newRow("overflow") << "1e999" << false << 0.0;
    }
    void wholeTokens() {
        QFETCH(QString, token);
        QFETCH(bool, valid);
        QFETCH(double, value);
        const std::string text = token.toStdString();
        const auto parsed = bv::io::parseDouble(text);
        QCOMPARE(parsed.has_value(), valid);
        if (valid)
            QCOMPARE(*parsed, value);
    }

    void nanAndInfinityAreNumbersForTheCallerToJudge() {
        QVERIFY(std::isnan(*bv::io::parseDouble("nan")));
        QVERIFY(std::isinf(*bv::io::parseDouble("-inf")));
    }

    void ignoresTheProcessLocale() {
        // a German LC_NUMERIC makes strtod expect "1,5"; ours must not care (scripts/setup.sh
        // generates the de_DE.UTF-8 locale so that this runs everywhere)
        const char* previous = std::setlocale(LC_NUMERIC, nullptr);
        const std::string saved = previous ? previous : "C";
        QVERIFY2(std::setlocale(LC_NUMERIC, "de_DE.UTF-8"), "de_DE.UTF-8 missing: run scripts/setup.sh");
        const auto parsed = bv::io::parseDouble("1.5");
        const double leading = bv::io::parseLeadingDouble("6.45;");
        std::setlocale(LC_NUMERIC, saved.c_str());
        QCOMPARE(*parsed, 1.5);
        QCOMPARE(leading, 6.45);
    }

    void leadingNumbersLikeAtof_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<double>("value");
        QTest::newRow("header value") << "6.45;\nBEAM" << 6.45;
        QTest::newRow("leading blanks") << "  512;" << 512.0;
        QTest::newRow("no number") << "fake;" << 0.0;
        QTest::newRow("list") << "-6.5,6.5,-100" << -6.5;
        QTest::newRow("empty") << "" << 0.0;
    }
    void leadingNumbersLikeAtof() {
        QFETCH(QString, text);
        QFETCH(double, value);
        QCOMPARE(bv::io::parseLeadingDouble(text.toStdString()), value);
    }

    void integers_data() {
        QTest::addColumn<QString>("token");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<qlonglong>("value");
        QTest::newRow("positive") << "10" << true << 10LL;
        QTest::newRow("negative") << "-10" << true << -10LL;
        QTest::newRow("plus") << "+7" << true << 7LL;
        QTest::newRow("fraction") << "1.5" << false << 0LL;
        QTest::newRow("word") << "ten" << false << 0LL;
    }
    void integers() {
        QFETCH(QString, token);
        QFETCH(bool, valid);
        QFETCH(qlonglong, value);
        const auto parsed = bv::io::parseInteger(token.toStdString());
        QCOMPARE(parsed.has_value(), valid);
        if (valid)
            QCOMPARE(static_cast<qlonglong>(*parsed), value);
    }

    void quotedTokensAreSafeToPrint() {
        QCOMPARE(bv::io::quoteToken("abc"), std::string("'abc'"));
        QCOMPARE(bv::io::quoteToken(std::string("a\0\xff", 3)), std::string("'a\\x00\\xff'"));
        QCOMPARE(bv::io::quoteToken("abcdef", 3), std::string("'abc...'"));
    }
};

QTEST_APPLESS_MAIN(TestNumberText)
#include "tst_numbertext.moc"
