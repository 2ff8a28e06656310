#include "compute/cli/CommandLine.h"

#include "compute/request/Suggestions.h"
#include "compute/core/Error.h"
#include "compute/io/NumberText.h"
#include "compute/io/PrintfFormat.h"
#include "compute/io/Smv.h"
#include "compute/model/PhysicalLimits.h"
#include "compute/model/Units.h"
#include "compute/request/FlagValues.h"
#include "compute/request/ParseContext.h"
#include "compute/request/Parameters.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <map>
#include <ostream>
#include <sstream>

namespace bv::cli {

using request::Arity;
using request::Flag;
using request::FlagValues;
using request::ParseContext;
using request::findFlag;

namespace {

struct Occurrence {
    const Flag* flag;
    FlagValues values;
    std::size_t position; // index of the option in the argument list
};

// a token as a message shows it: as typed when it is plain text, else quoted and escaped
std::string shown(const std::string& token) {
    const bool plain = !token.empty() && token.size() <= 60 &&
                       std::all_of(token.begin(), token.end(), [](char ch) {
                           return ch > ' ' && ch < 0x7f && ch != '\'' && ch != '\\';
                       });
    return plain ? token : io::quoteToken(token, 60);
}

[[noreturn]] void missingValue(const std::string& name, const Flag& flag, const std::string* next) {
    std::string message = name + ": missing value (" + name + " " + flag.syntax + ")";
    if (next)
        message += " before " + shown(*next);
    throw Error(message);
}

bool isHelp(const std::string& token) {
    const Flag* help = findFlag("-h");
    return findFlag(token) == help;
}

// A token that starts a new option rather than being a value: a known name, or anything
// that starts with '-' and is not a number (for the options whose value count varies).
bool startsOption(const std::string& token, bool anyDash) {
    if (findFlag(token))
        return true;
    return anyDash && token.size() > 1 && token[0] == '-' && !io::parseDouble(token);
}

// Splits the arguments into options and their values, checking names and counts only.
std::vector<Occurrence> splitOptions(const std::vector<std::string>& args) {
    std::vector<Occurrence> out;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& name = args[i];
        const std::size_t position = i;
        const Flag* flag = findFlag(name);
        if (!flag) {
            if (name.size() > 1 && name[0] == '-' && !io::parseDouble(name)) {
                std::string message = "unknown option " + shown(name);
                const std::vector<std::string> near = request::suggestFlagNames(name);
                for (std::size_t k = 0; k < near.size(); ++k)
                    message += (k == 0 ? " (did you mean " : k + 1 < near.size() ? ", " : " or ") + near[k];
                if (!near.empty())
                    message += "?)";
                throw Error(message + "; braggview -h lists the options");
            }
            std::string message = "unexpected argument " + shown(name);
            if (i > 0)
                message += " after " + shown(args[i - 1]);
            throw Error(message + ": every value follows the option it belongs to");
        }
        auto next = [&]() -> const std::string* { return i + 1 < args.size() ? &args[i + 1] : nullptr; };
        std::vector<std::string> values;
        switch (flag->arity) {
        case Arity::Fixed:
            for (int k = 0; k < flag->values; ++k) {
                const std::string* token = next();
                if (!token || startsOption(*token, false))
                    missingValue(name, *flag, token);
                values.push_back(*token);
                ++i;
            }
            break;
        case Arity::UpToSix:
            while (static_cast<int>(values.size()) < flag->values && next() &&
                   !startsOption(*next(), true)) {
                values.push_back(*next());
                ++i;
            }
            if (values.empty())
                missingValue(name, *flag, next());
            break;
        case Arity::RandomOrThree:
            if (next() && *next() == "random") {
                values.push_back(*next());
                ++i;
                break;
            }
            for (int k = 0; k < flag->values; ++k) {
                const std::string* token = next();
                if (!token || startsOption(*token, false))
                    missingValue(name, *flag, token);
                values.push_back(*token);
                ++i;
            }
            break;
        }
        out.push_back({flag, FlagValues(name, *flag, std::move(values)), position});
    }
    return out;
}

// ---- -img / -mask headers ----------------------------------------------------------------

class HeaderReader {
public:
    HeaderReader(const FlagValues& option, const io::SmvImage& image)
        : m_option(option), m_image(image) {}

