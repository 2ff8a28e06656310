#pragma once
// File names of a series: one run of '#' in the file name stands for the 1-based frame
// number, zero-padded to the run's length ("sim_#####.img", frame 7 -> "sim_00007.img"),
// the way DIALS and XDS name image templates. Only the last path component is looked at:
// a '#' in a directory name is kept as it is.
//
//     bv::io::FileTemplate name("run1/sim_###.img");    // throws for "a_#_#.img"
//     name.hasField();                                   // true
//     name.fileName(12);                                 // "run1/sim_012.img"
//     name.fits(1000);                                   // false: 3 digits hold up to 999

#include <cstddef>
#include <string>

namespace bv::io {

class FileTemplate {
  public:
    // Throws bv::Error when the file name holds two separate runs of '#' (which one would
    // be the frame number?).
    explicit FileTemplate(std::string pattern);

    const std::string& pattern() const { return m_pattern; }
    bool hasField() const { return m_width > 0; }
    std::size_t width() const { return m_width; } // digits of the frame number (0: none)

    // Whether frame numbers up to `lastNumber` fit in the field without widening it.
    bool fits(long long lastNumber) const;

    // The name of frame `number` (1-based). Throws bv::Error for a number below 0 or one
    // that needs more digits than the field has; without a field, the pattern itself.
    std::string fileName(long long number) const;

  private:
    std::string m_pattern;
    std::size_t m_position = 0; // index of the first '#'
    std::size_t m_width = 0;
};

} // namespace bv::io
