#pragma once
// Small file helpers the tests share: a file's bytes (empty when it cannot be read, so that a
// missing file compares unequal to a written one) and a text file written whole or the test
// stopped.
//
//     bv::testing::writeText("job.json", R"({"base": "...", "frames": 3})");
//     QCOMPARE(bv::testing::bytes("a.img"), bv::testing::bytes("b.img"));
//     QCOMPARE(bv::testing::filesIn("one-thread"), bv::testing::filesIn("four-threads"));

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QMap>
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

// Every file of a folder (hidden ones too: a temporary left behind shows), by name.
inline QMap<QString, QByteArray> filesIn(const QString& dir) {
    QMap<QString, QByteArray> files;
    for (const QString& name : QDir(dir).entryList(QDir::Files | QDir::Hidden))
        files[name] = bytes(dir + QLatin1Char('/') + name);
    return files;
}

} // namespace bv::testing
