// -background and -response_* per frame of a batch, on the Vulkan driver (lavapipe here
// and in CI): the products step makes a frame's noise image with the detector response
// exactly when the frame's own options say so, as the single run of its command line does,
// and adds a frame's own background layer (docs/detector-response.md, docs/amorphous.md).

#include "compute/headless/Batch.h"
#include "tests/engine/HeadlessRun.h"

#include "tests/TestSupport.h"
#include "tests/series/SeriesRuns.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <sstream>

namespace {

using bv::testing::bytes;
using bv::testing::writeText;

const std::vector<std::string>& kSmall = bv::testing::kSmallSeries;
using bv::testing::batch;
using bv::testing::with;

using Run = bv::testing::HeadlessRun;
Run headless(const std::vector<std::string>& args) { return bv::testing::runHeadless(args); }

} // namespace

class TestFrameSignal : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir m_dir;
    QString m_previous;

  private slots:
    void init() {
        QVERIFY(m_dir.isValid());
        m_previous = QDir::currentPath();
        QVERIFY(QDir::setCurrent(m_dir.path()));
    }
    void cleanup() { QDir::setCurrent(m_previous); }

    // -response_* per frame: a frame's noise image is noisify's chain's exactly when its own
    // options say so, the single run of its command line; the frames without it, and every
    // int image (noiseless), are what they are without the response; -background likewise
    void theDetectorResponseIsPerFrame() {
        const QByteArray base = "{\n  \"base\": \"-cell 50 60 70 90 90 90 -misset 10 20 30 "
                                "-lambda 1.0 -N 3 -default_F 100 -distance 60 -detpixels 48 "
                                "-noprogress -seed 3 -nopgm ";
        writeText("plain.json", base + "-noisefile p_#.img -intfile pi_#.img\",\n"
                                       "  \"frames\": [{}, {}]\n}");
        writeText("response.json", base + "-noisefile r_#.img -intfile ri_#.img\",\n"
                                          "  \"frames\": [{}, {\"-response_gain\": 3, "
                                          "\"-response_readout\": 5}]\n}");
        std::string log;
        QCOMPARE(batch({"--job", "plain.json"}, &log).rendered, 2);
        QCOMPARE(batch({"--job", "response.json"}, &log).rendered, 2);
        QCOMPARE(bytes("r_1.img"), bytes("p_1.img"));
        QVERIFY(bytes("r_2.img") != bytes("p_2.img"));
        QCOMPARE(bytes("ri_1.img"), bytes("pi_1.img"));
        QCOMPARE(bytes("ri_2.img"), bytes("pi_2.img"));
        // frame 2 is the single run of its command line (the base's seed + 1), response and all
        const Run single = headless(
            with(kSmall, "-seed 4 -noisefile one.img -nopgm -response_gain 3 -response_readout 5"));
        QVERIFY2(single.status == 0, single.err.c_str());
        QCOMPARE(bytes("r_2.img"), bytes("one.img"));
        // -background per frame, likewise: frame 2's float image alone holds the layer
        writeText("water.json", base + "-floatfile w_#.bin\",\n"
                                       "  \"frames\": [{}, {\"-background\": \"water\", "
                                       "\"-background_thickness\": 0.01}]\n}");
        writeText("dry.json", base + "-floatfile d_#.bin\",\n  \"frames\": [{}, {}]\n}");
        QCOMPARE(batch({"--job", "water.json"}, &log).rendered, 2);
        QCOMPARE(batch({"--job", "dry.json"}, &log).rendered, 2);
        QCOMPARE(bytes("w_1.bin"), bytes("d_1.bin"));
        QVERIFY(bytes("w_2.bin") != bytes("d_2.bin"));
        const Run wet = headless(with(kSmall, "-seed 4 -floatfile one.bin -nopgm -nonoise "
                                              "-background water -background_thickness 0.01"));
        QVERIFY2(wet.status == 0, wet.err.c_str());
        QCOMPARE(bytes("w_2.bin"), bytes("one.bin"));

        // a series: each frame with the response is the single run at its angle and seed
        const auto report = batch(with(kSmall, "-phi 0 -osc 1 -series 2 -seed 11 -nopgm "
                                               "-noisefile s_#.img -response_psf gauss "
                                               "-response_psf_fwhm 200 -response_readout 2"));
        QCOMPARE(report.rendered, 2);
        for (int i = 0; i < 2; ++i) {
            const Run frame = headless(with(kSmall, QString("-phi %1 -osc 1 -seed %2 -nopgm "
                                                            "-noisefile one.img -response_psf "
                                                            "gauss -response_psf_fwhm 200 "
                                                            "-response_readout 2")
                                                        .arg(i)
                                                        .arg(11 + i)));
            QVERIFY2(frame.status == 0, frame.err.c_str());
            QCOMPARE(bytes("s_" + QString::number(i + 1) + ".img"), bytes("one.img"));
        }
    }
};

QTEST_APPLESS_MAIN(TestFrameSignal)
#include "tst_framesignal.moc"
