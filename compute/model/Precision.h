#pragma once
// How the GPU does its arithmetic (docs/numerics/precision-modes.md): fast is float with
// reduced arguments (the viewer's default), precise carries positions, directions, the
// scattering vector and Miller indices in double (the headless default).

#include <optional>
#include <string>

namespace bv {

enum class Precision { Precise, Fast };

inline const char* precisionName(Precision precision) {
    return precision == Precision::Precise ? "precise" : "fast";
}

// "precise" or "fast"; the command line also takes the reference's "double" and "single"
inline std::optional<Precision> precisionFromName(const std::string& name) {
    if (name == "precise" || name == "double")
        return Precision::Precise;
    if (name == "fast" || name == "single")
        return Precision::Fast;
    return std::nullopt;
}

} // namespace bv
