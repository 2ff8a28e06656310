// ParameterSet's cell under the space group's constraint: for each lattice, the free
// parameters by name, and an experiment at moved values whose cell has exactly the tied
// edges and fixed angles of its lattice and the moved values where they are free; the
// crystal's orientation is not moved by the cell. Without a space group, the edges (equal
// ones as one) and no angle. A start that breaks its lattice is refused.

#include "compute/cli/CommandLine.h"
#include "compute/core/Error.h"
#include "compute/model/Resolve.h"
#include "compute/random/ReferenceRandom.h"
#include "compute/refine/RefinedParameters.h"
#include "compute/refine/FitSampling.h"
#include "compute/request/ExperimentFile.h"

#include <QTemporaryDir>
#include <QTest>

#include <glm/geometric.hpp>
#include <glm/matrix.hpp>

#include <cmath>
#include <optional>
#include <sstream>

namespace {

struct Cell {
    double edge[3];
    double angle[3]; // degrees: alpha, beta, gamma
    glm::dvec3 a;    // the a vector, for its direction
    glm::dvec3 aStar; // and a*
};

Cell cellOf(const bv::Experiment& e) {
    const glm::dmat3 reciprocal = *e.crystal.mosflmMatrix / (e.beam.wavelength * 1e10);
    const glm::dmat3 d = glm::transpose(glm::inverse(reciprocal));
    const auto angle = [](const glm::dvec3& u, const glm::dvec3& v) {
        return std::acos(glm::dot(u, v) / (glm::length(u) * glm::length(v))) * 180.0 / M_PI;
    };
    return {{glm::length(d[0]), glm::length(d[1]), glm::length(d[2])},
            {angle(d[1], d[2]), angle(d[0], d[2]), angle(d[0], d[1])},
            d[0],
            reciprocal[0]};
}

// An experiment whose crystal is exactly the cell `cell` (a, b, c in A, angles in degrees),
// turned by a rotation of 10, 20 and 30 degrees about x, y and z, with the space group of
// `hall`. (nanoBragg's -cell of non-right angles is the reference's cell, a little off the
// numbers given: the matrix is built here instead.)
struct Start {
    bv::Experiment experiment;
    bv::ResolvedExperiment resolved;
};
Start startOf(const std::vector<std::string>& cell, const std::string& hall) {
    bv::RunRequest r = bv::cli::parseCommandLine(
        {"-cell", "50", "60", "70", "90", "90", "90", "-default_F", "1", "-N", "5", "-lambda", "1"});
    double v[6];
    for (int k = 0; k < 6; ++k)
        v[k] = std::stod(cell[static_cast<std::size_t>(k)]);
    const double rad = M_PI / 180.0;
    const double ca = std::cos(v[3] * rad), cb = std::cos(v[4] * rad), cg = std::cos(v[5] * rad);
    const double sg = std::sin(v[5] * rad);
    const double cy = (ca - cb * cg) / sg;
    const glm::dmat3 standard(glm::dvec3(v[0], 0, 0), glm::dvec3(v[1] * cg, v[1] * sg, 0),
                              glm::dvec3(v[2] * cb, v[2] * cy, v[2] * std::sqrt(1 - cb * cb - cy * cy)));
    const auto about = [](int axis, double degrees) {
        glm::dmat3 m(1.0);
        const int i = (axis + 1) % 3, j = (axis + 2) % 3;
        const double c = std::cos(degrees * M_PI / 180.0), s = std::sin(degrees * M_PI / 180.0);
        m[i][i] = m[j][j] = c;
        m[i][j] = s;
        m[j][i] = -s;
        return m;
    };
    const glm::dmat3 direct = about(2, 30) * about(1, 20) * about(0, 10) * standard;
    bv::Crystal& crystal = r.experiment.crystal;
    crystal.cell.reset();
    crystal.mosflmMatrix = glm::transpose(glm::inverse(direct)) * 1.0; // times 1 A
    crystal.spaceGroupHall = hall;
    bv::random::ReferenceRandom rng;
    std::ostringstream log;
    Start s;
    s.resolved = bv::resolve(r.experiment, rng, log);
    s.experiment = bv::refine::canonicalStart(r.experiment, s.resolved);
    return s;
}

QStringList namesOf(const bv::refine::ParameterSet& set) {
    QStringList names;
    for (const bv::refine::Parameter& p : set.parameters())
        names << QString::fromStdString(p.name);
    return names;
}

// canonicalStart of a frame given as words (the start a fit samples)
bv::Experiment fitStart(const std::vector<std::string>& words) {
    bv::RunRequest r = bv::cli::parseCommandLine(words);
    bv::random::ReferenceRandom rng;
    std::ostringstream log;
    const bv::ResolvedExperiment resolved = bv::resolve(r.experiment, rng, log);
    return bv::refine::canonicalStart(r.experiment, resolved);
}
std::optional<int> fitPhiSteps(const std::vector<std::string>& words) {
    return fitStart(words).crystal.phi.steps;
}

} // namespace

