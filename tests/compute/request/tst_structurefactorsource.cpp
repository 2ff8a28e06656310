// -mtz, -sfcif, -model on the command line: what the request keeps, the words it is written
// back as, the model's default resolution from the detector's corner, and a model read into
// the experiment's table by loadInputs (with the cache -hkl also writes).

#include "compute/cli/CommandLine.h"
#include "compute/core/Error.h"
#include "compute/request/Inputs.h"
#include "compute/request/Parameters.h"
#include "compute/request/StructureFactorSource.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <sstream>

using bv::RunRequest;

namespace {

std::vector<std::string> words(const QString& args) {
    std::vector<std::string> out;
    for (const QString& w : args.split(' ', Qt::SkipEmptyParts))
        out.push_back(w.toStdString());
    return out;
}

QString joined(const std::vector<std::string>& w) {
    QStringList out;
    for (const std::string& s : w)
        out << QString::fromStdString(s);
    return out.join(' ');
}

} // namespace

class TestStructureFactorSource : public QObject {
    Q_OBJECT
  private slots:
    void optionsNameTheFileAndItsFormat_data() {
        QTest::addColumn<QString>("args");
        QTest::addColumn<int>("format");
        QTest::addColumn<QString>("written");
        QTest::newRow("-hkl") << "-hkl P1.hkl" << int(RunRequest::HklFormat::Text) << "-hkl P1.hkl";
        QTest::newRow("-mtz") << "-mtz data.mtz -sf_column IMEAN"
                              << int(RunRequest::HklFormat::Mtz) << "-mtz data.mtz -sf_column IMEAN";
        QTest::newRow("-sfcif") << "-sfcif r1abcsf.cif" << int(RunRequest::HklFormat::Cif)
                                << "-sfcif r1abcsf.cif";
        QTest::newRow("-model") << "-model 1abc.pdb -model_dmin 2.5"
                                << int(RunRequest::HklFormat::Model)
                                << "-model 1abc.pdb -model_dmin 2.5";
        // the last one given wins, as a second -hkl does
        QTest::newRow("-hkl then -mtz") << "-hkl P1.hkl -mtz data.mtz"
                                        << int(RunRequest::HklFormat::Mtz) << "-mtz data.mtz";
        QTest::newRow("-mtz then -hkl") << "-mtz data.mtz -hkl P1.hkl"
                                        << int(RunRequest::HklFormat::Text) << "-hkl P1.hkl";
    }
    void optionsNameTheFileAndItsFormat() {
        QFETCH(QString, args);
        QFETCH(int, format);
        QFETCH(QString, written);
        const RunRequest r = bv::cli::parseCommandLine(words(args));
        QCOMPARE(int(r.hklFormat), format);
        const QString words = joined(bv::request::commandWords(r));
        QVERIFY2(words.contains(written), qPrintable(words));
        // read back, the words give the same request
        const RunRequest again = bv::cli::parseCommandLine(bv::request::commandWords(r));
        QCOMPARE(again.hkl, r.hkl);
        QCOMPARE(int(again.hklFormat), format);
        QCOMPARE(again.sfColumn, r.sfColumn);
        QCOMPARE(again.modelDminAngstrom, r.modelDminAngstrom);
    }

