// readMeasuredImage: a measured frame of each format, written by the project's own writers
// with the marks each format has for pixels without data, read back as numbers and a map of
// the pixels that carry data; and the refusals.

#include "compute/core/Error.h"
#include "compute/io/CbfImage.h"
#include "compute/io/MeasuredImage.h"
#include "compute/io/NexusFile.h"
#include "compute/io/Smv.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <sstream>

namespace {

std::string pathIn(const QTemporaryDir& dir, const char* name) {
    return dir.filePath(QLatin1String(name)).toStdString();
}

// an SMV image of fast x slow pixels of 0.1 mm holding `counts`
void writeSmvImage(const std::string& path, int fast, int slow,
                   const std::vector<std::uint16_t>& counts) {
    bv::io::SmvHeader h;
    h.fpixels = fast;
    h.spixels = slow;
    h.pixelSizeMm = 0.1;
    bv::io::writeSmv(path, h, counts);
}

QString refusal(const std::string& path, std::size_t frame = 0) {
    try {
        bv::io::readMeasuredImage(path, frame);
    } catch (const bv::Error& e) {
        return QString::fromStdString(e.what());
    }
    return QStringLiteral("no error");
}

} // namespace

class TestMeasuredImage : public QObject {
    Q_OBJECT
  private slots:
    void cbfGapsAndOverloadsCarryNoData() {
        // 3 x 2 pixels: a gap (-1), an overload (the cutoff, 100), counts
        QTemporaryDir dir;
        const std::string path = pathIn(dir, "frame_00001.cbf");
        bv::io::CbfHeader h;
        h.fastPixels = 3;
        h.slowPixels = 2;
        h.pixelSizeM = 172e-6;
        h.wavelengthA = 1.0;
        h.countCutoff = 100;
        bv::io::writeCbf(path, h, {5, -1, 7, 100, 0, 99});
        const bv::io::MeasuredImage m = bv::io::readMeasuredImage(path);
        QCOMPARE(QString::fromStdString(m.format), QStringLiteral("CBF"));
        QCOMPARE(m.width, 3);
        QCOMPARE(m.height, 2);
        QCOMPARE(m.pixels, (std::vector<float>{5, -1, 7, 100, 0, 99}));
        QCOMPARE(m.hasData, (std::vector<std::uint8_t>{1, 0, 1, 0, 1, 1}));
        QCOMPARE(m.pixelsWithData(), std::size_t(4));
        QVERIFY(refusal(path, 1).contains("a CBF file holds one frame, not frame 2"));
    }

    void smvCeilingIsAnOverload() {
        QTemporaryDir dir;
        const std::string path = pathIn(dir, "image.img");
        writeSmvImage(path, 2, 2, {40, 65535, 41, 1000});
        const bv::io::MeasuredImage m = bv::io::readMeasuredImage(path);
        QCOMPARE(QString::fromStdString(m.format), QStringLiteral("SMV"));
        QCOMPARE(m.pixels, (std::vector<float>{40, 65535, 41, 1000}));
        QCOMPARE(m.hasData, (std::vector<std::uint8_t>{1, 0, 1, 1}));
    }

