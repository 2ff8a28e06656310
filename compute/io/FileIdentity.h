#pragma once
// Whether two paths name the same file, so that a run can refuse to write over its own input
// (or write two of its outputs to one file) before it starts. Spellings differ ("a.img",
// "./a.img", "dir/../a.img", a symbolic link, a hard link), so names are not compared as text:
//
//   - a file that exists is known by its device and inode (what stat() says, after links);
//   - a file that does not exist yet by its absolute path, with the links of the part of it
//     that exists resolved and "." and ".." removed (std::filesystem::weakly_canonical).
//
//     bv::io::sameFile("out/../P1.hkl", "P1.hkl"); // true
//     std::map<std::string, std::string> owner;     // identity -> who names it
//     owner[bv::io::fileIdentity(path)] = "-floatfile";
//
// Two paths name the same file exactly when their identities are equal (a path that exists
// and one that does not never do).

#include <string>

namespace bv::io {

// "inode <device>:<inode>" for a file that exists, else "path <normalised absolute path>".
std::string fileIdentity(const std::string& path);

bool sameFile(const std::string& a, const std::string& b);

} // namespace bv::io