    void optionsWithoutTheirFile_data() {
        QTest::addColumn<QString>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("-sf_column alone") << "-default_F 1 -sf_column FP" << "-sf_column FP";
        QTest::newRow("-sf_column with -model") << "-model m.pdb -sf_column FP" << "neither";
        QTest::newRow("-model_dmin with -mtz") << "-mtz m.mtz -model_dmin 2" << "-model_dmin";
    }
    void optionsWithoutTheirFile() {
        QFETCH(QString, args);
        QFETCH(QString, message);
        RunRequest r = bv::cli::parseCommandLine(words(args + " -cell 10 10 10 90 90 90"));
        std::ostringstream log;
        try {
            bv::request::loadInputs(r, log);
            QFAIL("no error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).contains(message), e.what());
        }
    }

    // 1024 pixels of 0.1 mm at 100 mm, the MOSFLM default beam centre: the beam meets the
    // detector 51.3 mm from the first pixel's outer corner on both axes (51.25 + half a pixel),
    // 51.1 mm from the far edges, so the farthest corner is 51.3 * sqrt(2) mm off the beam.
    void cornerResolution() {
        const RunRequest r = bv::cli::parseCommandLine(
            words("-detpixels 1024 -pixel 0.1 -distance 100 -lambda 1 -default_F 1"));
        const double twoTheta = std::atan(51.3 * std::sqrt(2.0) / 100.0);
        const double expected = 1e-10 / (2.0 * std::sin(twoTheta / 2.0)); // 1.61975 A
        QVERIFY2(std::fabs(bv::request::detectorCornerResolution(r.experiment) - expected) <
                     1e-9 * expected,
                 qPrintable(QString::number(bv::request::detectorCornerResolution(r.experiment))));
        // -dispersion 10%: the shortest wavelength, 0.95 A, reaches 5% finer
        const RunRequest wide = bv::cli::parseCommandLine(words(
            "-detpixels 1024 -pixel 0.1 -distance 100 -lambda 1 -dispersion 10 -default_F 1"));
        QVERIFY(std::fabs(bv::request::detectorCornerResolution(wide.experiment) -
                          0.95 * expected) < 1e-9 * expected);
    }

    // A carbon atom in a 10 A cube, read by loadInputs with no -model_dmin: the limit is 95%
    // of the corner's 1.61975 A, 1.53876 A, so (6 2 0) at d = 1.581 A is in the table and
    // (6 3 0) at 1.491 A is not (without the margin (6 2 0) would not be either).
    void modelThroughLoadInputs() {
        QTemporaryDir dir;
        const QString pdb = dir.filePath("c.pdb");
        QFile file(pdb);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("CRYST1   10.000   10.000   10.000  90.00  90.00  90.00 P 1           1\n"
                   "ATOM      1  C   GLY A   1       1.000   2.000   3.000  1.00 20.00           C\n"
                   "END\n");
        file.close();
        const QString dump = dir.filePath("Fdump.bin");
        RunRequest r = bv::cli::parseCommandLine(
            words("-model " + pdb + " -cell 10 10 10 90 90 90 -detpixels 1024 -pixel 0.1 "
                  "-distance 100 -lambda 1 -default_F 0.5 -dump " + dump));
        std::ostringstream log;
        bv::request::loadInputs(r, log);
        const bv::StructureFactors& sf = r.experiment.structureFactors;
        QCOMPARE(sf.hMax, 6);
        QVERIFY(sf.amplitude(6, 2, 0) != 0.5);
        QCOMPARE(sf.amplitude(6, 3, 0), 0.5);
        QCOMPARE(sf.amplitude(-6, -2, 0), sf.amplitude(6, 2, 0)); // the Friedel mate
        QVERIFY2(QString::fromStdString(log.str()).contains("|F| to 1.53876 A"), log.str().c_str());
        QVERIFY(QFile::exists(dump)); // cached, as after -hkl
        const auto inputs = bv::request::inputFiles(r);
        QVERIFY(std::any_of(inputs.begin(), inputs.end(), [&](const bv::request::NamedFile& f) {
            return f.role == "-model" && f.path == pdb.toStdString();
        }));
    }

    void missingFileNamesTheOption() {
        RunRequest r = bv::cli::parseCommandLine(
            words("-mtz /nonexistent/x.mtz -cell 10 10 10 90 90 90"));
        std::ostringstream log;
        try {
            bv::request::loadInputs(r, log);
            QFAIL("no error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).startsWith("-mtz: ") &&
                         QString(e.what()).contains("'/nonexistent/x.mtz'"),
                     e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestStructureFactorSource)
#include "tst_structurefactorsource.moc"
