#pragma once
// Small helpers the tests share: a command line's words, a file's bytes (empty when it cannot
// be read, so that a missing file compares unequal to a written one), a text file written
// whole or the test stopped, and a folder's files.
//
//     bv::headless::runBatch(bv::testing::words("--job job.json -threads 1"), out, err);
//     bv::testing::writeText("job.json", R"({"base": "...", "frames": 3})");
//     QCOMPARE(bv::testing::bytes("a.img"), bv::testing::bytes("b.img"));
//     QCOMPARE(bv::testing::filesIn("one-thread"), bv::testing::filesIn("four-threads"));

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QMap>
#include <QString>
#include <QtGlobal>

#include <string>
#include <vector>

namespace bv::testing {

// nanoBragg's arguments from one string, split at spaces (the tests name no file with one)
inline std::vector<std::string> words(const QString& text) {
    std::vector<std::string> out;
    for (const QString& w : text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
        out.push_back(w.toStdString());
    return out;
}

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
