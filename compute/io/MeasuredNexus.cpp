// readMeasuredNexus: one frame of an NXmx file (MeasuredImage.h says which datasets and marks).
#include "compute/io/MeasuredImage.h"

#include "compute/core/Error.h"
#include "compute/io/Hdf5Handle.h"
#include "compute/io/NexusFile.h"
#include "compute/model/PhysicalLimits.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>

namespace bv::io {

namespace {

using hdf5::Handle;

bool exists(hid_t location, const char* path) {
    // each link of the path must exist before the next is asked for
    std::string sofar;
    for (const char* p = path; *p; ++p) {
        if (*p == '/' && !sofar.empty() && H5Lexists(location, sofar.c_str(), H5P_DEFAULT) <= 0)
            return false;
        sofar += *p;
    }
    return H5Lexists(location, sofar.c_str(), H5P_DEFAULT) > 0 &&
           H5Oexists_by_name(location, sofar.c_str(), H5P_DEFAULT) > 0;
}

std::optional<double> scalar(hid_t file, const char* path) {
    if (!exists(file, path))
        return std::nullopt;
    Handle d(H5Dopen2(file, path, H5P_DEFAULT), H5Dclose);
    Handle space(H5Dget_space(d.get()), H5Sclose);
    if (!d.valid() || H5Sget_simple_extent_npoints(space.get()) != 1)
        return std::nullopt;
    double value = 0.0;
    if (H5Dread(d.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value) < 0)
        return std::nullopt;
    return value;
}

// The frame datasets in order: /entry/data/data, or data_000001, data_000002, ...
std::vector<std::string> frameDatasets(hid_t file) {
    if (exists(file, "/entry/data/data"))
        return {"/entry/data/data"};
    std::vector<std::string> names;
    for (int i = 1; i < 100000; ++i) {
        char name[32];
        std::snprintf(name, sizeof name, "/entry/data/data_%06d", i);
        if (!exists(file, name))
            break;
        names.push_back(name);
    }
    return names;
}

struct FrameData {
    std::vector<float> pixels;
    std::vector<std::uint8_t> hasData;
};

} // namespace

MeasuredImage readMeasuredNexus(const std::string& path, std::size_t frame) {
    hdf5::silenceHdf5();
    Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!file.valid())
        throw Error(path + ": cannot open as HDF5 (" + hdf5::hdf5Reason() + ")");
    const std::vector<std::string> datasets = frameDatasets(file.get());
    if (datasets.empty())
        throw Error(path + ": no image data (/entry/data/data or /entry/data/data_000001)");

    MeasuredImage m;
    m.format = "NXmx";
    m.frames = 0;
    std::size_t first = 0; // frames in the datasets before the one read
    std::optional<std::string> chosen;
    for (const std::string& name : datasets) {
        Handle d(H5Dopen2(file.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
        if (!d.valid())
            throw Error(path + ": " + name + ": cannot open (" + hdf5::hdf5Reason() +
                        "; an EIGER master's data files must lie beside it)");
        Handle space(H5Dget_space(d.get()), H5Sclose);
        hsize_t dims[3] = {0, 0, 0};
        if (H5Sget_simple_extent_ndims(space.get()) != 3 ||
            H5Sget_simple_extent_dims(space.get(), dims, nullptr) != 3)
            throw Error(path + ": " + name + ": expected frames x slow x fast pixels");
        if (dims[1] == 0 || dims[2] == 0 ||
            static_cast<long long>(dims[1] * dims[2]) > kMaxImagePixels)
            throw Error(path + ": " + name + ": a frame of " + std::to_string(dims[2]) + " x " +
                        std::to_string(dims[1]) + " pixels is not an image braggview reads");
        if (m.width == 0) {
            m.width = static_cast<int>(dims[2]);
            m.height = static_cast<int>(dims[1]);
        } else if (m.width != static_cast<int>(dims[2]) || m.height != static_cast<int>(dims[1])) {
            throw Error(path + ": " + name + ": frames of another size than " + datasets[0] + "'s");
        }
        if (!chosen && frame < m.frames + dims[0]) {
            chosen = name;
            first = m.frames;
        }
        m.frames += dims[0];
    }
    if (!chosen)
        throw Error(path + ": no frame " + std::to_string(frame + 1) + ": the file holds " +
                    std::to_string(m.frames));

    Handle d(H5Dopen2(file.get(), chosen->c_str(), H5P_DEFAULT), H5Dclose);
    Handle space(H5Dget_space(d.get()), H5Sclose);
    const hsize_t start[3] = {frame - first, 0, 0};
    const hsize_t count[3] = {1, static_cast<hsize_t>(m.height), static_cast<hsize_t>(m.width)};
    H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr);
    Handle memory(H5Screate_simple(3, count, nullptr), H5Sclose);
    const std::size_t n = static_cast<std::size_t>(m.width) * static_cast<std::size_t>(m.height);

    Handle type(H5Dget_type(d.get()), H5Tclose);
    const bool isFloat = H5Tget_class(type.get()) == H5T_FLOAT;
    const bool isUnsigned = H5Tget_class(type.get()) == H5T_INTEGER &&
                            H5Tget_sign(type.get()) == H5T_SGN_NONE;
    const double unsignedMax = std::ldexp(1.0, static_cast<int>(8 * H5Tget_size(type.get()))) - 1.0;
    std::vector<double> values(n);
    if (H5Dread(d.get(), H5T_NATIVE_DOUBLE, memory.get(), space.get(), H5P_DEFAULT,
                values.data()) < 0) {
        const std::string reason = hdf5::hdf5Reason();
        throw Error(path + ": " + *chosen + ": cannot read frame " + std::to_string(frame + 1) +
                    " (" + reason + ")" +
                    (bitshuffleAvailable() ? ""
                                           : "; HDF5 has no bitshuffle filter: install Debian's "
                                             "package bitshuffle"));
    }

    const std::optional<double> saturation =
        scalar(file.get(), "/entry/instrument/detector/saturation_value");
    const std::optional<double> underload =
        scalar(file.get(), "/entry/instrument/detector/underload_value");
    std::vector<std::uint32_t> mask;
    if (exists(file.get(), "/entry/instrument/detector/pixel_mask")) {
        Handle md(H5Dopen2(file.get(), "/entry/instrument/detector/pixel_mask", H5P_DEFAULT),
                  H5Dclose);
        Handle ms(H5Dget_space(md.get()), H5Sclose);
        if (H5Sget_simple_extent_npoints(ms.get()) == static_cast<hssize_t>(n)) {
            mask.resize(n);
            if (H5Dread(md.get(), H5T_NATIVE_UINT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, mask.data()) < 0)
                throw Error(path + ": /entry/instrument/detector/pixel_mask: cannot read (" +
                            hdf5::hdf5Reason() + ")");
        }
    }

    m.pixels.resize(n);
    m.hasData.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const double v = values[i];
        bool data = std::isfinite(v);
        if (!isFloat && isUnsigned && v == unsignedMax)
            data = false;
        if (saturation && v >= *saturation)
            data = false;
        if (underload && v <= *underload)
            data = false;
        if (!mask.empty() && mask[i] != 0)
            data = false;
        m.pixels[i] = data ? static_cast<float>(v) : 0.0f;
        m.hasData[i] = data ? 1 : 0;
    }
    return m;
}

} // namespace bv::io