class TestRefinedParameters : public QObject {
    Q_OBJECT
  private slots:
    // A rotation frame of 0.5 degrees with no -phisteps: a crystal 15 x 70 A = 1050 A long
    // has lattice peaks 1/1050 per A wide; the detector's corner (1024 pixels of 0.1 mm
    // at 120 mm, the beam in the middle: 51.25 mm along both axes, 72.48 mm off the beam)
    // sees 2 theta = atan(72.48 / 120) = 31.13 degrees, |d*| = 2 sin(15.56) / 1 A = 0.5366 /A.
    // A peak there crosses the sphere in 1 / (1050 x 0.5366) = 1.775e-3 rad = 0.1017 degrees;
    // half of it per step is 0.5 / 0.0508 = 9.8, so 10 steps. What the user said is kept.
    void rotationSampledForTheFit() {
        const std::vector<std::string> frame{"-cell", "50", "60", "70", "90", "90", "90",
                                             "-default_F", "1", "-N", "15", "-lambda", "1",
                                             "-detpixels", "1024", "-pixel", "0.1",
                                             "-distance", "120", "-phi", "0", "-osc", "0.5"};
        QCOMPARE(fitPhiSteps(frame).value_or(-1), 10);
        auto given = frame;
        given.insert(given.end(), {"-phisteps", "5"});
        QCOMPARE(fitPhiSteps(given).value_or(-1), 5);
        auto bigCrystal = frame; // N 200: 0.0038 degrees a step would be 131: the cap
        bigCrystal[10] = "200";
        QCOMPARE(fitPhiSteps(bigCrystal).value_or(-1), bv::refine::kMaxRotationSteps);
        auto still = frame; // no oscillation: nothing to sample
        still.resize(still.size() - 2);
        QVERIFY(!fitPhiSteps(still).has_value());
    }

    // The mosaic domains a fit samples where -mosaic_domains is not given: 50 for a crystal
    // with a spread and for one whose spread is fitted; what the user said is kept; no spread
    // and none fitted: none chosen.
    void mosaicDomainsForTheFit() {
        const std::vector<std::string> crystal{"-cell", "50", "60", "70", "90", "90", "90",
                                               "-default_F", "1", "-N", "15", "-lambda", "1"};
        auto spread = crystal;
        spread.insert(spread.end(), {"-mosaic", "0.3"});
        QCOMPARE(fitStart(spread).crystal.mosaicDomains.value_or(-1), 50);
        auto given = spread;
        given.insert(given.end(), {"-mosaic_domains", "7"});
        QCOMPARE(fitStart(given).crystal.mosaicDomains.value_or(-1), 7);
        const bv::Experiment none = fitStart(crystal);
        QVERIFY(!none.crystal.mosaicDomains.has_value());
        bv::RunRequest r = bv::cli::parseCommandLine(crystal);
        bv::random::ReferenceRandom rng;
        std::ostringstream log;
        const bv::ResolvedExperiment resolved = bv::resolve(r.experiment, rng, log);
        const bv::refine::ParameterSet fitsMosaic(none, resolved, {"mosaic"});
        QCOMPARE(fitsMosaic.start().crystal.mosaicDomains.value_or(-1), 50);
    }

