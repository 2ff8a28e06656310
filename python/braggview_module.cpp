// The Python module `braggview`: the simulator as a library for scripts that make many images
// (training sets, method tests), over the same engine as the headless program.
//
//     import braggview
//     sim = braggview.Simulator(precision="fast", seed=7) # one Vulkan device, kept
//     image = sim.simulate("-cell 100 100 100 90 90 90 -lambda 1 -N 5 -default_F 100 "
//                          "-distance 100 -detpixels 1024")
//     image = sim.simulate(cell=(100, 100, 100, 90, 90, 90), lambda_=1, N=5,
//                          default_F=100, distance=100, detpixels=1024, misset="random")
//     image.shape   # (1024, 1024): [slow, fast], photons per pixel, float32
//     sim.command   # the headless program's words that make the same image
//
// Arguments are nanoBragg's (the headless program's, `braggview --headless -h`); keywords are
// the flags without the dash (lambda_ for -lambda, a Python word), a tuple gives several
// values, True a flag alone. The image is the float image the headless program writes with
// -floatfile, bit for bit; no file is written (-hkl writes its Fdump.bin cache, as the
// reference does), and the options that only name or scale files are refused. `-misset
// random` draws each call's orientation from the Simulator's own sequence of seeds (unless
// -misset_seed or -seed says which). The GIL is released while the GPU works, and Ctrl-C
// cancels the run at once (KeyboardInterrupt); the Simulator keeps its recorded command
// buffer between calls of the same detector size and shader variant (docs/python.md).
//
//     fit = sim.refine(experiment="indexed.expt", frame=3, hkl="P1.hkl", N=10,
//                      refine="distance,beam,orientation,cell", fit_report="fit.json")
//     fit["parameters"]  # start, value, change, sigma of each, as -fit_report writes them
//
// refine() is the headless program's -refine on the Simulator's device: the same words, the
// fit report as a dict, -fit_report and -refined_experiment written when named.

#include "compute/cli/CommandLine.h"
#include "compute/request/Inputs.h"
#include "compute/request/Parameters.h"
#include "compute/core/Error.h"
#include "compute/engine/Simulator.h"
#include "compute/headless/FrameRunner.h"
#include "compute/headless/Refine.h"
#include "compute/io/MeasuredImage.h"
#include "compute/request/ExperimentFile.h"
#include "compute/random/ReferenceRandom.h"
#include "compute/run/PreparedRun.h"
#include "python/RunWarnings.h"
#include "compute/vk/Instance.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <sstream>
#include <unordered_set>
#include <string>
#include <vector>

namespace py = pybind11;

namespace {

// nanoBragg's arguments from a string (split at white space), a sequence of words, and
// keywords (flag=value).
std::vector<std::string> arguments(const py::args& positional, const py::kwargs& keywords) {
    std::vector<std::string> words;
    for (const py::handle item : positional) {
        if (py::isinstance<py::str>(item)) {
            std::istringstream in(item.cast<std::string>());
            for (std::string word; in >> word;)
                words.push_back(word);
        } else {
            for (const py::handle word : item)
                words.push_back(py::str(word).cast<std::string>());
        }
    }
    for (const auto& [key, value] : keywords) {
        std::string flag = key.cast<std::string>();
        if (!flag.empty() && flag.back() == '_')
            flag.pop_back(); // lambda_ -> lambda
        if (py::isinstance<py::bool_>(value)) {
            if (value.cast<bool>())
                words.push_back("-" + flag);
            continue;
        }
        words.push_back("-" + flag);
        if (py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value)) {
            for (const py::handle v : value)
                words.push_back(py::str(v).cast<std::string>());
        } else {
            words.push_back(py::str(value).cast<std::string>());
        }
    }
    return words;
}

// The options whose only effect is on the files the headless program writes: simulate()
// returns the float image and writes nothing, so taking them would ignore them silently.
constexpr const char* kFileOptions[] = {"-floatfile", "-intfile",  "-pgmfile", "-noisefile",
                                        "-cbffile",   "-nexusfile", "-stolout", "-scale",
                                        "-pgmscale",  "-adc",       "-series"};

// `why`: the message after the option's name, given the option
template <typename Why>
void refuseFileOptions(const bv::RunRequest& request, Why why) {
    for (const char* option : kFileOptions)
        if (request.wasGiven(option))
            throw bv::Error(std::string(option) + ": " + why(std::string(option)));
}

// The request's files read (the structure factors, the detector file...): the reason of a
// usage error first, without the reference's page of usage text.
void loadInputs(bv::RunRequest& request, std::ostream& log) {
    try {
        bv::request::loadInputs(request, log);
    } catch (const bv::request::UsageError& e) {
        throw bv::Error(e.reason() + " (braggview --headless -h lists the options)");
    }
}

