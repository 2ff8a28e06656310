// AtomicFile: the target changes only on commit(); failures name the path and leave nothing.

#include "compute/io/AtomicFile.h"
#include "compute/core/Error.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

namespace {

QByteArray contents(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QByteArray("<unreadable>");
    return file.readAll();
}

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
}

QStringList entries(const QString& dir) {
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
}

} // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT
  private slots:
    void commitCreatesTheTarget() {
        QTemporaryDir dir;
        const QString target = dir.filePath("out.bin");
        bv::io::AtomicFile file(target.toStdString());
        file.write("hello ");
        file.write("world");
        QCOMPARE(file.size(), std::uint64_t(11));
        QVERIFY(!QFile::exists(target)); // nothing visible before commit
        file.commit();
        QCOMPARE(contents(target), QByteArray("hello world"));
        QCOMPARE(entries(dir.path()), QStringList{"out.bin"});
    }

    void temporaryLivesBesideTheTarget() {
        QTemporaryDir dir;
        const QString target = dir.filePath("image.img");
        bv::io::AtomicFile file(target.toStdString());
        const QString temporary = QString::fromStdString(file.temporaryPath());
        QCOMPARE(QFileInfo(temporary).absolutePath(), QFileInfo(target).absolutePath());
        QVERIFY(QFile::exists(temporary));
        QVERIFY(temporary != target);
    }

    void commitReplacesAnExistingFile() {
        QTemporaryDir dir;
        const QString target = dir.filePath("out.txt");
        writeFile(target, "old contents, longer than the new");
        bv::io::AtomicFile file(target.toStdString());
        file.write("new");
        QCOMPARE(contents(target), QByteArray("old contents, longer than the new"));
        file.commit();
        QCOMPARE(contents(target), QByteArray("new"));
        QCOMPARE(entries(dir.path()).size(), 1);
    }

    void withoutCommitNothingChanges() {
        QTemporaryDir dir;
        const QString fresh = dir.filePath("fresh.txt");
        const QString existing = dir.filePath("existing.txt");
        writeFile(existing, "keep me");
        {
            bv::io::AtomicFile a(fresh.toStdString());
            a.write("lost");
            bv::io::AtomicFile b(existing.toStdString());
            b.write("lost");
        } // e.g. an exception unwound the writer
        QVERIFY(!QFile::exists(fresh));
        QCOMPARE(contents(existing), QByteArray("keep me"));
        QCOMPARE(entries(dir.path()), QStringList{"existing.txt"});
    }

    void relativePathsWork() {
        QTemporaryDir dir;
        const QString previous = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir.path()));
        {
            bv::io::AtomicFile file("relative.txt");
            file.write("x");
            file.commit();
        }
        QVERIFY(QDir::setCurrent(previous));
        QCOMPARE(contents(dir.filePath("relative.txt")), QByteArray("x"));
    }

    void missingDirectoryIsAnError() {
        QTemporaryDir dir;
        const std::string target = dir.filePath("no/such/dir/out.img").toStdString();
        try {
            bv::io::AtomicFile file(target);
            QFAIL("expected bv::Error");
        } catch (const bv::Error& e) {
            const QString message = e.what();
            QVERIFY2(message.contains(QString::fromStdString(target)), e.what());
            QVERIFY2(message.contains("No such file or directory"), e.what());
        }
        QVERIFY(entries(dir.path()).isEmpty());
    }

    void directoryTargetIsAnError() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("sub"));
        const std::string target = dir.filePath("sub").toStdString();
        try {
            bv::io::AtomicFile file(target);
            QFAIL("expected bv::Error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).contains("is a directory"), e.what());
            QVERIFY2(QString(e.what()).contains(QString::fromStdString(target)), e.what());
        }
        QCOMPARE(entries(dir.path()), QStringList{"sub"});
    }

    void unwritableDirectoryIsAnError() {
        // a directory nobody may create files in, root included: /proc
        const std::string target = "/proc/braggview-atomic-test.img";
        try {
            bv::io::AtomicFile file(target);
            QFAIL("expected bv::Error");
        } catch (const bv::Error& e) {
            QVERIFY2(QString(e.what()).contains(QString::fromStdString(target)), e.what());
        }
        QVERIFY(!QFileInfo::exists(QString::fromStdString(target)));
    }

    void writingAfterCommitIsAnError() {
        QTemporaryDir dir;
        bv::io::AtomicFile file(dir.filePath("once.txt").toStdString());
        file.write("a");
        file.commit();
        QVERIFY_THROWS_EXCEPTION(bv::Error, file.write("b"));
        QVERIFY_THROWS_EXCEPTION(bv::Error, file.commit());
        QCOMPARE(contents(dir.filePath("once.txt")), QByteArray("a"));
    }
};

QTEST_APPLESS_MAIN(TestAtomicFile)
#include "tst_atomicfile.moc"
