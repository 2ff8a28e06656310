#include "compute/io/JsonFields.h"

#include "compute/io/NumberText.h"
#include "compute/core/Error.h"

#include <cmath>

namespace bv::io {

namespace {

std::string shown(const JsonValue& v) {
    switch (v.type()) {
    case JsonValue::Type::Number:
        return v.text();
    case JsonValue::Type::String:
        return quoteToken(v.text());
    case JsonValue::Type::Boolean:
        return v.boolean() ? "true" : "false";
    default:
        return JsonValue::typeName(v.type());
    }
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

JsonFields::JsonFields(const JsonValue& object, std::string source, std::string path)
    : m_object(&object), m_source(std::move(source)), m_path(std::move(path)) {
    if (!object.isObject())
        throw Error(jsonWhere(m_source, object) + ": " + (m_path.empty() ? "" : m_path + ": ") +
                    "expected an object, got " + shown(object));
}

std::string JsonFields::path(const char* key) const {
    return m_path.empty() ? std::string(key) : m_path + "." + key;
}

void JsonFields::fail(const JsonValue& v, const char* key, const std::string& expected) const {
    throw Error(jsonWhere(m_source, v) + ": " + path(key) + ": expected " + expected + ", got " +
                shown(v));
}

const JsonValue& JsonFields::value(const char* key) const {
    const JsonValue* v = m_object->member(key);
    if (!v)
        throw Error(jsonWhere(m_source, *m_object) + ": " + (m_path.empty() ? "" : m_path + ": ") +
                    "\"" + key + "\" is missing");
    return *v;
}

JsonFields JsonFields::object(const char* key) const {
    const JsonValue& v = value(key);
    if (!v.isObject())
        fail(v, key, "an object");
    return JsonFields(v, m_source, path(key));
}

double JsonFields::number(const JsonValue& v, const char* key, Range range) const {
    if (!v.isNumber())
        fail(v, key, rangeText(range));
    const double x = v.number();
    if ((range == Positive && !(x > 0.0)) || (range == NonNegative && !(x >= 0.0)))
        fail(v, key, rangeText(range));
    return x;
}

double JsonFields::number(const char* key, Range range) const {
    return number(value(key), key, range);
}

std::optional<double> JsonFields::optionalNumber(const char* key, Range range) const {
    const JsonValue& v = value(key);
    if (v.isNull())
        return std::nullopt;
    if (!v.isNumber())
        fail(v, key, std::string(rangeText(range)) + " or null");
    return number(v, key, range);
}

long long JsonFields::whole(const JsonValue& v, const char* key, long long minimum,
                            long long maximum) const {
    const std::string expected = "a whole number from " + std::to_string(minimum) + " to " +
                                 std::to_string(maximum);
    if (!v.isNumber())
        fail(v, key, expected);
    const double x = v.number();
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
    const JsonValue& v = value(key);
    if (v.isNull())
        return std::nullopt;
    return whole(v, key, minimum, maximum);
}

bool JsonFields::boolean(const char* key) const {
    const JsonValue& v = value(key);
    if (!v.isBoolean())
        fail(v, key, "true or false");
    return v.boolean();
}

const std::string& JsonFields::text(const char* key) const {
    const JsonValue& v = value(key);
    if (!v.isString())
        fail(v, key, "a string");
    return v.text();
}

glm::dvec3 JsonFields::vector(const char* key) const {
    const JsonValue& v = value(key);
    if (!v.isArray() || v.elements().size() != 3)
        fail(v, key, "an array of three numbers");
    glm::dvec3 out;
    for (int i = 0; i < 3; ++i)
        out[i] = number(v.elements()[static_cast<std::size_t>(i)], key);
    return out;
}

double JsonFields::limited(const char* key, Quantity quantity, Bound bound) const {
    const JsonValue& v = value(key);
    if (!v.isNumber() || !withinLimits(quantity, bound, number(v, key), QuantityUnits::Model))
        fail(v, key, expectedValue(quantity, bound, QuantityUnits::Model));
    return number(v, key);
}

std::optional<double> JsonFields::optionalLimited(const char* key, Quantity quantity,
                                                  Bound bound) const {
    if (value(key).isNull())
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
