// FrameLog (compute/headless/FrameLog.h): frames finished by several devices or MPI ranks
// arrive in any order; the log prints their lines, appends their NeXus data and counts them
// in frame order, and a record crosses ranks as bytes that read back to the same record.
// No GPU and no MPI: the records are made by hand.

#include "compute/core/Error.h"
#include "compute/headless/FrameLog.h"
#include "compute/headless/Progress.h"

#include <QTest>

#include <sstream>
#include <string>
#include <vector>

using bv::headless::FrameRecord;

namespace {

FrameRecord rendered(std::size_t index) {
    FrameRecord r;
    r.index = index;
    r.line = "frame " + std::to_string(index + 1);
    r.written = {"f_" + std::to_string(index + 1) + ".img"};
    r.uploadedParts = static_cast<unsigned>(index);
    return r;
}

struct Log {
    std::vector<std::string> lines;
    std::vector<double> nexusStarts; // the start angles appended, in order
    bv::headless::BatchReport report;
    std::ostringstream bar;
    bv::headless::FrameProgress progress{bar, 0, false};
    bv::headless::FrameLog log;
    explicit Log(std::size_t frames)
        : log(
              frames, [this](const std::string& line) { lines.push_back(line); },
              [this](const bv::products::NexusFrame& f) { nexusStarts.push_back(f.startDeg); },
              report, progress) {}
};

} // namespace

class TestFrameLog : public QObject {
    Q_OBJECT

  private slots:
    // Records in any order: lines, files and the report in frame order, each frame as soon as
    // every frame before it is in.
    void linesFollowFrameOrder_data() {
        QTest::addColumn<QList<int>>("arrival");
        QTest::newRow("in order") << QList<int>{0, 1, 2, 3, 4};
        QTest::newRow("two ranks, rank 1 first") << QList<int>{1, 3, 0, 2, 4};
        QTest::newRow("reversed") << QList<int>{4, 3, 2, 1, 0};
    }
    void linesFollowFrameOrder() {
        QFETCH(QList<int>, arrival);
        Log l(5);
        for (int index : arrival) {
            l.log.add(rendered(static_cast<std::size_t>(index)));
            // what is printed is always a prefix 1..n of the frames
            for (std::size_t k = 0; k < l.lines.size(); ++k)
                QCOMPARE(l.lines[k], "frame " + std::to_string(k + 1));
            QCOMPARE(l.log.next(), l.lines.size());
        }
        QVERIFY(l.log.complete());
        QCOMPARE(l.report.rendered, 5);
        QCOMPARE(l.report.writtenFiles,
                 (std::vector<std::string>{"f_1.img", "f_2.img", "f_3.img", "f_4.img", "f_5.img"}));
        QCOMPARE(l.report.uploadedParts, (std::vector<unsigned>{0, 1, 2, 3, 4}));
    }

    // The reference's interpolation warning once per run: the first frame in frame order that
    // left the grid, whichever arrived first. Skipped frames count as skipped.
    void warningOnceAndSkips() {
        Log l(4);
        FrameRecord third = rendered(2), second = rendered(1);
        third.gridExitLine = "warning of frame 3";
        second.gridExitLine = "warning of frame 2";
        FrameRecord skipped;
        skipped.index = 3;
        skipped.skipped = true;
        skipped.line = "frame 4 skipped";
        l.log.add(third);
        l.log.add(skipped);
        l.log.add(second);
        l.log.add(rendered(0));
        QCOMPARE(l.lines, (std::vector<std::string>{"frame 1", "warning of frame 2", "frame 2",
                                                    "frame 3", "frame 4 skipped"}));
        QCOMPARE(l.report.rendered, 3);
        QCOMPARE(l.report.skipped, 1);
    }

    // NeXus frames are appended in frame order.
    void nexusInFrameOrder() {
        Log l(3);
        for (int index : {2, 0, 1}) {
            FrameRecord r = rendered(static_cast<std::size_t>(index));
            r.nexus = bv::products::NexusFrame{0.5 * index, true, {index}, {}};
            l.log.add(r);
        }
        QCOMPARE(l.nexusStarts, (std::vector<double>{0.0, 0.5, 1.0}));
    }

