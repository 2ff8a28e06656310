#include "compute/refine/ObservedSpots.h"

#include "compute/core/Error.h"
#include "compute/refine/SpotCentroids.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <map>
#include <sstream>

namespace bv::refine {

ObservedSpots observedSpots(const std::string& file, const io::DialsReflections& table,
                            std::optional<long long> image) {
    ObservedSpots o;
    o.file = file;
    o.rows = table.spots.size();
    o.image = image;
    for (const io::DialsSpot& s : table.spots)
        if (!image || std::floor(s.xyz.z) == static_cast<double>(*image - 1))
            o.spots.push_back(s);
    return o;
}

std::vector<SimulatedSpot> simulatedSpots(const std::vector<float>& image, int width, int height,
                                          const std::vector<std::uint8_t>& hasData,
                                          const std::vector<PanelGeometry>& panels) {
    const SpotRegions regions = spotRegions(image, width, height, hasData);
    // the panel of each row of the stack
    std::vector<std::size_t> panelOfRow(static_cast<std::size_t>(height), panels.size());
    std::vector<int> firstRow(panels.size(), 0);
    int row = 0;
    for (std::size_t p = 0; p < panels.size(); ++p) {
        firstRow[p] = row;
        for (int r = 0; r < panels[p].slowPixels && row < height; ++r)
            panelOfRow[static_cast<std::size_t>(row++)] = p;
    }
    // a spot is a connected group of core pixels; one that runs over a panel's last row
    // into the next panel's first is one spot on each
    struct Sums {
        double s = 0, sx = 0, sy = 0;
    };
    std::map<std::pair<int, std::size_t>, Sums> sums;
    for (std::size_t i = 0; i < regions.label.size(); ++i) {
        const int id = regions.label[i];
        if (id < 0)
            continue;
        const int y = static_cast<int>(i / static_cast<std::size_t>(width));
        const std::size_t panel = panelOfRow[static_cast<std::size_t>(y)];
        if (panel >= panels.size())
            continue;
        const double x = static_cast<double>(i % static_cast<std::size_t>(width)) + 0.5;
        const double yIn = static_cast<double>(y - firstRow[panel]) + 0.5;
        Sums& t = sums[{id, panel}];
        t.s += image[i];
        t.sx += image[i] * x;
        t.sy += image[i] * yIn;
    }
    std::vector<SimulatedSpot> spots;
    for (const auto& [key, t] : sums)
        if (t.s > 0)
            spots.push_back({key.second, {t.sx / t.s, t.sy / t.s}});
    return spots;
}

SpotMatch matchSpots(const ObservedSpots& observed, const std::vector<SimulatedSpot>& simulated,
                     std::size_t panelCount, double radius) {
    SpotMatch m;
    m.radius = radius;
    m.simulated = simulated.size();
    std::vector<std::vector<glm::dvec2>> onPanel(panelCount);
    for (const SimulatedSpot& s : simulated)
        if (s.panel < panelCount)
            onPanel[s.panel].push_back(s.xy);
    std::map<std::pair<int, std::size_t>, std::pair<SpotGroupMatch, double>> groups; // sum of d^2
    double all = 0;
    for (const io::DialsSpot& o : observed.spots) {
        if (o.panel >= panelCount)
            throw Error("-spots " + observed.file + ": a spot on panel " + std::to_string(o.panel) +
                        ", but the detector has " + std::to_string(panelCount) +
                        (panelCount == 1 ? " panel" : " panels") +
                        " (a table of another experiment?)");
        auto& [g, sum] = groups[{o.experimentId, o.panel}];
        g.experimentId = o.experimentId;
        g.panel = o.panel;
        ++g.observed;
        ++m.all.observed;
        double best = radius * radius;
        std::optional<glm::dvec2>& nearest = m.nearest.emplace_back();
        for (const glm::dvec2& s : onPanel[o.panel]) {
            const double dx = s.x - o.xyz.x, dy = s.y - o.xyz.y;
            const double d2 = dx * dx + dy * dy;
            if (d2 <= best) {
                best = d2;
                nearest = s;
            }
        }
        if (!nearest)
            continue;
        ++g.matched;
        ++m.all.matched;
        sum += best;
        all += best;
    }
    for (auto& [key, entry] : groups) {
        auto& [g, sum] = entry;
        g.rmsd = g.matched ? std::sqrt(sum / static_cast<double>(g.matched)) : 0.0;
        m.groups.push_back(g);
    }
    m.all.rmsd = m.all.matched ? std::sqrt(all / static_cast<double>(m.all.matched)) : 0.0;
    return m;
}

namespace {

std::string rmsdText(const SpotGroupMatch& g) {
    std::ostringstream s;
    s << std::setprecision(4);
    if (g.matched)
        s << g.rmsd;
    else
        s << "n/a";
    return s.str();
}

void printGroup(std::ostream& out, const std::string& label, const SpotGroupMatch& before,
                const SpotGroupMatch* after, double radius) {
    out << "  " << std::left << std::setw(16) << label << std::right << before.matched << " of "
        << before.observed << " matched within " << radius << " pixels";
    if (after && after->matched != before.matched)
        out << " (" << after->matched << " after)";
    out << ", RMSD " << rmsdText(before);
    if (after)
        out << " -> " << rmsdText(*after);
    out << " pixels\n";
}

nlohmann::ordered_json groupJson(const SpotGroupMatch& g) {
    nlohmann::ordered_json j;
    j["observed"] = g.observed;
    j["matched"] = g.matched;
    j["rmsd_pixels"] = g.matched ? nlohmann::ordered_json(g.rmsd) : nlohmann::ordered_json();
    return j;
}

} // namespace

void printSpotMatch(std::ostream& out, const ObservedSpots& observed, const SpotMatch& before,
                    const SpotMatch* after) {
    out << "observed spots (" << observed.file << ": " << observed.spots.size() << " of "
        << observed.rows << " rows";
    if (observed.image)
        out << ", those of image " << *observed.image;
    out << ") against the " << before.simulated << " simulated spot centroids";
    if (after)
        out << " (" << after->simulated << " after)";
    out << ":\n";
    for (std::size_t i = 0; i < before.groups.size(); ++i) {
        const SpotGroupMatch& g = before.groups[i];
        printGroup(out, "id " + std::to_string(g.experimentId) + " panel " + std::to_string(g.panel),
                   g, after ? &after->groups.at(i) : nullptr, before.radius);
    }
    if (before.groups.size() != 1)
        printGroup(out, "all", before.all, after ? &after->all : nullptr, before.radius);
}

nlohmann::ordered_json spotMatchJson(const ObservedSpots& observed, const SpotMatch& before,
                                     const SpotMatch* after) {
    nlohmann::ordered_json j;
    j["file"] = observed.file;
    j["rows"] = observed.rows;
    j["image"] = observed.image ? nlohmann::ordered_json(*observed.image) : nlohmann::ordered_json();
    j["spots"] = observed.spots.size();
    j["match_radius_pixels"] = before.radius;
    const auto both = [&](nlohmann::ordered_json g, const SpotGroupMatch& b, const SpotGroupMatch* a) {
        g["start"] = groupJson(b);
        if (a)
            g["end"] = groupJson(*a);
        return g;
    };
    nlohmann::ordered_json groups = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < before.groups.size(); ++i) {
        const SpotGroupMatch& g = before.groups[i];
        groups.push_back(both({{"id", g.experimentId}, {"panel", g.panel}}, g,
                              after ? &after->groups.at(i) : nullptr));
    }
    j["groups"] = groups;
    j["all"] = both(nlohmann::ordered_json::object(), before.all, after ? &after->all : nullptr);
    return j;
}

} // namespace bv::refine
