#include "compute/request/Usage.h"

#include "compute/model/DetectorPresets.h"
#include "compute/model/PanelAim.h"
#include "compute/request/Parameters.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace bv::request {

namespace {

// ---- usage -------------------------------------------------------------------------------

// joins two words that wrapped() keeps on one line; printed as a space
constexpr char kNoBreak = '\x01';

// `text` broken into lines of at most `width` characters, each starting with `indent`
std::string wrapped(const std::string& text, const std::string& indent, std::size_t width) {
    std::istringstream words(text);
    std::string word, line, out;
    while (words >> word) {
        if (!line.empty() && indent.size() + line.size() + 1 + word.size() > width) {
            out += indent + line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty())
        out += indent + line + "\n";
    std::replace(out.begin(), out.end(), kNoBreak, ' ');
    return out;
}

} // namespace

std::string detectorListText() {
    std::ostringstream out;
    out << "detector presets (-detector <name>, placed facing the beam; -distance moves them):\n";
    char line[200];
    std::snprintf(line, sizeof line, "  %-12s %-24s %8s %12s %7s %18s\n", "name", "detector",
                  "modules", "pixels", "pixel", "size (mm)");
    out << line;
    for (const DetectorPreset& p : detectorPresets()) {
        const std::string modules =
            std::to_string(p.modulesFast) + "x" + std::to_string(p.modulesSlow);
        const std::string pixels =
            std::to_string(p.fastPixels()) + "x" + std::to_string(p.slowPixels());
        std::snprintf(line, sizeof line, "  %-12s %-24s %8s %12s %4.0f um %8.2f x %6.2f%s\n",
                      p.name.c_str(), p.description.c_str(), modules.c_str(), pixels.c_str(),
                      p.pixelSize * 1e6, p.widthFast() * 1e3, p.widthSlow() * 1e3,
                      p.gapPublished ? "" : "  (gaps not published: a placeholder)");
        out << line;
    }
    out << "pixels count the gaps between modules, fast x slow, as the detector's images do\n";
    // where the beam falls unless a beam centre is given: the image's centre, which on some
    // presets is a gap between modules
    out << "the beam meets a preset's image at its centre; -Xbeam/-Ybeam (or the convention's "
           "beam centre options) move the detector in its plane:\n";
    const LabAxes axes = conventionAxes(Convention::Mosflm);
    for (const DetectorPreset& p : detectorPresets()) {
        const std::vector<PanelGeometry> placed =
            resolvePanels(presetDetector(p, 0.1, axes).panels, Detector{}, false, axes);
        const std::optional<BeamHit> hit = beamHit(placed, axes.beam);
        if (!hit)
            continue;
        std::snprintf(line, sizeof line, "  %-12s pixel (%.1f, %.1f), %s\n", p.name.c_str(),
                      hit->fastPixel, hit->slowPixel,
                      hit->panel.empty() ? "in a gap between modules"
                                         : ("on module " + hit->panel).c_str());
        out << line;
    }
    return out.str();
}

std::string usageText() {
    std::string out =
        "usage: braggview -mat auto.mat -hkl Fs.hkl [options]\n"
        "       braggview -cell a b c alpha beta gamma -default_F F [options]\n"
        "\n"
        "Options take effect from left to right: a later option overrides an earlier one.\n"
        "The headers of -mask and then -img are read before all other options, which\n"
        "override them. Options marked [no effect] are accepted for compatibility with\n"
        "nanoBragg and change nothing. Units: mm, degrees, Angstrom unless stated.\n";
    const FlagGroup groups[] = {FlagGroup::Crystal,  FlagGroup::Beam,  FlagGroup::Detector,
                                FlagGroup::Sampling, FlagGroup::Files, FlagGroup::Output,
                                FlagGroup::Braggview};
    for (const FlagGroup group : groups) {
        out += std::string("\n") + flagGroupTitle(group) + ":\n";
        for (const Flag& f : flagTable()) {
            if (f.group != group)
                continue;
            std::string head = "  " + f.names[0];
            if (!f.syntax.empty())
                head += " " + f.syntax;
            if (f.names.size() > 1) {
                head += "   (also";
                for (std::size_t i = 1; i < f.names.size(); ++i)
                    head += (i > 1 ? ", " : " ") + f.names[i];
                head += ")";
            }
            out += head + "\n";
            std::string help = f.noEffect ? "[no effect] " + f.help : f.help;
            if (!f.defaultText.empty())
                help += "; default:" + std::string(1, kNoBreak) + f.defaultText;
            out += wrapped(help, "      ", 80);
        }
    }
    return out;
}

} // namespace bv::request
