#include "compute/io/JsonFields.h"

#include "compute/io/NumberText.h"
#include "compute/core/Error.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace bv::io {

namespace {

std::string shown(const JsonDocument& doc, const Json& v) {
    if (v.is_number())
        return doc.numberText(v);
    if (v.is_string())
        return quoteToken(v.get_ref<const std::string&>());
    if (v.is_boolean())
        return v.get<bool>() ? "true" : "false";
    return jsonTypeName(v);
}

const char* rangeText(JsonFields::Range range) {
    switch (range) {
    case JsonFields::Positive:
        return "a number greater than 0";
    case JsonFields::NonNegative:
        return "a number, 0 or more";
    case JsonFields::Any:
        break;
    }
    return "a number";
}

} // namespace

JsonFields::JsonFields(const JsonDocument& doc, const Json& object, std::string path)
    : m_doc(&doc), m_object(&object), m_path(std::move(path)) {
    if (!object.is_object())
        throw Error(doc.where(object) + ": " + (m_path.empty() ? "" : m_path + ": ") +
                    "expected an object, got " + shown(doc, object));
}

std::string JsonFields::path(const std::string& key) const {
    return m_path.empty() ? key : m_path + "." + key;
}

void JsonFields::fail(const Json& v, const std::string& key, const std::string& expected) const {
    throw Error(m_doc->where(v) + ": " + path(key) + ": expected " + expected + ", got " +
                shown(*m_doc, v));
}

const Json& JsonFields::value(const char* key) const {
    const Json* v = jsonMember(*m_object, key);
    if (!v)
        throw Error(m_doc->where(*m_object) + ": " + (m_path.empty() ? "" : m_path + ": ") +
                    "\"" + key + "\" is missing");
    return *v;
}

JsonFields JsonFields::object(const char* key) const {
    const Json& v = value(key);
    if (!v.is_object())
        fail(v, key, "an object");
    return JsonFields(*m_doc, v, path(key));
}

double JsonFields::number(const Json& v, const std::string& key, Range range) const {
    if (!v.is_number())
        fail(v, key, rangeText(range));
    const double x = v.get<double>();
    if ((range == Positive && !(x > 0.0)) || (range == NonNegative && !(x >= 0.0)))
        fail(v, key, rangeText(range));
    return x;
}

double JsonFields::number(const char* key, Range range) const {
    return number(value(key), key, range);
}

std::optional<double> JsonFields::optionalNumber(const char* key, Range range) const {
    const Json& v = value(key);
    if (v.is_null())
        return std::nullopt;
    if (!v.is_number())
        fail(v, key, std::string(rangeText(range)) + " or null");
    return number(v, key, range);
}

long long JsonFields::whole(const Json& v, const std::string& key, long long minimum,
                            long long maximum) const {
    const std::string expected = "a whole number from " + std::to_string(minimum) + " to " +
                                 std::to_string(maximum);
    if (!v.is_number())
        fail(v, key, expected);
    const double x = v.get<double>();
    // the range first: converting a double beyond long long's range is undefined
    if (!(x >= static_cast<double>(minimum) && x <= static_cast<double>(maximum)) ||
        x != std::floor(x))
        fail(v, key, expected);
    return static_cast<long long>(x);
}

long long JsonFields::whole(const char* key, long long minimum, long long maximum) const {
    return whole(value(key), key, minimum, maximum);
}

std::optional<long long> JsonFields::optionalWhole(const char* key, long long minimum,
                                                   long long maximum) const {
    const Json& v = value(key);
    if (v.is_null())
        return std::nullopt;
    return whole(v, key, minimum, maximum);
}

bool JsonFields::absentOrNull(const char* key) const {
    const Json* v = jsonMember(*m_object, key);
    return !v || v->is_null();
}

bool JsonFields::boolean(const char* key) const {
    const Json& v = value(key);
    if (!v.is_boolean())
        fail(v, key, "true or false");
    return v.get<bool>();
}

const std::string& JsonFields::text(const char* key) const {
    const Json& v = value(key);
    if (!v.is_string())
        fail(v, key, "a string");
    return v.get_ref<const std::string&>();
}

glm::dvec3 JsonFields::vector(const char* key) const {
    const Json& v = value(key);
    if (!v.is_array() || v.size() != 3)
        fail(v, key, "an array of three numbers");
    glm::dvec3 out;
    for (std::size_t i = 0; i < 3; ++i)
        out[static_cast<int>(i)] = number(v[i], std::string(key) + "[" + std::to_string(i) + "]");
    return out;
}

double JsonFields::limited(const char* key, Quantity quantity, Bound bound) const {
    const Json& v = value(key);
    if (!v.is_number() || !withinLimits(quantity, bound, number(v, key), QuantityUnits::Model))
        fail(v, key, expectedValue(quantity, bound, QuantityUnits::Model));
    return number(v, key);
}

std::optional<double> JsonFields::optionalLimited(const char* key, Quantity quantity,
                                                  Bound bound) const {
    if (value(key).is_null())
        return std::nullopt;
    return limited(key, quantity, bound);
}

glm::dvec3 JsonFields::limitedVector(const char* key, Quantity quantity, Bound bound) const {
    const glm::dvec3 v = vector(key);
    for (int i = 0; i < 3; ++i)
        if (!withinLimits(quantity, bound, v[i], QuantityUnits::Model))
            fail(value(key), key, "three of " + expectedValue(quantity, bound, QuantityUnits::Model));
    return v;
}

} // namespace bv::io
