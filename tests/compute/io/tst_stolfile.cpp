// parseStolText/readStolFile: nonBragg's .stol tables ("stol F" per line); what the reference
// reads, and what braggview refuses (unsorted, negative, not a number, one column, fewer than
// two points) with the name and line in the message.

#include "compute/core/Error.h"
#include "compute/io/StolFile.h"

#include <QTest>

class TestStolFile : public QObject {
    Q_OBJECT
  private slots:
    void readsPointsWithEveryDelimiterAndIgnoresExtraColumns() {
        const bv::io::StolTable t = bv::io::parseStolText("0 2.57\n"
                                                          "  \n"
                                                          "0.05,2.6;extra\n"
                                                          "0.1:3.2!x\r\n"
                                                          "0.2\t-1.5 i\n"
                                                          "0.3 4",
                                                          "t.stol");
        QCOMPARE(t.stol, (std::vector<double>{0.0, 0.05, 0.1, 0.2, 0.3}));
        QCOMPARE(t.F, (std::vector<double>{2.57, 2.6, 3.2, -1.5, 4.0}));
    }

    void hashLinesAreComments() {
        // nanoice.stol's first two lines; the reference read each as a point (0, 0)
        const bv::io::StolTable t = bv::io::parseStolText(
            "#Curve 0, 1000 points\n#x y type\n0 1.34812 i\n0.002002 0.480537 i\n", "nanoice.stol");
        QCOMPARE(t.stol.size(), std::size_t(2));
        QCOMPARE(t.F[0], 1.34812);
    }

    void refusesWhatTheSplineCannotUse_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("because");
        // the reference repository's shortwater.stol has 0.2 before 0.18
        QTest::newRow("unsorted") << QByteArray("0 2.57\n0.2 6.75\n0.18 7.32\n") << ":3:"
                                  << "strictly increasing";
        QTest::newRow("repeated") << QByteArray("0 1\n0.1 2\n0.1 3\n") << ":3:"
                                  << "strictly increasing";
        QTest::newRow("negative") << QByteArray("-0.1 1\n0 2\n") << ":1:"
                                  << "negative";
        QTest::newRow("nan F") << QByteArray("0 1\n0.1 nan\n") << ":2:"
                               << "not a finite number";
        QTest::newRow("inf stol") << QByteArray("0 1\ninf 2\n") << ":2:"
                                  << "not a finite number";
        QTest::newRow("text") << QByteArray("0 1\n0.1 two\n") << ":2:"
                              << "not a finite number";
        QTest::newRow("one column") << QByteArray("0 1\n0.1\n0.2 3\n") << ":2:"
                                    << "one number";
        QTest::newRow("one point") << QByteArray("0.1 1\n") << ": 1 point"
                                   << "at least 2";
        QTest::newRow("empty") << QByteArray("# nothing\n\n") << ": 0 point"
                               << "at least 2";
    }

    void refusesWhatTheSplineCannotUse() {
        QFETCH(QByteArray, text);
        QFETCH(QString, where);
        QFETCH(QString, because);
        try {
            bv::io::parseStolText(text.toStdString(), "bad.stol");
            QFAIL("expected bv::Error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).startsWith("bad.stol" + where), e.what());
            QVERIFY2(QString(e.what()).contains(because), e.what());
        }
    }

    void missingFile() {
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::io::readStolFile("/nonexistent/water.stol"));
    }
};

QTEST_APPLESS_MAIN(TestStolFile)
#include "tst_stolfile.moc"
