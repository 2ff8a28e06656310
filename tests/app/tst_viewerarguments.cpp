// The viewer's own options on braggview's command line (app/ViewerArguments.h): in any
// order, with a window size, and a one-sentence reason for every mistake. No window: the
// words alone.

#include "app/ViewerArguments.h"

#include <QTest>

using namespace bv;

Q_DECLARE_METATYPE(std::vector<std::string>)

namespace {

std::vector<std::string> words(const QString& text) {
    std::vector<std::string> out;
    for (const QString& w : text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        out.push_back(w.toStdString());
    return out;
}

} // namespace

class TestViewerArguments : public QObject {
    Q_OBJECT

  private slots:
    void anyOrderReadsTheSame_data() {
        QTest::addColumn<QString>("line");
        QTest::newRow("screenshot first") << "--screenshot a.png --lesson bragg --presentation --size 1920x1080";
        QTest::newRow("size first") << "--size 1920x1080 --presentation --lesson bragg --screenshot a.png";
        QTest::newRow("lesson first") << "--lesson bragg --size 1920X1080 --screenshot a.png --presentation";
    }
    void anyOrderReadsTheSame() {
        QFETCH(QString, line);
        const app::ViewerArguments read = app::readViewerArguments(words(line));
        QVERIFY2(read.error.empty(), read.error.c_str());
        QCOMPARE(read.options.screenshot, std::string("a.png"));
        QCOMPARE(read.options.lesson, std::string("bragg"));
        QVERIFY(read.options.presentation);
        QCOMPARE(read.options.windowSize, QSize(1920, 1080));
        QVERIFY(read.options.arguments.empty());
        QVERIFY(read.options.session.empty());
    }

    void sourcesOfTheExperiment() {
        // a session with a screenshot (once refused: only --lesson could follow it)
        app::ViewerArguments read =
            app::readViewerArguments(words("--session s.json --screenshot s.png"));
        QVERIFY2(read.error.empty(), read.error.c_str());
        QCOMPARE(read.options.session, std::string("s.json"));
        QCOMPARE(read.options.screenshot, std::string("s.png"));
        QVERIFY(!read.options.windowSize.isValid()); // the window's own size
        // presenting without a lesson: the first one (as F5 does)
        read = app::readViewerArguments(words("--presentation --screenshot p.png"));
        QVERIFY2(read.error.empty(), read.error.c_str());
        QVERIFY(read.options.presentation && read.options.lesson.empty());
        // nanoBragg's arguments, in their order, around the viewer's options
        read = app::readViewerArguments(
            words("-cell 40 40 40 90 90 90 --size 800x600 -N 5 --screenshot n.png -lambda 1"));
        QVERIFY2(read.error.empty(), read.error.c_str());
        QCOMPARE(read.options.arguments,
                 words("-cell 40 40 40 90 90 90 -N 5 -lambda 1"));
        QCOMPARE(read.options.windowSize, QSize(800, 600));
        // nothing: the demo
        read = app::readViewerArguments({});
        QVERIFY(read.error.empty() && read.options.arguments.empty() &&
                read.options.session.empty() && read.options.lesson.empty());
    }

    void mistakesSayWhy_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("message");
        QTest::newRow("unknown option") << "--lesson bragg --fullscreen" << "unknown option --fullscreen";
        QTest::newRow("size without a value") << "--screenshot a.png --size"
                                          << "--size needs the window's size, WIDTHxHEIGHT";
        QTest::newRow("size not WxH") << "--size 1920" << "expected WIDTHxHEIGHT in pixels, such as 1920x1080, got \"1920\"";
        QTest::newRow("size with a unit") << "--size 1920x1080px" << "got \"1920x1080px\"";
        QTest::newRow("size negative") << "--size -1920x1080" << "--size needs the window's size";
        QTest::newRow("size zero") << "--size 0x0" << "0x0 is outside 640x480 .. 16384x16384";
        QTest::newRow("size too small") << "--size 320x200" << "320x200 is outside 640x480";
        QTest::newRow("size too large") << "--size 20000x1080" << "20000x1080 is outside";
        QTest::newRow("size too many digits") << "--size 1234567890x1080" << "expected WIDTHxHEIGHT";
        QTest::newRow("screenshot without a file") << "--screenshot --lesson bragg"
                                               << "--screenshot needs the PNG file to write";
        QTest::newRow("lesson without a name") << "--lesson" << "--lesson needs a lesson's name";
        QTest::newRow("twice") << "--size 800x600 --size 1920x1080" << "--size is given twice";
        QTest::newRow("session and lesson") << "--session s.json --lesson bragg"
                                        << "--session and --lesson cannot be combined";
        QTest::newRow("lesson and arguments") << "--lesson bragg -cell 40 40 40 90 90 90"
                                          << "--lesson and nanoBragg's arguments (-cell ...)";
        QTest::newRow("demo and arguments") << "--demo -N 5" << "--demo and nanoBragg's arguments";
        QTest::newRow("presenting a session") << "--session s.json --presentation"
                                          << "it cannot be combined with --session";
        QTest::newRow("presenting arguments") << "--presentation -N 5"
                                          << "it cannot be combined with nanoBragg's arguments";
        QTest::newRow("headless later") << "--size 800x600 --headless -N 5" << "--headless must come first";
    }
    void mistakesSayWhy() {
        QFETCH(QString, line);
        QFETCH(QString, message);
        const app::ViewerArguments read = app::readViewerArguments(words(line));
        QVERIFY2(QString::fromStdString(read.error).contains(message), read.error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestViewerArguments)
#include "tst_viewerarguments.moc"
