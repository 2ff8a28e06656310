#include "compute/io/RefinedExperiment.h"

#include "compute/core/Error.h"
#include "compute/io/AtomicFile.h"
#include "compute/io/InputFile.h"

#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace bv::io {

namespace {

using Json = nlohmann::ordered_json;

// the simulator's frame -> dxtbx's (DialsExperiment.cpp turns (x, y, z) into (-z, y, x))
glm::dvec3 toDials(const glm::dvec3& v) {
    return {v.z, v.y, -v.x};
}

Json vector(const glm::dvec3& v) {
    return Json::array({v.x, v.y, v.z});
}

glm::dmat3 matrix(const Json& rowMajor) {
    glm::dmat3 m(1.0);
    if (!rowMajor.is_array() || rowMajor.size() != 9)
        return m;
    for (int row = 0; row < 3; ++row)
        for (int column = 0; column < 3; ++column)
            m[column][row] = rowMajor[static_cast<std::size_t>(row * 3 + column)].get<double>();
    return m;
}

std::size_t modelIndex(const Json& root, std::size_t id, const char* model) {
    if (root.contains("experiment") && root["experiment"].size() > id &&
        root["experiment"][id].contains(model) && root["experiment"][id][model].is_number_integer())
        return root["experiment"][id][model].get<std::size_t>();
    return 0;
}

glm::dvec3 vector3(const Json& v) {
    return glm::dvec3(v.at(0).get<double>(), v.at(1).get<double>(), v.at(2).get<double>());
}

// each panel's group axes in dxtbx's lab frame (columns fast, slow, normal), as the hierarchy
// composes them from the root: a panel's origin is a point of its group's frame
void groupAxes(const Json& node, const glm::dmat3& parent, int depth, std::vector<glm::dmat3>& axes) {
    if (depth > 64)
        throw Error("the detector's hierarchy is nested too deep");
    const glm::dvec3 fast = glm::normalize(parent * (node.contains("fast_axis")
                                                         ? vector3(node["fast_axis"]) : glm::dvec3(1, 0, 0)));
    const glm::dvec3 slow = glm::normalize(parent * (node.contains("slow_axis")
                                                         ? vector3(node["slow_axis"]) : glm::dvec3(0, 1, 0)));
    const glm::dmat3 frame(fast, slow, glm::cross(fast, slow));
    if (!node.contains("children"))
        return;
    for (const Json& child : node["children"]) {
        if (child.contains("panel")) {
            const std::size_t k = child["panel"].get<std::size_t>();
            if (k < axes.size())
                axes[k] = frame;
        } else {
            groupAxes(child, frame, depth + 1, axes);
        }
    }
}

// each panel moved by its own shift (mm, dxtbx's frame) beyond the whole detector's
void shiftPanels(Json& detector, const std::vector<glm::dvec3>& shifts) {
    Json& panels = detector.at("panels");
    std::vector<glm::dmat3> axes(panels.size(), glm::dmat3(1.0)); // outside a hierarchy: the lab's
    if (detector.contains("hierarchy"))
        groupAxes(detector["hierarchy"], glm::dmat3(1.0), 0, axes);
    for (std::size_t k = 0; k < panels.size() && k < shifts.size(); ++k) {
        Json& origin = panels[k].at("origin");
        // the shift in the group's frame: its components along the group's axes
        origin = vector(vector3(origin) + glm::transpose(axes[k]) * shifts[k]);
    }
}

} // namespace

