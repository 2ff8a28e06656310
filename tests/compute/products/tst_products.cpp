// The products step on a made-up image: which files, in which order, the reference's lines,
// all or nothing, and the noise image continuing the generator it is handed.

#include "compute/cli/CommandLine.h"
#include "compute/core/Error.h"
#include "compute/io/CbfImage.h"
#include "compute/io/NoiseImage.h"
#include "compute/io/PrintfFormat.h"
#include "compute/io/Smv.h"
#include "compute/model/Resolve.h"
#include "compute/products/NexusSeries.h"
#include "compute/products/Products.h"
#include "compute/random/CounterRandom.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <sstream>

namespace {

using bv::products::OutputFiles;

// A 16x16 detector and the run's generator where resolve() leaves it (a mosaic spread, so
// that resolve() draws from it).
struct Run {
    bv::RunRequest cl = bv::cli::parseCommandLine(
        {"-cell", "100", "100", "100", "90", "90", "90", "-default_F", "100", "-detpixels", "16",
         "-mosaic", "0.5", "-mosaic_domains", "3", "-seed", "7"});
    bv::random::ReferenceRandom rng;
    std::ostringstream log;
    bv::ResolvedExperiment r = bv::resolve(cl.experiment, rng, log);
    std::vector<float> image = madeUpImage();

    static std::vector<float> madeUpImage() {
        std::vector<float> pixels(16 * 16);
        for (std::size_t i = 0; i < pixels.size(); ++i)
            pixels[i] = static_cast<float>((i * 37) % 11) * 2.5f;
        return pixels;
    }
    bv::products::ImageSource source() const {
        return {cl, r, image, {rng, cl.experiment.seed}, 1.7e9};
    }
};

QByteArray contents(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestProducts : public QObject {
    Q_OBJECT
  private slots:
    void printsTheReferencesLinesInItsOrder() {
        QTemporaryDir dir;
        const Run run;
        OutputFiles files;
        files.floatFile = dir.filePath("f.bin").toStdString();
        files.intFile = dir.filePath("i.img").toStdString();
        files.pgmFile = dir.filePath("p.pgm").toStdString();
        files.noiseFile = dir.filePath("n.img").toStdString();
        std::string printed;
        bv::products::writeProducts(run.source(), files,
                                    {[&](const std::string& text) { printed += text; }, {}});
        std::size_t at = 0;
        for (const std::string& start :
             {"writing " + files.floatFile + " as 256 4-byte floats\n", std::string("max_I = "),
              std::string("mean= "), std::string("intfile_scale = "),
              "writing " + files.intFile + " as 2-byte integers\n", std::string("pgm_scale = "),
              "writing " + files.pgmFile + " as 1-byte integers\n",
              std::string(" photons on noise image ("),
              "writing " + files.noiseFile + " as 2-byte integers\n"}) {
            const std::size_t found = printed.find(start, at);
            QVERIFY2(found != std::string::npos, (start + " after offset " +
                                                  std::to_string(at) + " in:\n" + printed).c_str());
            at = found + start.size();
        }
        for (const auto& [option, path] : files.named())
            QVERIFY2(QFile::exists(QString::fromStdString(path)), path.c_str());
    }

    void writesOnlyTheFilesNamed() {
        QTemporaryDir dir;
        OutputFiles files;
        files.pgmFile = dir.filePath("only.pgm").toStdString();
        bv::products::writeProducts(Run().source(), files);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"only.pgm"});
    }

