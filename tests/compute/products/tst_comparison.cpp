// compareImages: a measured image made from the simulated one by a known scale and
// background must give them back, whatever the pixels without data hold; noise lowers the
// correlation and shows in the residual; each panel has its own figures; sizes must agree.

#include "compute/core/Error.h"
#include "compute/products/Comparison.h"

#include <QTest>

#include <cmath>
#include <sstream>

namespace {

bv::io::MeasuredImage measuredOf(int width, int height, const std::vector<float>& pixels) {
    bv::io::MeasuredImage m;
    m.format = "CBF";
    m.width = width;
    m.height = height;
    m.pixels = pixels;
    m.hasData.assign(pixels.size(), 1);
    return m;
}

bv::ResolvedExperiment panels(std::vector<std::pair<const char*, int>> rows, int width) {
    bv::ResolvedExperiment r;
    for (const auto& [name, slow] : rows) {
        bv::PanelGeometry p;
        p.name = name;
        p.fastPixels = width;
        p.slowPixels = slow;
        r.panels.push_back(p);
    }
    return r;
}

} // namespace

class TestComparison : public QObject {
    Q_OBJECT
  private slots:
    void scaleAndBackgroundComeBack() {
        // measured = 2.5 simulated + 40 on every pixel with data; the masked one holds junk
        const std::vector<float> s = {0, 1, 4, 9, 16, 25, 36, 49};
        std::vector<float> m;
        for (float v : s)
            m.push_back(2.5f * v + 40.0f);
        bv::io::MeasuredImage measured = measuredOf(4, 2, m);
        measured.pixels[3] = 1e6f;
        measured.hasData[3] = 0;
        const bv::products::Comparison c =
            bv::products::compareImages(measured, s, panels({{"one", 2}}, 4));
        QCOMPARE(c.all.pixels, std::size_t(7));
        QVERIFY(std::fabs(c.all.scale - 2.5) < 1e-9);
        QVERIFY(std::fabs(c.all.background - 40.0) < 1e-7);
        QVERIFY(std::fabs(c.all.correlation - 1.0) < 1e-12);
        QVERIFY(c.all.residual < 1e-6);
        QVERIFY(c.panels.empty()); // one panel: the overall figures say it all
    }

    void noiseShowsInTheResidual() {
        // +1, -1 alternately on top of measured = simulated: residual 1 (the fit cannot
        // absorb an alternation uncorrelated with s), correlation below 1
        const std::vector<float> s = {0, 0, 10, 10, 20, 20, 30, 30};
        std::vector<float> m(s);
        for (std::size_t i = 0; i < m.size(); ++i)
            m[i] += i % 2 ? -1.0f : 1.0f;
        const bv::products::Comparison c =
            bv::products::compareImages(measuredOf(8, 1, m), s, panels({{"one", 1}}, 8));
        QVERIFY(std::fabs(c.all.scale - 1.0) < 1e-9);
        QVERIFY(std::fabs(c.all.residual - 1.0) < 1e-9);
        QVERIFY(c.all.correlation < 1.0 && c.all.correlation > 0.99);
    }

    void eachPanelItsOwn() {
        // two panels of 2 x 1: the first measured as 2 s, the second as 3 s + 1
        const std::vector<float> s = {1, 2, 1, 2};
        const std::vector<float> m = {2, 4, 4, 7};
        const bv::products::Comparison c =
            bv::products::compareImages(measuredOf(2, 2, m), s, panels({{"m0", 1}, {"m1", 1}}, 2));
        QCOMPARE(c.panels.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(c.panels[1].first), QStringLiteral("m1"));
        QVERIFY(std::fabs(c.panels[0].second.scale - 2.0) < 1e-9);
        QVERIFY(std::fabs(c.panels[1].second.scale - 3.0) < 1e-9);
        QVERIFY(std::fabs(c.panels[1].second.background - 1.0) < 1e-9);
        std::ostringstream out;
        bv::products::printComparison(out, "frame.cbf", measuredOf(2, 2, m), 0, c);
        QVERIFY2(QString::fromStdString(out.str()).contains("panel m1"), out.str().c_str());
    }

    void sizesMustAgree() {
        try {
            bv::products::compareImages(measuredOf(3, 1, {1, 2, 3}), {1, 2, 3, 4},
                                        panels({{"one", 2}}, 2));
            QFAIL("no error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).contains("the measured image is 3 x 1 pixels, the simulated one 2 x 2"),
                     e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestComparison)
#include "tst_comparison.moc"
