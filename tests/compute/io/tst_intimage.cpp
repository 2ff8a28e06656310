// intImage: float photons -> 16-bit pixels of the -intfile image (scale, pedestal, clip, round).

#include "compute/io/IntImage.h"
#include "compute/core/Error.h"

#include <QTest>

class TestIntImage : public QObject {
    Q_OBJECT
  private slots:
    void scaleRule_data() {
        QTest::addColumn<double>("requested");
        QTest::addColumn<double>("maxI");
        QTest::addColumn<double>("expected");
        QTest::newRow("requested wins") << 2.0 << 100.0 << 2.0;
        QTest::newRow("auto: 55000/max") << 0.0 << 110.0 << 500.0;
        QTest::newRow("negative means auto") << -1.0 << 55.0 << 1000.0;
        QTest::newRow("blank image") << 0.0 << 0.0 << 1.0;
    }
    void scaleRule() {
        QFETCH(double, requested);
        QFETCH(double, maxI);
        QFETCH(double, expected);
        QCOMPARE(bv::io::intImageScale(requested, maxI), expected);
    }

    void pixels_data() {
        QTest::addColumn<float>("value");
        QTest::addColumn<double>("scale");
        QTest::addColumn<double>("adc");
        QTest::addColumn<int>("expected");
        QTest::newRow("zero is the pedestal") << 0.0f << 1.0 << 40.0 << 40;
        QTest::newRow("rounds down") << 1.2f << 1.0 << 40.0 << 41;
        QTest::newRow("rounds up") << 1.7f << 1.0 << 40.0 << 42;
        QTest::newRow("half rounds up") << 0.5f << 1.0 << 40.0 << 41;
        QTest::newRow("scaled") << 2.0f << 355.5 << 40.0 << 751;
        QTest::newRow("clipped high") << 70000.0f << 1.0 << 40.0 << 65535;
        QTest::newRow("just below the top") << 65494.9f << 1.0 << 40.0 << 65535;
        QTest::newRow("clipped low") << -100.0f << 1.0 << 40.0 << 0;
        QTest::newRow("no pedestal") << 3.4f << 1.0 << 0.0 << 3;
    }
    void pixels() {
        QFETCH(float, value);
        QFETCH(double, scale);
        QFETCH(double, adc);
        QFETCH(int, expected);
        const auto data = bv::io::intImage({value}, 1, 1, scale, adc, bv::io::Roi::whole(1, 1));
        QCOMPARE(int(data[0]), expected);
    }

    void pixelsOutsideTheRoiAreZero() {
        // 3x2 image, ROI = fast 1..2, slow 1 (inclusive)
        const std::vector<float> image = {1, 2, 3, 4, 5, 6};
        const auto data = bv::io::intImage(image, 3, 2, 10.0, 40.0, bv::io::Roi{1, 2, 1, 1});
        QCOMPARE(data, (std::vector<std::uint16_t>{0, 0, 0, 0, 90, 100}));
    }

    void sizeMismatchIsAnError() {
        QVERIFY_THROWS_EXCEPTION(
            bv::Error, bv::io::intImage({1, 2, 3}, 2, 2, 1.0, 0.0, bv::io::Roi::whole(2, 2)));
    }
};

QTEST_APPLESS_MAIN(TestIntImage)
#include "tst_intimage.moc"
