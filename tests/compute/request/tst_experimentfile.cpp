// -experiment FILE.expt as a user writes it: a hand-made DIALS experiment list
// (tests/data/dials/two-experiments.expt, which tst_dialsmodels reads model by model) sets
// the beam, the detector, the crystal, the goniometer axis and the scan's phi; options after it override; -frame picks the image and
// -experiment_id the experiment; what it cannot use is refused with the option named.

#include "compute/cli/CommandLine.h"
#include "compute/core/Error.h"
#include "compute/model/Resolve.h"
#include "compute/model/Units.h"
#include "compute/random/ReferenceRandom.h"
#include "compute/request/ExperimentFile.h"
#include "compute/request/Parameters.h"

#include <QTemporaryDir>
#include <QTest>

#include <glm/geometric.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace {

// tests/data/dials/two-experiments.expt (tst_dialsmodels reads it model by model).
// Experiment 0: 1.5 A, polarization normal (0, 1, 0) with fraction 0.9, a goniometer axis
// turned by its setting rotation to dxtbx's y, a 10 x 20 x 30 A crystal, images 3 to 12 of
// 0.5 degrees from 10 degrees; experiment 1: a still of a 40 A cube at 0.8 A
const std::string kExperiment = std::string(BV_TEST_DATA) + "/dials/two-experiments.expt";

bool near(const glm::dvec3& a, const glm::dvec3& b, double tolerance = 1e-12) {
    return glm::length(a - b) <= tolerance;
}
bool near(double a, double b, double tolerance = 1e-12) {
    return std::fabs(a - b) <= tolerance;
}

double degrees(double radians) { return bv::units::degreesFromRadians(radians); }

} // namespace

class TestExperimentFile : public QObject {
    Q_OBJECT

    const std::string m_path = kExperiment;

    bv::RunRequest parse(std::vector<std::string> args) {
        return bv::cli::parseCommandLine(args);
    }
    bv::ResolvedExperiment resolved(const bv::RunRequest& r) {
        static bv::Experiment kept;
        kept = r.experiment;
        bv::random::ReferenceRandom rng;
        std::ostringstream log;
        return bv::resolve(kept, rng, log);
    }
    QString refusal(std::vector<std::string> args) {
        try {
            parse(std::move(args));
        } catch (const bv::Error& e) {
            return QString::fromStdString(e.what());
        }
        return QStringLiteral("no error");
    }

  private slots:
    void setsEveryModel() {
        const bv::RunRequest r = parse({"-experiment", m_path, "-default_F", "1"});
        const bv::Experiment& e = r.experiment;
        QCOMPARE(e.beam.wavelength, 1.5e-10);
        // Kahn's factor from the fraction: 2 x 0.9 - 1
        QVERIFY(e.beam.polarization && near(e.beam.kahnFactor, 0.8));
        // the axes the file gives select the custom convention: the spindle (dxtbx x turned
        // to dxtbx y) is y here; the E-vector, across the normal y and the beam x, is along z
        QCOMPARE(e.convention, bv::Convention::Custom);
        QVERIFY(near(e.customAxes.spindle, {0, 1, 0}));
        QVERIFY(near(glm::abs(e.customAxes.polarization), {0, 0, 1}));
        QVERIFY(near(e.customAxes.beam, {1, 0, 0}));
        QCOMPARE(e.detector.panels.size(), std::size_t(1));
        // phi of the scan's first image, image 3: 10 degrees, 0.5 wide
        QVERIFY(near(degrees(e.crystal.phi0), 10.0));
        QVERIFY(near(degrees(e.crystal.phi.range.value_or(0)), 0.5));
        // twice the half mosaicity; the domain size as the crystal's size
        QVERIFY(near(degrees(e.crystal.mosaicSpread.value_or(0)), 0.1));
        QVERIFY(near(e.crystal.sampleSize.x, 1000e-10));
        // the cell: S F A turned into this frame (tst_dialsmodels): a along y, b along -z,
        // c along -x, of 10, 20 and 30 A
        const bv::CellVectors cell = resolved(r).cell;
        QVERIFY(near(cell.a, {0, 10, 0}, 1e-9));
        QVERIFY(near(cell.b, {0, 0, -20}, 1e-9));
        QVERIFY(near(cell.c, {-30, 0, 0}, 1e-9));
    }

    void optionsAfterItOverride() {
        const bv::RunRequest r = parse({"-experiment", m_path, "-default_F", "1", "-phi", "3",
                                        "-polar", "0", "-mosaic", "0.5", "-lambda", "1.0"});
        QVERIFY(near(degrees(r.experiment.crystal.phi0), 3.0));
        QCOMPARE(r.experiment.beam.kahnFactor, 0.0);
        QVERIFY(near(degrees(r.experiment.crystal.mosaicSpread.value_or(0)), 0.5));
        QCOMPARE(r.experiment.beam.wavelength, 1.0e-10);
        // another wavelength leaves the file's cell as it is
        const bv::CellVectors cell = resolved(r).cell;
        QVERIFY(near(cell.a, {0, 10, 0}, 1e-9));
        QVERIFY(near(cell.c, {-30, 0, 0}, 1e-9));
    }

