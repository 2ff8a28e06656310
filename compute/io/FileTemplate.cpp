#include "compute/io/FileTemplate.h"

#include "compute/core/Error.h"

#include <string>

namespace bv::io {

namespace {

std::size_t digitsOf(long long number) {
    std::size_t digits = 1;
    for (; number >= 10; number /= 10)
        ++digits;
    return digits;
}

} // namespace

FileTemplate::FileTemplate(std::string pattern) : m_pattern(std::move(pattern)) {
    const std::size_t slash = m_pattern.find_last_of('/');
    const std::size_t nameStart = slash == std::string::npos ? 0 : slash + 1;
    const std::size_t first = m_pattern.find('#', nameStart);
    if (first == std::string::npos)
        return;
    std::size_t end = m_pattern.find_first_not_of('#', first);
    if (end == std::string::npos)
        end = m_pattern.size();
    if (m_pattern.find('#', end) != std::string::npos)
        throw Error("\"" + m_pattern +
                    "\": the file name has more than one run of # (one run stands for the "
                    "frame number, e.g. image_#####.img)");
    m_position = first;
    m_width = end - first;
}

bool FileTemplate::fits(long long lastNumber) const {
    return !hasField() || digitsOf(lastNumber) <= m_width;
}

std::string FileTemplate::fileName(long long number) const {
    if (!hasField())
        return m_pattern;
    if (number < 0)
        throw Error("\"" + m_pattern + "\": no file name for frame number " +
                    std::to_string(number));
    if (!fits(number))
        throw Error("\"" + m_pattern + "\": frame number " + std::to_string(number) + " needs " +
                    std::to_string(digitsOf(number)) + " digits but the file name has " +
                    std::to_string(m_width) + " #");
    std::string digits = std::to_string(number);
    digits.insert(0, m_width - digits.size(), '0');
    std::string name = m_pattern;
    name.replace(m_position, m_width, digits);
    return name;
}

} // namespace bv::io
