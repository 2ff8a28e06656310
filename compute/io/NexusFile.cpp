#include "compute/io/NexusFile.h"

#include "compute/core/Error.h"
#include "compute/io/AtomicFile.h"
#include "compute/io/Hdf5Handle.h"

#include <hdf5.h>

#include <glm/geometric.hpp>

#include <cmath>
#include <utility>

namespace bv::io {
namespace {

using hdf5::Handle;
using hdf5::hdf5Reason;
using hdf5::silenceHdf5;

} // namespace

bool bitshuffleAvailable() {
    silenceHdf5();
    const htri_t available = H5Zfilter_avail(kBitshuffleFilter);
    H5Eclear2(H5E_DEFAULT);
    return available > 0;
}

void requireBitshuffle(const std::string& targetPath) {
    if (!bitshuffleAvailable())
        throw Error(targetPath +
                    ": cannot write NeXus data: HDF5 has no bitshuffle filter (32008); install "
                    "Debian's package bitshuffle, or set HDF5_PLUGIN_PATH to the folder of its "
                    "libh5bshuf.so");
}

struct NexusWriter::Hdf5 {
    Handle file, data;
};

namespace {

// The writing helpers: each returns false when HDF5 refuses (the caller names the file).
class Tree {
  public:
    explicit Tree(hid_t file) : m_file(file) {
        // no modification times in the object headers: the same run gives the same bytes
        H5Pset_obj_track_times(m_groupCreate.get(), 0);
        H5Pset_obj_track_times(m_orderedGroupCreate.get(), 0);
        H5Pset_link_creation_order(m_orderedGroupCreate.get(),
                                   H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
        H5Pset_obj_track_times(m_dataCreate.get(), 0);
    }

    // inCreationOrder: readers list its members in the order written (h5py, so dxtbx, lists
    // them by name otherwise)
    hid_t group(const std::string& path, const char* nxClass, bool inCreationOrder = false) {
        Handle g(H5Gcreate2(m_file, path.c_str(), H5P_DEFAULT,
                            inCreationOrder ? m_orderedGroupCreate.get() : m_groupCreate.get(),
                            H5P_DEFAULT),
                 H5Gclose);
        check(g.valid(), "create group " + path);
        attribute(g.get(), "NX_class", nxClass);
        const hid_t id = g.get();
        m_groups.push_back(std::move(g));
        return id;
    }

    void attribute(hid_t object, const char* name, const std::string& text) {
        Handle type = stringType(text);
        Handle space(H5Screate(H5S_SCALAR), H5Sclose);
        Handle a(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
                 H5Aclose);
        check(a.valid() && H5Awrite(a.get(), type.get(), text.c_str()) >= 0,
              std::string("write attribute ") + name);
    }
    void attribute(hid_t object, const char* name, const glm::dvec3& v) {
        const hsize_t three = 3;
        const double values[3] = {v.x, v.y, v.z};
        Handle space(H5Screate_simple(1, &three, nullptr), H5Sclose);
        Handle a(H5Acreate2(object, name, H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                 H5Aclose);
        check(a.valid() && H5Awrite(a.get(), H5T_NATIVE_DOUBLE, values) >= 0,
              std::string("write attribute ") + name);
    }

    void text(hid_t parent, const char* name, const std::string& value) {
        Handle type = stringType(value);
        Handle space(H5Screate(H5S_SCALAR), H5Sclose);
        Handle d(H5Dcreate2(parent, name, type.get(), space.get(), H5P_DEFAULT,
                            m_dataCreate.get(), H5P_DEFAULT),
                 H5Dclose);
        check(d.valid() && H5Dwrite(d.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                    value.c_str()) >= 0,
              std::string("write ") + name);
    }
    // a number with its units ("" for none); returns the dataset for more attributes
    hid_t number(hid_t parent, const char* name, double value, const char* units) {
        return numbers(parent, name, {value}, units, true);
    }
    hid_t numbers(hid_t parent, const char* name, const std::vector<double>& values,
                  const char* units, bool scalar = false) {
        const hid_t d = array(parent, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, values.data(),
                              values.size(), scalar);
        if (*units)
            attribute(d, "units", units);
        return d;
    }
    void integers(hid_t parent, const char* name, const std::vector<std::int32_t>& values,
                  bool scalar = false) {
        array(parent, name, H5T_STD_I32LE, H5T_NATIVE_INT32, values.data(), values.size(),
              scalar);
    }

    // a transformation of a depends_on chain: its value(s), type, axis and what it sits on
    hid_t transformation(hid_t parent, const char* name, const std::vector<double>& values,
                         const char* units, const char* type, const glm::dvec3& vector,
                         const std::string& dependsOn, bool scalar) {
        const hid_t d = numbers(parent, name, values, units, scalar);
        attribute(d, "transformation_type", type);
        attribute(d, "vector", vector);
        attribute(d, "offset", glm::dvec3(0.0));
        attribute(d, "offset_units", "m");
        attribute(d, "depends_on", dependsOn);
        return d;
    }

    // doubles as a rows x columns dataset (NXmx's incident_polarisation_stokes: [nP, 4])
    void table(hid_t parent, const char* name, const std::vector<double>& values,
               std::size_t columns) {
        const hsize_t dims[2] = {values.size() / columns, columns};
        Handle space(H5Screate_simple(2, dims, nullptr), H5Sclose);
        Handle d(H5Dcreate2(parent, name, H5T_IEEE_F64LE, space.get(), H5P_DEFAULT,
                            m_dataCreate.get(), H5P_DEFAULT),
                 H5Dclose);
        check(d.valid() && H5Dwrite(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                                    values.data()) >= 0,
              std::string("write ") + name);
    }

    void closeAll() { m_groups.clear(); }

    std::string failure; // what failed first, with HDF5's reason

  private:
    // a dataset of `count` values (one, scalar), kept open for attributes until closeAll()
    hid_t array(hid_t parent, const char* name, hid_t fileType, hid_t memoryType,
                const void* values, std::size_t count, bool scalar) {
        const hsize_t n = count;
        Handle space(scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr), H5Sclose);
        Handle d(H5Dcreate2(parent, name, fileType, space.get(), H5P_DEFAULT, m_dataCreate.get(),
                            H5P_DEFAULT),
                 H5Dclose);
        check(d.valid() && H5Dwrite(d.get(), memoryType, H5S_ALL, H5S_ALL, H5P_DEFAULT, values) >= 0,
              std::string("write ") + name);
        const hid_t id = d.get();
        m_groups.push_back(std::move(d));
        return id;
    }
    Handle stringType(const std::string& text) {
        Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
        H5Tset_size(type.get(), text.empty() ? 1 : text.size());
        H5Tset_strpad(type.get(), H5T_STR_NULLPAD);
        H5Tset_cset(type.get(), H5T_CSET_UTF8);
        return type;
    }
    void check(bool ok, const std::string& what) {
        if (!ok && failure.empty()) {
            const std::string reason = hdf5Reason();
            failure = what + (reason.empty() ? "" : ": " + reason);
        }
    }

    hid_t m_file;
    Handle m_groupCreate{H5Pcreate(H5P_GROUP_CREATE), H5Pclose};
    Handle m_orderedGroupCreate{H5Pcreate(H5P_GROUP_CREATE), H5Pclose};
    Handle m_dataCreate{H5Pcreate(H5P_DATASET_CREATE), H5Pclose};
    std::vector<Handle> m_groups; // open until the tree is written
};

const char* kModuleParent = "/entry/instrument/detector";

} // namespace

NexusWriter::NexusWriter(std::string targetPath, NexusDescription description)
    : m_description(std::move(description)) {
    silenceHdf5();
    const NexusDescription& d = m_description;
    requireBitshuffle(targetPath);
    if (d.imageFast <= 0 || d.imageSlow <= 0 || d.modules.empty())
        throw Error(targetPath + ": a NeXus file needs an image and at least one module");
    for (const NexusModule& m : d.modules)
        if (m.fastPixels <= 0 || m.slowPixels <= 0 || m.fastOffset < 0 || m.slowOffset < 0 ||
            m.fastOffset + m.fastPixels > d.imageFast || m.slowOffset + m.slowPixels > d.imageSlow)
            throw Error(targetPath + ": module " + m.name + " lies outside the " +
                        std::to_string(d.imageFast) + "x" + std::to_string(d.imageSlow) +
                        " image");

    m_file = std::make_unique<AtomicFile>(std::move(targetPath));
    m_hdf5 = std::make_unique<Hdf5>();
    // the temporary AtomicFile created (and will rename or remove), truncated and written by HDF5
    m_hdf5->file = Handle(H5Fcreate(m_file->temporaryPath().c_str(), H5F_ACC_TRUNC, H5P_DEFAULT,
                                    H5P_DEFAULT),
                          H5Fclose);
    if (!m_hdf5->file.valid())
        fail("cannot create the HDF5 file: " + hdf5Reason());

    Tree t(m_hdf5->file.get());
    const hid_t entry = t.group("/entry", "NXentry");
    t.attribute(entry, "default", "data");
    t.text(entry, "definition", "NXmx");
    if (!d.startTime.empty())
        t.text(entry, "start_time", d.startTime + "Z");

    const hid_t instrument = t.group("/entry/instrument", "NXinstrument");
    t.text(instrument, "name", d.software.empty() ? "braggview" : d.software);
    const hid_t beam = t.group("/entry/instrument/beam", "NXbeam");
    t.number(beam, "incident_wavelength", d.wavelength * 1e10, "angstrom");
    if (d.flux > 0.0)
        t.number(beam, "total_flux", d.flux, "Hz");
    // the polarization the image was simulated with (docs/nexus.md, "Polarization")
    t.table(beam, "incident_polarisation_stokes",
            {d.polarisationStokes[0], d.polarisationStokes[1], d.polarisationStokes[2],
             d.polarisationStokes[3]},
            4);

    // several modules: in their order (dxtbx numbers its panels as it lists the groups); one
    // module's file stays as it was
    const hid_t det = t.group(kModuleParent, "NXdetector", d.modules.size() > 1);
    const std::string detectorOrigin = std::string(kModuleParent) + "/transformations/origin";
    t.text(det, "depends_on", detectorOrigin);
    t.text(det, "description", "simulated pixel-array detector (braggview)");
    t.text(det, "type", "pixel");
    t.text(det, "sensor_material", d.sensorMaterial);
    t.number(det, "sensor_thickness", d.sensorThickness, "m");
    t.number(det, "x_pixel_size", d.modules.front().fastPixelSize, "m");
    t.number(det, "y_pixel_size", d.modules.front().slowPixelSize, "m");
    t.number(det, "distance", d.distance, "m");
    if (d.hasBeamCentre) {
        t.number(det, "beam_center_x", d.beamCentreFast, "pixel");
        t.number(det, "beam_center_y", d.beamCentreSlow, "pixel");
    }
    t.number(det, "count_time", d.exposure, "s");
    t.number(det, "frame_time", d.exposure, "s");
    if (d.saturation > 0)
        t.integers(det, "saturation_value", {d.saturation}, true);
    t.integers(det, "underload_value", {d.underload}, true);
    // the detector as a whole sits at the lab origin; a detector-wide move (a distance stage)
    // would go here, and every module's chain passes through it
    const hid_t detTransforms =
        t.group(std::string(kModuleParent) + "/transformations", "NXtransformations");
    t.transformation(detTransforms, "origin", {0.0}, "m", "translation", {0.0, 0.0, 1.0}, ".",
                     true);

    for (const NexusModule& m : d.modules) {
        const std::string path = std::string(kModuleParent) + "/" + m.name;
        const hid_t module = t.group(path, "NXdetector_module");
        t.integers(module, "data_origin", {m.slowOffset, m.fastOffset});
        t.integers(module, "data_size", {m.slowPixels, m.fastPixels});
        t.integers(module, "data_stride", {1, 1});
        // the corner of the first pixel: a translation by its distance along its direction
        const double reach = glm::length(m.origin);
        const glm::dvec3 towards = reach > 0.0 ? m.origin / reach : glm::dvec3(0.0, 0.0, 1.0);
        t.transformation(module, "module_offset", {reach}, "m", "translation", towards,
                         detectorOrigin, true);
        t.transformation(module, "fast_pixel_direction", {m.fastPixelSize}, "m", "translation",
                         m.fast, path + "/module_offset", true);
        t.transformation(module, "slow_pixel_direction", {m.slowPixelSize}, "m", "translation",
                         m.slow, path + "/module_offset", true);
    }

    const hid_t sample = t.group("/entry/sample", "NXsample");
    t.text(sample, "name", "simulated crystal");
    t.text(sample, "depends_on", "/entry/sample/transformations/" + d.spindleName);
    t.group("/entry/sample/transformations", "NXtransformations");

    const hid_t data = t.group("/entry/data", "NXdata");
    t.attribute(data, "signal", "data");
    if (!t.failure.empty())
        fail(t.failure);
    {
        const hsize_t dims[3] = {0, static_cast<hsize_t>(d.imageSlow),
                                 static_cast<hsize_t>(d.imageFast)};
        const hsize_t maxDims[3] = {H5S_UNLIMITED, dims[1], dims[2]};
        const hsize_t chunk[3] = {1, dims[1], dims[2]}; // one frame a chunk, as EIGER writes
        Handle space(H5Screate_simple(3, dims, maxDims), H5Sclose);
        Handle create(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
        // bitshuffle's block size 0 (its default) and its LZ4 compression (2)
        const unsigned values[2] = {0, 2};
        if (H5Pset_obj_track_times(create.get(), 0) < 0 || H5Pset_chunk(create.get(), 3, chunk) < 0 ||
            H5Pset_filter(create.get(), kBitshuffleFilter, H5Z_FLAG_MANDATORY, 2, values) < 0)
            fail("cannot set up the bitshuffle/LZ4 data: " + hdf5Reason());
        const hid_t type = d.pixels == NexusPixels::Int32 ? H5T_STD_I32LE : H5T_IEEE_F32LE;
        m_hdf5->data = Handle(H5Dcreate2(data, "data", type, space.get(), H5P_DEFAULT,
                                         create.get(), H5P_DEFAULT),
                              H5Dclose);
        if (!m_hdf5->data.valid())
            fail("cannot create the data set: " + hdf5Reason());
    }
}

NexusWriter::~NexusWriter() = default; // handles close, then AtomicFile removes the temporary

const std::string& NexusWriter::targetPath() const { return m_file->targetPath(); }

void NexusWriter::fail(const std::string& what) const {
    throw Error(m_file->targetPath() + ": cannot write NeXus file: " + what);
}

void NexusWriter::appendFrame(double startAngleDeg, const std::vector<std::int32_t>& pixels) {
    if (m_description.pixels != NexusPixels::Int32)
        fail("a frame of integers for a data set of floats");
    appendRaw(startAngleDeg, pixels.data(), pixels.size(), false);
}

void NexusWriter::appendFrame(double startAngleDeg, const std::vector<float>& pixels) {
    if (m_description.pixels != NexusPixels::Float32)
        fail("a frame of floats for a data set of integers");
    appendRaw(startAngleDeg, pixels.data(), pixels.size(), true);
}

void NexusWriter::appendRaw(double startAngleDeg, const void* pixels, std::size_t count,
                            bool isFloat) {
    const NexusDescription& d = m_description;
    if (!m_hdf5 || !m_hdf5->data.valid())
        fail("a frame after the file was finished");
    if (count != static_cast<std::size_t>(d.imageFast) * static_cast<std::size_t>(d.imageSlow))
        fail("a frame of " + std::to_string(count) + " pixels is not the " +
             std::to_string(d.imageFast) + "x" + std::to_string(d.imageSlow) + " image");
    const hsize_t frame = m_angles.size();
    const hsize_t size[3] = {frame + 1, static_cast<hsize_t>(d.imageSlow),
                             static_cast<hsize_t>(d.imageFast)};
    const hsize_t start[3] = {frame, 0, 0};
    const hsize_t one[3] = {1, size[1], size[2]};
    const hid_t data = m_hdf5->data.get();
    if (H5Dset_extent(data, size) < 0)
        fail("cannot add frame " + std::to_string(frame + 1) + ": " + hdf5Reason());
    Handle fileSpace(H5Dget_space(data), H5Sclose);
    Handle memSpace(H5Screate_simple(3, one, nullptr), H5Sclose);
    if (!fileSpace.valid() ||
        H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, start, nullptr, one, nullptr) < 0 ||
        H5Dwrite(data, isFloat ? H5T_NATIVE_FLOAT : H5T_NATIVE_INT32, memSpace.get(),
                 fileSpace.get(), H5P_DEFAULT, pixels) < 0)
        fail("cannot write frame " + std::to_string(frame + 1) + ": " + hdf5Reason());
    m_angles.push_back(startAngleDeg);
}

void NexusWriter::finish() {
    if (!m_hdf5)
        return;
    const NexusDescription& d = m_description;
    if (m_angles.empty())
        fail("no frame was written");
    {
        Tree t(m_hdf5->file.get());
        Handle transforms(H5Gopen2(m_hdf5->file.get(), "/entry/sample/transformations",
                                   H5P_DEFAULT),
                          H5Gclose);
        // the spindle's angle at the start of each frame, and at its end: DIALS' scan
        std::vector<double> ends = m_angles;
        for (double& a : ends)
            a += d.oscillationDeg;
        t.transformation(transforms.get(), d.spindleName.c_str(), m_angles, "deg", "rotation",
                         d.spindle, ".", false);
        t.numbers(transforms.get(), (d.spindleName + "_end").c_str(), ends, "deg");
        t.number(transforms.get(), (d.spindleName + "_increment_set").c_str(), d.oscillationDeg,
                 "deg");
        t.closeAll();
        if (!t.failure.empty())
            fail(t.failure);
    }
    m_hdf5->data.reset();
    // the last of the data reaches the file here: a full disk may show only now
    if (H5Fflush(m_hdf5->file.get(), H5F_SCOPE_LOCAL) < 0 || !m_hdf5->file.reset())
        fail("cannot complete the file: " + hdf5Reason());
    m_hdf5.reset();
}

void NexusWriter::commit() {
    finish();
    m_file->commit();
}

} // namespace bv::io
