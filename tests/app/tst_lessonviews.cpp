// The lessons that explain their point with the Reciprocal space view (issue 15): Bragg's law
// and the rotation series name "views": ["reciprocal"] in lessons.json, and
// opening one shows the dock; its Ewald sphere follows the lesson's field (radius 1/lambda);
// a lesson without the view leaves the dock as the user had it. Presenting, the dock stands
// between the image and the text in large type, and the keys stay the lesson's even with the
// view focused (Enter plays phi). Saves the screenshots of docs/lessons/ with the view to
// $BRAGGVIEW_SCREENSHOT_DIR (else screenshots/ beside this program).

#include "GuiTestMain.h"
#include "ScreenshotSupport.h"
#include "ViewerHarness.h"
#include "app/LessonController.h"
#include "app/LessonDock.h"
#include "app/MainWindow.h"
#include "app/Lessons.h"
#include "app/ParameterField.h"
#include "app/PresentationMode.h"
#include "app/ReciprocalDock.h"
#include "app/Viewer.h"
#include "compute/core/Error.h"
#include "render/ReciprocalWindow.h"

#include <QAbstractButton>
#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QLayout>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTextBrowser>

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>

using namespace bv;
using test::ViewerHarness;

class TestLessonViews : public QObject {
    Q_OBJECT

    ViewerHarness m_viewer;

    app::LessonController& lessons() { return m_viewer.window->lessons(); }
    app::ReciprocalDock& reciprocal() { return m_viewer.window->reciprocalDock(); }
    render::ReciprocalWindow& view() { return reciprocal().view(); }
    void open(const QString& name) {
        const auto& all = lessons().lessons();
        for (std::size_t i = 0; i < all.size(); ++i)
            if (all[i].name == name) {
                lessons().openLesson(static_cast<int>(i));
                QVERIFY(m_viewer.waitImage());
                return;
            }
        QFAIL(qPrintable(QStringLiteral("no lesson ") + name));
    }
    bool waitViewFrame() {
        const auto before = view().framesRendered();
        view().requestUpdate();
        return QTest::qWaitFor([&] { return view().framesRendered() > before; }, 30000);
    }
    QImage shoot(const QString& name) {
        if (!m_viewer.waitImage() || !m_viewer.waitFrame() || !waitViewFrame())
            return {};
        QCoreApplication::processEvents(); // the lesson dock's values (queued)
        const QImage shot = app::grabMainWindow(*m_viewer.window);
        if (!name.isEmpty())
            shot.save(test::screenshotFolder() + QLatin1Char('/') + name, "PNG");
        return shot;
    }
    QRect areaOf(QWidget* w) {
        return QRect(w->mapTo(m_viewer.window.get(), QPoint(0, 0)), w->size());
    }
    void setReciprocalByUser(bool shown) {
        // View > Reciprocal space, as the user would
        QAction* toggle = reciprocal().toggleViewAction();
        if (toggle->isChecked() != shown)
            toggle->trigger();
        QCOMPARE(reciprocal().isHidden(), !shown);
    }

    // Every button of the dock as wide as its text needs ("Frame spots" once read "rame
    // spots": the row was wider than the dock, and the layout squeezed the buttons).
    void verifyButtonsShowTheirText() { verifyButtonsShowTheirText(reciprocal()); }
    void verifyButtonsShowTheirText(app::ReciprocalDock& dock) {
        QCoreApplication::processEvents(); // the layout settles
        // the dock's own controls (not its title bar's float and close buttons)
        for (QAbstractButton* b : dock.widget()->findChildren<QAbstractButton*>())
            if (b->isVisible())
                QVERIFY2(b->width() >= b->sizeHint().width(),
                         qPrintable(QStringLiteral("\"%1\" is %2 px wide, its text needs %3 (the "
                                                   "dock %4, at least %5)")
                                        .arg(b->text())
                                        .arg(b->width())
                                        .arg(b->sizeHint().width())
                                        .arg(dock.width())
                                        .arg(dock.minimumSizeHint().width())));
    }
    // Of the nodes in reach (the spots the lesson is about), the fraction whose centre no
    // other dot in reach covers, as the view draws them: a dot that can be told apart from
    // its neighbours. Dots in the drawing's node order; in reach: drawn in the in-reach
    // colour. (At the whole sphere with the dots at their full size, as the view was drawn
    // before: 0 of Bragg's 523, 4 % of rotation's 183.)
    double clearDotsInReach() {
        const scene::SceneDrawing& d = view().drawing();
        const double scale = view().nodeScale() * view().devicePixelRatio();
        std::vector<std::pair<glm::dvec2, double>> dots; // camera pixels, radius
        for (std::size_t i = 0; i < d.nodePoints; ++i) {
            const scene::SceneVertex& v = d.points[i];
            if (std::fabs(v.colour[3] - scene::SceneColours::inReach[3]) > 1e-6f ||
                std::fabs(v.colour[0] - scene::SceneColours::inReach[0]) > 1e-6f)
                continue;
            if (const auto at = view().camera().project(
                    glm::dvec3(v.position[0], v.position[1], v.position[2])))
                dots.emplace_back(*at, v.size * scale / 2.0);
        }
        if (dots.empty())
            return 0.0;
        std::size_t clear = 0;
        for (std::size_t i = 0; i < dots.size(); ++i) {
            bool alone = true;
            for (std::size_t j = 0; j < dots.size() && alone; ++j)
                alone = i == j || glm::length(dots[i].first - dots[j].first) >
                                      std::max(dots[i].second, dots[j].second);
            clear += alone;
        }
        return double(clear) / double(dots.size());
    }