void writeRefinedExperiment(const std::string& input, std::size_t id, const std::string& output,
                            const RefinedModels& refined) {
    Json root;
    try {
        root = Json::parse(readWholeFile(input, "DIALS experiment list"));
    } catch (const Json::exception& e) {
        throw Error(input + ": not a DIALS experiment list (" + e.what() + ")");
    }
    try {
        // the detector, turned and moved as one body (mm in dxtbx's frame); a hierarchy's
        // panels and groups are placed in its root's frame and follow it
        const glm::dvec3 shift = toDials(refined.detectorShift) * 1e3;
        Json& detector = root.at("detector").at(modelIndex(root, id, "detector"));
        const bool turned = refined.detectorRotation != glm::dmat3(1.0);
        const glm::dmat3 toDialsFrame(toDials({1, 0, 0}), toDials({0, 1, 0}), toDials({0, 0, 1}));
        const glm::dmat3 rotation =
            toDialsFrame * refined.detectorRotation * glm::transpose(toDialsFrame);
        const glm::dvec3 pivot = toDials(refined.pivot) * 1e3;
        const auto move = [&](Json& body) {
            glm::dvec3 origin = vector3(body.at("origin"));
            if (turned) {
                origin = pivot + rotation * (origin - pivot);
                body["fast_axis"] = vector(rotation * vector3(body.at("fast_axis")));
                body["slow_axis"] = vector(rotation * vector3(body.at("slow_axis")));
            }
            body["origin"] = vector(origin + shift);
        };
        if (detector.contains("hierarchy") && detector["hierarchy"].contains("origin")) {
            Json& hierarchy = detector["hierarchy"];
            if (turned && !hierarchy.contains("fast_axis"))
                hierarchy["fast_axis"] = vector(glm::dvec3(1, 0, 0));
            if (turned && !hierarchy.contains("slow_axis"))
                hierarchy["slow_axis"] = vector(glm::dvec3(0, 1, 0));
            move(hierarchy);
        } else {
            for (Json& panel : detector.at("panels"))
                move(panel);
        }
        std::vector<glm::dvec3> panelShifts;
        for (const glm::dvec3& own : refined.panelShifts)
            panelShifts.push_back(toDials(own) * 1e3);
        if (std::any_of(panelShifts.begin(), panelShifts.end(),
                        [](const glm::dvec3& v) { return v != glm::dvec3(0.0); }))
            shiftPanels(detector, panelShifts);
        // the crystal, the goniometer's rotations taken back out
        glm::dmat3 settingTimesFixed(1.0);
        if (root.contains("goniometer") && root["goniometer"].size() > 0 &&
            root["experiment"].at(id).contains("goniometer")) {
            const Json& g = root["goniometer"].at(modelIndex(root, id, "goniometer"));
            settingTimesFixed = matrix(g.value("setting_rotation", Json())) *
                                matrix(g.value("fixed_rotation", Json()));
        }
        const glm::dmat3 back = glm::inverse(settingTimesFixed);
        if (!root.contains("crystal") || root["crystal"].empty()) {
            root["crystal"] = Json::array({Json{{"__id__", "crystal"}, {"space_group_hall_symbol", " P 1"}}});
            root["experiment"].at(id)["crystal"] = 0;
        }
        Json& crystal = root["crystal"].at(modelIndex(root, id, "crystal"));
        crystal["real_space_a"] = vector(back * toDials(refined.a));
        crystal["real_space_b"] = vector(back * toDials(refined.b));
        crystal["real_space_c"] = vector(back * toDials(refined.c));
        crystal.erase("B_covariance"); // the old cell's: no longer true
        if (refined.mosaicSpread) {
            crystal["ML_half_mosaicity_deg"] = *refined.mosaicSpread * 90.0 / 3.14159265358979323846;
            if (refined.cells) {
                const glm::dvec3& n = *refined.cells;
                crystal["ML_domain_size_ang"] =
                    std::cbrt(n.x * glm::length(refined.a) * n.y * glm::length(refined.b) * n.z *
                              glm::length(refined.c));
            }
        }
    } catch (const Json::exception& e) {
        throw Error(input + ": cannot write the refined experiment from it (" + e.what() + ")");
    }
    AtomicFile file(output);
    const std::string text = root.dump(2) + "\n";
    file.write(text.data(), text.size());
    file.commit();
}

} // namespace bv::io