    void theFrameGivesPhi() {
        // image 5: 10 + (5 - 3) x 0.5 = 11 degrees, before or after -experiment
        for (const auto& args : {std::vector<std::string>{"-experiment", m_path, "-frame", "5"},
                                 std::vector<std::string>{"-frame", "5", "-experiment", m_path}}) {
            auto words = args;
            words.insert(words.end(), {"-default_F", "1"});
            const bv::RunRequest r = parse(words);
            QVERIFY(near(degrees(r.experiment.crystal.phi0), 11.0));
            QVERIFY(r.phiDegrees && near(*r.phiDegrees, 11.0));
        }
    }

    void anotherExperimentOfTheList() {
        const bv::RunRequest r =
            parse({"-experiment_id", "1", "-experiment", m_path, "-default_F", "1"});
        QCOMPARE(r.experiment.beam.wavelength, 0.8e-10);
        // a still: no scan, phi stays 0; no goniometer: the convention's spindle
        QCOMPARE(r.experiment.crystal.phi0, 0.0);
        QVERIFY(near(resolved(r).cell.a, {0, 40, 0}, 1e-9));
    }

    void theWordsReadBack() {
        // the request written as words names the file and reads back to the same experiment
        const bv::RunRequest r = parse({"-experiment", m_path, "-frame", "7", "-default_F", "1"});
        const std::vector<std::string> words = bv::request::commandWords(r);
        QCOMPARE(QString::fromStdString(words.at(0)), QStringLiteral("-frame"));
        const bv::RunRequest back = bv::cli::parseCommandLine(words);
        QCOMPARE(back.experiment.beam.wavelength, r.experiment.beam.wavelength);
        QCOMPARE(back.experiment.crystal.phi0, r.experiment.crystal.phi0);
        QVERIFY(back.experiment.crystal.mosflmMatrix == r.experiment.crystal.mosflmMatrix);
        QVERIFY(back.experiment.customAxes.spindle == r.experiment.customAxes.spindle);
    }

    // The file is read once, where -experiment is applied: the measured image's name, the
    // mask and the detector as filed come from that reading, even with the file gone since;
    // a request without the reading (as a session makes one) reads the file when asked.
    void theFileIsReadOnce() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        std::ostringstream whole;
        whole << std::ifstream(m_path).rdbuf();
        std::string text = whole.str();
        const auto replace = [&text](const std::string& from, const std::string& to) {
            const std::size_t at = text.find(from);
            QVERIFY(at != std::string::npos);
            text.replace(at, from.size(), to);
        };
        replace("\"scan\": 0, \"crystal\": 0}", "\"scan\": 0, \"crystal\": 0, \"imageset\": 0}");
        replace("{\"__id__\": \"ExperimentList\",",
                "{\"__id__\": \"ExperimentList\", \"imageset\": [{\"__id__\": "
                "\"ImageSequence\", \"template\": \"frame_####.cbf\", \"mask\": \"trusted.pickle\"}],");
        const std::string dirName = dir.path().toStdString();
        const std::string path = dirName + "/with-images.expt";
        std::ofstream(path) << text;
        const bv::RunRequest r = parse({"-experiment", path, "-frame", "5", "-default_F", "1"});
        QVERIFY(std::remove(path.c_str()) == 0);

        QCOMPARE(QString::fromStdString(bv::request::measuredSource(r).path),
                 QString::fromStdString(dirName + "/frame_0005.cbf"));
        QCOMPARE(QString::fromStdString(bv::request::experimentMask(r)),
                 QString::fromStdString(dirName + "/trusted.pickle"));
        QCOMPARE(bv::request::filedDetector(r).panels.size(), std::size_t{1});

        bv::RunRequest asASessionHasIt = r;
        asASessionHasIt.experimentRead.reset();
        try {
            bv::request::experimentMask(asASessionHasIt);
            QFAIL("the file is gone: reading it again must fail");
        } catch (const bv::Error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(QString::fromStdString(path)), e.what());
        }
        try { // the detector as filed names the option, as -experiment's own reading does
            bv::request::filedDetector(asASessionHasIt);
            QFAIL("the file is gone: reading it again must fail");
        } catch (const bv::Error& e) {
            QVERIFY2(QString::fromUtf8(e.what()).startsWith(
                         QString::fromStdString("-experiment " + path + ": ")),
                     e.what());
        }
    }

    void refusals() {
        QVERIFY2(refusal({"-experiment", m_path, "-frame", "99", "-default_F", "1"})
                     .contains("-frame 99: no image 99 in the experiment's scan (3 to 12)"),
                 qPrintable(refusal({"-experiment", m_path, "-frame", "99"})));
        const QString still = refusal({"-experiment_id", "1", "-experiment", m_path, "-frame", "4"});
        QVERIFY2(still.contains("has no scan"), qPrintable(still));
        const QString noSuch = refusal({"-experiment_id", "4", "-experiment", m_path});
        QVERIFY2(noSuch.contains("-experiment " + QString::fromStdString(m_path)) &&
                     noSuch.contains("no experiment 4"),
                 qPrintable(noSuch));
        const QString late = refusal({"-experiment", m_path, "-experiment_id", "1"});
        QVERIFY2(late.contains("-experiment_id 1: give it before -experiment"), qPrintable(late));
        const QString missing = refusal({"-experiment", "/nonexistent/x.expt"});
        QVERIFY2(missing.contains("/nonexistent/x.expt"), qPrintable(missing));
    }
};

QTEST_APPLESS_MAIN(TestExperimentFile)
#include "tst_experimentfile.moc"