  private slots:
    void initTestCase() {
        QVERIFY(m_viewer.open(
            test::words(QStringLiteral("-cell 40 40 40 90 90 90 -N 5 -default_F 100 -distance 100 "
                                       "-detpixels 64 -pixel 0.5")),
            QSize(1920, 1080)));
        QVERIFY(reciprocal().isHidden()); // the window starts without it
    }
    void cleanup() { BV_VERIFY_NO_VALIDATION_MESSAGES(); }

    void theLessonsNameTheirViews_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("reciprocal");
        // the sphere's radius 1/lambda; the lattice turning through the sphere. The others'
        // point is on the image alone (mosaic's wider reach reads too faintly in the dock's
        // default frame to be worth the room: docs/user-guide.md)
        QTest::newRow("Bragg's law") << "bragg" << true;
        QTest::newRow("cell") << "cell" << false;
        QTest::newRow("crystal size") << "crystal-size" << false;
        QTest::newRow("mosaic spread") << "mosaic" << false;
        QTest::newRow("detector") << "detector" << false;
        QTest::newRow("rotation series") << "rotation" << true;
    }
    void theLessonsNameTheirViews() {
        QFETCH(QString, name);
        QFETCH(bool, reciprocal);
        for (const app::Lesson& l : app::readLessons())
            if (l.name == name)
                QCOMPARE(l.views.contains(app::kReciprocalView), reciprocal);
        // from no lesson and the dock closed, opening the lesson shows it or not
        lessons().closeLesson();
        QVERIFY(this->reciprocal().isHidden());
        open(name);
        QCOMPARE(this->reciprocal().isVisible(), reciprocal);
        lessons().closeLesson();
        QVERIFY(this->reciprocal().isHidden()); // the lesson's, closed with it
    }

    void anUnknownViewIsReported_data() {
        QTest::addColumn<QByteArray>("views");
        QTest::addColumn<QString>("message");
        QTest::newRow("not a list")
            << QByteArray("\"reciprocal\"") << "lessons[0].views: expected an array of view names";
        QTest::newRow("not a view") << QByteArray("[\"ewald\"]")
                                    << "lessons[0].views[0]: expected a view's name: reciprocal";
        QTest::newRow("not a name")
            << QByteArray("[3]") << "lessons[0].views[0]: expected a view's name: reciprocal";
    }
    void anUnknownViewIsReported() {
        QFETCH(QByteArray, views);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QFile list(dir.filePath(QStringLiteral("lessons.json")));
        QVERIFY(list.open(QIODevice::WriteOnly));
        list.write("{\"lessons\": [{\"name\": \"a\", \"title\": \"A\", \"fields\": [\"phi\"], "
                   "\"views\": " +
                   views + "}]}");
        list.close();
        try {
            app::readLessons(dir.path());
            QFAIL("no error");
        } catch (const Error& e) {
            const QString said = QString::fromUtf8(e.what());
            QVERIFY2(said.contains(message) && said.contains(QStringLiteral("lessons.json")),
                     e.what());
        }
    }

    void theSphereFollowsTheWavelength_data() {
        // the Bragg lesson's field: the sphere's radius is 1/lambda (1/Angstrom)
        QTest::addColumn<double>("lambda");
        QTest::addColumn<double>("radius");
        QTest::newRow("1 A") << 1.0 << 1.0;
        QTest::newRow("1.25 A") << 1.25 << 0.8;
        QTest::newRow("2 A") << 2.0 << 0.5;
        QTest::newRow("0.5 A") << 0.5 << 2.0;
    }
    void theSphereFollowsTheWavelength() {
        QFETCH(double, lambda);
        QFETCH(double, radius);
        if (lessons().current() < 0 ||
            lessons().lessons()[static_cast<std::size_t>(lessons().current())].name !=
                QStringLiteral("bragg"))
            open(QStringLiteral("bragg"));
        QVERIFY(reciprocal().isVisible());
        app::ParameterField* wavelength = lessons().fields().front().field;
        QCOMPARE(lessons().fields().front().name, QStringLiteral("wavelength"));
        wavelength->setValue(lambda);
        QVERIFY(m_viewer.waitImage());
        QTRY_VERIFY2(std::fabs(view().scene().radius - radius) < 1e-9,
                     qPrintable(QString::number(view().scene().radius)));
        // the sphere passes through the origin, its centre -k0 up the beam
        const plan::EwaldScene& s = view().scene();
        QVERIFY(std::fabs(glm::length(s.sphereCentre) - radius) < 1e-9);
        QVERIFY(std::fabs(glm::dot(s.sphereCentre, s.beam) + radius) < 1e-9);
    }

    void theBraggLessonWithTheView() {
        open(QStringLiteral("bragg")); // its wavelength back to 1 A
        QVERIFY(std::fabs(view().scene().radius - 1.0) < 1e-9);
        QTest::qWait(200); // the layout settles
        m_viewer.window->imageWindow().fitToWindow();
        const QImage shot = shoot(QStringLiteral("lesson-bragg-reciprocal.png"));
        QVERIFY(!shot.isNull());
        QVERIFY(test::coloursIn(shot, areaOf(reciprocal().viewContainer())) > 10);
        // the keys stay with the lesson's field: the view did not take the focus
        QWidget* focused = m_viewer.window->focusWidget();
        app::ParameterField* wavelength = lessons().fields().front().field;
        QVERIFY(focused && wavelength->isAncestorOf(focused));
        QTest::keyClick(focused, Qt::Key_Up); // its step, 0.01 A
        QCOMPARE(wavelength->value(), 1.01);
        QVERIFY(m_viewer.waitImage());
        QTRY_VERIFY(std::fabs(view().scene().radius - 1.0 / 1.01) < 1e-9);
    }

    void theLessonsSpotsCanBeToldApart_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("Bragg's law") << "bragg";
        QTest::newRow("rotation series") << "rotation";
    }
    void theLessonsSpotsCanBeToldApart() {
        // at the window's size the dock is a quarter of it (about 480 px at 1920): the lesson
        // frames the spots' cap, draws only the nodes near the sphere, dots fit their spacing
        QFETCH(QString, name);
        setReciprocalByUser(false);
        open(name);
        QTest::qWait(200); // the layout settles
        QVERIFY(waitViewFrame());
        QVERIFY(view().framingSpots());
        const double clear = clearDotsInReach();

        QVERIFY2(clear >= 0.8, qPrintable(QStringLiteral("%1 of the dots in reach are clear")
                                              .arg(clear)));
        // the nodes deep inside and far outside the sphere are not drawn
        QVERIFY(view().drawing().nodePoints < view().scene().nodes.size() / 2);
        verifyButtonsShowTheirText();
        // the window's own size, 1500 x 950, where the dock is narrower still
        const QSize size = m_viewer.window->size();
        m_viewer.window->resize(1500, 950);
        QTest::qWait(200);
        verifyButtonsShowTheirText();
        m_viewer.window->resize(size);
        // the lesson's dock closes with it, back to the whole sphere for the user's next look;
        // there the dots shrink to fit their spacing rather than merge
        lessons().closeLesson();
        QVERIFY(reciprocal().isHidden());
        QVERIFY(!view().framingSpots());
        QVERIFY(view().nodeScale() < 1.0);
    }

    void theButtonsReadWholeInTheProgramsOrder() {
        // braggview --lesson rotation --size 1920x1080 [--presentation] (app/Viewer.cpp): the
        // lesson opened before the window is first shown
        app::MainWindow window(&m_viewer.vulkanInstance());
        window.resize(1920, 1080);
        window.setQuietErrors(true);
        const auto& all = window.lessons().lessons();
        const auto rotation = std::find_if(all.begin(), all.end(), [](const app::Lesson& l) {
            return l.name == QStringLiteral("rotation");
        });
        QVERIFY(rotation != all.end());
        window.lessons().openLesson(static_cast<int>(rotation - all.begin()));
        window.show();
        QVERIFY(window.controller().waitForComplete(test::kImageTimeoutMs));
        QTest::qWait(200);
        QCOMPARE(window.size(), QSize(1920, 1080));
        verifyButtonsShowTheirText(window.reciprocalDock());
        // whatever width the main window's layout gives the dock (it once kept one set before
        // the buttons' least widths were known: 285 px for a row of 312), the rows of
        // controls need no more than the view's own least width
        app::ReciprocalDock& dock = window.reciprocalDock();
        const QMargins margins = dock.widget()->layout()->contentsMargins();
        QVERIFY2(dock.widget()->minimumSizeHint().width() <=
                     dock.viewContainer()->minimumWidth() + margins.left() + margins.right(),
                 qPrintable(QString::number(dock.widget()->minimumSizeHint().width())));
        // and the lesson's dock took its share of the window once shown (a quarter, at most
        // 2/5 of the image's width), not its least width
        QVERIFY2(dock.width() > dock.minimumSizeHint().width() + 50,
                 qPrintable(QString::number(dock.width())));
        window.lessons().presentation().enter();
        QVERIFY(window.controller().waitForComplete(test::kImageTimeoutMs));
        QTest::qWait(200);
        verifyButtonsShowTheirText(window.reciprocalDock());
        window.lessons().presentation().leave();
    }

    void aLessonWithoutTheViewLeavesItAsItWas_data() {
        QTest::addColumn<bool>("userOpened");
        QTest::newRow("the user's open dock stays open") << true;
        QTest::newRow("a closed dock closes again") << false;
    }
    void aLessonWithoutTheViewLeavesItAsItWas() {
        QFETCH(bool, userOpened);
        lessons().closeLesson();
        setReciprocalByUser(userOpened);
        open(QStringLiteral("cell"));
        QCOMPARE(reciprocal().isHidden(), !userOpened); // untouched
        open(QStringLiteral("bragg"));
        QVERIFY(reciprocal().isVisible()); // the lesson's view either way
        open(QStringLiteral("detector"));
        QCOMPARE(reciprocal().isHidden(), !userOpened); // back as it was
        open(QStringLiteral("rotation"));
        QVERIFY(reciprocal().isVisible());
        lessons().closeLesson();
        QCOMPARE(reciprocal().isHidden(), !userOpened);
        setReciprocalByUser(false);
    }

    void presentingShowsTheViewLarge() {
        setReciprocalByUser(false);
        open(QStringLiteral("rotation"));
        const int windowLegend = QFontInfo(reciprocal().legend()->font()).pixelSize();
        lessons().presentation().enter();
        QVERIFY(lessons().presentation().isActive());
        QTRY_COMPARE(m_viewer.window->size(), QSize(1920, 1080));
        QVERIFY(reciprocal().isVisible());
        QVERIFY(reciprocal().presentation());
        QVERIFY(lessons().dock().shared());
        QTest::qWait(200); // the layout settles, the image is fitted again
        // larger type: the legend's at least 22 px (the window's is the style's, about 12)
        const int legend = QFontInfo(reciprocal().legend()->font()).pixelSize();
        QVERIFY2(legend >= 22 && legend > windowLegend,
                 qPrintable(QStringLiteral("%1 against %2").arg(legend).arg(windowLegend)));
        // three columns left to right: the image, the construction, the text read whole
        const QRect image = areaOf(m_viewer.window->imageContainer());
        const QRect ewald = areaOf(reciprocal().viewContainer());
        const QRect text = areaOf(&lessons().dock());
        QVERIFY(image.right() < ewald.left() && ewald.right() < text.left());
        QVERIFY2(image.width() >= 500 && ewald.width() >= 500,
                 qPrintable(QStringLiteral("%1, %2").arg(image.width()).arg(ewald.width())));
        QVERIFY(!lessons().dock().text()->verticalScrollBar()->isVisible());
        verifyButtonsShowTheirText(); // in their larger type
        QVERIFY(view().framingSpots());
        QVERIFY2(clearDotsInReach() >= 0.8, qPrintable(QString::number(clearDotsInReach())));
        const QImage shot = shoot(QString()); // tst_lessons saves this one

        QCOMPARE(shot.size(), QSize(1920, 1080));
        QVERIFY(test::coloursIn(shot, ewald) > 10);
    }

    void theKeysStayTheLessonsWithTheViewFocused() {
        QVERIFY(lessons().presentation().isActive());
        app::ParameterField* phi = lessons().fields().front().field;
        QCOMPARE(lessons().fields().front().name, QStringLiteral("phi"));
        QCOMPARE(phi->value(), 0.0);
        // the view cannot be given the focus by a click while presenting
        QCOMPARE(reciprocal().viewContainer()->focusPolicy(), Qt::NoFocus);
        // a key sent to the view itself: the presentation's, not the camera's (R would reset)
        const glm::dvec3 eye = view().camera().eye();
        QTest::keyClick(&view(), Qt::Key_Right); // phi's arrow step, 0.1 degree
        QCOMPARE(phi->value(), 0.1);
        QVERIFY(glm::length(view().camera().eye() - eye) < 1e-12);
        QVERIFY(m_viewer.waitImage());
        QTRY_VERIFY(std::fabs(view().scene().phi - 0.1 * M_PI / 180.0) < 1e-12);
        // Enter plays phi and pauses it
        QVERIFY(!m_viewer.window->phiAnimationPlaying());
        QTest::keyClick(&view(), Qt::Key_Return);
        QVERIFY(m_viewer.window->phiAnimationPlaying());
        QVERIFY(QTest::qWaitFor([&] { return phi->value() >= 4.1 - 1e-9; }, 60000));
        QTest::keyClick(m_viewer.window.get(), Qt::Key_Enter);
        QVERIFY(!m_viewer.window->phiAnimationPlaying());
        QVERIFY(m_viewer.waitImage());
        // the lattice turned through the sphere: the screenshot of docs/lessons/rotation.md
        QTRY_VERIFY(std::fabs(view().scene().phi * 180.0 / M_PI - phi->value()) < 1e-6);
        QVERIFY(!shoot(QStringLiteral("presentation-rotation-played.png")).isNull());
    }

    void theNextLessonTakesItsViewAlong() {
        // rotation is the last: Page Down goes round to Bragg (with the view), then the cell
        // lesson (without): the text gets the width back in its full presentation size
        QTest::keyClick(m_viewer.window.get(), Qt::Key_PageDown);
        QVERIFY(m_viewer.waitImage());
        QCOMPARE(lessons().current(), 0);
        QVERIFY(reciprocal().isVisible());
        QTest::keyClick(m_viewer.window.get(), Qt::Key_PageDown);
        QVERIFY(m_viewer.waitImage());
        QVERIFY(reciprocal().isHidden());
        QVERIFY(!lessons().dock().shared());
        QTest::keyClick(m_viewer.window.get(), Qt::Key_PageUp); // Bragg again
        QVERIFY(m_viewer.waitImage());
        QVERIFY(reciprocal().isVisible());
        QVERIFY(lessons().dock().shared());
        // leaving gives the window back, the lesson's view open for the lesson still open
        QTest::keyClick(m_viewer.window.get(), Qt::Key_Escape);
        QVERIFY(!lessons().presentation().isActive());
        QVERIFY(!reciprocal().presentation());
        QVERIFY(!lessons().dock().shared());
        QVERIFY(reciprocal().isVisible());
        open(QStringLiteral("cell")); // and it is still the lesson's: it closes
        QVERIFY(reciprocal().isHidden());
    }

    void leavingOnALessonWithoutTheViewClosesIt() {
        // presenting from Bragg (the view the lesson's), leaving on the cell lesson
        open(QStringLiteral("bragg"));
        QVERIFY(reciprocal().isVisible());
        lessons().presentation().enter();
        QTest::keyClick(m_viewer.window.get(), Qt::Key_PageDown);
        QVERIFY(m_viewer.waitImage());
        QTest::keyClick(m_viewer.window.get(), Qt::Key_Escape);
        QVERIFY(!lessons().presentation().isActive());
        QVERIFY(reciprocal().isHidden());
    }
};

BV_GUI_TEST_MAIN_ON_SCREEN(TestLessonViews, "1920x1080x24")
#include "tst_lessonviews.moc"
