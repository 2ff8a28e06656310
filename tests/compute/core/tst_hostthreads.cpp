// Work shared out over the host's threads (compute/core/HostThreads.h): every item done once
// whatever the thread count and chunk, results written by item the same bits as a serial
// loop, an exception of one item stops the work and reaches the caller, and nothing to do is
// nothing done.

#include "compute/core/HostThreads.h"

#include <QTest>

#include <atomic>
#include <cmath>
#include <stdexcept>
#include <vector>

class TestHostThreads : public QObject {
    Q_OBJECT
  private slots:
    void everyItemOnce_data() {
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("chunk");
        QTest::newRow("one thread") << 1000 << 1 << 1;
        QTest::newRow("four threads, chunks of 7") << 1000 << 4 << 7;
        QTest::newRow("more threads than items") << 3 << 8 << 1;
        QTest::newRow("the host's threads, a chunk larger than the work") << 10 << 0 << 64;
    }
    void everyItemOnce() {
        QFETCH(int, count);
        QFETCH(int, threads);
        QFETCH(int, chunk);
        std::vector<std::atomic<int>> seen(static_cast<std::size_t>(count));
        bv::forEachOnHostThreads(
            seen.size(), [&](std::size_t i) { ++seen[i]; }, static_cast<unsigned>(threads),
            static_cast<std::size_t>(chunk));
        for (const std::atomic<int>& s : seen)
            QCOMPARE(s.load(), 1);
    }

    // slot i written by item i, summed in order: the serial loop's bits
    void sameSumAsTheSerialLoop() {
        const std::size_t n = 20000;
        std::vector<double> serial(n), shared(n);
        for (std::size_t i = 0; i < n; ++i)
            serial[i] = std::sin(0.001 * double(i)) / (1.0 + double(i));
        bv::forEachOnHostThreads(n, [&](std::size_t i) {
            shared[i] = std::sin(0.001 * double(i)) / (1.0 + double(i));
        }, 4, 33);
        double a = 0.0, b = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            a += serial[i];
            b += shared[i];
        }
        QCOMPARE(b, a);
    }

    void anItemsExceptionReachesTheCaller() {
        std::atomic<int> done{0};
        bool caught = false;
        try {
            bv::forEachOnHostThreads(1000, [&](std::size_t i) {
                if (i == 17)
                    throw std::runtime_error("item 17 failed");
                ++done;
            }, 4);
        } catch (const std::runtime_error& e) {
            caught = QString(e.what()) == "item 17 failed";
        }
        QVERIFY(caught);
        QVERIFY(done.load() < 1000);
    }

    void nothingToDo() {
        int calls = 0;
        bv::forEachOnHostThreads(0, [&](std::size_t) { ++calls; });
        QCOMPARE(calls, 0);
        QVERIFY(bv::hostThreads() >= 1 && bv::hostThreads() <= 16);
    }
};

QTEST_GUILESS_MAIN(TestHostThreads)
#include "tst_hostthreads.moc"
