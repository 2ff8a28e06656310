// SHA-256 against the examples of FIPS 180-4 (NIST's "SHA256.pdf" worked examples: one block,
// two blocks, and a million 'a's), fed in pieces of every size so that the buffering between
// blocks is exercised, and a file's digest equal to its bytes' digest.

#include "compute/core/Error.h"
#include "compute/core/Sha256.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

class TestSha256 : public QObject {
    Q_OBJECT
  private slots:
    void standardExamples_data() {
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<QString>("digest");
        QTest::newRow("empty") << QByteArray()
                               << "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        QTest::newRow("abc, one block")
            << QByteArray("abc")
            << "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        QTest::newRow("448 bits, two blocks")
            << QByteArray("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            << "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";
        QTest::newRow("896 bits")
            << QByteArray("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnop"
                          "jklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu")
            << "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1";
        QTest::newRow("a million a") << QByteArray(1000000, 'a')
                                     << "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
    }
    void standardExamples() {
        QFETCH(QByteArray, message);
        QFETCH(QString, digest);
        for (int piece : {1, 3, 63, 64, 65, 1 << 20}) {
            bv::Sha256 h;
            for (int at = 0; at < message.size(); at += piece)
                h.add(message.constData() + at,
                      static_cast<std::size_t>(std::min(piece, int(message.size()) - at)));
            QCOMPARE(QString::fromStdString(h.hex()), digest);
        }
    }

    // the digest may be asked for midway: the message goes on from where it was
    void digestLeavesTheMessageOpen() {
        bv::Sha256 h;
        h.add("ab", 2);
        QCOMPARE(QString::fromStdString(h.hex()),
                 QString("fb8e20fc2e4c3f248c60c39bd652f3c1347298bb977b8b4d5903b85055620603"));
        h.add("c", 1);
        QCOMPARE(QString::fromStdString(h.hex()),
                 QString("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
    }

    void fileDigest() {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/abc.txt").toStdString();
        std::ofstream(path, std::ios::binary) << "abc";
        QCOMPARE(QString::fromStdString(bv::sha256OfFile(path)),
                 QString("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QVERIFY_THROWS_EXCEPTION(bv::Error, bv::sha256OfFile(path + ".missing"));
    }
};

QTEST_GUILESS_MAIN(TestSha256)
#include "tst_sha256.moc"
