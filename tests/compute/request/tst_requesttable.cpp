// The parameter table's views: the words a request is written as read back to the same
// experiment, the options given are kept by the table's first name, and every row of the
// session's table has a key of its own.

#include "compute/cli/CommandLine.h"
#include "compute/io/JsonWriter.h"
#include "compute/request/Parameters.h"
#include "compute/request/SessionFields.h"
#include "tests/app/ExperimentCompare.h"

#include <QStringList>
#include <QTest>

#include <set>

using bv::RunRequest;

namespace {

std::vector<std::string> words(const QString& line) {
    std::vector<std::string> out;
    for (const QString& w : line.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        out.push_back(w.toStdString());
    return out;
}

} // namespace

class TestRequestTable : public QObject {
    Q_OBJECT

  private slots:
    // The viewer's fields are the table's: one key each, on the row of the option their
    // tooltip names, and a field's setter and getter are inverse in the unit shown.
    void viewerFieldsAreRowsOfTheTable_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("option");
        QTest::addColumn<double>("shown"); // a value as a user types it, in the option's unit
        QTest::newRow("mosaic") << "mosaic" << "-mosaic" << 0.5;
        QTest::newRow("distance") << "distance" << "-distance" << 150.0;
        QTest::newRow("wavelength") << "wavelength" << "-lambda" << 1.5;
        QTest::newRow("water") << "water" << "-water" << 250.0;
        QTest::newRow("divergence") << "hdivergence" << "-hdivrange" << 2.0;
        QTest::newRow("phi") << "phi" << "-phi" << -30.0;
    }
    void viewerFieldsAreRowsOfTheTable() {
        QFETCH(QString, key);
        QFETCH(QString, option);
        QFETCH(double, shown);
        const bv::request::FieldView* field = bv::request::findField(key.toStdString());
        QVERIFY(field);
        const bv::request::Flag* flag = bv::request::findFlag(option.toStdString());
        QVERIFY(flag);
        bool onRow = false;
        for (const bv::request::FieldView& f : flag->fields)
            onRow = onRow || &f == field;
        QVERIFY2(onRow, "the field is not on its option's row");
        QVERIFY(QString::fromStdString(field->tooltip).contains(option));
        bv::Experiment e;
        field->set(e, shown);
        QVERIFY(field->get(e).has_value());
        QVERIFY(qAbs(*field->get(e) - shown) <= 1e-12 * qAbs(shown));
        // the field shows what the command line's parser of its option stores
        const RunRequest typed = bv::cli::parseCommandLine(
            {option.toStdString(), QString::number(shown).toStdString()});
        QVERIFY(field->get(typed.experiment).has_value());
        QVERIFY(qAbs(*field->get(typed.experiment) - shown) <= 1e-12 * qAbs(shown));
    }
    void everyFieldKeyAndSessionKeyIsOnce() {
        std::set<std::string> keys, sessionKeys;
        for (const bv::request::Flag& f : bv::request::flagTable())
            for (const bv::request::FieldView& v : f.fields)
                QVERIFY2(keys.insert(v.key).second, v.key.c_str());
        for (const bv::request::SessionField& s : bv::request::sessionFields())
            if (s.write) // (a row that only checks repeats its key)
                QVERIFY2(sessionKeys.insert(s.section + "." + s.key).second, s.key.c_str());
        // every session row of the table is in the file's layout, exactly where it says
        for (const bv::request::Flag& f : bv::request::flagTable())
            if (f.session)
                QVERIFY2(sessionKeys.count(f.session->section + "." + f.session->key) == 1,
                         f.session->key.c_str());
        QVERIFY(keys.count("mosaic") && sessionKeys.count("crystal.mosaicSpread"));
    }