// The seeds of `-misset random`, one per call: the Simulator's own sequence (std::mt19937_64,
// whose output the C++ standard fixes, from the Simulator's seed), each a -misset_seed value
// the reference takes (1 to 2^31 - 2), none twice in one Simulator, so that a loop of calls
// gives as many orientations and each call is one headless run of "-misset random
// -misset_seed N".
class MissetSeeds {
  public:
    explicit MissetSeeds(std::uint64_t seed) : m_engine(seed) {}
    long next() {
        constexpr std::uint64_t kSeeds = 2147483646; // 1 .. 2^31 - 2: ran1 takes |seed| < 2^31 - 1
        for (;;) {
            const long n = 1 + static_cast<long>(m_engine() % kSeeds);
            if (m_used.insert(n).second)
                return n;
        }
    }

  private:
    std::mt19937_64 m_engine;
    std::unordered_set<long> m_used;
};

// Simulator(seed=...): a whole number of 64 bits, or None for a fresh one from the system
std::uint64_t seedOf(const py::object& seed) {
    if (seed.is_none()) {
        std::random_device device;
        return (static_cast<std::uint64_t>(device()) << 32) ^ device();
    }
    const char* expected = "seed must be a whole number from 0 to 2**64 - 1, or None";
    if (!py::isinstance<py::int_>(seed) || py::isinstance<py::bool_>(seed))
        throw bv::Error(expected);
    const unsigned long long value = PyLong_AsUnsignedLongLong(seed.ptr());
    if (PyErr_Occurred()) { // negative, or beyond 64 bits
        PyErr_Clear();
        throw bv::Error(expected);
    }
    return value;
}

class Simulator {
  public:
    Simulator(const std::string& precision, const std::string& device, const py::object& seed)
        : m_seed(seedOf(seed)), m_missetSeeds(m_seed) {
        const std::optional<bv::Precision> p = bv::precisionFromName(precision);
        if (!p)
            throw bv::Error("precision must be \"fast\" or \"precise\", not \"" + precision + "\"");
        bv::vk::skipMesaDeviceSelectLayer(); // as the headless program does
        m_runner = std::make_unique<bv::headless::FrameRunner>(device, *p);
    }

    py::array_t<float> simulate(const py::args& positional, const py::kwargs& keywords) {
        bv::RunRequest request = bv::cli::parseCommandLine(arguments(positional, keywords));
        refuseFileOptions(request, [](const std::string& option) {
            return "simulate() writes no files, it returns the float image as an array; for "
                   "the files, run the headless program with the Simulator's command "
                   "(braggview --headless " + option + " ...)";
        });
        bv::Crystal& crystal = request.experiment.crystal;
        // the reference's seed of a random misset is -misset_seed, else -seed, else the time
        // (the same second, the same crystal): here, else the Simulator's next seed
        if (crystal.misset == bv::MissetKind::Random && !request.wasGiven("-misset_seed") &&
            !request.wasGiven("-seed"))
            crystal.missetSeed = -m_missetSeeds.next();
        std::ostringstream log;
        loadInputs(request, log);
        bv::random::ReferenceRandom rng;
        const bv::run::PreparedRun prepared = bv::run::prepare(request.experiment, rng, log);
        m_log = log.str();
        bv::python::warnBeforeTheRun(prepared, *m_runner);
        auto image = std::make_unique<std::vector<float>>();
        bv::engine::Simulator& simulator = m_runner->simulator();
        bool interrupted = false;
        {
            py::gil_scoped_release released; // the GPU works; other Python threads run
            m_runner->setPlan(prepared.resolved, prepared.plan);
            // called on this thread every 100 ms while a slice runs and after each one: a
            // signal (Ctrl-C) raises its exception and stops the shader where it is
            simulator.run([&](int, int) {
                if (interrupted)
                    return;
                py::gil_scoped_acquire held;
                if (PyErr_CheckSignals() != 0) {
                    interrupted = true; // the exception stays set on this thread
                    simulator.requestCancel();
                }
            });
            if (!interrupted)
                *image = simulator.image();
        }
        if (interrupted)
            throw py::error_already_set(); // KeyboardInterrupt, or what a handler raised

        request.precision = simulator.precision(); // the precision that ran, for the words
        m_command = bv::request::commandWords(request);
        m_misset = py::none();
        if (crystal.misset != bv::MissetKind::None) {
            const glm::dvec3 a = prepared.resolved.missetAngles * (180.0 / M_PI);
            m_misset = py::make_tuple(a.x, a.y, a.z);
        }
        const py::ssize_t fast = prepared.plan.fastPixels, slow = prepared.plan.slowPixels;
        // the vector's own memory becomes the array's: no copy after the read-back
        float* data = image->data();
        py::capsule owner(image.release(), [](void* p) { delete static_cast<std::vector<float>*>(p); });
        return py::array_t<float>({slow, fast}, {fast * py::ssize_t(sizeof(float)), py::ssize_t(sizeof(float))},
                                  data, owner);
    }