    // A frame twice, or beyond the batch, is refused (ranks that disagree on their shares).
    void aFrameTwiceIsRefused() {
        Log l(2);
        l.log.add(rendered(1));
        QVERIFY_THROWS_EXCEPTION(bv::Error, l.log.add(rendered(1)));
        QVERIFY_THROWS_EXCEPTION(bv::Error, l.log.add(rendered(2)));
        l.log.add(rendered(0));
        QVERIFY_THROWS_EXCEPTION(bv::Error, l.log.add(rendered(0)));
    }

    // A record as bytes and back: every field, with and without NeXus data.
    void bytesRoundTrip_data() {
        QTest::addColumn<bool>("counts");
        QTest::addColumn<bool>("withNexus");
        QTest::newRow("no NeXus") << false << false;
        QTest::newRow("NeXus counts") << true << true;
        QTest::newRow("NeXus floats") << false << true;
    }
    void bytesRoundTrip() {
        QFETCH(bool, counts);
        QFETCH(bool, withNexus);
        FrameRecord r = rendered(41);
        r.gridExitLine = "grid exit at (1.5, 2, -3)";
        r.written.push_back("f_42.cbf");
        r.timing = {12.5, 3.25, 7.0, 0.5, 0.25};
        if (withNexus) {
            bv::products::NexusFrame f;
            f.startDeg = 20.5;
            f.counts = counts;
            if (counts)
                f.photons = {0, 7, -1, 2147483647};
            else
                f.image = {0.5f, 1e-30f, 3.0e38f};
            r.nexus = f;
        }
        const FrameRecord back = bv::headless::recordFromBytes(bv::headless::toBytes(r));
        QCOMPARE(back.index, r.index);
        QCOMPARE(back.skipped, r.skipped);
        QCOMPARE(back.line, r.line);
        QCOMPARE(back.gridExitLine, r.gridExitLine);
        QCOMPARE(back.written, r.written);
        QCOMPARE(back.timing.renderMs, 12.5);
        QCOMPARE(back.timing.gpuMs, 3.25);
        QCOMPARE(back.timing.filesMs, 7.0);
        QCOMPARE(back.timing.prepareMs, 0.5);
        QCOMPARE(back.timing.planMs, 0.25);
        QCOMPARE(back.uploadedParts, r.uploadedParts);
        QCOMPARE(back.nexus.has_value(), withNexus);
        if (withNexus) {
            QCOMPARE(back.nexus->startDeg, 20.5);
            QCOMPARE(back.nexus->counts, counts);
            QCOMPARE(back.nexus->photons, r.nexus->photons);
            QCOMPARE(back.nexus->image, r.nexus->image);
        }
    }

    // -v's line: the median of each phase over the frames (four frames: the mean of the middle
    // two), the main thread's part first.
    void timingLineShowsMedians() {
        std::vector<bv::headless::BatchReport::FrameTiming> t = {
            {5.0, 4.0, 30.0, 0.1, 0.2}, {7.0, 4.6, 10.0, 0.3, 0.4},
            {6.0, 4.2, 20.0, 0.2, 0.3}, {100.0, 4.0, 90.0, 9.0, 0.3}};
        QCOMPARE(bv::headless::timingLine(t),
                 std::string("per frame, median ms: main thread 0.25 + plan to the device 0.30, "
                             "render 6.50, GPU 4.10, files 25.00"));
    }

    // Bytes cut short or with bytes left over are an error, not a guess.
    void malformedBytesAreRefused() {
        FrameRecord r = rendered(3);
        r.nexus = bv::products::NexusFrame{1.0, true, {1, 2, 3}, {}};
        const std::vector<char> bytes = bv::headless::toBytes(r);
        for (std::size_t cut : {std::size_t(0), std::size_t(5), bytes.size() / 2, bytes.size() - 1})
            QVERIFY_THROWS_EXCEPTION(bv::Error, bv::headless::recordFromBytes(std::vector<char>(
                                                    bytes.begin(), bytes.begin() + long(cut))));
        std::vector<char> longer = bytes;
        longer.push_back(0);
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::headless::recordFromBytes(longer));
    }
};

QTEST_GUILESS_MAIN(TestFrameLog)
#include "tst_framelog.moc"
