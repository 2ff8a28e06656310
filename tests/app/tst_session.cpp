// Sessions: every parameter and view setting, changed through the panels, survives a save and
// a load into a fresh window; and a session file that is not one is refused with a message.

#include "ExperimentCompare.h"
#include "GuiTestMain.h"
#include "ViewerHarness.h"
#include "app/DisplayPanel.h"
#include "app/ParameterPanels.h"
#include "app/Session.h"
#include "compute/cli/CommandLine.h"
#include "compute/headless/Headless.h"
#include "compute/request/SessionFile.h"
#include "compute/io/Json.h"

#include <nlohmann/json.hpp>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <sstream>

using namespace bv;
using test::ViewerHarness;

namespace {

const QString kStart = QStringLiteral(
    "-cell 40 40 40 90 90 90 -N 6 -misset 5 10 15 -default_F 100 -lambda 1 -distance 100 "
    "-detpixels 96 -pixel 0.2 -oversample 1 -seed 7 -precision fast");

// A value for every number field of every panel, none of them its default, all of them cheap
// to simulate.
const std::vector<std::pair<const char*, double>> kValues = {
    {"wavelength", 1.234},   {"dispersion", 0.5},   {"dispersionSteps", 2},   {"hdivergence", 0.3},
    {"vdivergence", 0.2},    {"divergenceSteps", 2}, {"kahn", 0.8},           {"fluence", 29.5},
    {"distance", 123.45},    {"beamX", 10.5},       {"beamY", 9.25},          {"pixelSize", 0.21},
    {"fastPixels", 100},     {"slowPixels", 90},    {"rotX", 1.5},            {"rotY", -2.5},
    {"rotZ", 3.5},           {"twotheta", 4.5},     {"cella", 41},            {"cellb", 42},
    {"cellc", 43},           {"cellalpha", 91},     {"cellbeta", 92},         {"cellgamma", 93},
    {"missetX", 6},          {"missetY", 7},        {"missetZ", 8},           {"Na", 4},
    {"Nb", 5},               {"Nc", 7},             {"mosaic", 0.2},          {"mosaicDomains", 2},
    {"phi", 12.5},           {"oscillation", 0.1},  {"phiSteps", 2},          {"oversample", 1},
    {"thickness", 100},      {"thickSteps", 2},     {"attenuation", 250},     {"dmin", 1.5},
    {"water", 10},           {"backgroundThickness", 15}, {"backgroundDensity", 0.95},
    {"backgroundMW", 20},    {"psfFwhm", 300},      {"psfRadius", 3},         {"gain", 2.5},
    {"readout", 1.5},        {"flicker", 0.01},     {"calibration", 0.02}};
// the energy field states the wavelength again: not set separately

QByteArray readAll(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

} // namespace

class TestSession : public QObject {
    Q_OBJECT

  private slots:
    void cleanup() { BV_VERIFY_NO_VALIDATION_MESSAGES(); }