    // A pixel the simulation does not render (0 in the experiment's -mask, outside its -roi)
    // is 0 in the simulated image, so the measured frame's value there counts in no
    // comparison and no fit: read for the experiment, the frame has no data there.
    void pixelsTheSimulationLeavesOutCarryNoData() {
        QTemporaryDir dir;
        const std::string path = pathIn(dir, "image.img");
        writeSmvImage(path, 3, 2, {40, 65535, 41, 42, 43, 44}); // pixel 1 an overload
        bv::Panel p;
        p.fastPixels = 3;
        p.slowPixels = 2;
        bv::RenderedArea rendered;
        rendered.mask = {1, 1, 0, 1, 1, 1}; // nanoBragg's -mask: pixel (2, 0) left out
        rendered.roi = bv::Roi{0, 1, 0, 1}; // -roi 0 1 0 1: the third column left out
        QCOMPARE(bv::skippedPixels(rendered, 3, 2), (std::vector<std::uint8_t>{0, 0, 1, 0, 0, 1}));
        std::ostringstream log;
        bv::io::MeasuredImage m = bv::io::readMeasuredImageFor(path, 0, {p}, "", rendered, log);
        QCOMPARE(m.hasData, (std::vector<std::uint8_t>{1, 0, 0, 1, 1, 0}));
        // the overload had no data already: two pixels taken, said so
        QVERIFY2(QString::fromStdString(log.str()).contains(
                     "2 pixels the simulation does not render (-mask, -roi)"),
                 qPrintable(QString::fromStdString(log.str())));
        // a mask of another size (the caller reports the sizes) and no roi: nothing skipped
        QVERIFY(bv::skippedPixels({{0, 0}, std::nullopt}, 3, 2).empty());
        bv::io::MeasuredImage whole = bv::io::readMeasuredImage(path);
        QCOMPARE(bv::io::clearSkipped(whole, {}), std::size_t(0));
        QCOMPARE(whole.hasData, (std::vector<std::uint8_t>{1, 0, 1, 1, 1, 1}));
    }

    void nexusFramesUnderloadsAndSaturation() {
        // two frames of 2 x 2 counts; -1 is the underload, 1000 the saturation
        QTemporaryDir dir;
        const std::string path = pathIn(dir, "series.h5");
        if (!bv::io::bitshuffleAvailable())
            QFAIL("HDF5 has no bitshuffle filter: install Debian's bitshuffle (scripts/setup.sh)");
        bv::io::NexusDescription d;
        d.imageFast = 2;
        d.imageSlow = 2;
        bv::io::NexusModule module;
        module.fastPixelSize = module.slowPixelSize = 75e-6;
        module.fastPixels = module.slowPixels = 2;
        module.origin = {0, 0, 0.1};
        d.modules.push_back(module);
        d.wavelength = 1e-10;
        d.saturation = 1000;
        {
            bv::io::NexusWriter w(path, d);
            w.appendFrame(0.0, std::vector<std::int32_t>{1, 2, 3, 4});
            w.appendFrame(0.1, std::vector<std::int32_t>{-1, 1000, 999, 0});
            w.finish();
            w.commit();
        }
        const bv::io::MeasuredImage first = bv::io::readMeasuredImage(path, 0);
        QCOMPARE(QString::fromStdString(first.format), QStringLiteral("NXmx"));
        QCOMPARE(first.frames, std::size_t(2));
        QCOMPARE(first.pixels, (std::vector<float>{1, 2, 3, 4}));
        QCOMPARE(first.pixelsWithData(), std::size_t(4));
        const bv::io::MeasuredImage second = bv::io::readMeasuredImage(path, 1);
        QCOMPARE(second.hasData, (std::vector<std::uint8_t>{0, 0, 1, 1}));
        QCOMPARE(second.pixels[2], 999.0f);
        QVERIFY2(refusal(path, 2).contains("no frame 3: the file holds 2"), qPrintable(refusal(path, 2)));
    }

    void trustedRangesOfTheStackedPanels() {
        // two panels of 3 x 1 stacked: the first trusts 0 to 10 (both ends inclusive), the
        // second states no range
        bv::io::MeasuredImage m;
        m.width = 3;
        m.height = 2;
        m.pixels = {-2, 0, 10, 11, -5, 1e6};
        m.hasData.assign(6, 1);
        bv::Panel a, b;
        a.fastPixels = b.fastPixels = 3;
        a.slowPixels = b.slowPixels = 1;
        a.trustedRange = std::make_pair(0.0, 10.0);
        QCOMPARE(bv::io::applyTrustedRanges(m, {a, b}), std::size_t(1));
        QCOMPARE(m.hasData, (std::vector<std::uint8_t>{0, 1, 1, 1, 1, 1}));
        // the same range on the second panel: its 11, -5 and 1e6 go; a pixel already without
        // data is not counted again
        b.trustedRange = a.trustedRange;
        QCOMPARE(bv::io::applyTrustedRanges(m, {a, b}), std::size_t(3));
        QCOMPARE(m.hasData, (std::vector<std::uint8_t>{0, 1, 1, 0, 0, 0}));
        // panels that are not how the image is stacked change nothing
        bv::io::MeasuredImage n = m;
        n.hasData.assign(6, 1);
        a.slowPixels = 2;
        QCOMPARE(bv::io::applyTrustedRanges(n, {a, b}), std::size_t(0));
        QCOMPARE(bv::io::applyTrustedRanges(n, {}), std::size_t(0));
        QCOMPARE(n.hasData, std::vector<std::uint8_t>(6, 1));
    }