    void commandWordsReadBack_data() {
        QTest::addColumn<QString>("args");
        QTest::newRow("defaults") << QStringLiteral("-cell 30 30 30 -default_F 1 -seed 1");
        QTest::newRow("crystal and beam")
            << QStringLiteral("-cell 51.2 62.3 73.4 88 92 101 -misset 1 2 3 -Na 3 -Nb 4 -Nc 5 "
                              "-gauss_xtal -fudge 1.5 -mosaic 0.7 -mosaic_dom 12 -mosaic_seed 99 "
                              "-phi 12.5 -osc 0.5 -phisteps 4 -lambda 1.3 -dispersion 0.2 "
                              "-dispsteps 3 -hdivrange 0.5 -vdivrange 0.25 -divsteps 3 "
                              "-square_div -polar 0.9 -fluence 1e30 -default_F 10 -seed 42");
        QTest::newRow("detector and sampling")
            << QStringLiteral("-cell 30 30 30 -default_F 1 -pixel 0.172 -detpixels_f 300 "
                              "-detpixels_s 200 -distance 150 -Xbeam 25 -Ybeam 18 "
                              "-detector_rotx 1 -detector_roty 2 -detector_rotz 3 -twotheta 5 "
                              "-point_pixel -detector_thick 450 -detector_abs 320 -thicksteps 3 "
                              "-oversample 2 -oversample_omega -roi 10 200 20 150 -dmin 2.5 "
                              "-nointerpolate -water 50 -adc 10 -scale 2 -seed 3");
        QTest::newRow("custom frame")
            << QStringLiteral("-cell 30 40 50 -default_F 1 -beam_vector 0 0 1 -polar_vector 0 1 0 "
                              "-spindle_axis 1 0 0 -twotheta_axis 0 1 0 -fdet_vector 1 0 0 "
                              "-sdet_vector 0 -1 0 -odet_vector 0 0 1 -pivot sample -twotheta 7 "
                              "-misset random -misset_seed 77 -detpixels 64 -seed 5");
        // b and c left to default to a (fuzz_cli's find: the writer wrote c as 0)
        QTest::newRow("cell edges defaulted")
            << QStringLiteral("-cell 100 1100 -default_F 1 -flux 1e12 -exposure 2 "
                              "-beamsize 0.1 -seed 4");
        QTest::newRow("preset") << QStringLiteral("-cell 30 30 30 -default_F 1 -detector eiger2-4m "
                                                  "-distance 120 -seed 2");
    }
    void commandWordsReadBack() {
        QFETCH(QString, args);
        const RunRequest original = bv::cli::parseCommandLine(words(args));
        const RunRequest again = bv::cli::parseCommandLine(bv::request::commandWords(original));
        bv::test::ExperimentCompare compare(1e-12);
        const QString difference = compare.difference(original.experiment, again.experiment);
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
        QCOMPARE(again.outputs.adcOffset, original.outputs.adcOffset);
        QCOMPARE(again.outputs.intScale, original.outputs.intScale);
        QCOMPARE(int(again.precision), int(original.precision));
    }

    void everyWriterWritesOneOfItsNames() {
        int writers = 0;
        for (const bv::request::Flag& f : bv::request::flagTable()) {
            if (!f.write)
                continue;
            ++writers;
            QVERIFY2(std::find(f.names.begin(), f.names.end(), f.writtenName) != f.names.end(),
                     f.names[0].c_str());
        }
        QVERIFY(writers > 90);
    }

    // what a batch needs of the words is in the request: no one reads the words again
    void givenOptionsAreKeptByTheirFirstName() {
        const RunRequest r = bv::cli::parseCommandLine(
            words("-cell 30 30 30 -default_F 1 -floatimage a.bin -phi 5 -osc 0.25 -nopgm"));
        QVERIFY(r.wasGiven("-floatfile"));
        QVERIFY(r.wasGiven("-nopgm"));
        QVERIFY(!r.wasGiven("-intfile"));
        QVERIFY(!r.wasGiven("-floatimage")); // the alias is not a name of its own
        QCOMPARE(r.phiDegrees.value_or(-1.0), 5.0);
        QCOMPARE(r.oscDegrees.value_or(-1.0), 0.25);
        const RunRequest on = bv::cli::parseCommandLine(words("-intfile b.img"), r);
        QVERIFY(on.wasGiven("-floatfile") && on.wasGiven("-intfile"));
        QVERIFY(!bv::cli::parseCommandLine(words("-cell 30 30 30")).phiDegrees);
    }

    void sessionRowsHaveKeysOfTheirOwn() {
        std::set<std::pair<std::string, std::string>> keys;
        for (const bv::request::SessionField& f : bv::request::sessionFields())
            if (f.write)
                QVERIFY2(keys.insert({f.section, f.key}).second, f.key.c_str());
        QVERIFY(keys.count({"crystal", "mosaicSpread"}) == 1);
        QVERIFY(keys.count({"", "seed"}) == 1);
    }

    void sessionExperimentReadsBackBitForBit() {
        const RunRequest r = bv::cli::parseCommandLine(
            words("-cell 51.2 62.3 73.4 88 92 101 -misset 1 2 3 -mosaic 0.7 -phi 12.5 -osc 0.5 "
                  "-lambda 1.3 -hdivrange 0.5 -divsteps 3 -Xbeam 25 -roi 10 200 20 150 "
                  "-detector_abs 320 -default_F 10 -seed 42"));
        bv::io::JsonWriter w;
        bv::request::writeSessionExperiment(w, r.experiment);
        const std::string text = w.text();
        const bv::io::JsonDocument doc = bv::io::parseJson(text, "experiment.json");
        const bv::Experiment back =
            bv::request::readSessionExperiment(bv::io::JsonFields(doc, doc.root()), "");
        bv::test::ExperimentCompare exact;
        const QString difference = exact.difference(r.experiment, back);
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
        bv::io::JsonWriter again;
        bv::request::writeSessionExperiment(again, back);
        QCOMPARE(again.text(), text);
    }
};

QTEST_APPLESS_MAIN(TestRequestTable)
#include "tst_requesttable.moc"