    void everyParameterAndViewSettingSurvives() {
        ViewerHarness first;
        QVERIFY(first.open(test::words(kStart)));
        app::MainWindow& w = *first.window;
        int fields = 0;
        for (app::ParameterPanel* panel : w.panels())
            fields += static_cast<int>(panel->fields().size());
        QCOMPARE(fields, static_cast<int>(kValues.size()) + 1); // + energy
        // the background's and the response's fields wait for a material and the switch
        auto* material = w.findChild<QComboBox*>(QStringLiteral("backgroundMaterial"));
        QVERIFY(material);
        material->setCurrentIndex(material->findText(QStringLiteral("ice")));
        w.findChild<QCheckBox*>(QStringLiteral("response"))->setChecked(true);
        auto* psf = w.findChild<QComboBox*>(QStringLiteral("psf"));
        psf->setCurrentIndex(psf->findText(QStringLiteral("gauss")));
        for (const auto& [name, value] : kValues) {
            app::ParameterField* field = nullptr;
            for (app::ParameterPanel* panel : w.panels())
                if (!field)
                    field = panel->field(QLatin1String(name));
            QVERIFY2(field, name);
            field->spinBox()->setValue(value);
            QVERIFY2(field->spinBox()->isEnabled(), name); // an automatic field turned manual
            QCOMPARE(field->value(), value);
        }
        // choices and switches
        const auto choose = [&](const char* name, int index) {
            for (app::ParameterPanel* panel : w.panels())
                if (auto* box = panel->findChild<QComboBox*>(QLatin1String(name))) {
                    box->setCurrentIndex(index);
                    return true;
                }
            return false;
        };
        const auto tick = [&](const char* name, bool on) {
            for (app::ParameterPanel* panel : w.panels())
                if (auto* box = panel->findChild<QCheckBox*>(QLatin1String(name))) {
                    box->setChecked(on);
                    return true;
                }
            return false;
        };
        QVERIFY(choose("convention", 5)); // CUSTOM
        QVERIFY(choose("pivot", 1));      // sample
        QVERIFY(choose("shape", 2));      // gauss
        QVERIFY(tick("polarization", false));
        QVERIFY(tick("pointPixel", true));
        QVERIFY(tick("oversampleOmega", true));
        QVERIFY(tick("oversamplePolar", true));
        // view settings
        app::DisplayPanel& display = w.displayPanel();
        display.setAutoContrastOnNewImage(false);
        render::DisplaySettings s = display.settings();
        s.colormap = render::Colormap::Heat;
        s.scaling = render::Scaling::Log;
        s.black = 2.5f;
        s.white = 345.0f;
        s.overloadOn = false;
        s.overload = 1234.0f;
        display.setSettings(s);
        display.setOverlays({false, true, true, false});
        QVERIFY(first.waitImage());
        render::ViewTransform view;
        view.set(QPointF(-20.5, 33.25), 2.75);
        w.imageWindow().setView(view);

        QTemporaryDir dir;
        const QString path = dir.path() + QStringLiteral("/session.json");
        w.saveSession(path);
        QVERIFY(QFile::exists(path));

        ViewerHarness second;
        QVERIFY(second.open({}));
        second.window->openSession(path);
        QVERIFY(second.waitImage());
        app::MainWindow& u = *second.window;

        // the experiment, field by field and exactly
        test::ExperimentCompare exact;
        const QString difference = exact.difference(w.document().experiment(), u.document().experiment());
        QVERIFY2(difference.isEmpty(), qPrintable(difference));
        QCOMPARE(u.document().precision(), w.document().precision());
        // every panel shows what the first one showed
        for (const auto& [name, value] : kValues) {
            app::ParameterField* field = nullptr;
            for (app::ParameterPanel* panel : u.panels())
                if (!field)
                    field = panel->field(QLatin1String(name));
            QCOMPARE(field->value(), value);
        }
        // the view
        const render::DisplaySettings t = u.displayPanel().settings();
        QCOMPARE(int(t.colormap), int(s.colormap));
        QCOMPARE(int(t.scaling), int(s.scaling));
        QCOMPARE(t.black, s.black);
        QCOMPARE(t.white, s.white);
        QCOMPARE(t.overloadOn, s.overloadOn);
        QCOMPARE(t.overload, s.overload);
        QCOMPARE(u.displayPanel().autoContrastOnNewImage(), false);
        const app::OverlaySettings o = u.displayPanel().overlays();
        QVERIFY(!o.beamCentre && o.rings && o.spots && !o.spotLabels);
        QCOMPARE(u.imageWindow().view().origin(), view.origin());
        QCOMPARE(u.imageWindow().view().scale(), view.scale());
        QCOMPARE(int(u.imageWindow().displaySettings().colormap), int(s.colormap));
        // and the same image
        QVERIFY(u.controller().image() == w.controller().image());
        // saved again, the file is the same
        const QString again = dir.path() + QStringLiteral("/again.json");
        u.saveSession(again);
        QFile a(path), b(again);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QCOMPARE(a.readAll(), b.readAll());
    }