    // the value of the first of `keys` that the header has, within the limits of `quantity`
    // (in the unit the header gives it) and `bound`
    std::optional<double> number(std::initializer_list<const char*> keys, Quantity quantity,
                                 Bound bound) const {
        for (const char* key : keys) {
            const auto text = m_image.field(key);
            if (!text)
                continue;
            const auto value = io::parseDouble(*text);
            if (!value || !withinLimits(quantity, bound, *value))
                throw Error(m_option.name() + " " + m_option.text(0) + ": header " + key + "=" +
                            io::quoteToken(*text) + " is not " + expectedValue(quantity, bound));
            return value;
        }
        return std::nullopt;
    }

private:
    const FlagValues& m_option;
    const io::SmvImage& m_image;
};

// What an SMV header says about the detector and exposure, as the reference takes it
// (nanoBragg.c, before its option loop): header values are defaults the options override;
// they do not choose the pivot. For the mask, BEAM_CENTER_Y counts from the far edge.
void applyHeader(ParseContext& c, const FlagValues& option, bool isMask) {
    io::SmvImage image;
    try {
        image = io::readSmv(option.text(0));
    } catch (const Error& e) {
        throw Error(option.name() + ": " + e.what());
    }
    const HeaderReader header(option, image);
    Detector& d = c.request.experiment.detector;
    c.fastPixels = image.width;
    c.slowPixels = image.height;
    if (const auto pixel = header.number({"PIXEL_SIZE"}, Quantity::PixelSize, Bound::Positive))
        d.pixelSize = *pixel / 1000.0;
    d.sizeFast = d.pixelSize * image.width;
    d.sizeSlow = d.pixelSize * image.height;
    if (const auto distance =
            header.number({"DISTANCE"}, Quantity::DetectorLength, Bound::Positive))
        d.distance = *distance / 1000.0;
    if (const auto close =
            header.number({"CLOSE_DISTANCE"}, Quantity::DetectorLength, Bound::Positive))
        d.closeDistance = *close / 1000.0;
    if (const auto lambda = header.number({"WAVELENGTH"}, Quantity::Wavelength, Bound::Positive))
        c.request.experiment.beam.wavelength = *lambda / 1e10;
    if (const auto x = header.number({"BEAM_CENTER_X"}, Quantity::DetectorLength, Bound::Any))
        d.beamX = *x / 1000.0;
    if (const auto y = header.number({"BEAM_CENTER_Y"}, Quantity::DetectorLength, Bound::Any))
        d.beamY = isMask ? d.sizeSlow - *y / 1000.0 : *y / 1000.0;
    if (const auto orgX = header.number({"XDS_ORGX", "ORGX"}, Quantity::PixelPosition, Bound::Any))
        d.orgX = *orgX;
    if (const auto orgY = header.number({"XDS_ORGY", "ORGY"}, Quantity::PixelPosition, Bound::Any))
        d.orgY = *orgY;
    Crystal& crystal = c.request.experiment.crystal;
    if (const auto phi = header.number({"PHI"}, Quantity::Angle, Bound::Any))
        crystal.phi0 = units::radiansFromDegrees(*phi);
    if (const auto osc = header.number({"OSC_RANGE"}, Quantity::Angle, Bound::NonNegative))
        crystal.phi.range = units::radiansFromDegrees(*osc);
    if (isMask) {
        c.request.experiment.mask = std::move(image.data);
        c.maskWidth = image.width;
        c.maskHeight = image.height;
    }
}

// -roi as given, against the final detector. Bounds are inclusive pixel indices and a
// negative one means the detector's edge, which the reference (and braggview, so that its
// summary line and the viewer's saved command lines say the same) stores as the pixel count:
// so xmax may be the count, xmin at most the last pixel. A region further off the detector,
// even in part, is refused: nanoBragg quietly clips it, but a pixel the detector does not
// have is a typo or a wrong detector size.
void checkRoi(const std::array<int, 4>& r, int fast, int slow) {
    std::string given = "-roi";
    for (const int bound : r)
        given += " " + std::to_string(bound);
    struct Axis {
        const char *axis, *minName, *maxName;
        int min, max, pixels;
    };
    for (const Axis& a : {Axis{"fast", "xmin", "xmax", r[0], r[1], fast},
                          Axis{"slow", "ymin", "ymax", r[2], r[3], slow}}) {
        if (a.min >= 0 && a.max >= 0 && a.min > a.max)
            throw Error(given + ": " + a.minName + " " + std::to_string(a.min) +
                        " is greater than " + a.maxName + " " + std::to_string(a.max) +
                        ", so the region holds no pixel (bounds are inclusive pixel indices)");
        const bool minOff = a.min >= a.pixels, maxOff = a.max > a.pixels;
        if (minOff || maxOff)
            throw Error(given + ": " + (minOff ? a.minName : a.maxName) + " " +
                        std::to_string(minOff ? a.min : a.max) +
                        " is off the detector, whose last " + a.axis + " pixel is " +
                        std::to_string(a.pixels - 1) + " (" + std::to_string(fast) + "x" +
                        std::to_string(slow) +
                        " pixels; bounds are inclusive pixel indices, a negative bound means "
                        "the detector's edge)");
    }
}

// After the last option: the reference's "fill in blanks" (pixel counts that were given
// decide the detector size, with the final pixel size), the -roi defaults, and checks that
// need the final detector.
void finish(ParseContext& c) {
    Detector& d = c.request.experiment.detector;
    if (c.fastPixels > 0)
        d.sizeFast = d.pixelSize * c.fastPixels;
    if (c.slowPixels > 0)
        d.sizeSlow = d.pixelSize * c.slowPixels;

    auto describe = [&](double size, int given) {
        std::ostringstream s;
        s << size * 1000.0 << " mm with " << d.pixelSize * 1000.0 << " mm pixels";
        if (given > 0)
            s << " (" << given << " pixels given)";
        return s.str();
    };
    for (const auto& [size, given, axis] : {std::tuple{d.sizeFast, c.fastPixels, "fast"},
                                            std::tuple{d.sizeSlow, c.slowPixels, "slow"}}) {
        const double pixels = size / d.pixelSize;
        if (!(pixels < kMaxPixelsPerSide + 0.5))
            throw Error(std::string("-detsize/-detpixels/-pixel: the detector's ") + axis +
                        " edge is " + describe(size, given) + ": more than " +
                        std::to_string(kMaxPixelsPerSide) + " pixels");
        if (!(pixels >= 0.5))
            throw Error(std::string("-detsize/-detpixels/-pixel: the detector's ") + axis +
                        " edge is " + describe(size, given) + ": not even one pixel");
    }

    const int fast = d.fastPixels(), slow = d.slowPixels();
    if (c.roi) {
        const auto& r = *c.roi;
        checkRoi(r, fast, slow);
        c.request.experiment.sampling.roi =
            Roi{r[0] < 0 ? 0 : r[0], r[1] < 0 ? fast : r[1], r[2] < 0 ? 0 : r[2], r[3] < 0 ? slow : r[3]};
    }
    auto& mask = c.request.experiment.mask;
    if (!mask.empty() && (c.maskWidth != fast || c.maskHeight != slow)) {
        const std::string sizes = "the mask is " + std::to_string(c.maskWidth) + "x" +
                                  std::to_string(c.maskHeight) + " pixels and the detector " +
                                  std::to_string(fast) + "x" + std::to_string(slow);
        // nanoBragg indexes the mask's pixels, in the file's order, with the detector's own
        // index (row * detector width + column): well defined while the detector has no more
        // pixels than the mask, a read past the mask's end beyond that
        const std::size_t pixels = std::size_t(fast) * std::size_t(slow);
        if (pixels > mask.size())
            throw Error("-mask " + c.request.mask + ": " + sizes +
                        " (-detpixels, -detsize or -pixel changed it): the detector has more "
                        "pixels than the mask");
        mask.resize(pixels);
        c.request.notices.push_back(
            "-mask " + c.request.mask + ": " + sizes +
            "; as in nanoBragg, the detector's pixels, row by row, take the mask's values in "
            "the file's order");
        c.maskWidth = fast;
        c.maskHeight = slow;
    }
}

// nanoBragg finds options by substring, and two of its accidental matches change the image:
// "-misset_seed S a b" is also "-misset S a b" (when three arguments follow it), and
// "-twotheta_axis x y z" is also "-twotheta x". Scripts written for nanoBragg, and the
// reference images, depend on them, so they are imitated here, each with a notice
// (docs/reference-quirks.md). Values are read as C's atof would: a leading number, else 0.
void imitateSubstringMatches(ParseContext& c, const std::vector<std::string>& args, const Occurrence& o) {
    const std::size_t i = o.position;
    auto atofLike = [](const std::string& token) { return io::parseLeadingDouble(token); };
    if (o.flag == findFlag("-misset_seed") && i + 3 < args.size()) {
        Crystal& crystal = c.request.experiment.crystal;
        // the imitated angles meet the limits of every angle (a seed can exceed them)
        for (std::size_t k = 1; k <= 3; ++k)
            if (!withinLimits(Quantity::Angle, Bound::Any, atofLike(args[i + k])))
                throw Error("as in nanoBragg, \"" + args[i] + " " + args[i + 1] +
                            "\" followed by \"" + args[i + 2] + " " + args[i + 3] +
                            "\" would also set the misset, but " + io::quoteToken(args[i + k]) +
                            " is not " + expectedValue(Quantity::Angle, Bound::Any) +
                            "; give -misset_seed before -misset (or last)");
        crystal.misset = MissetKind::Angles;
        crystal.missetAngles = {units::radiansFromDegrees(atofLike(args[i + 1])),
                                units::radiansFromDegrees(atofLike(args[i + 2])),
                                units::radiansFromDegrees(atofLike(args[i + 3]))};
        c.request.notices.push_back("as in nanoBragg, \"" + args[i] + " " + args[i + 1] + "\" followed by \"" +
                               args[i + 2] + " " + args[i + 3] + "\" also sets the misset to " +
                               io::formatG(atofLike(args[i + 1])) + " " + io::formatG(atofLike(args[i + 2])) +
                               " " + io::formatG(atofLike(args[i + 3])) +
                               " degrees; give -misset_seed before -misset (or last) to avoid this");
    }
    if (o.flag == findFlag("-twotheta_axis") && i + 1 < args.size()) {
        Detector& detector = c.request.experiment.detector;
        detector.twotheta = units::radiansFromDegrees(atofLike(args[i + 1]));
        detector.pivot = Pivot::Sample;
        c.request.notices.push_back("as in nanoBragg, -twotheta_axis also sets -twotheta to its first "
                               "component (" + io::formatG(atofLike(args[i + 1])) +
                               " degrees) and the pivot to the sample; give -twotheta after it");
    }
}

} // namespace

