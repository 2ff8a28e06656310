#pragma once
// The members of one JSON object read by name, for files of a fixed layout (viewer sessions).
// A member that is missing, or not what is expected, throws bv::Error naming the file, the
// line and column, the member's path from the top and what was expected:
//
//     const bv::io::JsonDocument doc = bv::io::readJsonFile("view.json");
//     const bv::io::JsonFields session(doc, doc.root());
//     const bv::io::JsonFields detector = session.object("experiment").object("detector");
//     double distance = detector.number("distance", bv::io::JsonFields::Positive);
//     // view.json:14:19: experiment.detector.distance: expected a number greater than 0, got "far"
//
// Members that are not asked for are ignored. A value of an array member is named with its
// index: "experiment.beam.sourceFile[2]". The line and column are the document's (JsonDocument);
// for a value that has none (a document made in memory) the message names the source alone.

#include "compute/io/Json.h"
#include "compute/model/PhysicalLimits.h"

#include <glm/vec3.hpp>

#include <optional>
#include <string>

namespace bv::io {

class JsonFields {
  public:
    enum Range { Any, Positive, NonNegative };

    // `object` is a value of `doc`; both must outlive the JsonFields; `path` is the object's
    // own member path ("" at the top)
    JsonFields(const JsonDocument& doc, const Json& object, std::string path = {});

    bool has(const char* key) const { return jsonMember(*m_object, key) != nullptr; }
    bool absentOrNull(const char* key) const; // an optional value not given
    const Json& value(const char* key) const; // throws "<path>: "<key>" is missing"
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

    // The checks above for a value found otherwise (an element of an array member); `key`
    // names it in messages ("sourceFile[2]").
    double number(const Json& v, const std::string& key, Range range = Any) const;
    long long whole(const Json& v, const std::string& key, long long minimum,
                    long long maximum) const;

    // "<source>:<line>:<column>: <path>.<key>: expected <expected>, got <what v is>"
    [[noreturn]] void fail(const Json& v, const std::string& key,
                           const std::string& expected) const;
    // "<path>.<key>"
    std::string path(const std::string& key) const;
    const JsonDocument& document() const { return *m_doc; }

  private:
    const JsonDocument* m_doc;
    const Json* m_object;
    std::string m_path;
};

} // namespace bv::io