    // -refine on this Simulator's device: the fit report (-fit_report's JSON) as a dict
    py::object refine(const py::args& positional, const py::kwargs& keywords) {
        bv::RunRequest request = bv::cli::parseCommandLine(arguments(positional, keywords));
        refuseFileOptions(request, [](const std::string&) {
            return std::string("refine() writes no images; it returns the fit report (and "
                               "writes fit_report= and refined_experiment= when named)");
        });
        if (request.refine.empty())
            throw bv::Error(std::string("refine(): name the groups to fit, e.g. "
                                        "refine=\"distance,beam\" (-refine; the groups: ") +
                            bv::refine::ParameterSet::knownGroups() + ")");
        bv::headless::checkRefinement(request);
        // what one frame cannot tell apart, as the headless program warns of it
        if (const std::string warning = bv::refine::groupsWarning(request.refine); !warning.empty())
            if (PyErr_WarnEx(PyExc_UserWarning, warning.c_str(), 1) < 0)
                throw py::error_already_set(); // warnings made errors: the fit does not start
        std::ostringstream log;
        loadInputs(request, log);
        // the spots and the measured frame read before anything is rendered
        const std::optional<bv::refine::ObservedSpots> spots = bv::headless::readObservedSpots(request);
        const bv::request::MeasuredSource source = bv::request::measuredSource(request);
        const bv::io::MeasuredImage measured = bv::request::readMeasured(request, source, log);
        // the files only after a fit that ran to its end (not one Ctrl-C stopped)
        bv::RunRequest fitOnly = request;
        fitOnly.fitReport.clear();
        fitOnly.refinedExperiment.clear();
        bool interrupted = false;
        bv::refine::FitReport report;
        {
            py::gil_scoped_release released;
            report = bv::headless::refineAndReport(
                fitOnly, measured, spots ? &*spots : nullptr, m_runner->simulator(), log,
                [&](const bv::refine::FitProgress&) {
                    py::gil_scoped_acquire held;
                    if (PyErr_CheckSignals() != 0)
                        interrupted = true; // the exception stays set on this thread
                    return !interrupted;
                });
        }
        if (interrupted) {
            m_log = log.str();
            throw py::error_already_set(); // KeyboardInterrupt, or what a handler raised
        }
        bv::headless::writeRefinementFiles(request, report, log);
        m_log = log.str();
        return py::module_::import("json").attr("loads")(bv::refine::fitReportJson(report));
    }

    std::string device() const { return m_runner->description(); }
    std::string precision() const {
        return bv::engine::precisionName(m_runner->simulator().precision());
    }
    double gpuMilliseconds() const { return m_runner->simulator().gpuMilliseconds(); }
    int recordCount() const { return m_runner->simulator().recordCount(); }
    const std::string& log() const { return m_log; }
    std::uint64_t seed() const { return m_seed; }
    const std::vector<std::string>& command() const { return m_command; }
    py::object misset() const { return m_misset; }

  private:
    std::uint64_t m_seed;
    MissetSeeds m_missetSeeds;
    std::unique_ptr<bv::headless::FrameRunner> m_runner;
    std::string m_log;
    std::vector<std::string> m_command;
    py::object m_misset = py::none();
};

} // namespace

PYBIND11_MODULE(braggview, m) {
    m.doc() = "braggview: nanoBragg's diffraction images from a Vulkan compute shader";
    // every bad input is a bv::Error whose message says what and where: a ValueError here
    py::register_exception<bv::Error>(m, "Error", PyExc_ValueError);
    py::class_<Simulator>(m, "Simulator")
        .def(py::init<const std::string&, const std::string&, const py::object&>(),
             py::arg("precision") = "precise", py::arg("device") = "", py::arg("seed") = py::none(),
             "One Vulkan device and one simulator, kept for every call (device: as -device); "
             "seed: of the sequence misset=\"random\" draws from (None: a fresh one)")
        .def("simulate", &Simulator::simulate,
             "The float image (photons per pixel, [slow, fast]) of nanoBragg's arguments")
        .def("refine", &Simulator::refine,
             "The headless program's -refine on this device: the experiment of nanoBragg's "
             "arguments fitted to the measured frame (measured=, or the experiment's own "
             "image), the fit report as a dict (what -fit_report writes); fit_report= and "
             "refined_experiment= are written as the headless program writes them")
        .def_property_readonly("device", &Simulator::device)
        .def_property_readonly("precision", &Simulator::precision)
        .def_property_readonly("gpu_ms", &Simulator::gpuMilliseconds,
                               "GPU time of the last simulate(), from timestamp queries")
        .def_property_readonly("record_count", &Simulator::recordCount,
                               "command buffer recordings so far (reused between calls)")
        .def_property_readonly("log", &Simulator::log,
                               "what the last simulate() or refine() printed")
        .def_property_readonly("seed", &Simulator::seed,
                               "the seed of the sequence misset=\"random\" draws from")
        .def_property_readonly("command", &Simulator::command,
                               "the last simulate() as the headless program's words (a drawn "
                               "orientation as its -misset_seed): the same image, bit for bit")
        .def_property_readonly("misset", &Simulator::misset,
                               "the last simulate()'s orientation (x, y, z rotations, degrees; "
                               "a random one as drawn), None without misset");
}