RunRequest parseCommandLine(const std::vector<std::string>& args) {
    RunRequest cl;
    cl.experiment.seed = -static_cast<long>(std::time(nullptr));
    cl.experiment.customAxes = conventionAxes(Convention::Custom);
    return parseCommandLine(args, std::move(cl));
}

// A detector of several panels: SMV, miniCBF and the one-module NeXus file describe one flat
// detector in their headers, so they cannot hold the stacked panels truthfully (the
// real-detectors issue, docs/numerics/detector-panels.md, "Files"). The reference's default
// int and noise images are then left out with a notice; naming one of those files is an error.
void limitOutputsToPanels(RunRequest& cl, const std::vector<std::string>& args) {
    if (!cl.experiment.detector.panelsFromSource())
        return;
    for (const char* flag : {"-intfile", "-noisefile", "-cbffile"})
        if (std::find(args.begin(), args.end(), flag) != args.end())
            throw Error(std::string(flag) + ": a detector of several panels (-detector " +
                        cl.experiment.detector.panelsSource +
                        ") is written as -nexusfile (NeXus/NXmx, one module per panel), "
                        "-floatfile (the panels' rows stacked in order) and -pgmfile; SMV and "
                        "CBF files of one flat detector cannot hold it");
    // a fit writes no images: nothing is left out
    if (cl.refine.empty() && (cl.outputs.writeNoise || !cl.outputs.intFile.empty()))
        cl.notices.push_back("a detector of several panels: the int and noise images (SMV, one "
                             "flat detector) are not written; the float image stacks the panels");
    // countPhotons stays: a NeXus file of the panels holds the photon counts unless -nonoise
    cl.outputs.writeNoise = false;
    cl.outputs.intFile.clear();
}

