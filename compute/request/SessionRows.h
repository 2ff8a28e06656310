#pragma once
// The kinds of rows of the session's table (internal to SessionFields.cpp and
// SessionRows.cpp, which holds the rows themselves).

#include "compute/request/SessionFields.h"
#include "compute/request/SessionFormat.h"

#include <climits>
#include <string>
#include <type_traits>

namespace bv::request::sessionrows {

using io::JsonFields;
using io::JsonWriter;

// the command line's limits: counts up to a billion, seeds within int
inline constexpr long long kMaxCount = 1000000000;
inline constexpr long long kMaxSeed = INT_MAX;
// a detector edge, in pixels (the command line's limit)
inline constexpr int kMaxPixelsPerSide = 32768;

template <typename T> using Ref = T& (*)(Experiment&);
using Write = std::function<void(JsonWriter&, const Experiment&)>;
using Read = std::function<void(const JsonFields&, Experiment&, const std::string&)>;

// the field of a const experiment through its row's accessor, which only reads it here
template <typename T> inline const T& get(Ref<T> ref, const Experiment& e) {
    return ref(const_cast<Experiment&>(e));
}

inline void writeOptional(JsonWriter& w, const char* key, const std::optional<double>& v) {
    w.key(key);
    v ? w.number(*v) : w.null();
}
inline void writeOptional(JsonWriter& w, const char* key, const std::optional<int>& v) {
    w.key(key);
    v ? w.integer(*v) : w.null();
}
inline void writeOptional(JsonWriter& w, const char* key, const std::optional<long>& v) {
    w.key(key);
    v ? w.integer(*v) : w.null();
}
inline void writeVector(JsonWriter& w, const char* key, const glm::dvec3& v) {
    w.key(key).beginArray().number(v.x).number(v.y).number(v.z).endArray();
}

template <typename Enum, std::size_t N>
Enum choose(const JsonFields& r, const char* key, const session::Choice<Enum> (&choices)[N]) {
    const std::string& text = r.text(key);
    for (const auto& [name, value] : choices)
        if (text == name)
            return value;
    std::string expected;
    for (std::size_t i = 0; i < N; ++i)
        expected += std::string(i == 0 ? "one of " : ", ") + choices[i].first;
    r.fail(r.value(key), key, expected);
}

inline std::optional<int> optionalCount(const JsonFields& r, const char* key) {
    if (const auto v = r.optionalWhole(key, 0, kMaxCount))
        return static_cast<int>(*v);
    return std::nullopt;
}

// ---- the kinds of rows ---------------------------------------------------------------------
// Each makes the row of one key of `section`; the parameter table (Parameters.cpp) gives its
// rows so, and Rows places them in the file's layout.

// a number of `quantity` within its limits and `bound`
inline SessionField numberRow(const char* section, const char* key, Quantity quantity,
                              Bound bound, Ref<double> ref) {
    const std::string k = key;
    return {section, key,
            [k, ref](JsonWriter& w, const Experiment& e) { w.key(k).number(get(ref, e)); },
            [k, quantity, bound, ref](const JsonFields& r, Experiment& e, const std::string&) {
                ref(e) = r.limited(k.c_str(), quantity, bound);
            }};
}
// the same, or null for "automatic"
inline SessionField optionalNumberRow(const char* section, const char* key, Quantity quantity,
                                      Bound bound, Ref<std::optional<double>> ref) {
    const std::string k = key;
    return {section, key,
            [k, ref](JsonWriter& w, const Experiment& e) {
                writeOptional(w, k.c_str(), get(ref, e));
            },
            [k, quantity, bound, ref](const JsonFields& r, Experiment& e, const std::string&) {
                ref(e) = r.optionalLimited(k.c_str(), quantity, bound);
            }};
}
// a count from 0, or null for "automatic"
inline SessionField optionalCountRow(const char* section, const char* key,
                                     Ref<std::optional<int>> ref) {
    const std::string k = key;
    return {section, key,
            [k, ref](JsonWriter& w, const Experiment& e) {
                writeOptional(w, k.c_str(), get(ref, e));
            },
            [k, ref](const JsonFields& r, Experiment& e, const std::string&) {
                ref(e) = sessionrows::optionalCount(r, k.c_str());
            }};
}
inline SessionField booleanRow(const char* section, const char* key, Ref<bool> ref) {
    const std::string k = key;
    return {section, key,
            [k, ref](JsonWriter& w, const Experiment& e) { w.key(k).boolean(get(ref, e)); },
            [k, ref](const JsonFields& r, Experiment& e, const std::string&) {
                ref(e) = r.boolean(k.c_str());
            }};
}
// [x, y, z], each within the limits of `quantity`
inline SessionField vectorRow(const char* section, const char* key, Quantity quantity,
                              Bound bound, Ref<glm::dvec3> ref) {
    const std::string k = key;
    return {section, key,
            [k, ref](JsonWriter& w, const Experiment& e) {
                writeVector(w, k.c_str(), get(ref, e));
            },
            [k, quantity, bound, ref](const JsonFields& r, Experiment& e, const std::string&) {
                ref(e) = r.limitedVector(k.c_str(), quantity, bound);
            }};
}
// {"range", "step", "steps"}, each null for "automatic"
inline SessionField sweepRow(const char* section, const char* key, Quantity quantity,
                             Ref<SweepRequest> ref) {
    const std::string k = key;
    return {section, key,
            [k, ref](JsonWriter& w, const Experiment& e) {
                const SweepRequest& s = get(ref, e);
                w.key(k).beginObject();
                writeOptional(w, "range", s.range);
                writeOptional(w, "step", s.step);
                writeOptional(w, "steps", s.steps);
                w.endObject();
            },
            [k, quantity, ref](const JsonFields& parent, Experiment& e, const std::string&) {
                const JsonFields s = parent.object(k.c_str());
                SweepRequest out;
                out.range = s.optionalLimited("range", quantity, Bound::NonNegative);
                out.step = s.optionalLimited("step", quantity, Bound::NonNegative);
                if (const auto steps = s.optionalWhole("steps", 0, kMaxCount))
                    out.steps = static_cast<int>(*steps);
                ref(e) = out;
            }};
}
// one of the words of `choices`
template <typename Enum, std::size_t N>
SessionField choiceRow(const char* section, const char* key,
                       const session::Choice<Enum> (&choices)[N],
                       std::common_type_t<Ref<Enum>> ref) { // (the accessor: not deduced)
    const std::string k = key;
    return {section, key,
            [k, &choices, ref](JsonWriter& w, const Experiment& e) {
                w.key(k).string(session::nameOf(choices, get(ref, e)));
            },
            [k, &choices, ref](const JsonFields& r, Experiment& e, const std::string&) {
                ref(e) = choose(r, k.c_str(), choices);
            }};
}

// The rows in the file's layout: a section at a time, each key either a parameter's row of
// the table (parameter(), by the option's name) or a row of its own.
class Rows {
  public:
    explicit Rows(std::vector<SessionField>& rows) : m_rows(rows) {}