    // -refine panels on a detector of four modules, two in a tilted group: a module moved
    // in its own plane moves it alone, by its own pixels; the refined experiment list writes
    // the move into the module's origin in its group's frame, and reading the list back puts
    // the module where the fit had it (the reader composes the hierarchy on its own).
    void panelsMoveOneByOne() {
        const std::string expt = BV_TEST_DATA "/detectors/four-module-tilted.expt";
        bv::RunRequest r = bv::cli::parseCommandLine(
            {"-detector", expt, "-cell", "50", "60", "70", "90", "90", "90", "-default_F", "1",
             "-N", "5", "-lambda", "1"});
        bv::random::ReferenceRandom rng;
        std::ostringstream log;
        const bv::ResolvedExperiment resolved = bv::resolve(r.experiment, rng, log);
        const bv::Experiment start = bv::refine::canonicalStart(r.experiment, resolved);
        QCOMPARE(start.detector.panels.size(), std::size_t(4));
        const bv::refine::ParameterSet set(start, resolved, {"panels"});
        QCOMPARE(set.parameters().size(), std::size_t(12));
        QCOMPARE(QString::fromStdString(set.parameters()[7].name), QString("panel2_shift_fast"));
        std::vector<double> values = set.startValues();
        values[7] += 2.0;  // panel 2, two pixels along its fast axis
        values[9] += 0.5;  // panel 3, half a mm along the beam
        const bv::Experiment moved = set.experimentAt(values);
        const bv::Panel& p2 = start.detector.panels[2];
        const bv::Panel& p3 = start.detector.panels[3];
        const glm::dvec3 along2 = p2.fast * (2.0 * p2.pixelSizeFast);
        const glm::dvec3 beam = glm::normalize(resolved.axes.beam);
        QVERIFY(glm::length(moved.detector.panels[2].origin - p2.origin - along2) < 1e-12);
        QVERIFY(glm::length(moved.detector.panels[3].origin - p3.origin - beam * 0.5e-3) < 1e-12);
        for (int k : {0, 1})
            QCOMPARE(moved.detector.panels[std::size_t(k)].origin, start.detector.panels[std::size_t(k)].origin);

        QTemporaryDir dir;
        const std::string out = (dir.path() + "/refined.expt").toStdString();
        bv::io::writeRefinedExperiment(expt, 0, out, bv::refine::refinedModels(start, moved));
        bv::RunRequest back = bv::cli::parseCommandLine(
            {"-detector", out, "-cell", "50", "60", "70", "90", "90", "90", "-default_F", "1",
             "-N", "5", "-lambda", "1"});
        const bv::ResolvedExperiment again = bv::resolve(back.experiment, rng, log);
        for (std::size_t k = 0; k < 4; ++k)
            QVERIFY2(glm::length(again.panels[k].pix0 - moved.detector.panels[k].origin) < 1e-9,
                     qPrintable(QString("panel %1").arg(k)));
        // the whole detector's groups and the module's own are not both fitted
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::refine::ParameterSet(start, resolved, {"panels", "distance"}));
    }

    // -refine detector_rotation turns the whole detector in its own plane about the point
    // where the beam meets it (DIALS's Tau1), a hierarchy of modules and a tilted group
    // included: that point keeps its pixel, every axis turns by the angle about the normal,
    // the modules keep their places relative to each other, and the experiment list written
    // back places every module where the fit left it.
    void detectorTurnsAboutTheBeamCentre() {
        const std::string expt = BV_TEST_DATA "/detectors/four-module-tilted.expt";
        const std::vector<std::string> words{"-detector", expt, "-cell", "50",      "60",
                                             "70",        "90", "90",    "90",      "-default_F",
                                             "1",         "-N", "5",     "-lambda", "1"};
        bv::RunRequest r = bv::cli::parseCommandLine(words);
        bv::random::ReferenceRandom rng;
        std::ostringstream log;
        const bv::ResolvedExperiment resolved = bv::resolve(r.experiment, rng, log);
        const bv::Experiment start = bv::refine::canonicalStart(r.experiment, resolved);
        const bv::refine::ParameterSet set(start, resolved, {"beam", "detector_rotation"});
        QCOMPARE(namesOf(set), QStringList({"beam_x", "beam_y", "detector_rotation"}));
        std::vector<double> values = set.startValues();
        values[2] = 0.5; // degrees
        const bv::Experiment moved = set.experimentAt(values);

        const glm::dvec3 beam = glm::normalize(resolved.axes.beam);
        const auto beamPixel = [&](const bv::Panel& p) {
            const glm::dvec3 hit =
                beam * (glm::dot(p.origin, p.normal()) / glm::dot(beam, p.normal()));
            return glm::dvec2(glm::dot(hit - p.origin, p.fast) / p.pixelSizeFast,
                              glm::dot(hit - p.origin, p.slow) / p.pixelSizeSlow);
        };
        QVERIFY(glm::length(beamPixel(moved.detector.panels[0]) -
                            beamPixel(start.detector.panels[0])) < 1e-9);
        const glm::dvec3 normal = glm::normalize(start.detector.panels[0].normal());
        const double c = std::cos(0.5 * M_PI / 180.0), s = std::sin(0.5 * M_PI / 180.0);
        for (std::size_t k = 0; k < 4; ++k) {
            const bv::Panel& a = start.detector.panels[k];
            const bv::Panel& b = moved.detector.panels[k];
            // v turned by 0.5 degrees about the normal: v cos + (n x v) sin + n (n . v)(1 - cos)
            const glm::dvec3 fast = a.fast * c + glm::cross(normal, a.fast) * s +
                                    normal * (glm::dot(normal, a.fast) * (1 - c));
            QVERIFY2(glm::length(b.fast - fast) < 1e-12, qPrintable(QString("panel %1").arg(k)));
            // rigid: the distance from module 0's origin is kept
            QVERIFY(std::fabs(glm::length(b.origin - moved.detector.panels[0].origin) -
                              glm::length(a.origin - start.detector.panels[0].origin)) < 1e-12);
        }

        QTemporaryDir dir;
        const std::string out = (dir.path() + "/refined.expt").toStdString();
        bv::io::writeRefinedExperiment(expt, 0, out, bv::refine::refinedModels(start, moved));
        std::vector<std::string> back = words;
        back[1] = out;
        const bv::ResolvedExperiment again =
            bv::resolve(bv::cli::parseCommandLine(back).experiment, rng, log);
        for (std::size_t k = 0; k < 4; ++k) {
            QVERIFY2(glm::length(again.panels[k].pix0 - moved.detector.panels[k].origin) < 1e-9,
                     qPrintable(QString("panel %1").arg(k)));
            QVERIFY(glm::length(again.panels[k].fdet - moved.detector.panels[k].fast) < 1e-9);
            QVERIFY(glm::length(again.panels[k].sdet - moved.detector.panels[k].slow) < 1e-9);
        }
    }

    // A -distance after -experiment moves the fit's start; what is written back is measured
    // from the detector as the file places it, so a fit that changes nothing writes the
    // option's move (before, measured from the start, it wrote none).
    void refinedListKeepsAnOptionAfterTheFile() {
        const std::string expt = BV_TEST_DATA "/dials/tetragonal.expt";
        const std::vector<std::string> crystal{"-default_F", "1", "-N", "5"};
        std::vector<std::string> words{"-experiment", expt};
        words.insert(words.end(), crystal.begin(), crystal.end());
        const bv::RunRequest asFiled = bv::cli::parseCommandLine(words);
        words.insert(words.end(), {"-distance", "123"});
        const bv::RunRequest moved = bv::cli::parseCommandLine(words);
        bv::random::ReferenceRandom rng;
        std::ostringstream log;
        const bv::ResolvedExperiment filed = bv::resolve(asFiled.experiment, rng, log);
        const bv::ResolvedExperiment there = bv::resolve(moved.experiment, rng, log);
        const glm::dvec3 optionMove = there.panels.at(0).pix0 - filed.panels.at(0).pix0;
        QVERIFY(glm::length(optionMove) > 1e-4); // the option moved the detector
        const bv::Experiment start = bv::refine::canonicalStart(moved.experiment, there);
        const bv::io::RefinedModels models = bv::refine::refinedModelsForFile(
            moved.experiment, bv::request::filedDetector(moved), start);
        QVERIFY(glm::length(models.detectorShift - optionMove) < 1e-12);
        QVERIFY(glm::length(bv::refine::refinedModels(start, start).detectorShift) == 0.0);
    }

    void latticeTies_data() {
        QTest::addColumn<QStringList>("cell");
        QTest::addColumn<QString>("hall");
        QTest::addColumn<QStringList>("free");
        QTest::addColumn<QList<double>>("moved");    // the free parameters' new values
        QTest::addColumn<QList<double>>("expected"); // a, b, c, alpha, beta, gamma then
        // each lattice by its space group, and again without one: the lattice of the start's
        // cell (the edges, equal ones as one; angles of 90 or 120 degrees kept, the others
        // fitted, equal ones as one) is the group's for every one of these cells (the
        // trigonal row's cell is the hexagonal row's, so it runs once)
        struct Row {
            const char* name;
            QStringList cell;
            const char* hall;
            QStringList free;
            QList<double> moved, expected;
            bool sameWithoutGroup;
        };
        const QStringList edges{"cell_a", "cell_b", "cell_c"};
        const Row rows[] = {
            {"cubic P 2 3",
             {"50", "50", "50", "90", "90", "90"},
             " P 2 2 3",
             {"cell_a"},
             {50.2},
             {50.2, 50.2, 50.2, 90, 90, 90},
             true},
            {"tetragonal P 4",
             {"60", "60", "90", "90", "90", "90"},
             " P 4",
             {"cell_a", "cell_c"},
             {60.3, 89.7},
             {60.3, 60.3, 89.7, 90, 90, 90},
             true},
            {"hexagonal P 61",
             {"70", "70", "40", "90", "90", "120"},
             " P 61 2 (0 0 -1)",
             {"cell_a", "cell_c"},
             {70.1, 40.2},
             {70.1, 70.1, 40.2, 90, 90, 120},
             true},
            {"trigonal P 3 on hexagonal axes",
             {"70", "70", "40", "90", "90", "120"},
             " P 3",
             {"cell_a", "cell_c"},
             {69.9, 40.1},
             {69.9, 69.9, 40.1, 90, 90, 120},
             false},
            {"rhombohedral R 3 on its own axes",
             {"50", "50", "50", "80", "80", "80"},
             " P 3*",
             {"cell_a", "cell_alpha"},
             {50.1, 80.5},
             {50.1, 50.1, 50.1, 80.5, 80.5, 80.5},
             true},
            {"orthorhombic P 21 21 21",
             {"50", "60", "70", "90", "90", "90"},
             " P 2ac 2ab",
             edges,
             {50.1, 59.9, 70.2},
             {50.1, 59.9, 70.2, 90, 90, 90},
             true},
            {"monoclinic C 2, b unique",
             {"50", "60", "70", "90", "100", "90"},
             " C 2y",
             edges + QStringList{"cell_beta"},
             {50.1, 60.1, 70.1, 101},
             {50.1, 60.1, 70.1, 90, 101, 90},
             true},
            {"monoclinic P 1 1 2, c unique",
             {"50", "60", "70", "90", "90", "105"},
             " P 2",
             edges + QStringList{"cell_gamma"},
             {50.1, 60.1, 70.1, 104},
             {50.1, 60.1, 70.1, 90, 90, 104},
             true},
            {"triclinic P 1",
             {"50", "60", "70", "80", "95", "105"},
             " P 1",
             edges + QStringList{"cell_alpha", "cell_beta", "cell_gamma"},
             {50.1, 60.1, 70.1, 81, 94, 106},
             {50.1, 60.1, 70.1, 81, 94, 106},
             true},
        };
        for (const Row& r : rows) {
            QTest::newRow(r.name) << r.cell << QString(r.hall) << r.free << r.moved << r.expected;
            if (r.sameWithoutGroup)
                QTest::newRow(qPrintable(QString("%1, no space group").arg(r.name)))
                    << r.cell << QString() << r.free << r.moved << r.expected;
        }
    }
    void latticeTies() {
        QFETCH(QStringList, cell);
        QFETCH(QString, hall);
        QFETCH(QStringList, free);
        QFETCH(QList<double>, moved);
        QFETCH(QList<double>, expected);
        std::vector<std::string> words;
        for (const QString& w : cell)
            words.push_back(w.toStdString());
        const Start s = startOf(words, hall.toStdString());
        const bv::refine::ParameterSet set(s.experiment, s.resolved, {"cell"});
        QCOMPARE(namesOf(set), free);

        // at the start: the start's cell, in the start's orientation
        const Cell before = cellOf(set.experimentAt(set.startValues()));
        for (int k = 0; k < 3; ++k) {
            QVERIFY(std::fabs(before.edge[k] - cell[k].toDouble()) < 1e-9);
            QVERIFY(std::fabs(before.angle[k] - cell[3 + k].toDouble()) < 1e-9);
        }
        const Cell original = cellOf(s.experiment);
        QVERIFY(glm::length(before.a - original.a) < 1e-9);

        // moved: exactly the lattice's cell
        const Cell after = cellOf(set.experimentAt(std::vector<double>(moved.begin(), moved.end())));
        for (int k = 0; k < 3; ++k) {
            QVERIFY2(std::fabs(after.edge[k] - expected[k]) < 1e-10 * expected[k],
                     qPrintable(QString("edge %1: %2").arg(k).arg(after.edge[k], 0, 'g', 17)));
            QVERIFY2(std::fabs(after.angle[k] - expected[3 + k]) < 1e-9,
                     qPrintable(QString("angle %1: %2").arg(k).arg(after.angle[k], 0, 'g', 17)));
        }
        // the frame's first vector keeps its direction (the orientation is the orientation
        // group's): a in DIALS's frame (a crystal with a space group), a* in nanoBragg's
        if (hall.isEmpty())
            QVERIFY(glm::length(glm::normalize(after.aStar) - glm::normalize(original.aStar)) <
                    1e-12);
        else
            QVERIFY(glm::length(glm::normalize(after.a) - glm::normalize(original.a)) < 1e-12);
    }

    // A crystal of nanoBragg's options moves its cell in nanoBragg's frame (a* along x, b*
    // in the xy plane, then -misset): a start whose -cell alone is off the truth's, fitted
    // back to the truth's six numbers, is the truth's crystal, orientation and all. (In
    // DIALS's frame, a along x, the monoclinic angle would turn a* instead: a start of beta
    // 100.2 then came back with the crystal 0.2 degrees off, the cell group unable to undo it.)
    void aCellOfNanoBraggOptionsMovesInNanoBraggsFrame() {
        const std::vector<std::string> common{"-misset", "15", "-30", "40",      "-default_F",
                                              "1",       "-N", "5",   "-lambda", "1"};
        const auto withCell = [&](std::vector<std::string> cell) {
            cell.insert(cell.begin(), "-cell");
            cell.insert(cell.end(), common.begin(), common.end());
            return cell;
        };
        const bv::Experiment truth = fitStart(withCell({"45", "55", "65", "90", "100", "90"}));
        bv::RunRequest r =
            bv::cli::parseCommandLine(withCell({"45.2", "54.8", "65.2", "90", "100.2", "90"}));
        bv::random::ReferenceRandom rng;
        std::ostringstream log;
        const bv::ResolvedExperiment resolved = bv::resolve(r.experiment, rng, log);
        const bv::refine::ParameterSet set(bv::refine::canonicalStart(r.experiment, resolved),
                                           resolved, {"cell"});
        QCOMPARE(namesOf(set), (QStringList{"cell_a", "cell_b", "cell_c", "cell_beta"}));
        const bv::Experiment back = set.experimentAt({45, 55, 65, 100});
        const glm::dmat3 t = *truth.crystal.mosflmMatrix, b = *back.crystal.mosflmMatrix;
        for (int k = 0; k < 3; ++k)
            QVERIFY2(glm::length(b[k] - t[k]) < 1e-7 * glm::length(t[k]),
                     qPrintable(QString("reciprocal vector %1 off by %2 of its length")
                                    .arg(k)
                                    .arg(glm::length(b[k] - t[k]) / glm::length(t[k]))));
    }

    void tiedEdgesAreExactlyEqual() {
        // a tetragonal start a hair off its lattice (as a file's rounded numbers are) is made
        // exact: a and b the same to the last bit at every value
        const Start s = startOf({"60.00004", "59.99998", "90", "90", "90", "90.00003"}, " P 4");
        const bv::refine::ParameterSet set(s.experiment, s.resolved, {"cell"});
        for (double a : {59.7, 60.0, 60.31}) {
            const Cell c = cellOf(set.experimentAt({a, 90.2}));
            QVERIFY(std::fabs(c.edge[0] - c.edge[1]) <= 1e-12 * a);
            QVERIFY(std::fabs(c.angle[2] - 90.0) < 1e-9);
        }
    }

    void aStartOffItsLatticeIsRefused() {
        const Start s = startOf({"50", "60", "90", "90", "90", "90"}, " P 4");
        try {
            bv::refine::ParameterSet set(s.experiment, s.resolved, {"cell"});
            QFAIL("no error");
        } catch (const bv::Error& e) {
            const QString m = e.what();
            QVERIFY2(m.contains("is not tetragonal") && m.contains("P 4"), qPrintable(m));
        }
    }

    void otherGroupsLeaveTheCell() {
        // orientation alone moves no edge and no angle
        const Start s = startOf({"70", "70", "40", "90", "90", "120"}, " P 6");
        const bv::refine::ParameterSet set(s.experiment, s.resolved, {"orientation"});
        const Cell c = cellOf(set.experimentAt({0.5, -0.3, 0.2}));
        QVERIFY(std::fabs(c.edge[0] - 70) < 1e-9 && std::fabs(c.angle[2] - 120) < 1e-9);
    }
};

QTEST_APPLESS_MAIN(TestRefinedParameters)
#include "tst_refinedparameters.moc"
