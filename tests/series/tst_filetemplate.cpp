// File names of series frames: one run of # becomes the 1-based frame number, zero-padded.

#include "compute/io/FileTemplate.h"
#include "compute/core/Error.h"

#include <QTest>

using bv::io::FileTemplate;

class TestFileTemplate : public QObject {
    Q_OBJECT
  private slots:
    void fillsTheRunOfHashes_data() {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<int>("number");
        QTest::addColumn<QString>("name");
        QTest::newRow("the issue's example") << "frame_#####.img" << 7 << "frame_00007.img";
        QTest::newRow("all digits used") << "sim_##.img" << 42 << "sim_42.img";
        QTest::newRow("one hash") << "a#.cbf" << 9 << "a9.cbf";
        QTest::newRow("at the start") << "###.img" << 1 << "001.img";
        QTest::newRow("at the end") << "image_###" << 12 << "image_012";
        QTest::newRow("a directory keeps its #") << "run#1/img_###.img" << 3 << "run#1/img_003.img";
        QTest::newRow("frame 0") << "f_###.img" << 0 << "f_000.img";
    }
    void fillsTheRunOfHashes() {
        QFETCH(QString, pattern);
        QFETCH(int, number);
        QFETCH(QString, name);
        const FileTemplate t(pattern.toStdString());
        QVERIFY(t.hasField());
        QCOMPARE(QString::fromStdString(t.fileName(number)), name);
    }

    void withoutHashesTheNameStays() {
        const FileTemplate t("image.img");
        QVERIFY(!t.hasField());
        QCOMPARE(t.width(), std::size_t(0));
        QCOMPARE(t.fileName(5), std::string("image.img"));
        QVERIFY(t.fits(123456789));
        // a # only in the directory is no field either
        QVERIFY(!FileTemplate("frames#/image.img").hasField());
    }

    void widthBoundsTheFrameNumbers() {
        const FileTemplate t("sim_##.img");
        QCOMPARE(t.width(), std::size_t(2));
        QVERIFY(t.fits(99));
        QVERIFY(!t.fits(100));
        try {
            t.fileName(100);
            QFAIL("no error for a number wider than the field");
        } catch (const bv::Error& e) {
            const QString message = e.what();
            QVERIFY2(message.contains("sim_##.img") && message.contains("3 digits") &&
                         message.contains("2 #"),
                     e.what());
        }
        QVERIFY_THROWS_EXCEPTION(bv::Error, t.fileName(-1));
    }

    void twoRunsAreAmbiguous() {
        try {
            FileTemplate("a_##_##.img");
            QFAIL("no error for two runs of #");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).contains("more than one run of #"), e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestFileTemplate)
#include "tst_filetemplate.moc"
