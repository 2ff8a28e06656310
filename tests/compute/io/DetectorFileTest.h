#pragma once
// Shared by the tests of the detector readers (.geom, .expt): a file written into a
// temporary folder, the message a reader refuses a file with, and a comparison of vectors.

#include "compute/core/Error.h"

#include <QFile>
#include <QString>
#include <QTemporaryDir>

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <string>

namespace bv::testing {

inline std::string writeTemp(const QTemporaryDir& dir, const char* name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path.toStdString();
}

// the bv::Error message of read(path), or "" when it reads the file
template <typename Read>
QString refusalOf(Read read, const std::string& path) {
    try {
        read(path);
    } catch (const bv::Error& e) {
        return QString::fromStdString(e.what());
    }
    return QString();
}

// the same for a file of these bytes, written as `name` into a temporary folder
template <typename Read>
QString refusalOf(Read read, const char* name, const QByteArray& bytes) {
    QTemporaryDir dir;
    return refusalOf(read, writeTemp(dir, name, bytes));
}

// two lab positions or directions the same to 1e-12 (m, or unit vectors)
inline bool near(const glm::dvec3& a, const glm::dvec3& b) { return glm::length(a - b) <= 1e-12; }

} // namespace bv::testing
