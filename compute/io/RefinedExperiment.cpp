#include "compute/io/RefinedExperiment.h"

#include "compute/core/Error.h"
#include "compute/io/AtomicFile.h"
#include "compute/io/InputFile.h"

#include <glm/geometric.hpp>
#include <glm/mat3x3.hpp>
#include <glm/matrix.hpp>
#include <nlohmann/json.hpp>

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
        // the detector, moved as one body (mm in dxtbx's frame)
        const glm::dvec3 shift = toDials(refined.detectorShift) * 1e3;
        Json& detector = root.at("detector").at(modelIndex(root, id, "detector"));
        if (detector.contains("hierarchy") && detector["hierarchy"].contains("origin")) {
            Json& origin = detector["hierarchy"]["origin"];
            origin = vector(glm::dvec3(origin[0].get<double>(), origin[1].get<double>(),
                                       origin[2].get<double>()) + shift);
        } else {
            for (Json& panel : detector.at("panels")) {
                Json& origin = panel.at("origin");
                origin = vector(glm::dvec3(origin[0].get<double>(), origin[1].get<double>(),
                                           origin[2].get<double>()) + shift);
            }
        }
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