    void aBrokenSessionIsRefusedWithAMessage_data() {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message"); // after the path
        // the place where the parser stopped: "no" cannot begin "null", and no key is unquoted
        QTest::newRow("not json") << QByteArray("{ nope")
                                  << QStringLiteral(":1:4: syntax error while parsing object key");
        QTest::newRow("not a session") << QByteArray("{\"format\": \"something\"}")
                                       << QStringLiteral(":1:12: format: expected \"braggview session\"");
        QTest::newRow("missing key") << QByteArray("{\"format\": \"braggview session\", \"version\": 1}")
                                     << QStringLiteral(":1:1: \"experiment\" is missing");
        QTest::newRow("no file") << QByteArray() << QStringLiteral("': No such file");
    }
    void aBrokenSessionIsRefusedWithAMessage() {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString path = dir.path() + QStringLiteral("/broken.json");
        if (!text.isEmpty()) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(text);
            file.close();
        }
        try {
            app::loadSession(path);
            QFAIL("no error");
        } catch (const Error& e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(what.contains(path + message), e.what());
        }
    }
    void aWrongValueNamesItsKey() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kStart)));
        // the session as any JSON tool would edit it
        QJsonObject json = QJsonDocument::fromJson(QByteArray::fromStdString(app::sessionText(v.window->currentSession()))).object();
        QJsonObject experiment = json[QStringLiteral("experiment")].toObject();
        QJsonObject detector = experiment[QStringLiteral("detector")].toObject();
        detector[QStringLiteral("distance")] = QStringLiteral("far");
        experiment[QStringLiteral("detector")] = detector;
        json[QStringLiteral("experiment")] = experiment;
        const QByteArray text = QJsonDocument(json).toJson();
        try {
            app::sessionFromJson(io::parseJson(text.toStdString(), "edited.json"), "");
            QFAIL("no error");
        } catch (const Error& e) {
            const QString what = QString::fromUtf8(e.what());
            QVERIFY2(QRegularExpression(QStringLiteral("^edited\\.json:\\d+:\\d+: experiment\\.detector\\.distance: "
                                                       "expected a length greater than 0, at most 100 m, got 'far'$"))
                         .match(what)
                         .hasMatch(),
                     e.what());
        }
    }

    void aSessionWithoutViewOpensWithTheDefaultView() {
        // as the headless side writes one (what a job embeds)
        const RunRequest cl = cli::parseCommandLine(test::words(kStart));
        QTemporaryDir dir;
        const QString path = dir.path() + QStringLiteral("/plain.json");
        const std::string text = request::sessionText(cl);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text.data(), static_cast<qint64>(text.size()));
        file.close();
        const app::Session s = app::loadSession(path);
        QCOMPARE(s.commandLine.experiment.detector.distance, 0.1); // -distance 100
        QCOMPARE(int(s.precision), int(engine::Precision::Fast));
        QVERIFY(s.view.autoContrast);
        QVERIFY(!s.view.view);
    }

    // "Save as job file": the job renders, headless, the image the viewer shows.
    void aSavedJobRendersTheViewersImage() {
        ViewerHarness v;
        QVERIFY(v.open(test::words(kStart)));
        app::MainWindow& w = *v.window;
        // moved away from the command line through the panels, to a value no text states
        app::ParameterField* distance = w.panel(QStringLiteral("Detector"))->field(QStringLiteral("distance"));
        distance->spinBox()->setValue(87.65);
        app::ParameterField* phi = w.panel(QStringLiteral("Crystal"))->field(QStringLiteral("phi"));
        phi->spinBox()->setValue(7.5);
        QVERIFY(v.waitImage());

        QTemporaryDir dir;
        const QString d = dir.path();
        w.exportImage(app::ExportFormat::Float, d + QStringLiteral("/viewer.bin"));
        w.exportImage(app::ExportFormat::IntImage, d + QStringLiteral("/viewer.img"));
        w.exportImage(app::ExportFormat::NoiseImage, d + QStringLiteral("/viewer_noise.img"));
        const QString job = d + QStringLiteral("/still.json");
        w.saveJob(job);

        // run where the job is: its files are named relative to the working directory
        const QString previous = QDir::currentPath();
        QVERIFY(QDir::setCurrent(d));
        std::ostringstream out, err;
        const int status = headless::runHeadless({"--job", job.toStdString()}, out, err);
        QDir::setCurrent(previous);
        QVERIFY2(status == 0, err.str().c_str());
        for (const auto& [viewer, headless] : {std::pair{"/viewer.bin", "/still_0001.bin"},
                                               std::pair{"/viewer.img", "/still_0001.img"},
                                               std::pair{"/viewer_noise.img", "/still_noise_0001.img"}}) {
            const QByteArray a = readAll(d + QLatin1String(viewer)), b = readAll(d + QLatin1String(headless));
            QVERIFY2(!a.isEmpty(), viewer);
            QVERIFY2(a == b, qPrintable(QStringLiteral("%1 differs from %2").arg(QLatin1String(viewer), QLatin1String(headless))));
        }
        // one file, its experiment embedded; what runs it needs no Qt
        const io::JsonDocument doc = io::readJsonFile(job.toStdString());
        const io::Json* session = io::jsonMember(doc.root(), "session");
        QVERIFY(session && session->is_object());
        QCOMPARE(doc.root()["frames"].size(), std::size_t(1));
    }
};

BV_GUI_TEST_MAIN(TestSession)
#include "tst_session.moc"
