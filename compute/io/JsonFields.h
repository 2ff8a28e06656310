#pragma once
// The members of one JSON object read by name, for files of a fixed layout (viewer sessions).
// A member that is missing, or not what is expected, throws bv::Error naming the file, the
// line and column, the member's path from the top and what was expected:
//
//     const bv::io::JsonValue root = bv::io::readJsonFile("view.json");
//     const bv::io::JsonFields session(root, "view.json");
//     const bv::io::JsonFields detector = session.object("experiment").object("detector");
//     double distance = detector.number("distance", bv::io::JsonFields::Positive);
//     // view.json:14:19: experiment.detector.distance: expected a number greater than 0, got "far"
//
// Members that are not asked for are ignored.

#include "compute/io/Json.h"
#include "compute/model/PhysicalLimits.h"

#include <glm/vec3.hpp>

#include <optional>
#include <string>

namespace bv::io {

class JsonFields {
  public:
    enum Range { Any, Positive, NonNegative };

    // `object` must outlive the JsonFields; `path` is its own member path ("" at the top)
    JsonFields(const JsonValue& object, std::string source, std::string path = {});

    bool has(const char* key) const { return m_object->member(key) != nullptr; }
    const JsonValue& value(const char* key) const; // throws "<path>: "<key>" is missing"
    JsonFields object(const char* key) const;

    double number(const char* key, Range range = Any) const;
    std::optional<double> optionalNumber(const char* key, Range range = Any) const; // null: none
    // a whole number in [minimum, maximum]
    long long whole(const char* key, long long minimum, long long maximum) const;
    std::optional<long long> optionalWhole(const char* key, long long minimum,
                                           long long maximum) const;
    bool boolean(const char* key) const;
    const std::string& text(const char* key) const;
    glm::dvec3 vector(const char* key) const; // [x, y, z]

    // A number of a physical kind within that kind's limits (compute/model/PhysicalLimits.h),
    // in the model's units (SI; cell edges in Angstrom): the limits the command line applies,
    // so that a file holds nothing the options could not have set.
    double limited(const char* key, Quantity quantity, Bound bound = Bound::Any) const;
    std::optional<double> optionalLimited(const char* key, Quantity quantity,
                                          Bound bound = Bound::Any) const; // null: none
    glm::dvec3 limitedVector(const char* key, Quantity quantity, Bound bound = Bound::Any) const;

    // The checks above for a value found otherwise (an element of an array member).
    double number(const JsonValue& v, const char* key, Range range = Any) const;
    long long whole(const JsonValue& v, const char* key, long long minimum,
                    long long maximum) const;

    // "<source>:<line>:<column>: <path>.<key>: expected <expected>, got <what v is>"
    [[noreturn]] void fail(const JsonValue& v, const char* key, const std::string& expected) const;
    // "<path>.<key>"
    std::string path(const char* key) const;

  private:
    const JsonValue* m_object;
    std::string m_source, m_path;
};

} // namespace bv::io
