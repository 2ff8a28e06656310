#pragma once
// Small file helpers the tests share: a file's bytes (empty when it cannot be read, so that a
// missing file compares unequal to a written one) and a text file written whole or the test
// stopped.
//
//     bv::testing::writeText("job.json", R"({"base": "...", "frames": 3})");
//     QCOMPARE(bv::testing::bytes("a.img"), bv::testing::bytes("b.img"));

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QtGlobal>

namespace bv::testing {

inline QByteArray bytes(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

inline void writeText(const QString& path, const QByteArray& text) {
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
        qFatal("cannot write %s", qPrintable(path));
}

} // namespace bv::testing
