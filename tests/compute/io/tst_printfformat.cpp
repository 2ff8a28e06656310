// formatG / formatFixed print exactly what C's printf prints in the "C" locale.

#include "compute/io/PrintfFormat.h"

#include <QTest>

#include <cstdio>
#include <limits>

namespace {

std::string printfG(double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%g", value);
    return buffer;
}

} // namespace

class TestPrintfFormat : public QObject {
    Q_OBJECT
  private slots:
    void handWritten_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("expected");
        // what the reference wrote into its headers and stdout
        QTest::newRow("pixel") << 0.1 << "0.1";
        QTest::newRow("distance") << 100.0 << "100";
        QTest::newRow("wavelength") << 6.2 << "6.2";
        QTest::newRow("beam centre") << 6.45 << "6.45";
        QTest::newRow("mosflm centre") << (0.0065 - 0.5 * 0.0001) * 1000.0 << "6.45";
        QTest::newRow("lambda") << 6.2e-10 << "6.2e-10";
        QTest::newRow("zero") << 0.0 << "0";
        QTest::newRow("negative zero") << -0.0 << "-0";
        QTest::newRow("six digits") << 355.6364 << "355.636";
        QTest::newRow("large") << 1.25932e+29 << "1.25932e+29";
        QTest::newRow("switch to exponent") << 1234567.0 << "1.23457e+06";
        QTest::newRow("small") << 0.0001 << "0.0001";
        QTest::newRow("smaller") << 0.00001 << "1e-05";
    }
    void handWritten() {
        QFETCH(double, value);
        QFETCH(QString, expected);
        QCOMPARE(QString::fromStdString(bv::io::formatG(value)), expected);
    }

    void agreesWithSnprintf() {
        // a sweep of magnitudes and roundings (process locale is "C" in a Qt-free test)
        const double seeds[] = {1.0,      3.14159265358979, 2.5,  0.999999,     9.9999951,
                                123456.5, 1.0 / 3.0,        7e-5, 6.02214076e23};
        for (double seed : seeds)
            for (int exponent = -12; exponent <= 12; ++exponent)
                for (double sign : {1.0, -1.0}) {
                    const double value = sign * seed * std::pow(10.0, exponent);
                    QCOMPARE(bv::io::formatG(value), printfG(value));
                }
    }

    void fixed() {
        QCOMPARE(bv::io::formatFixed(111987.6, 0), std::string("111988"));
        QCOMPARE(bv::io::formatFixed(0.0, 0), std::string("0"));
        QCOMPARE(bv::io::formatFixed(2.5, 2), std::string("2.50"));
    }
};

QTEST_APPLESS_MAIN(TestPrintfFormat)
#include "tst_printfformat.moc"
