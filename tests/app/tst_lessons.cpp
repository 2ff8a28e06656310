// The lessons and the presentation mode (issue "Teaching"): every built-in lesson opens,
// renders and names editors that exist; the presentation mode takes the screen and the
// keyboard (arrows step the focused value by its step and the image follows, Tab moves between
// the lesson's values, Page Down and N go to the next lesson, Esc leaves). Runs on a
// 1920x1080 screen, a projector's, and saves the screenshots of docs/lessons/ to
// $BRAGGVIEW_SCREENSHOT_DIR (else screenshots/ beside this program).

#include "GuiTestMain.h"
#include "ScreenshotSupport.h"
#include "ViewerHarness.h"
#include "app/LessonController.h"
#include "app/LessonDock.h"
#include "app/Lessons.h"
#include "app/ParameterPanels.h"
#include "app/PresentationMode.h"
#include "app/Viewer.h"
#include "compute/core/Error.h"
#include "compute/model/Units.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QProcess>
#include <QScreen>
#include <QScrollBar>
#include <QSlider>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBrowser>

#include <algorithm>
#include <set>

using namespace bv;
using test::ViewerHarness;

namespace {

using test::coloursIn;
QString folder() { return test::screenshotFolder(); }



void writeFile(const QString& path, const QByteArray& text) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
}

} // namespace

class TestLessons : public QObject {
    Q_OBJECT

    ViewerHarness m_viewer;

    app::LessonController& lessons() { return m_viewer.window->lessons(); }
    QRect viewArea() {
        QWidget* container = m_viewer.window->imageContainer();
        return QRect(container->mapTo(m_viewer.window.get(), QPoint(0, 0)), container->size());
    }
    int indexOf(const QString& name) {
        const auto& all = lessons().lessons();
        for (std::size_t i = 0; i < all.size(); ++i)
            if (all[i].name == name)
                return static_cast<int>(i);
        return -1;
    }
    QImage shoot(const QString& name) {
        if (!m_viewer.waitImage() || !m_viewer.waitFrame())
            return {};
        QCoreApplication::processEvents(); // the dock's values (queued)
        const QImage shot = app::grabMainWindow(*m_viewer.window);
        shot.save(folder() + QLatin1Char('/') + name, "PNG");
        return shot;
    }
    void press(int key, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
        QWidget* target =
            QApplication::focusWidget() ? QApplication::focusWidget() : m_viewer.window.get();
        QTest::keyClick(target, static_cast<Qt::Key>(key), modifiers);
    }

  private slots:
    void cleanup() { BV_VERIFY_NO_VALIDATION_MESSAGES(); }

    void initTestCase() {
        // a small experiment first; every test then opens lessons over it
        QVERIFY(m_viewer.open(
            test::words(QStringLiteral("-cell 40 40 40 90 90 90 -N 5 -default_F 100 -distance 100 "
                                       "-detpixels 64 -pixel 0.5")),
            QSize(1500, 950)));
        QCOMPARE(m_viewer.window->screen()->geometry().size(), QSize(1920, 1080));
    }

    void theLessonsAreInTheMenu() {
        const std::vector<app::Lesson>& all = lessons().lessons();
        QCOMPARE(all.size(), std::size_t(6));
        QMenu* menu = m_viewer.window->menuBar()->findChild<QMenu*>(QStringLiteral("lessonsMenu"));
        QVERIFY(menu);
        QStringList texts;
        for (QAction* a : menu->actions())
            texts << a->text();
        for (const app::Lesson& l : all)
            QVERIFY2(texts.join(QLatin1Char('|')).contains(l.title), qPrintable(l.title));
    }

