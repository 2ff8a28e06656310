#pragma once
// NeXus/NXmx files (HDF5) as DIALS (dxtbx's FormatNXmx) and h5py read them: one file for a
// whole series, its frames one 3-D dataset (frames x slow x fast) compressed with bitshuffle +
// LZ4 as EIGER files are, the detector as a list of NXdetector_module groups, each placed by
// its own depends_on chain, the beam's wavelength and the goniometer axis with each frame's
// start angle (docs/nexus.md has the layout and why).
//
//     bv::io::NexusDescription d; // geometry in the NeXus (McStas) lab frame
//     d.modules.push_back({"module", origin, fast, slow, 100e-6, 100e-6, 512, 512});
//     bv::io::NexusWriter file("series.h5", d);
//     for (...) file.appendFrame(phiDeg, counts); // int32 or float32, as d.pixels says
//     file.finish(); // the HDF5 file complete, under its temporary name
//     file.commit(); // only now does series.h5 appear
//
// Atomic like every output (io::AtomicFile): the file is built under a temporary name beside
// the target and renamed by commit(); a writer destroyed before that (an error, a full disk)
// removes it. Every failure throws bv::Error naming the target and what failed.
//
// Geometry is in NeXus' lab frame, McStas: z along the beam, y up, x = y cross z; lengths in m.
// A module's origin is the outer corner of its first pixel (dxtbx's Panel origin). Several
// modules tile the image, each its own data_origin/data_size rectangle of it.

#include <glm/vec3.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bv::io {

class AtomicFile;

// One plane of pixels of the detector.
struct NexusModule {
    std::string name = "module"; // the NXdetector_module group's name
    glm::dvec3 origin{0.0};      // m, sample -> outer corner of the module's first pixel
    glm::dvec3 fast{1.0, 0.0, 0.0}, slow{0.0, 1.0, 0.0}; // unit vectors of increasing index
    double fastPixelSize = 0.0, slowPixelSize = 0.0;    // m
    int fastPixels = 0, slowPixels = 0;
    // where its pixels start in the image (data_origin): a module's pixels are a rectangle
    int fastOffset = 0, slowOffset = 0;
};

enum class NexusPixels { Int32, Float32 };

struct NexusDescription {
    int imageFast = 0, imageSlow = 0; // the image the modules tile (one dataset's frame)
    std::vector<NexusModule> modules;
    NexusPixels pixels = NexusPixels::Int32;
    double wavelength = 0.0; // m
    double flux = 0.0;       // photons/s (written when > 0)
    // Stokes parameters (S0, S1, S2, S3) of the incident beam in the NeXus frame (S1 > 0:
    // E-vector along x); (1, 0, 0, 0) is unpolarized (docs/nexus.md, "Polarization")
    std::array<double, 4> polarisationStokes{1.0, 0.0, 0.0, 0.0};
    std::string sensorMaterial = "Si";
    double sensorThickness = 0.0;  // m
    double distance = 0.0;         // m, sample to the beam centre (NXmx: for guidance only)
    double beamCentreFast = 0.0, beamCentreSlow = 0.0; // pixels from the outer corner
    bool hasBeamCentre = true;     // false: no beam_center_x/y (panels have no one plane for it)
    double exposure = 1.0;         // s, count_time and frame_time
    std::int32_t saturation = 0;   // counts at which a pixel overloads (written when > 0)
    std::int32_t underload = -1;   // pixels at or below carry no data (PILATUS' -1)
    glm::dvec3 spindle{1.0, 0.0, 0.0}; // right-handed rotation axis of the sample, unit
    std::string spindleName = "phi";
    double oscillationDeg = 0.0;   // each frame's rotation range
    std::string startTime;         // ISO 8601, UTC
    std::string software;          // the program, for /entry/instrument/name
};

// HDF5's number of bitshuffle, the filter EIGER data is written with.
inline constexpr unsigned kBitshuffleFilter = 32008;

// Whether HDF5 can load the bitshuffle filter (Debian: package bitshuffle, which installs it
// in /usr/lib/x86_64-linux-gnu/hdf5/serial/plugins; HDF5_PLUGIN_PATH can name another folder).
bool bitshuffleAvailable();
// Throws bv::Error naming `targetPath` and what to install when it is not.
void requireBitshuffle(const std::string& targetPath);

class NexusWriter {
  public:
    // Creates the temporary file with the description's groups and the empty, extensible
    // dataset. Throws bv::Error naming `targetPath` when the bitshuffle filter is missing,
    // the description is inconsistent or the file cannot be created.
    NexusWriter(std::string targetPath, NexusDescription description);
    ~NexusWriter(); // removes the temporary file unless commit() succeeded; never throws
    NexusWriter(const NexusWriter&) = delete;
    NexusWriter& operator=(const NexusWriter&) = delete;

    // One frame, imageFast x imageSlow pixels, fast index fastest, of the type the
    // description names, and its start angle about the spindle.
    void appendFrame(double startAngleDeg, const std::vector<std::int32_t>& pixels);
    void appendFrame(double startAngleDeg, const std::vector<float>& pixels);
    int frames() const { return static_cast<int>(m_angles.size()); }

    // Writes the per-frame angles and closes the HDF5 file (still under its temporary name).
    void finish();
    // Renames it over the target (finish() first, if not done).
    void commit();

    const std::string& targetPath() const;

  private:
    struct Hdf5;
    void appendRaw(double startAngleDeg, const void* pixels, std::size_t count, bool isFloat);
    [[noreturn]] void fail(const std::string& what) const;

    NexusDescription m_description;
    std::unique_ptr<AtomicFile> m_file; // the temporary's name, removal and rename
    std::unique_ptr<Hdf5> m_hdf5;       // open handles until finish()
    std::vector<double> m_angles;       // each frame's start, degrees
};

} // namespace bv::io
