// The pixel trace (compute/engine/PixelTrace.h) on a real Vulkan driver (lavapipe here and in
// CI) with the validation layer on:
//   - the trace of a pixel ends in that pixel's value: for several pixels of golden cases
//     (tests/data/golden/*/args.txt), in both precisions, the trace's final value is the value
//     the full image of the same plan holds there;
//   - its intermediate quantities are the reference's: pixel (fast 140, slow 100) of three
//     cases against nanoBragg's own trace of it (tests/data/traces/*.txt), quantity by
//     quantity, with the tolerances stated in referenceTrace();
//   - a pixel outside the ROI or masked says so; a pixel off the detector is a clear error.
// There is no skip: a machine without a Vulkan device fails here.

#include "compute/cli/CommandLine.h"
#include "compute/request/Inputs.h"
#include "compute/engine/PixelTrace.h"
#include "compute/engine/SerialOrder.h"
#include "compute/engine/Simulator.h"
#include "compute/core/Error.h"
#include "compute/model/Resolve.h"
#include "compute/plan/Plan.h"
#include "compute/random/ReferenceRandom.h"
#include "compute/vk/Device.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

using bv::engine::PixelTrace;
using bv::engine::PixelTracer;
using bv::engine::Precision;
using bv::engine::Simulator;

namespace {

std::string joined(const std::vector<std::string>& lines) {
    std::string all;
    for (const std::string& line : lines)
        all += line + "\n";
    return all;
}

std::vector<std::string> words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> w;
    for (std::string word; in >> word;)
        w.push_back(word);
    return w;
}

std::string readText(const QString& path) {
    std::ifstream in(path.toStdString());
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// A golden case's command line, run as the reference ran it: from a fresh directory holding
// copies of tests/data/inputs (reading -hkl writes the structure-factor cache Fdump.bin there,
// which a later case without -hkl would read).
struct GoldenCase {
    bv::RunRequest cl;
    bv::ResolvedExperiment resolved;
    bv::plan::Plan plan;
    bv::engine::ReferenceLoop loop;

    explicit GoldenCase(const std::string& name) {
        cl = bv::cli::parseCommandLine(
            words(readText(QString(BV_TEST_DATA "/golden/%1/args.txt").arg(name.c_str()))));
        QTemporaryDir dir;
        const QDir inputs(BV_TEST_DATA "/inputs");
        for (const QString& file : inputs.entryList(QDir::Files))
            QFile::copy(inputs.filePath(file), dir.filePath(file));
        const QString previous = QDir::currentPath();
        QDir::setCurrent(dir.path());
        std::ostringstream log;
        try {
            bv::request::loadInputs(cl, log);
        } catch (...) {
            QDir::setCurrent(previous);
            throw;
        }
        QDir::setCurrent(previous);
        bv::random::ReferenceRandom rng;
        resolved = bv::resolve(cl.experiment, rng, log);
        plan = bv::plan::makePlan(resolved, cl.experiment.mask);
        loop = {bv::engine::phiAngles(resolved), bv::engine::referenceThreads()};
    }
    GoldenCase(const GoldenCase&) = delete; // the plan points into cl
};

// nanoBragg's trace of one pixel: its TRACE_C lines, one block per sub-pixel and sensor layer
// (each opened by pix0_vector_meters), then the pixel's totals.
struct ReferenceTrace {
    using Values = std::vector<double>;
    std::vector<std::map<std::string, Values>> blocks;
    std::map<std::string, Values> totals;
};

ReferenceTrace readReferenceTrace(const QString& path) {
    ReferenceTrace t;
    std::istringstream in(readText(path));
    bool inTotals = false;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("TRACE_C: ", 0) != 0)
            continue;
        const std::vector<std::string> w = words(line.substr(9));
        if (w.empty())
            continue;
        ReferenceTrace::Values values;
        for (std::size_t i = 1; i < w.size(); ++i)
            values.push_back(std::stod(w[i]));
        if (w[0] == "pix0_vector_meters")
            t.blocks.emplace_back();
        if (w[0] == "I_before_scaling")
            inTotals = true;
        if (inTotals)
            t.totals[w[0]] = values;
        else if (!t.blocks.empty())
            t.blocks.back()[w[0]] = values;
    }
    return t;
}

bool closeRelative(double value, double expected, double tolerance) {
    return std::fabs(value - expected) <= tolerance * std::fabs(expected);
}

QString describe(const char* what, double value, double expected) {
    return QString("%1: trace %2, reference %3")
        .arg(what)
        .arg(value, 0, 'g', 16)
        .arg(expected, 0, 'g', 16);
}

} // namespace

class TestPixelTrace : public QObject {
    Q_OBJECT

