// The Python module `braggview`: the simulator as a library for scripts that make many images
// (training sets, method tests), over the same engine as the headless program.
//
//     import braggview
//     sim = braggview.Simulator(precision="fast")        # one Vulkan device, kept
//     image = sim.simulate("-cell 100 100 100 90 90 90 -lambda 1 -N 5 -default_F 100 "
//                          "-distance 100 -detpixels 1024")
//     image = sim.simulate(cell=(100, 100, 100, 90, 90, 90), lambda_=1, N=5,
//                          default_F=100, distance=100, detpixels=1024)
//     image.shape   # (1024, 1024): [slow, fast], photons per pixel, float32
//
// Arguments are nanoBragg's (the headless program's, `braggview --headless -h`); keywords are
// the flags without the dash (lambda_ for -lambda, a Python word), a tuple gives several
// values, True a flag alone. The image is the float image the headless program writes with
// -floatfile, bit for bit; no file is written (but -hkl writes its Fdump.bin cache, as the
// reference does). The GIL is released while the GPU works; the Simulator keeps its recorded
// command buffer between calls of the same detector size and shader variant
// (docs/python.md).

#include "compute/cli/CommandLine.h"
#include "compute/request/Inputs.h"
#include "compute/core/Error.h"
#include "compute/engine/Simulator.h"
#include "compute/headless/FrameRunner.h"
#include "compute/random/ReferenceRandom.h"
#include "compute/run/PreparedRun.h"
#include "python/RunWarnings.h"
#include "compute/vk/Instance.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <sstream>
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

class Simulator {
  public:
    Simulator(const std::string& precision, const std::string& device) {
        const std::optional<bv::Precision> p = bv::precisionFromName(precision);
        if (!p)
            throw bv::Error("precision must be \"fast\" or \"precise\", not \"" + precision + "\"");
        bv::vk::skipMesaDeviceSelectLayer(); // as the headless program does
        m_runner = std::make_unique<bv::headless::FrameRunner>(device, *p);
    }

    py::array_t<float> simulate(const py::args& positional, const py::kwargs& keywords) {
        bv::RunRequest cl = bv::cli::parseCommandLine(arguments(positional, keywords));
        std::ostringstream log;
        bv::request::loadInputs(cl, log);
        bv::random::ReferenceRandom rng;
        const bv::run::PreparedRun prepared = bv::run::prepare(cl.experiment, rng, log);
        m_log = log.str();
        bv::python::warnBeforeTheRun(prepared, *m_runner);
        auto image = std::make_unique<std::vector<float>>();
        {
            py::gil_scoped_release released; // the GPU works; other Python threads run
            *image = m_runner->run(prepared.resolved, prepared.plan);
        }
        const py::ssize_t fast = prepared.plan.fastPixels, slow = prepared.plan.slowPixels;
        // the vector's own memory becomes the array's: no copy after the read-back
        float* data = image->data();
        py::capsule owner(image.release(), [](void* p) { delete static_cast<std::vector<float>*>(p); });
        return py::array_t<float>({slow, fast}, {fast * py::ssize_t(sizeof(float)), py::ssize_t(sizeof(float))},
                                  data, owner);
    }

    std::string device() const { return m_runner->description(); }
    std::string precision() const {
        return bv::engine::precisionName(m_runner->simulator().precision());
    }
    double gpuMilliseconds() const { return m_runner->simulator().gpuMilliseconds(); }
    int recordCount() const { return m_runner->simulator().recordCount(); }
    const std::string& log() const { return m_log; }

  private:
    std::unique_ptr<bv::headless::FrameRunner> m_runner;
    std::string m_log;
};

} // namespace

PYBIND11_MODULE(braggview, m) {
    m.doc() = "braggview: nanoBragg's diffraction images from a Vulkan compute shader";
    // every bad input is a bv::Error whose message says what and where: a ValueError here
    py::register_exception<bv::Error>(m, "Error", PyExc_ValueError);
    py::class_<Simulator>(m, "Simulator")
        .def(py::init<const std::string&, const std::string&>(), py::arg("precision") = "precise",
             py::arg("device") = "",
             "One Vulkan device and one simulator, kept for every call (device: as -device)")
        .def("simulate", &Simulator::simulate,
             "The float image (photons per pixel, [slow, fast]) of nanoBragg's arguments")
        .def_property_readonly("device", &Simulator::device)
        .def_property_readonly("precision", &Simulator::precision)
        .def_property_readonly("gpu_ms", &Simulator::gpuMilliseconds,
                               "GPU time of the last simulate(), from timestamp queries")
        .def_property_readonly("record_count", &Simulator::recordCount,
                               "command buffer recordings so far (reused between calls)")
        .def_property_readonly("log", &Simulator::log,
                               "what the last simulate() printed while reading and resolving");
}
