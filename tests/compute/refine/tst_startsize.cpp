// The start of -refine ncells where the experiment states no size (refine::searchStartSize):
// on a made-up forward model whose spots are lines of Gaussian peaks as wide as 1/N, a frame
// made at N = 8 (plus a flat background and a gap without data) is found at 8 of the
// candidates 2 to 64; what the experiment states about oversampling is kept, and otherwise
// the candidates are rendered with one sub-pixel. A fit that did not name ncells fits it too
// when the size was searched; a stated size is left alone.

#include "compute/refine/StartSize.h"

#include <QTest>

#include <cmath>

namespace {

constexpr int kSide = 64;

// peaks every 16 pixels along fast, each as wide as 40 / N pixels
std::vector<float> spots(double cells) {
    std::vector<float> image(kSide * kSide);
    for (int s = 0; s < kSide; ++s)
        for (int f = 0; f < kSide; ++f) {
            const double offset = std::fmod(f + 8.0, 16.0) - 8.0;
            const double width = 40.0 / cells;
            image[std::size_t(s * kSide + f)] = float(std::exp(-offset * offset / (2 * width * width)));
        }
    return image;
}

} // namespace

class TestStartSize : public QObject {
    Q_OBJECT
  private slots:
    void findsTheFramesSize() {
        bv::io::MeasuredImage measured;
        measured.width = measured.height = kSide;
        measured.pixels = spots(8.0);
        measured.hasData.assign(measured.pixels.size(), 1);
        for (std::size_t i = 0; i < measured.pixels.size(); ++i) {
            measured.pixels[i] = 100.0f * measured.pixels[i] + 20.0f;
            if (i % kSide == 5) { // a column without data, its counts nonsense
                measured.pixels[i] = -1e6f;
                measured.hasData[i] = 0;
            }
        }
        bv::Experiment experiment;
        QVERIFY(bv::refine::statesNoSize(experiment));
        std::vector<int> oversamples;
        const auto render = [&](const bv::Experiment& e) {
            oversamples.push_back(e.sampling.oversample.value_or(-1));
            return spots(e.crystal.cells.x);
        };
        const bv::refine::StartSize found = bv::refine::searchStartSize(experiment, measured, render);
        QCOMPARE(found.cells, 8.0);
        QCOMPARE(found.correlations.size(), bv::refine::startSizeCandidates().size());
        QVERIFY(found.correlations[2] > 0.999); // 8: the frame's own peaks
        QCOMPARE(oversamples, std::vector<int>(found.correlations.size(), 1));

        oversamples.clear();
        experiment.sampling.oversample = 3;
        bv::refine::searchStartSize(experiment, measured, render);
        QCOMPARE(oversamples, std::vector<int>(found.correlations.size(), 3));
        // a fit of the distance alone: the size searched and fitted too
        bv::Experiment unsized;
        std::vector<std::string> groups{"distance"};
        const std::optional<bv::refine::StartSize> chosen =
            bv::refine::chooseStartSize(unsized, groups, measured, render);
        QVERIFY(chosen.has_value());
        QCOMPARE(unsized.crystal.cells, glm::dvec3(8.0));
        QCOMPARE(groups, (std::vector<std::string>{"distance", "ncells"}));
        // a size stated is a start: no search, the groups as they were
        experiment.crystal.cells = glm::dvec3(10, 10, 10);
        QVERIFY(!bv::refine::statesNoSize(experiment));
        groups = {"distance"};
        QVERIFY(!bv::refine::chooseStartSize(experiment, groups, measured, render).has_value());
        QCOMPARE(groups, std::vector<std::string>{"distance"});
        QCOMPARE(experiment.crystal.cells, glm::dvec3(10.0));
        experiment.crystal.cells = glm::dvec3(1.0);
        experiment.crystal.sampleSize = glm::dvec3(1e-7, 0, 0);
        QVERIFY(!bv::refine::statesNoSize(experiment));
    }
};

QTEST_GUILESS_MAIN(TestStartSize)
#include "tst_startsize.moc"
