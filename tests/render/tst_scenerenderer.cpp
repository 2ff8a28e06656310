// SceneRenderer on the Vulkan driver: a small Ewald scene drawn offscreen and read back. A node
// on the sphere is drawn in the in-reach colour where the camera projects it, a node far from
// the sphere in the far colour, the background elsewhere; a camera move uploads nothing, a new
// drawing uploads once per frame slot.

#include "compute/vk/Buffer.h"
#include "compute/vk/Commands.h"
#include "compute/vk/Device.h"
#include "render/scene/OffscreenTarget.h"
#include "render/scene/OrbitCamera.h"
#include "render/scene/ReciprocalDrawing.h"
#include "render/scene/SceneRenderer.h"

#include <QTest>

#include <glm/geometric.hpp>

#include <array>
#include <cstring>
#include <memory>

using namespace bv;

namespace {

constexpr VkExtent2D kExtent{240, 180};
constexpr float kClear[4] = {0.0f, 0.0f, 0.0f, 1.0f};

// lambda = 1 Angstrom along +x: the sphere of radius 1 about (-1, 0, 0). Node 0 sits on it
// (|k0 + r| = |(0, 1, 0) + (-1, 0, 0) + (1, 0, 0)|... worked: r = (-1, 1, 0) gives
// k0 + r = (0, 1, 0), length 1: excitation 0); node 1 at r = (0.3, 0, 0) gives |(1.3, 0, 0)|
// = 1.3: excitation 0.3, far beyond its reach of 0.01.
plan::EwaldScene twoNodeScene() {
    plan::EwaldScene s;
    s.wavelength = 1.0;
    s.beam = {1, 0, 0};
    s.radius = 1.0;
    s.sphereCentre = {-1, 0, 0};
    s.spindle = {0, 0, 1};
    plan::ReciprocalNode on;
    on.hkl = {1, 0, 0};
    on.r = {-1, 1, 0};
    on.excitation = 0.0;
    on.reach = 0.01;
    on.weight = 1.0;
    plan::ReciprocalNode far = on;
    far.hkl = {0, 1, 0};
    far.r = {0.3, 0, 0};
    far.excitation = 0.3;
    s.nodes = {on, far};
    return s;
}

struct Rgba {
    int r = 0, g = 0, b = 0;
};

} // namespace

class TestSceneRenderer : public QObject {
    Q_OBJECT

  private slots:
    void initTestCase() {
        vk::DeviceOptions options;
        m_device = std::make_unique<vk::Device>(options);
        m_target = std::make_unique<scene::OffscreenTarget>(*m_device, kExtent);
        m_renderer = std::make_unique<scene::SceneRenderer>(
            *m_device, scene::PipelineTarget{m_target->renderPass(), 0, VK_SAMPLE_COUNT_1_BIT}, 2);
        m_readback = vk::Buffer(*m_device, m_target->imageBytes(), VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                vk::MemoryUse::Readback, "the test's readback");
        m_camera.setViewport(int(kExtent.width), int(kExtent.height));
        // look down the spindle (+z) at the sphere's centre
        m_camera.frame({-0.5, 0.5, 0}, 1.2, {0, 1, 0}, {0, 0, 1});
    }

    void nodesHaveTheirColoursWhereTheCameraPutsThem() {
        const plan::EwaldScene s = twoNodeScene();
        scene::SceneDrawing drawing = scene::drawScene(s, {});
        drawing.generation = 1;
        m_renderer->setDrawing(drawing);
        draw(0);
        const glm::dvec2 on = m_camera.project(s.nodes[0].r).value();
        const glm::dvec2 far = m_camera.project(s.nodes[1].r).value();
        const Rgba hot = pixel(on), cold = pixel(far);
        QVERIFY2(hot.r > 200 && hot.g > 110 && hot.b < 80, qPrintable(describe(hot))); // orange
        QVERIFY2(cold.b > cold.r && cold.b > 60, qPrintable(describe(cold)));          // blue
        const Rgba corner = pixel({2, 2});
        QVERIFY2(corner.r + corner.g + corner.b == 0, qPrintable(describe(corner)));
    }

    void aCameraMoveUploadsNothing() {
        scene::SceneDrawing drawing = scene::drawScene(twoNodeScene(), {});
        drawing.generation = 7;
        m_renderer->setDrawing(drawing);
        draw(0);
        draw(1);
        const std::uint64_t uploads = m_renderer->uploads();
        m_camera.orbit(0.3, 0.1);
        draw(0);
        draw(1);
        QCOMPARE(m_renderer->uploads(), uploads);
        drawing.generation = 8;
        m_renderer->setDrawing(drawing);
        draw(0);
        draw(1);
        QCOMPARE(m_renderer->uploads(), uploads + 2); // once per slot
        m_camera.reset();
    }

    void thePinnedRayIsDrawnInItsColour() {
        const plan::EwaldScene s = twoNodeScene();
        scene::SceneHighlights highlights;
        highlights.pinnedPoint = s.spherePoint(glm::normalize(glm::dvec3(0.0, -1.0, 0.0)));
        scene::SceneDrawing drawing = scene::drawScene(s, highlights);
        drawing.generation = 20;
        m_renderer->setDrawing(drawing);
        draw(0);
        // the ray runs from the centre (-1, 0, 0) to S = (-1, -1, 0): its middle
        const Rgba middle = pixel(m_camera.project({-1.0, -0.5, 0.0}).value());
        QVERIFY2(middle.r > 200 && middle.g < 120, qPrintable(describe(middle)));
    }

    void cleanupTestCase() {
        m_device->waitIdle();
        m_readback = vk::Buffer();
        m_renderer.reset();
        m_target.reset();
        const std::vector<std::string> said = m_device->validationMessages();
        QVERIFY2(said.empty(), said.empty() ? "" : said.front().c_str());
    }

  private:
    void draw(std::uint32_t slot) {
        vk::CommandPool pool(*m_device);
        vk::CommandBuffer commands(pool);
        vk::Fence fence(*m_device);
        commands.begin();
        m_target->begin(commands.handle(), kClear);
        m_renderer->record(commands.handle(), slot, kExtent, m_camera.viewProjection());
        m_target->end(commands.handle());
        m_target->copyTo(commands.handle(), m_readback);
        commands.end();
        vk::submitAndWait(*m_device, commands, fence);
    }
    Rgba pixel(glm::dvec2 at) {
        const auto x = static_cast<std::size_t>(at.x), y = static_cast<std::size_t>(at.y);
        std::array<std::uint8_t, 4> bytes{};
        m_readback.read(bytes.data(), 4, (y * kExtent.width + x) * 4);
        return {bytes[0], bytes[1], bytes[2]};
    }
    static QString describe(const Rgba& c) {
        return QStringLiteral("rgb(%1, %2, %3)").arg(c.r).arg(c.g).arg(c.b);
    }

    std::unique_ptr<vk::Device> m_device;
    std::unique_ptr<scene::OffscreenTarget> m_target;
    std::unique_ptr<scene::SceneRenderer> m_renderer;
    vk::Buffer m_readback;
    scene::OrbitCamera m_camera;
};

QTEST_GUILESS_MAIN(TestSceneRenderer)
#include "tst_scenerenderer.moc"