RunRequest parseCommandLine(const std::vector<std::string>& args, RunRequest start) {
    RunRequest cl = std::move(start);
    for (const std::string& arg : args) {
        if (isHelp(arg)) {
            cl.help = true;
            return cl;
        }
    }

    const std::vector<Occurrence> options = splitOptions(args);
    ParseContext context(cl);
    if (!cl.experiment.mask.empty()) { // the start's mask, checked against the final detector
        context.maskWidth = cl.experiment.detector.fastPixels();
        context.maskHeight = cl.experiment.detector.slowPixels();
    }

    // headers first, the mask's then the image's; the last -mask / -img names the file
    const FlagValues* mask = nullptr;
    const FlagValues* img = nullptr;
    for (const Occurrence& o : options) {
        if (o.flag == findFlag("-mask"))
            mask = &o.values;
        if (o.flag == findFlag("-img"))
            img = &o.values;
    }
    if (mask) {
        cl.mask = mask->text(0);
        applyHeader(context, *mask, true);
    }
    if (img) {
        cl.img = img->text(0);
        applyHeader(context, *img, false);
    }

    for (const Occurrence& o : options) {
        o.flag->apply(context, o.values);
        imitateSubstringMatches(context, args, o);
        cl.given.insert(o.flag->names[0]);
    }
    finish(context);
    if (context.distanceGiven && cl.experiment.detector.closeDistance)
        cl.notices.push_back("a close distance (from -close_distance or an -img/-mask header) sets "
                             "the detector distance, as in nanoBragg: -distance is ignored");
    limitOutputsToPanels(cl, args);
    if (cl.outputs.noiseGenerator == NoiseGenerator::Counter && !cl.outputs.drawsNoise())
        throw Error("-noise_generator counter: no file of this run holds noise (-nonoise, no "
                    "-cbffile, no -nexusfile of photon counts); name one, or leave the option out");
    return cl;
}

} // namespace bv::cli
