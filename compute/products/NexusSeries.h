#pragma once
// -nexusfile: the NeXus/NXmx file of a run, a series or a job frame, made in the products step
// like every other output. A file spans frames, so it is a sink: opened before the first
// frame (with that frame's geometry), one frame appended per image, committed after the last.
//
//     products::NexusSeries nexus("series.h5");
//     for (each frame) {
//         products::writeProducts(source, frame.files);
//         nexus.append(source); // the frame's data and start angle
//     }
//     nexus.commit(); // series.h5 appears; an exception before leaves no file
//
// What a frame holds (docs/nexus.md): the photons a detector counts when the run has noise
// (the CBF's counts: the same deviates, int32), the float image itself with -nonoise.

#include "compute/io/NexusFile.h"
#include "compute/model/Resolve.h"
#include "compute/products/Products.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bv::products {

// A resolved experiment's detector as NeXus describes it, in NeXus' lab frame (z along the
// beam, y up as nanoBragg's y), with the beam and the spindle: nanoBragg's one detector as
// one module; a detector of panels as a module per panel, tiling the image the engine
// stacks (plan::stackedSize: each panel's rows after the previous panel's; docs/nexus.md,
// "Several modules").
io::NexusDescription nexusDescription(const ResolvedExperiment& r, bool counts,
                                      double epochSeconds);

// nanoBragg's lab frame -> NeXus' (McStas): z along the beam, y nanoBragg's up made
// perpendicular to it, x = y cross z (for nanoBragg's MOSFLM frame: (x, y, z) -> (-z, y, x)).
glm::dvec3 nexusFromLab(const ResolvedExperiment& r, const glm::dvec3& v);

// The beam's polarization as NXmx's Stokes parameters (S0, S1, S2, S3) in NeXus' frame: the
// Kahn factor K (-polar) is the degree of linear polarization along the E-vector
// (-polar_vector), at angle chi from x: (1, K cos 2chi, K sin 2chi, 0); DIALS's
// polarization_fraction is (1 + K) / 2 with the normal beam x E-vector. -nopolar writes
// (1, 0, 0, 0). docs/nexus.md, "Polarization".
std::array<double, 4> polarisationStokes(const ResolvedExperiment& r);

// The sensor thickness written for nanoBragg's default of none (dxtbx reads no thinner), m.
inline constexpr double kThinnestSensor = 1e-6;

// One frame's data as the file stores it: the photons a counting detector records (the CBF's
// counts, drawn from a copy of the frame's generator) or the float image itself, and the
// frame's start angle. Made from the frame alone, so frames in flight make theirs in parallel.
struct NexusFrame {
    double startDeg = 0.0;
    bool counts = false;
    std::vector<std::int32_t> photons; // counts: int32, fast index fastest
    std::vector<float> image;          // !counts: the float image
};
NexusFrame nexusFrame(const ImageSource& source);

class NexusSeries {
  public:
    // Checks what can be checked before the first frame, so that a series stops before it
    // writes anything: the bitshuffle filter, and the file's folder. Throws bv::Error.
    explicit NexusSeries(std::string path);
    // The frame's pixels (photon counts from a copy of its generator, or the floats) and its
    // start angle; the first frame opens the file with its geometry. Throws bv::Error naming
    // the file.
    void append(const ImageSource& source);
    // The same with the frame's data made already (nexusFrame(source)); frames are appended in
    // order, whatever order their data were made in.
    void append(const ImageSource& source, const NexusFrame& frame);
    // Completes the file under its temporary name, then renames it (throws on failure).
    void finish();
    void commit();
    const std::string& path() const { return m_path; }
    int frames() const { return m_writer ? m_writer->frames() : 0; }

  private:
    std::string m_path;
    std::unique_ptr<io::NexusWriter> m_writer;
};

} // namespace bv::products