    void aFileThatFailsLeavesNoneBehind() {
        QTemporaryDir dir;
        OutputFiles files;
        files.floatFile = dir.filePath("f.bin").toStdString();
        files.intFile = dir.filePath("i.img").toStdString();
        files.cbfFile = dir.filePath("missing/c.cbf").toStdString(); // the last one written
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::products::writeProducts(Run().source(), files));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{});
    }

    // The stacked rows of a detector of panels under an SMV or CBF header of one flat
    // detector would misstate the geometry: refused by name, nothing written; the float
    // image (the rows stacked) is fine.
    void panelsAreNeverWrittenAsOneFlatDetector_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("SMV int image") << "i.img";
        QTest::newRow("SMV noise image") << "n.img";
        QTest::newRow("miniCBF") << "c.cbf";
    }
    void panelsAreNeverWrittenAsOneFlatDetector() {
        QFETCH(QString, name);
        QTemporaryDir dir;
        Run run;
        bv::PanelGeometry half;
        half.name = "top";
        run.r.panels = {half, half};
        run.r.panelsFromSource = true;
        OutputFiles files;
        files.floatFile = dir.filePath("f.bin").toStdString();
        std::string& target = name.endsWith(".cbf") ? files.cbfFile
                              : name.startsWith("i") ? files.intFile
                                                     : files.noiseFile;
        target = dir.filePath(name).toStdString();
        QString message;
        try {
            bv::products::writeProducts(run.source(), files);
        } catch (const bv::Error& e) {
            message = e.what();
        }
        QVERIFY2(message.contains(name) && message.contains("several panels"), qPrintable(message));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{});
        OutputFiles floatOnly;
        floatOnly.floatFile = files.floatFile;
        bv::products::writeProducts(run.source(), floatOnly);
        QVERIFY(QFile::exists(dir.filePath("f.bin")));
    }

    void aNexusFileThatFailsLeavesNoneBehind() {
        QTemporaryDir dir;
        OutputFiles files;
        files.floatFile = dir.filePath("f.bin").toStdString();
        files.cbfFile = dir.filePath("c.cbf").toStdString();
        files.nexusFile = dir.filePath("missing/n.h5").toStdString(); // written last
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::products::writeProducts(Run().source(), files));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{});
    }

    void aNexusFileChangesNoOtherFile() {
        // -nexusfile draws its counts from a copy of the generator, as the CBF does
        QTemporaryDir dir;
        const Run run;
        OutputFiles without = OutputFiles::ofSingleRun(run.cl.outputs);
        without.cbfFile = "c.cbf";
        for (std::string* name : {&without.floatFile, &without.intFile, &without.pgmFile,
                                  &without.noiseFile, &without.cbfFile})
            *name = dir.filePath(QString::fromStdString(*name)).toStdString();
        bv::products::writeProducts(run.source(), without);
        // the same names in a folder of their own (a CBF carries its name)
        QVERIFY(QDir(dir.path()).mkdir("with"));
        OutputFiles with = OutputFiles::ofSingleRun(run.cl.outputs);
        with.cbfFile = "c.cbf";
        with.nexusFile = "n.h5";
        for (std::string* name : {&with.floatFile, &with.intFile, &with.pgmFile, &with.noiseFile,
                                  &with.cbfFile, &with.nexusFile})
            *name = dir.filePath(QString::fromStdString("with/" + *name)).toStdString();
        bv::products::writeProducts(run.source(), with);
        QVERIFY(QFile::exists(QString::fromStdString(with.nexusFile)));
        const auto a = without.named(), b = with.named();
        QCOMPARE(b.size(), a.size() + 1);
        for (std::size_t i = 0; i < a.size(); ++i)
            QVERIFY2(contents(QString::fromStdString(a[i].second)) ==
                         contents(QString::fromStdString(b[i].second)),
                     a[i].first.c_str());
    }

    void aSeriesNotCommittedLeavesNoNexusFile() {
        QTemporaryDir dir;
        const Run run;
        const std::string path = dir.filePath("series.h5").toStdString();
        {
            bv::products::NexusSeries series(path);
            series.append(run.source());
            series.append(run.source());
            QCOMPARE(series.frames(), 2);
        } // an error between frames: the sink goes without commit()
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{});
        bv::products::NexusSeries series(path);
        series.append(run.source());
        series.commit();
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
                 QStringList{"series.h5"});
    }

    void noiseContinuesTheGeneratorItIsHanded() {
        // the state resolve() left, as a value: the noise image is the deviates that follow
        QTemporaryDir dir;
        const Run run;
        OutputFiles files;
        files.noiseFile = dir.filePath("n.img").toStdString();
        const bv::products::Summary s = bv::products::writeProducts(run.source(), files);

        bv::random::ReferenceRandom rng = run.rng;
        long seed = run.cl.experiment.seed;
        const bv::io::NoiseImage expected =
            bv::io::noiseImage(rng, seed, run.image, 16, 16, run.cl.outputs.adcOffset, run.r.roi);
        const bv::io::SmvImage written = bv::io::readSmv(files.noiseFile);
        QCOMPARE(written.data, expected.data);
        QCOMPARE(s.noisePhotons, expected.photons);
        QCOMPARE(bv::products::frameSummary(s, files),
                 "max_I " + bv::io::formatG(s.stats.maxI) + ", " +
                     bv::io::formatFixed(expected.photons, 0) + " photons on noise image (" +
                     std::to_string(expected.overloads) + " overloads)");
    }

    void oneFileAloneHasTheBytesOfTheWholeSet() {
        // a viewer export writes one file; the headless run all of them: the same bytes
        QTemporaryDir dir;
        const Run run;
        OutputFiles all = OutputFiles::ofSingleRun(run.cl.outputs);
        for (std::string* name : {&all.floatFile, &all.intFile, &all.pgmFile, &all.noiseFile})
            *name = dir.filePath(QString::fromStdString("all_" + *name)).toStdString();
        bv::products::writeProducts(run.source(), all);
        for (const auto& [option, path] : all.named()) {
            OutputFiles one;
            const std::string alone = path + ".alone";
            if (option == "-floatfile") one.floatFile = alone;
            if (option == "-intfile") one.intFile = alone;
            if (option == "-pgmfile") one.pgmFile = alone;
            if (option == "-noisefile") one.noiseFile = alone;
            bv::products::writeProducts(run.source(), one);
            QCOMPARE(contents(QString::fromStdString(alone)),
                     contents(QString::fromStdString(path)));
        }
    }

    // -noise_generator counter: the noise image and the CBF hold the counter generator's
    // deviates for (seed, frame, pixel), each asked for alone here, whatever the reference
    // generator's state; SMV adds the pedestal and clips at 65535, CBF keeps the count
    void counterNoiseIsTheCounterGeneratorsDeviates() {
        QTemporaryDir dir;
        Run run;
        run.cl.outputs.noiseGenerator = bv::NoiseGenerator::Counter;
        run.image[5] = 1.0e6f; // a pixel that overloads the SMV but not the CBF
        OutputFiles files;
        files.noiseFile = dir.filePath("n.img").toStdString();
        files.cbfFile = dir.filePath("c.cbf").toStdString();
        bv::products::ImageSource source = run.source();
        source.frame = 3;
        source.generator.rng = bv::random::ReferenceRandom(); // not used by this generator
        const bv::products::Summary s = bv::products::writeProducts(source, files);
        const bv::io::SmvImage noise = bv::io::readSmv(files.noiseFile);
        const bv::io::CbfImage cbf = bv::io::readCbf(files.cbfFile);
        const bv::random::CounterKey key = bv::random::counterKey(-7, 3); // -seed 7, frame 3
        double photons = 0;
        for (std::size_t i = 0; i < run.image.size(); ++i) {
            const float deviate =
                bv::random::counterPoisson(run.image[i], key, static_cast<std::uint32_t>(i));
            photons += deviate;
            QCOMPARE(cbf.data[i], static_cast<std::int32_t>(deviate));
            QCOMPARE(noise.data[i],
                     static_cast<std::uint16_t>(std::min(deviate + 40.0f, 65535.0f)));
        }
        QCOMPARE(noise.data[5], std::uint16_t{65535});
        QCOMPARE(s.noiseOverloads, 1);
        QCOMPARE(s.cbfOverloads, 0);
        QCOMPARE(s.noisePhotons, photons);
        QCOMPARE(s.cbfPhotons, photons);
        // another frame: other noise
        source.frame = 4;
        bv::products::writeProducts(source, files);
        QVERIFY(bv::io::readSmv(files.noiseFile).data != noise.data);
    }

    // deviates the GPU drew (engine::CounterNoise) are taken as they are, and must be one
    // per pixel
    void counterDeviatesHandedOverAreWritten() {
        QTemporaryDir dir;
        Run run;
        run.cl.outputs.noiseGenerator = bv::NoiseGenerator::Counter;
        OutputFiles files;
        files.noiseFile = dir.filePath("n.img").toStdString();
        const std::vector<float> fives(run.image.size(), 5.0f);
        bv::products::ImageSource source = run.source();
        source.counterDeviates = &fives;
        const bv::products::Summary s = bv::products::writeProducts(source, files);
        QCOMPARE(bv::io::readSmv(files.noiseFile).data,
                 std::vector<std::uint16_t>(run.image.size(), 45)); // 5 photons + -adc 40
        QCOMPARE(s.noisePhotons, 5.0 * 256);
        const std::vector<float> tooFew(10, 5.0f);
        source.counterDeviates = &tooFew;
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::products::writeProducts(source, files));
    }
};

QTEST_GUILESS_MAIN(TestProducts)
#include "tst_products.moc"