  private:
    std::unique_ptr<bv::vk::Device> m_device;

    bv::engine::SimulatorOptions options(Precision precision) const {
        bv::engine::SimulatorOptions o;
        o.precision = precision;
        o.pipelineCacheDirectory = ""; // in memory
        return o;
    }

  private slots:
    void initTestCase() {
        try {
            bv::vk::DeviceOptions o;
            o.applicationName = "braggview pixel trace tests";
            o.validation = true;
            m_device = std::make_unique<bv::vk::Device>(o);
        } catch (const bv::Error& error) {
            QFAIL(error.what()); // no skipping: CI has lavapipe
        }
        QVERIFY2(m_device->float64Enabled(), "the precise shader needs shaderFloat64");
    }

    void cleanup() {
        if (m_device)
            QVERIFY2(m_device->validationMessages().empty(),
                     joined(m_device->validationMessages()).c_str());
    }

    void cleanupTestCase() { m_device.reset(); }

    // The trace of a pixel ends in that pixel's value: the same shader, the same tables, the
    // same loop, so the same number as the image (the test asks for bit-identical floats and
    // shows the relative difference when they are not).
    void endsInThePixelsValue_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("precision");
        for (const char* name : {"simple_cubic", "hkl_mat", "comprehensive", "oversample_flags",
                                 "dmin", "roi", "hkl_interpolate", "sourcefile"})
            QTest::newRow(qPrintable(QString(name) + " precise"))
                << name << int(Precision::Precise);
        for (const char* name : {"simple_cubic", "comprehensive", "oversample_flags"})
            QTest::newRow(qPrintable(QString(name) + " fast")) << name << int(Precision::Fast);
    }
    void endsInThePixelsValue() {
        QFETCH(QString, name);
        QFETCH(int, precision);
        const GoldenCase c(name.toStdString());
        Simulator simulator(*m_device, options(Precision(precision)));
        simulator.setPlan(c.plan, c.loop);
        simulator.run();
        const std::vector<float> image = simulator.image();
        const int width = c.plan.fastPixels, height = c.plan.slowPixels;

        // the reference's traced pixel, corners, the centre, the brightest pixel, a few more
        const auto brightest = std::max_element(image.begin(), image.end()) - image.begin();
        std::vector<std::pair<int, int>> pixels = {
            {std::min(140, width - 1), std::min(100, height - 1)},
            {0, 0},
            {width - 1, height - 1},
            {width / 2, height / 2},
            {int(brightest % width), int(brightest / width)},
            {width / 3, 2 * height / 3},
            {7 * width / 8, height / 5}};
        PixelTracer tracer(simulator);
        for (const auto& [f, s] : pixels) {
            const PixelTrace t = tracer.trace(f, s);
            const float expected = image[static_cast<std::size_t>(s) * width + f];
            const QString where = QString("pixel %1 %2: trace %3, image %4")
                                      .arg(f)
                                      .arg(s)
                                      .arg(double(t.imageValue), 0, 'g', 9)
                                      .arg(double(expected), 0, 'g', 9);
            if (t.status != PixelTrace::Status::Computed) {
                QVERIFY2(expected == 0.0f, qPrintable(where));
                continue;
            }
            QVERIFY2(t.imageValue == expected, qPrintable(where));
            // the value in the shader's precision rounds to the image's float
            QCOMPARE(static_cast<float>(t.value), t.imageValue);
            QCOMPARE(t.stepsPerPixel, simulator.stepsPerPixel());
            QVERIFY(t.stepsRun <= t.stepsPerPixel);
            QVERIFY(!t.units.empty());
            if (t.stepsAdded > 0) {
                QVERIFY(!t.largest.empty());
                QVERIFY(t.largest.front().added >= t.largest.back().added);
            }
        }
        QCOMPARE(tracer.pipelineCount(), 1);
    }

    // The intermediate quantities of pixel (140, 100) against the reference's own trace of it.
    // Tolerances (precise shader; the reference prints 15 significant digits except F_cell and
    // a*, which it prints with %g):
    //   geometry (position, distance, omega, diffracted direction, polarization, capture
    //   fraction, photon scale): relative 1e-12 (double arithmetic on both sides);
    //   q: 1e-10 of |q| (the reference forms diffracted - incident directly, so its small
    //   along-beam component carries its own rounding);
    //   fractional h,k,l: 1e-9 absolute; the nearest h,k,l: exact;
    //   F_latt: 1e-6 of Na*Nb*Nc absolute, sign dropped (the shader's mixed-precision sines,
    //   docs/numerics/lattice-factor-mixed-precision.md; only F_latt^2 enters);
    //   F_cell: relative 1e-5 (printed with 6 digits);
    //   the sum, the pixel value and the image's float: relative 1e-5, the precise parity bar
    //   (measured: 2e-7 to 8e-7; the F_latt errors above, relative to a dim pixel's F_latt).
    void matchesTheReferenceTrace_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("simple_cubic") << "simple_cubic";
        QTest::newRow("hkl_mat") << "hkl_mat";
        QTest::newRow("comprehensive") << "comprehensive";
    }
    void matchesTheReferenceTrace() {
        QFETCH(QString, name);
        const ReferenceTrace ref =
            readReferenceTrace(QString(BV_TEST_DATA "/traces/%1_s100_f140.txt").arg(name));
        QVERIFY(!ref.blocks.empty());
        const GoldenCase c(name.toStdString());
        Simulator simulator(*m_device, options(Precision::Precise));
        simulator.setPlan(c.plan, c.loop);
        PixelTracer tracer(simulator);
        const PixelTrace t = tracer.trace(140, 100);
        QVERIFY(t.status == PixelTrace::Status::Computed);
        QCOMPARE(t.units.size(), ref.blocks.size());
        const double cells = c.plan.cells.x * c.plan.cells.y * c.plan.cells.z;

        auto vector = [](const char* what, const glm::dvec3& v, const ReferenceTrace::Values& r,
                         double tolerance, bool ofLength) -> QString {
            if (r.size() != 3)
                return QString("%1: the reference has %2 values").arg(what).arg(r.size());
            const double length = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
            for (int i = 0; i < 3; ++i) {
                const double scale = ofLength ? length : std::fabs(r[i]);
                if (std::fabs(v[i] - r[i]) > tolerance * scale)
                    return describe(what, v[i], r[i]) + QString(" (component %1)").arg(i);
            }
            return {};
        };
        for (std::size_t b = 0; b < ref.blocks.size(); ++b) {
            const auto& block = ref.blocks[b];
            const bv::engine::TraceUnit& u = t.units[b];
            const QString unit = QString("unit %1: ").arg(b);
            QVERIFY2(u.first.has_value(), qPrintable(unit + "no orientation step"));
            QString problem;
            problem +=
                vector("pixel_pos_meters", u.position, block.at("pixel_pos_meters"), 1e-12, true);
            problem +=
                vector("diffracted_vec", u.diffracted, block.at("diffracted_vec"), 1e-12, true);
            problem += vector("scattering_vec", u.scattering, block.at("scattering_vec_A_inv"),
                              1e-10, true);
            QVERIFY2(problem.isEmpty(), qPrintable(unit + problem));
            const auto& hkl = block.at("hkl_frac");
            for (int i = 0; i < 3; ++i)
                QVERIFY2(std::fabs(u.first->hkl[i] - hkl[i]) <= 1e-9,
                         qPrintable(unit + describe("hkl_frac", u.first->hkl[i], hkl[i])));
            const auto& rounded = block.at("hkl_rounded");
            for (int i = 0; i < 3; ++i)
                QCOMPARE(u.first->hkl0[i], rounded[i]);
            const double distance = block.at("R_distance_meters").at(0);
            QVERIFY2(closeRelative(u.distance, distance, 1e-12),
                     qPrintable(unit + describe("R_distance_meters", u.distance, distance)));
            const double omega = block.at("omega_pixel_sr").at(0);
            QVERIFY2(closeRelative(u.omega, omega, 1e-12),
                     qPrintable(unit + describe("omega_pixel_sr", u.omega, omega)));
            const double lambda = block.at("lambda_meters").at(0);
            QVERIFY2(closeRelative(u.lambda, lambda, 1e-12),
                     qPrintable(unit + describe("lambda_meters", u.lambda, lambda)));
            const double latt = std::fabs(block.at("F_latt").at(0));
            QVERIFY2(std::fabs(u.first->F_latt - latt) <= 1e-6 * cells,
                     qPrintable(unit + describe("|F_latt|", u.first->F_latt, latt)));
            const double cell = block.at("F_cell").at(0);
            QVERIFY2(closeRelative(u.first->F_cell, cell, 1e-5),
                     qPrintable(unit + describe("F_cell", u.first->F_cell, cell)));
        }

        const auto total = [&](const char* key) { return ref.totals.at(key).at(0); };
        const struct {
            const char* key;
            double value;
            double tolerance;
        } totals[] = {{"I_before_scaling", t.sum, 1e-5},
                      {"capture_fraction", t.capture, 1e-12},
                      {"polar", t.polar, 1e-12},
                      {"omega_pixel", t.omega, 1e-12},
                      {"I_pixel_final", t.value, 1e-5},
                      {"floatimage_accumulated", double(t.imageValue), 1e-5}};
        for (const auto& q : totals)
            QVERIFY2(closeRelative(q.value, total(q.key), q.tolerance),
                     qPrintable(describe(q.key, q.value, total(q.key))));
        const double scale = total("r_e_sqr") * total("fluence_photons_per_m2") / total("steps");
        QVERIFY2(closeRelative(t.photonScale, scale, 1e-12),
                 qPrintable(describe("r_e_sqr fluence / steps", t.photonScale, scale)));
        qInfo("%s: sum %.3g relative to the reference, value %.3g", qPrintable(name),
              t.sum / total("I_before_scaling") - 1.0, t.value / total("I_pixel_final") - 1.0);
    }

    // A pixel the simulation skips says why; one off the detector is an error, not a crash.
    void skippedAndInvalidPixels() {
        const GoldenCase c("roi"); // -roi 50 150 60 200
        Simulator simulator(*m_device, options(Precision::Fast));
        simulator.setPlan(c.plan, c.loop);
        PixelTracer tracer(simulator);
        QVERIFY(tracer.trace(10, 10).status == PixelTrace::Status::Outside);
        QVERIFY(tracer.trace(100, 100).status == PixelTrace::Status::Computed);
        try {
            tracer.trace(256, 3);
            QFAIL("a pixel off the detector was traced");
        } catch (const bv::Error& e) {
            QVERIFY2(std::string(e.what()).find("not on the 256x256 detector") != std::string::npos,
                     e.what());
        }
        const std::string text = bv::engine::formatTrace(tracer.trace(10, 10));
        QVERIFY2(text.find("outside the ROI") != std::string::npos, text.c_str());

        Simulator empty(*m_device, options(Precision::Fast));
        PixelTracer noPlan(empty);
        QVERIFY_THROWS_EXCEPTION(bv::Error, noPlan.trace(0, 0));
    }

    // A pixel of 20000 steps, more than lavapipe lets a shader's loops run in one invocation
    // (65535 iterations in all; the trace's generic pipeline takes at least four a step): on a
    // CPU device the trace says where it stopped instead of describing a pixel it did not
    // finish; on a GPU it ends in the image's value.
    void longLoopsAreNotTracedShort() {
        const GoldenCase c("simple_cubic"); // N = 5
        bv::RunRequest r = c.cl;
        r.experiment.crystal.mosaicSpread = 0.5 * 3.14159265358979 / 180.0;
        r.experiment.crystal.mosaicDomains = 20000;
        r.experiment.sampling.roi = bv::Roi{127, 128, 127, 128}; // four pixels by the beam
        bv::random::ReferenceRandom rng;
        std::ostringstream log;
        const bv::ResolvedExperiment resolved = bv::resolve(r.experiment, rng, log);
        const bv::plan::Plan plan = bv::plan::makePlan(resolved, r.experiment.mask);
        Simulator simulator(*m_device, options(Precision::Fast));
        simulator.setPlan(plan, {bv::engine::phiAngles(resolved), 1});
        simulator.run();
        QCOMPARE(simulator.stepsPerPixel(), std::uint64_t(20000));
        const float value = simulator.image()[127 * 256 + 127];
        QVERIFY(value > 0.0f);
        PixelTracer tracer(simulator);
        if (m_device->info().type != VK_PHYSICAL_DEVICE_TYPE_CPU) {
            QCOMPARE(static_cast<float>(tracer.trace(127, 127).value), value);
            return;
        }
        try {
            tracer.trace(127, 127);
            QFAIL("a trace cut short by the device was returned");
        } catch (const bv::Error& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("the trace of pixel (127, 127) stopped after ") == 0 &&
                         what.find(" of its 20000 steps: ") != std::string::npos &&
                         what.find("65535 iterations") != std::string::npos,
                     e.what());
        }
    }

    // The rows a reader sees name the chain of quantities, and the value they end in.
    void rowsNameTheChain() {
        const GoldenCase c("simple_cubic");
        Simulator simulator(*m_device, options(Precision::Precise));
        simulator.setPlan(c.plan, c.loop);
        PixelTracer tracer(simulator);
        const PixelTrace t = tracer.trace(140, 100);
        const std::string text = bv::engine::formatTrace(t);
        for (const char* quantity :
             {"value: 0.027888", "photons", "sum I", "photon scale", "capture fraction",
              "polarization factor", "solid angle omega", "position", "diffracted direction",
              "q: ", "(diffracted - incident)/lambda", "h, k, l: ", "nearest h, k, l",
              "F_latt: ", "F_cell: ", "largest contributions", "first steps"})
            QVERIFY2(text.find(quantity) != std::string::npos, quantity);
    }
};

QTEST_GUILESS_MAIN(TestPixelTrace)
#include "tst_pixeltrace.moc"