    void section(const char* name) { m_section = name; }

    void row(const char* key, Write write, Read read) {
        m_rows.push_back({m_section, key, std::move(write), std::move(read)});
    }
    // the session row of the table's option `flag` (Parameters.cpp), here in the layout
    void parameter(const char* flag);
    void number(const char* key, Quantity quantity, Bound bound, Ref<double> ref) {
        m_rows.push_back(numberRow(m_section.c_str(), key, quantity, bound, ref));
    }
    void optionalNumber(const char* key, Quantity quantity, Bound bound,
                        Ref<std::optional<double>> ref) {
        m_rows.push_back(optionalNumberRow(m_section.c_str(), key, quantity, bound, ref));
    }
    void optionalCount(const char* key, Ref<std::optional<int>> ref) {
        m_rows.push_back(optionalCountRow(m_section.c_str(), key, ref));
    }
    void boolean(const char* key, Ref<bool> ref) {
        m_rows.push_back(booleanRow(m_section.c_str(), key, ref));
    }
    void vector(const char* key, Quantity quantity, Bound bound, Ref<glm::dvec3> ref) {
        m_rows.push_back(vectorRow(m_section.c_str(), key, quantity, bound, ref));
    }
    void sweep(const char* key, Quantity quantity, Ref<SweepRequest> ref) {
        m_rows.push_back(sweepRow(m_section.c_str(), key, quantity, ref));
    }
    template <typename Enum, std::size_t N>
    void choice(const char* key, const session::Choice<Enum> (&choices)[N],
                std::common_type_t<Ref<Enum>> ref) {
        m_rows.push_back(choiceRow(m_section.c_str(), key, choices, ref));
    }

  private:
    std::vector<SessionField>& m_rows;
    std::string m_section;
};

// the rows, section by section, in the file's order (SessionRows.cpp)
void addConventionRows(Rows& rows);
void addBeamRows(Rows& rows);
void addDetectorRows(Rows& rows);
void addCrystalRows(Rows& rows);
void addSamplingRows(Rows& rows);

} // namespace bv::request::sessionrows