    void everyLessonOpensAndRenders_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QStringList>("fields");
        QTest::addColumn<QString>("moved"); // a field moved, for a second screenshot
        QTest::addColumn<double>("to");
        // what issue "Teaching" asks for, each with the editors it is about
        QTest::newRow("Bragg's law") << "bragg" << QStringList{"wavelength"} << "wavelength" << 1.5;
        QTest::newRow("cell and spacing")
            << "cell" << QStringList{"cellb", "cellc"} << "cellb" << 60.0;
        QTest::newRow("crystal size and spot size")
            << "crystal-size" << QStringList{"Nb", "shape"} << "Nb" << 20.0;
        QTest::newRow("mosaic spread") << "mosaic" << QStringList{"mosaic"} << "mosaic" << 0.0;
        QTest::newRow("distance and tilt")
            << "detector" << QStringList{"distance", "twotheta"} << "twotheta" << 20.0;
        QTest::newRow("rotation series")
            << "rotation" << QStringList{"phi", "oscillation"} << "phi" << 3.0;
    }
    void everyLessonOpensAndRenders() {
        QFETCH(QString, name);
        QFETCH(QStringList, fields);
        QFETCH(QString, moved);
        QFETCH(double, to);
        const int index = indexOf(name);
        QVERIFY2(index >= 0, qPrintable(name));
        lessons().openLesson(index);
        QVERIFY(m_viewer.waitImage());
        QCOMPARE(lessons().current(), index);

        // a real image: not blank
        const std::vector<float>& image = m_viewer.image();
        const auto [lo, hi] = std::minmax_element(image.begin(), image.end());
        QVERIFY(*hi > *lo);

        // its fields found, marked, the first one's tab open and the first focused
        QCOMPARE(static_cast<int>(lessons().fields().size()), fields.size());
        for (int i = 0; i < fields.size(); ++i) {
            const app::LessonField& f = lessons().fields()[static_cast<std::size_t>(i)];
            QCOMPARE(f.name, fields[i]);
            QVERIFY(f.field || f.choice);
            QVERIFY(f.marked()->property("lessonField").toBool());
        }
        const app::LessonField& first = lessons().fields().front();
        QCOMPARE(m_viewer.window->parameterTabs()->tabText(
                     m_viewer.window->parameterTabs()->currentIndex()),
                 first.panel->title());
        QWidget* focused =
            m_viewer.window
                ->focusWidget(); // the window's (Xvfb has no window manager to activate it)
        QVERIFY(focused &&
                (focused == first.choice || (first.field && first.field->isAncestorOf(focused))));

        // the text beside the image
        app::LessonDock& dock = lessons().dock();
        QVERIFY(dock.isVisible());
        QVERIFY(dock.title()->text().contains(
            lessons().lessons()[static_cast<std::size_t>(index)].title));
        QVERIFY(dock.text()->toPlainText().contains(QStringLiteral("Move")));

        const QImage shot = shoot(QStringLiteral("lesson-%1.png").arg(name));
        QVERIFY(!shot.isNull());
        QVERIFY(coloursIn(shot, viewArea()) > 5);

        // the lesson's point: its field moved, the image follows
        const std::vector<float> before = m_viewer.image();
        const auto f = std::find_if(lessons().fields().begin(), lessons().fields().end(),
                                    [&](const app::LessonField& l) { return l.name == moved; });
        QVERIFY(f != lessons().fields().end() && f->field);
        f->field->setValue(to);
        QCOMPARE(f->field->value(), to);
        QVERIFY(m_viewer.waitImage());
        QVERIFY(m_viewer.image() != before);
        QVERIFY(!shoot(QStringLiteral("lesson-%1-moved.png").arg(name)).isNull());
    }

    void aBrokenLessonListIsReported_data() {
        QTest::addColumn<QByteArray>("list");
        QTest::addColumn<QString>("message");
        QTest::newRow("not JSON") << QByteArray("{ \"lessons\": [ }") << "lessons.json:1:";
        QTest::newRow("no list") << QByteArray("{}") << "\"lessons\" is missing";
        QTest::newRow("fields not a list")
            << QByteArray("{\"lessons\": [{\"name\": \"a\", \"title\": \"A\", \"fields\": 3}]}")
            << "lessons[0].fields: expected an array of one or more editor names";
        QTest::newRow("no text") << QByteArray("{\"lessons\": [{\"name\": \"a\", \"title\": \"A\", "
                                               "\"fields\": [\"phi\"]}]}")
                                 << "a.md: cannot read the lesson file";
    }
    void aBrokenLessonListIsReported() {
        QFETCH(QByteArray, list);
        QFETCH(QString, message);
        QTemporaryDir dir;
        writeFile(dir.filePath(QStringLiteral("lessons.json")), list);
        try {
            app::readLessons(dir.path());
            QFAIL("no error");
        } catch (const Error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(message), e.what());
        }
    }

    void presentationModeTakesTheScreen() {
        lessons().openLesson(indexOf(QStringLiteral("bragg")));
        QVERIFY(m_viewer.waitImage());
        m_viewer.window->lessons().presentation().action()->trigger();
        app::PresentationMode& presentation = lessons().presentation();
        QVERIFY(presentation.isActive());
        QTRY_COMPARE(m_viewer.window->size(), QSize(1920, 1080));
        QVERIFY(!m_viewer.window->menuBar()->isVisible());
        QVERIFY(!m_viewer.window->findChild<QDockWidget*>(QStringLiteral("parametersDock"))
                     ->isVisible());
        QVERIFY(lessons().dock().isVisible());
        QVERIFY(lessons().dock().presentation());
        QCOMPARE(m_viewer.window->overlays().scale(), app::PresentationMode::kOverlayScale);
        QTest::qWait(200); // the layout settles, the image is fitted again
        const QImage shot = shoot(QStringLiteral("presentation-bragg.png"));
        QCOMPARE(shot.size(), QSize(1920, 1080));
        QVERIFY(coloursIn(shot, viewArea()) > 5);
    }

    void arrowsStepTheFocusedValue() {
        // Bragg's lesson: the wavelength, 1 Å, its arrow step 0.01 Å and Shift's 0.1 Å
        // (BeamPanel.cpp): Right 1.01, Shift+Right 1.11, Left 1.10
        QVERIFY(lessons().presentation().isActive());
        app::ParameterField* wavelength = lessons().fields().front().field;
        QCOMPARE(wavelength->value(), 1.0);
        const std::vector<float> before = m_viewer.image();
        press(Qt::Key_Right);
        QCOMPARE(wavelength->value(), 1.01);
        QCOMPARE(m_viewer.document().experiment().beam.wavelength, 1.01e-10);
        QVERIFY(m_viewer.waitImage());
        QVERIFY(m_viewer.image() != before); // the image follows
        press(Qt::Key_Right, Qt::ShiftModifier);
        QCOMPARE(wavelength->value(), 1.11);
        press(Qt::Key_Left);
        QCOMPARE(wavelength->value(), 1.10);
        QVERIFY(m_viewer.waitImage());
        // the dock shows the value large
        QCoreApplication::processEvents();
        QVERIFY2(lessons().dock().valueLabels().front()->text().contains(QStringLiteral("1.1000")),
                 qPrintable(lessons().dock().valueLabels().front()->text()));
    }

    void tabMovesToTheNextValue() {
        // the detector lesson: distance, then two-theta (its step 0.1°)
        lessons().openLesson(indexOf(QStringLiteral("detector")));
        QVERIFY(m_viewer.waitImage());
        QCOMPARE(lessons().focusedField(), 0);
        press(Qt::Key_Tab);
        QCOMPARE(lessons().focusedField(), 1);
        app::ParameterField* twotheta = lessons().fields()[1].field;
        QCOMPARE(twotheta->value(), 0.0);
        press(Qt::Key_Up);
        QCOMPARE(twotheta->value(), 0.1);
        QCOMPARE(m_viewer.document().experiment().detector.twotheta,
                 units::radiansFromDegrees(0.1));
        QVERIFY(m_viewer.waitImage());
        press(Qt::Key_Tab); // round to the first again
        QCOMPARE(lessons().focusedField(), 0);
    }

    void everyLessonFitsTheScreen() {
        // Page Down through all six from the first: each text is read whole, without scrolling
        lessons().openLesson(0);
        for (const app::Lesson& lesson : lessons().lessons()) {
            QVERIFY(m_viewer.waitImage());
            QCOMPARE(lessons().lessons()[static_cast<std::size_t>(lessons().current())].name,
                     lesson.name);
            QTest::qWait(200); // the layout settles, the image is fitted again
            const QImage shot = shoot(QStringLiteral("presentation-%1.png").arg(lesson.name));
            QCOMPARE(shot.size(), QSize(1920, 1080));
            QVERIFY2(!lessons().dock().text()->verticalScrollBar()->isVisible(),
                     qPrintable(lesson.name));
            press(Qt::Key_PageDown);
        }
        QCOMPARE(lessons().current(), 0);
    }

    void aChoiceStepsThroughItsItems() {
        // the crystal-size lesson's second field is the spot shape: square, then round
        lessons().openLesson(indexOf(QStringLiteral("crystal-size")));
        QVERIFY(m_viewer.waitImage());
        press(Qt::Key_Tab);
        QComboBox* shape = lessons().fields()[1].choice;
        QVERIFY(shape);
        QCOMPARE(shape->currentText(), QStringLiteral("square"));
        press(Qt::Key_Right);
        QCOMPARE(shape->currentText(), QStringLiteral("round"));
        QCOMPARE(m_viewer.document().experiment().crystal.shape, LatticeShape::Round);
        QVERIFY(m_viewer.waitImage());
    }

    void theCycleKeysGoToTheNextLesson_data() {
        QTest::addColumn<int>("key");
        QTest::addColumn<int>("delta");
        QTest::newRow("Page Down") << int(Qt::Key_PageDown) << 1;
        QTest::newRow("N") << int(Qt::Key_N) << 1;
        QTest::newRow("Page Up") << int(Qt::Key_PageUp) << -1;
    }
    void theCycleKeysGoToTheNextLesson() {
        QFETCH(int, key);
        QFETCH(int, delta);
        const int n = static_cast<int>(lessons().lessons().size());
        const int before = lessons().current();
        press(key);
        QCOMPARE(lessons().current(), ((before + delta) % n + n) % n);
        QVERIFY(m_viewer.waitImage());
        QVERIFY(lessons().presentation().isActive());
        // from the last lesson, the first
        lessons().openLesson(n - 1);
        QVERIFY(m_viewer.waitImage());
        press(Qt::Key_PageDown);
        QCOMPARE(lessons().current(), 0);
        QVERIFY(m_viewer.waitImage());
    }

    void theProgramOpensALessonByName() {
        // braggview --screenshot FILE --lesson NAME [--presentation]: the real program
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("cell.png"));
        QProcess process;
        process.start(QStringLiteral(BRAGGVIEW_BINARY),
                      {QStringLiteral("--screenshot"), png, QStringLiteral("--lesson"),
                       QStringLiteral("cell"), QStringLiteral("--presentation")});
        QVERIFY(process.waitForFinished(test::kImageTimeoutMs));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        QCOMPARE(QImage(png).size(), QSize(1920, 1080)); // the screen: presenting

        // a name that is not a lesson: the names, a non-zero status, no file
        const QString bad = dir.filePath(QStringLiteral("bad.png"));
        process.start(QStringLiteral(BRAGGVIEW_BINARY),
                      {QStringLiteral("--screenshot"), bad, QStringLiteral("--lesson"),
                       QStringLiteral("braggs")});
        QVERIFY(process.waitForFinished(test::kImageTimeoutMs));
        QVERIFY(process.exitCode() != 0);
        const QByteArray said = process.readAllStandardError();
        QVERIFY2(said.contains("no lesson \"braggs\"") && said.contains("bragg, cell"),
                 said.constData());
        QVERIFY(!QFile::exists(bad));
    }

    void theProgramTakesItsOptionsInAnyOrderAndASize_data() {
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<QSize>("size");
        // presenting on a stage of the size asked for, not the screen; without --lesson, the
        // first lesson
        QTest::newRow("presenting, no lesson, sized")
            << QStringList{QStringLiteral("--size"), QStringLiteral("1280x720"),
                           QStringLiteral("--presentation"), QStringLiteral("--screenshot")}
            << QSize(1280, 720);
        QTest::newRow("a lesson, the screenshot and the size after it")
            << QStringList{QStringLiteral("--lesson"), QStringLiteral("bragg"),
                           QStringLiteral("--screenshot")}
            << QSize(1600, 900);
    }
    void theProgramTakesItsOptionsInAnyOrderAndASize() {
        QFETCH(QStringList, options);
        QFETCH(QSize, size);
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("shot.png"));
        QStringList arguments = options;
        arguments << png; // --screenshot's file comes last in both rows
        if (!arguments.contains(QStringLiteral("--size")))
            arguments << QStringLiteral("--size")
                      << QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
        QProcess process;
        process.start(QStringLiteral(BRAGGVIEW_BINARY), arguments);
        QVERIFY(process.waitForFinished(test::kImageTimeoutMs));
        QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
        QCOMPARE(QImage(png).size(), size);
    }

    void theProgramRefusesABadSizeAtOnce() {
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("shot.png"));
        QProcess process;
        process.start(QStringLiteral(BRAGGVIEW_BINARY),
                      {QStringLiteral("--screenshot"), png, QStringLiteral("--size"),
                       QStringLiteral("1920by1080"), QStringLiteral("--lesson"),
                       QStringLiteral("bragg")});
        QVERIFY(process.waitForFinished(test::kImageTimeoutMs));
        QCOMPARE(process.exitCode(), 2);
        const QByteArray said = process.readAllStandardError();
        QVERIFY2(said.contains("--size: expected WIDTHxHEIGHT") && said.contains("1920by1080"),
                 said.constData());
        QVERIFY(!QFile::exists(png));

        // a size in range but smaller than the window's docks allow: said, with what they
        // need, and no PNG of another size
        process.start(QStringLiteral(BRAGGVIEW_BINARY),
                      {QStringLiteral("--size"), QStringLiteral("800x600"),
                       QStringLiteral("--screenshot"), png, QStringLiteral("--lesson"),
                       QStringLiteral("cell")});
        QVERIFY(process.waitForFinished(test::kImageTimeoutMs));
        QCOMPARE(process.exitCode(), 1);
        const QByteArray small = process.readAllStandardError();
        QVERIFY2(small.contains("the window could not be made 800x600") &&
                     small.contains("its panels need at least"),
                 small.constData());
        QVERIFY(!QFile::exists(png));
    }

    void escapeLeaves() {
        press(Qt::Key_Escape);
        QVERIFY(!lessons().presentation().isActive());
        QVERIFY(m_viewer.window->menuBar()->isVisible());
        QVERIFY(m_viewer.window->findChild<QDockWidget*>(QStringLiteral("parametersDock"))
                    ->isVisible());
        QCOMPARE(m_viewer.window->overlays().scale(), 1.0);
        QTRY_VERIFY(m_viewer.window->size() != QSize(1920, 1080));
        // the arrows are the focused editor's again, as in any window
        QVERIFY(!lessons().dock().presentation());
    }

    void f5EntersAndLeaves() {
        // View > Presentation mode's shortcut, a window shortcut: the window must be active
        m_viewer.window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_viewer.window.get()));
        QTest::keyClick(m_viewer.window.get(), Qt::Key_F5);
        QVERIFY(lessons().presentation().isActive());
        QVERIFY(!m_viewer.window->menuBar()->isVisible()); // F5 still works without the menus
        QTest::keyClick(m_viewer.window.get(), Qt::Key_F5);
        QVERIFY(!lessons().presentation().isActive());
        QVERIFY(m_viewer.window->menuBar()->isVisible());
    }
};

BV_GUI_TEST_MAIN_ON_SCREEN(TestLessons, "1920x1080x24")
#include "tst_lessons.moc"
