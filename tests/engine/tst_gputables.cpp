// The plan's tables as the diffraction shader reads them (compute/engine/GpuTables.h), and
// the plan's shape that picks a specialised pipeline. Pure: no GPU.

#include "compute/core/Error.h"
#include "compute/engine/DiffractionShaders.h"
#include "compute/engine/GpuTables.h"

#include <QTest>

using namespace bv;
using namespace bv::engine;

namespace {

plan::Plan smallPlan() {
    plan::Plan p;
    p.fastPixels = 4;
    p.slowPixels = 5;
    p.roi = {-3, 10, 1, 2}; // xmin, xmax, ymin, ymax: clipped to the detector
    p.oversample = 2;
    p.sources.resize(3);
    p.orientations.resize(7);
    return p;
}

bool bit(const VariantKey& key, SpecId id) {
    return ((key.bits >> shapeBit(id)) & 1u) != 0;
}

} // namespace

class TestGpuTables : public QObject {
    Q_OBJECT

  private slots:
    void maskPacksTwoPixelsToAWord() {
        // pixel 2i in the low half: the shader reads (word >> 16 * (i & 1)) & 0xffff
        const std::vector<std::uint32_t> words = gpuMask({1, 2, 3});
        QCOMPARE(words.size(), std::size_t(2));
        QCOMPARE(words[0], 0x00020001u);
        QCOMPARE(words[1], 3u);
        QCOMPARE(gpuMask({}), std::vector<std::uint32_t>{0u}); // the binding needs a buffer
    }

    void variantKeyNamesTheShape() {
        plan::Plan p = smallPlan();
        const VariantKey plain = variantKey(p);
        QCOMPARE(plain.oversample, 2);
        QCOMPARE(plain.sources, 3);
        QCOMPARE(plain.orientations, 7);
        QVERIFY(!bit(plain, SpecMask));
        QVERIFY(!plain.searchesGridExit());

        const std::vector<std::uint16_t> mask(20, 1);
        p.mask = &mask;
        QVERIFY(bit(variantKey(p), SpecMask));
        QVERIFY(variantKey(p) != plain);
        const std::vector<std::uint16_t> none;
        p.mask = &none; // an empty mask masks nothing: the same shape as none
        QVERIFY(variantKey(p) == plain);
    }

    void panelsNameTheirRows() {
        plan::Plan p = smallPlan();
        auto [single, singleRows] = gpuPanels<float>(p);
        // a plan without a panel table: one entry (every binding needs a buffer) and a row per
        // image row (resolve() gives nanoBragg's flat detector its one panel)
        QCOMPARE(single.size(), std::size_t(1));
        QCOMPARE(singleRows.size(), static_cast<std::size_t>(p.slowPixels));

        plan::PanelEntry a, b;
        a.fastPixels = b.fastPixels = 4;
        a.slowPixels = 2;
        b.slowPixels = 3;
        b.pixelSize = 1e-4;
        p.panels = {a, b};
        p.stackedPanels = true; // the plan of a preset's or a file's panels
        QVERIFY(bit(variantKey(p), SpecPanels));
        auto [table, rows] = gpuPanels<double>(p);
        QCOMPARE(table.size(), std::size_t(2));
        QCOMPARE(table[1].firstRow, 2);
        QCOMPARE(table[1].subpixelSize, 0.5e-4); // the panel's pixel over the oversampling
        QCOMPARE(rows, (std::vector<std::uint32_t>{0, 0, 1, 1, 1}));
    }

    void paramsClipTheRoiAndCarryTheShape() {
        const plan::Plan p = smallPlan();
        const GpuParams<float> g = gpuParams<float>(p, 6);
        QCOMPARE(g.roiXmin, 0);
        QCOMPARE(g.roiXmax, 3);
        QCOMPARE(g.roiYmin, 1);
        QCOMPARE(g.roiYmax, 2);
        QCOMPARE(g.sourceCount, 3);
        QCOMPARE(g.orientationCount, 7);
        QCOMPARE(g.freshRows, 6);
        QCOMPARE(g.shape, variantKey(p).bits); // what the generic pipeline reads
    }

    // Each embedded build says, in its own SPIR-V, which precision and parameter block it
    // was compiled for (shaders/CMakeLists.txt: the *_cpu.comp builds read a storage buffer).
    void shaderBuildsDeclareTheirInterface() {
        for (const bool trace : {false, true})
            for (const bool storage : {false, true})
                for (const Precision precision : {Precision::Fast, Precision::Precise}) {
                    const DiffractionShader found = diffractionShaderInterface(
                        diffractionShaderCode({precision, storage, trace}));
                    QVERIFY(found.precision == precision);
                    QCOMPARE(found.paramsInStorage, storage);
                }
        QVERIFY_THROWS_EXCEPTION(bv::Error, diffractionShaderInterface({1, 2, 3, 4, 5, 6}));
        std::vector<std::uint32_t> cut = diffractionShaderCode({Precision::Fast, false, false});
        cut.push_back(0x00ff0000u | 71u); // a last instruction of 255 words, past the end
        QVERIFY_THROWS_EXCEPTION(bv::Error, diffractionShaderInterface(cut));
    }
};

QTEST_APPLESS_MAIN(TestGpuTables)
#include "tst_gputables.moc"