    void modulesTakenFromTheWholeDetectorsImage() {
        // four modules of 2 x 2 pixels of 0.1 mm, two across and two down with a gap of one
        // pixel between them (as a PILATUS's): a 5 x 5 image whose pixel (f, s) holds 10 s + f,
        // the gaps -1 (no data). The panels are listed down then across, as a file may.
        bv::io::MeasuredImage m;
        m.width = m.height = 5;
        for (int s = 0; s < 5; ++s)
            for (int f = 0; f < 5; ++f) {
                const bool gap = f == 2 || s == 2;
                m.pixels.push_back(gap ? -1.0f : float(10 * s + f));
                m.hasData.push_back(gap ? 0 : 1);
            }
        std::vector<bv::Panel> panels;
        for (int across : {0, 1})
            for (int down : {0, 1}) {
                bv::Panel p;
                p.fastPixels = p.slowPixels = 2;
                p.pixelSizeFast = p.pixelSizeSlow = 1e-4;
                p.origin = glm::dvec3(0.1, 0.0, 0.0) + 3e-4 * across * p.fast + 3e-4 * down * p.slow;
                panels.push_back(p);
            }
        bv::io::MeasuredImage stacked = m;
        QCOMPARE(bv::io::stackModules(stacked, panels), std::size_t(4));
        QCOMPARE(stacked.width, 2);
        QCOMPARE(stacked.height, 8);
        // module (across 0, down 0), then (0, 1), (1, 0), (1, 1): each its own 2 x 2 pixels
        QCOMPARE(stacked.pixels, (std::vector<float>{0, 1, 10, 11, 30, 31, 40, 41,
                                                     3, 4, 13, 14, 33, 34, 43, 44}));
        QCOMPARE(stacked.hasData, std::vector<std::uint8_t>(16, 1));
        // stacked already: left as it is
        QCOMPARE(bv::io::stackModules(stacked, panels), std::size_t(0));
        // modules that do not tile the image (one moved a pixel along fast, so the bounding
        // box is 6 wide; or one over another): left as it is
        std::vector<bv::Panel> moved = panels;
        moved[3].origin += 1e-4 * moved[3].fast;
        bv::io::MeasuredImage n = m;
        QCOMPARE(bv::io::stackModules(n, moved), std::size_t(0));
        moved = panels; // the last at (1, 3): over the one at (0, 3), the box still 5 x 5
        moved[3].origin -= 2e-4 * moved[3].fast;
        QCOMPARE(bv::io::stackModules(n, moved), std::size_t(0));
        QCOMPARE(n.pixels, m.pixels);
    }

    void refusals() {
        QTemporaryDir dir;
        QVERIFY(refusal(pathIn(dir, "missing.cbf")).contains("missing.cbf: cannot open"));
        const std::string text = pathIn(dir, "notes.txt");
        std::ofstream(text) << "hello";
        QVERIFY(refusal(text).contains("notes.txt: not a measured image braggview reads"));
        const std::string hdf = pathIn(dir, "cut.h5");
        std::ofstream(hdf, std::ios::binary) << "\x89HDF\r\n\x1a\n" << std::string(40, '\0');
        QVERIFY(refusal(hdf).contains("cut.h5: cannot open as HDF5"));
    }
};

QTEST_APPLESS_MAIN(TestMeasuredImage)
#include "tst_measuredimage.moc"
