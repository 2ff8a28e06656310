// bv::io::fileIdentity / sameFile: two paths name one file whatever their spelling (./, ..,
// symbolic and hard links, a linked directory), for files that exist and files not yet
// written; different files never compare equal.

#include "compute/io/FileIdentity.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

class TestFileIdentity : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir m_dir;
    std::string m_root;

  private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_root = m_dir.path().toStdString();
        fs::create_directories(m_root + "/d/sub");
        std::ofstream(m_root + "/d/a.hkl") << "0 0 0 1\n";
        std::ofstream(m_root + "/d/b.hkl") << "0 0 0 1\n"; // same bytes, another file
        fs::create_symlink("a.hkl", m_root + "/d/link.hkl");
        fs::create_hard_link(m_root + "/d/a.hkl", m_root + "/d/hard.hkl");
        fs::create_directory_symlink("d", m_root + "/alias");
    }

    void sameFile_data() {
        QTest::addColumn<QString>("first");
        QTest::addColumn<QString>("second");
        QTest::addColumn<bool>("same");
        QTest::newRow("itself") << "d/a.hkl" << "d/a.hkl" << true;
        QTest::newRow("./") << "d/a.hkl" << "./d/./a.hkl" << true;
        QTest::newRow("..") << "d/a.hkl" << "d/sub/../a.hkl" << true;
        QTest::newRow("symbolic link") << "d/a.hkl" << "d/link.hkl" << true;
        QTest::newRow("hard link") << "d/a.hkl" << "d/hard.hkl" << true;
        QTest::newRow("linked directory") << "d/a.hkl" << "alias/a.hkl" << true;
        QTest::newRow("same bytes, other file") << "d/a.hkl" << "d/b.hkl" << false;
        QTest::newRow("not yet written, ..") << "d/new.img" << "d/sub/../new.img" << true;
        QTest::newRow("not yet written, linked directory")
            << "d/new.img" << "alias/new.img" << true;
        QTest::newRow("not yet written, two names") << "d/new.img" << "d/new2.img" << false;
        QTest::newRow("exists and does not") << "d/a.hkl" << "d/new.img" << false;
        QTest::newRow("spaces and UTF-8") << "d/\u00c5 \u00fc.img" << "./d/\u00c5 \u00fc.img"
                                          << true;
    }
    void sameFile() {
        QFETCH(QString, first);
        QFETCH(QString, second);
        QFETCH(bool, same);
        const fs::path previous = fs::current_path();
        fs::current_path(m_root); // relative names, as on a command line
        const bool result = bv::io::sameFile(first.toStdString(), second.toStdString());
        fs::current_path(previous);
        QCOMPARE(result, same);
    }
};

QTEST_APPLESS_MAIN(TestFileIdentity)
#include "tst_fileidentity.moc"
