// OrbitCamera: where a point lands in the window and which point the cursor picks, worked by
// hand for a camera that sees a 90 degree cone on a 200 x 200 window from 10 units away:
// at the centre's depth the half-height of the view is 10 units = 100 pixels, so one unit is
// 10 pixels there, and 20 pixels at half the depth.

#include "render/scene/OrbitCamera.h"

#include <QTest>

#include <glm/trigonometric.hpp>

#include <cmath>

using bv::scene::OrbitCamera;

Q_DECLARE_METATYPE(glm::dvec3)

namespace {

// up +z, eye on +x at yaw = pitch = 0: the view looks along -x, screen right is +y
OrbitCamera handWorkedCamera(double yawDegrees = 0.0, double pitchDegrees = 0.0) {
    OrbitCamera camera;
    camera.setViewport(200, 200);
    camera.setFieldOfView(90.0);
    // distance = radius / sin(45 degrees) = 10
    camera.frame(glm::dvec3(0.0), 10.0 * std::sin(M_PI / 4.0), {0, 0, 1}, {1, 0, 0},
                 glm::radians(yawDegrees), glm::radians(pitchDegrees));
    return camera;
}

} // namespace

class TestOrbitCamera : public QObject {
    Q_OBJECT

  private slots:
    void pixelsPerUnitAtTheCentre() {
        // the hand-worked camera: one unit is 10 pixels at the centre's depth, whatever the
        // angles; half the distance, twice as many
        OrbitCamera camera = handWorkedCamera(30.0, 20.0);
        QVERIFY(std::fabs(camera.pixelsPerUnit() - 10.0) < 1e-9);
        camera.zoom(2.0);
        QVERIFY(std::fabs(camera.pixelsPerUnit() - 20.0) < 1e-9);
    }
    void project_data() {
        QTest::addColumn<double>("yaw");
        QTest::addColumn<double>("pitch");
        QTest::addColumn<glm::dvec3>("point");
        QTest::addColumn<double>("x");
        QTest::addColumn<double>("y");
        QTest::newRow("centre") << 0.0 << 0.0 << glm::dvec3(0, 0, 0) << 100.0 << 100.0;
        QTest::newRow("5 up") << 0.0 << 0.0 << glm::dvec3(0, 0, 5) << 100.0 << 50.0;
        QTest::newRow("5 right") << 0.0 << 0.0 << glm::dvec3(0, 5, 0) << 150.0 << 100.0;
        QTest::newRow("5 left, 2 down") << 0.0 << 0.0 << glm::dvec3(0, -5, -2) << 50.0 << 120.0;
        // half-way to the eye everything is twice as large
        QTest::newRow("nearer, 2.5 up") << 0.0 << 0.0 << glm::dvec3(5, 0, 2.5) << 100.0 << 50.0;
        // yaw 90: the eye on +y, screen right is -x
        QTest::newRow("yaw 90, 5 along x") << 90.0 << 0.0 << glm::dvec3(5, 0, 0) << 50.0 << 100.0;
        // pitch 90 is clamped to 89; pitch 45: the eye at (7.07, 0, 7.07), a point on the
        // +z axis 5 up lies 5 sin 45 = 3.54 above the centre across the view, at depth
        // 10 - 5 cos 45 = 6.46: 3.536 / 6.464 * 100 = 54.69 pixels above the middle
        QTest::newRow("pitch 45, 5 up") << 0.0 << 45.0 << glm::dvec3(0, 0, 5) << 100.0 << 45.31;
    }
    void project() {
        QFETCH(double, yaw);
        QFETCH(double, pitch);
        QFETCH(glm::dvec3, point);
        QFETCH(double, x);
        QFETCH(double, y);
        const OrbitCamera camera = handWorkedCamera(yaw, pitch);
        const std::optional<glm::dvec2> at = camera.project(point);
        QVERIFY(at.has_value());
        QVERIFY2(std::fabs(at->x - x) < 0.01, qPrintable(QString::number(at->x)));
        QVERIFY2(std::fabs(at->y - y) < 0.01, qPrintable(QString::number(at->y)));
    }

    void behindTheEyeIsNotProjected() {
        const OrbitCamera camera = handWorkedCamera();
        QVERIFY(!camera.project({20, 0, 0}).has_value()); // the eye is at x = 10
    }

    void pick_data() {
        QTest::addColumn<double>("cursorX");
        QTest::addColumn<double>("cursorY");
        QTest::addColumn<int>("expected"); // -1: none
        // points: 0 and 4 both at (100, 100) (4 nearer the eye), 1 at (150, 100),
        // 2 at (100, 50), 3 behind the eye
        QTest::newRow("on 0 and 4: the nearer") << 100.0 << 100.0 << 4;
        QTest::newRow("just off 0 and 4") << 103.0 << 100.0 << 4;
        QTest::newRow("near 1") << 146.0 << 103.0 << 1; // 5 px from 1, 46 from 0
        QTest::newRow("7 px below 2") << 100.0 << 57.0 << 2;
        QTest::newRow("nothing within 8 px") << 125.0 << 125.0 << -1;
    }
    void pick() {
        QFETCH(double, cursorX);
        QFETCH(double, cursorY);
        QFETCH(int, expected);
        const OrbitCamera camera = handWorkedCamera();
        const std::vector<glm::dvec3> points = {
            {0, 0, 0}, {0, 5, 0}, {0, 0, 5}, {20, 0, 0}, {5, 0, 0}};
        const std::optional<std::size_t> hit = camera.pick(points, {cursorX, cursorY}, 8.0);
        if (expected < 0)
            QVERIFY(!hit.has_value());
        else
            QCOMPARE(hit.value_or(99), std::size_t(expected));
    }

    void orbitZoomResetComeBack() {
        OrbitCamera camera = handWorkedCamera(30.0, 20.0);
        const glm::dvec3 eye = camera.eye();
        camera.orbit(glm::radians(40.0), glm::radians(-10.0));
        camera.zoom(2.0);
        QVERIFY(glm::length(camera.eye() - eye) > 1.0);
        QVERIFY(std::fabs(camera.distance() - 5.0) < 1e-9); // 10 / 2
        camera.reset();
        QVERIFY(glm::length(camera.eye() - eye) < 1e-9);
    }

    void pitchStopsShortOfTheUpAxis() {
        OrbitCamera camera = handWorkedCamera();
        camera.orbit(0.0, glm::radians(200.0));
        QVERIFY(std::fabs(camera.pitch() - glm::radians(89.0)) < 1e-9);
    }
};

QTEST_GUILESS_MAIN(TestOrbitCamera)
#include "tst_orbitcamera.moc"
