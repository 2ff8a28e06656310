#pragma once
// Shared by the tests of the detector readers (.geom, .expt): a file written into a
// temporary folder, and the message a reader refuses a file with.

#include "compute/core/Error.h"

#include <QFile>
#include <QString>
#include <QTemporaryDir>

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

} // namespace bv::testing
