// braggview-compare, the parity suite's judge, on synthetic images whose verdict follows from
// how they are built: where the peaks are, how far one moved, which pixels tie within a
// precision's tolerance (shared/golden/README.md, docs/numerics/parity-metrics.md).

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QtEndian>

#include <cmath>
#include <cstring>
#include <initializer_list>
#include <utility>

namespace {

// One synthetic float image, fast-major, zero where nothing is drawn (zero pixels are never
// maxima, so only what a row draws can be a peak).
class Image {
  public:
    Image(int width, int height)
        : m_width(width), m_pixels(static_cast<qsizetype>(width) * height, 0.0f) {}

    Image& set(int x, int y, float value) {
        m_pixels[static_cast<qsizetype>(y) * m_width + x] = value;
        return *this;
    }
    // A clear spot: `top` at (x, y), 0.6 of it on the 4 edge neighbours, 0.4 on the corners;
    // it stands out of its neighbours by 0.4 x top, far beyond either precision's margin.
    Image& spot(int x, int y, float top) {
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
                set(x + dx, y + dy,
                    top * (dx == 0 && dy == 0   ? 1.0f
                           : dx == 0 || dy == 0 ? 0.6f
                                                : 0.4f));
        return *this;
    }
    QByteArray bytes() const { // little-endian float32, as -floatfile writes it
        QByteArray out;
        for (float v : m_pixels) {
            quint32 bits;
            std::memcpy(&bits, &v, sizeof bits);
            const quint32 le = qToLittleEndian(bits);
            out.append(reinterpret_cast<const char*>(&le), sizeof le);
        }
        return out;
    }

  private:
    int m_width;
    QVector<float> m_pixels;
};

// An SMV file the way nanoBragg writes one: a "{...}" header padded to 512 bytes, then
// little-endian unsigned 16-bit pixels.
// `geometry`: more lines before "}" (the beam centre and DIALS origin).
QByteArray smvFile(int width, int height, double distanceMm, const QVector<quint16>& pixels,
                   const QString& geometry = QString()) {
    QByteArray header = QStringLiteral("{\nHEADER_BYTES=512;\nDIM=2;\nBYTE_ORDER=little_endian;\n"
                                       "TYPE=unsigned_short;\nSIZE1=%1;\nSIZE2=%2;\n"
                                       "PIXEL_SIZE=0.1;\nDISTANCE=%3;\n%4}\f")
                            .arg(width)
                            .arg(height)
                            .arg(distanceMm)
                            .arg(geometry)
                            .toLatin1();
    header.append(QByteArray(512 - header.size(), ' '));
    for (quint16 v : pixels) {
        const quint16 le = qToLittleEndian(v);
        header.append(reinterpret_cast<const char*>(&le), sizeof le);
    }
    return header;
}

// The reference's PGM: P5, size, its scale comment, 255, then bytes.
QByteArray pgmFile(int width, int height, const QString& scale, const QByteArray& pixels) {
    return QStringLiteral("P5\n%1 %2\n# pixels scaled by %3\n255\n")
               .arg(width)
               .arg(height)
               .arg(scale)
               .toLatin1() +
           pixels;
}

QVector<quint16> ramp(int count, int changed) { // `changed` pixels one count off
    QVector<quint16> v(count);
    for (int i = 0; i < count; ++i)
        v[i] = static_cast<quint16>(i + (i < changed ? 1 : 0));
    return v;
}

struct Result {
    int exitCode = -1;
    QString output;
};

Result runCompare(const QByteArray& candidate, const QByteArray& reference, const QString& suffix,
                  const QStringList& options) {
    QTemporaryDir dir;
    const QString cand = dir.filePath("candidate" + suffix),
                  ref = dir.filePath("reference" + suffix);
    for (const auto& [path, bytes] : {std::pair{cand, candidate}, std::pair{ref, reference}}) {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
            return {};
    }
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(QStringLiteral(BV_COMPARE), QStringList{cand, ref} + options);
    if (!process.waitForFinished(60000))
        return {};
    return {process.exitCode(), QString::fromLocal8Bit(process.readAll())};
}

// "name=value" from the tool's output line
double printed(const QString& output, const QString& name) {
    const QRegularExpression re(name + QStringLiteral("=([-+0-9.eE]+|inf)"));
    const QRegularExpressionMatch m = re.match(output);
    return m.hasMatch() ? m.captured(1).toDouble() : NAN;
}

int printedPeaks(const QString& output) {
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("\\((\\d+) resolved peaks\\)")).match(output);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

} // namespace

class TestCompare : public QObject {
    Q_OBJECT
  private slots:
    void floatImages_data();
    void floatImages();
    void integerImages_data();
    void integerImages();
};

void TestCompare::floatImages_data() {
    QTest::addColumn<QByteArray>("candidate");
    QTest::addColumn<QByteArray>("reference");
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<double>("peakShift"); // NaN: the images cannot be compared
    QTest::addColumn<int>("resolvedPeaks");

    const QStringList fast{"--bar", "fast"}, precise{"--bar", "precise"};
    // A 16 x 16 image: a clear spot at (11, 11), and at (4, 4) a spot whose top is two pixels,
    // (4, 4) = 1000 and (5, 4) = 999.5. They differ by 5e-4 of the image maximum: more than
    // the precise margin (2 x 1e-5 x 1000 = 0.02), less than the fast one (2 x 1e-3 x 1000 = 2).
    const auto pair = [](float left, float right) {
        Image image(16, 16);
        image.spot(11, 11, 800.0f).spot(4, 4, 990.0f);
        image.set(4, 4, left).set(5, 4, right);
        return image.bytes();
    };
    const QByteArray ref = pair(1000.0f, 999.5f), swapped = pair(999.5f, 1000.0f);
    QTest::newRow("fast: a tie within tolerance is no peak, swapping it is no shift")
        << swapped << ref << fast << 0 << 0.0 << 1;
    QTest::newRow("precise: the same pair is resolved there, and swapping it moves the peak")
        << swapped << ref << precise << 1 << 1.0 << 2;
    const QByteArray even = pair(1000.0f, 1000.0f), uneven = pair(1000.0f, 999.999f);
    QTest::newRow("precise: two equal pixels have no peak; a candidate may favour either")
        << uneven << even << precise << 0 << 0.0 << 1;

    const QByteArray clear = Image(16, 16).spot(5, 5, 1000.0f).spot(11, 11, 800.0f).bytes();
    const QByteArray moved = Image(16, 16).spot(6, 5, 1000.0f).spot(11, 11, 800.0f).bytes();
    QTest::newRow("fast: the same image passes") << clear << clear << fast << 0 << 0.0 << 2;
    QTest::newRow("fast: a clear spot one pixel over fails")
        << moved << clear << fast << 1 << 1.0 << 2;
    QTest::newRow("precise: a clear spot one pixel over fails")
        << moved << clear << precise << 1 << 1.0 << 2;

    // 64 x 32: 128 pairs of equal pixels (1000, unresolved: 256 maxima) and one clear pixel
    // of 500 at (63, 31). Identical images have no shift, however many brighter maxima the
    // candidate has (a cut at the candidate's 200 brightest would lose the 500).
    Image pairs(64, 32);
    for (int y = 1; y < 32; y += 4)
        for (int x = 1; x < 64; x += 4)
            pairs.set(x, y, 1000.0f).set(x + 1, y, 1000.0f);
    const QByteArray manyTies = pairs.set(63, 31, 500.0f).bytes();
    QTest::newRow("identical images with many brighter maxima than a resolved peak")
        << manyTies << manyTies << (fast + QStringList{"--fpixels", "64"}) << 0 << 0.0 << 1;

    // 24 x 10 (not square): peaks at pixel 71 = (23, 2) and 72 = (0, 3), far apart in a
    // 24-wide image, side by side in any other width; so the wrong width merges them.
    const QByteArray wide = Image(24, 10).set(23, 2, 1000.0f).set(0, 3, 800.0f).bytes();
    QTest::newRow("24 x 10 with --fpixels 24: both peaks")
        << wide << wide << (fast + QStringList{"--fpixels", "24"}) << 0 << 0.0 << 2;
    QTest::newRow("24 x 10 read 20 wide: the two peaks become neighbours")
        << wide << wide << (fast + QStringList{"--fpixels", "20"}) << 0 << 0.0 << 1;
    // a peak moved one row down: one pixel in the real shape, 24 pixels on in the file; read
    // 20 wide those 24 pixels are one row and 4 columns, sqrt(17) pixels (a single pixel, so
    // that the wrong width cannot cut a spot into several maxima)
    const QByteArray upper = Image(24, 10).set(10, 4, 1000.0f).bytes();
    const QByteArray lower = Image(24, 10).set(10, 5, 1000.0f).bytes();
    QTest::newRow("24 x 10, one row down, --fpixels 24")
        << lower << upper << (fast + QStringList{"--fpixels", "24"}) << 1 << 1.0 << 1;
    QTest::newRow("24 x 10, one row down, read 20 wide")
        << lower << upper << (fast + QStringList{"--fpixels", "20"}) << 1 << std::sqrt(17.0) << 1;
    QTest::newRow("24 x 10 without --fpixels: not square, cannot compare")
        << wide << wide << fast << 2 << double(NAN) << -1;
    QTest::newRow("24 x 10 with --fpixels 7: not whole rows, cannot compare")
        << wide << wide << (fast + QStringList{"--fpixels", "7"}) << 2 << double(NAN) << -1;
}

void TestCompare::floatImages() {
    QFETCH(QByteArray, candidate);
    QFETCH(QByteArray, reference);
    QFETCH(QStringList, options);
    QFETCH(int, exitCode);
    QFETCH(double, peakShift);
    QFETCH(int, resolvedPeaks);
    const Result r = runCompare(candidate, reference, ".bin", options);
    QVERIFY2(r.exitCode == exitCode, qPrintable(r.output));
    if (std::isnan(peakShift))
        return;
    QVERIFY2(std::fabs(printed(r.output, "peak_shift") - peakShift) < 1e-4, qPrintable(r.output));
    QVERIFY2(printedPeaks(r.output) == resolvedPeaks, qPrintable(r.output));
}

void TestCompare::integerImages_data() {
    QTest::addColumn<QByteArray>("candidate");
    QTest::addColumn<QByteArray>("reference");
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<QString>("bar");
    QTest::addColumn<int>("exitCode");

    // 24 x 10 = 240 pixels: one pixel off leaves 239/240 = 99.58% identical, under 99.9%
    const QByteArray smv = smvFile(24, 10, 100, ramp(240, 0));
    const QByteArray oneOff = smvFile(24, 10, 100, ramp(240, 1));
    const QByteArray halfOff = smvFile(24, 10, 100, ramp(240, 120));
    const QByteArray otherDistance = smvFile(24, 10, 101, ramp(240, 0));
    const QByteArray otherShape = smvFile(20, 12, 100, ramp(240, 0));
    QTest::newRow("SMV precise: identical") << smv << smv << ".img"
                                            << "precise" << 0;
    QTest::newRow("SMV precise: one pixel in 240 off") << oneOff << smv << ".img"
                                                       << "precise" << 1;
    QTest::newRow("SMV fast: pixels are not judged") << halfOff << smv << ".img"
                                                     << "fast" << 0;
    QTest::newRow("SMV fast: the header is") << otherDistance << smv << ".img"
                                             << "fast" << 1;
    QTest::newRow("SMV fast: so is the shape") << otherShape << smv << ".img"
                                               << "fast" << 1;

    // The reference's header for -Xbeam 1.23 -Ybeam 0.57 (MOSFLM: Fbeam 0.62, Sbeam 1.28) on
    // 24 x 10 pixels of 0.1 mm, and braggview's, whose BEAM_CENTER_X/Y place dxtbx's origin at
    // DIALS_ORIGIN: X = 0.62 - 0.1 = 0.52, Y = 10 * 0.1 + 0.1 - 1.28 = -0.18.
    const QString origin = "DIALS_ORIGIN=-0.62,1.28,-100\nBEAMLINE=fake;\n";
    const QByteArray reference = smvFile(24, 10, 100, ramp(240, 0),
                                         "BEAM_CENTER_X=1.23;\nBEAM_CENTER_Y=0.57;\n" + origin);
    const QByteArray dxtbx = smvFile(24, 10, 100, ramp(240, 0),
                                     "BEAM_CENTER_X=0.52;\nBEAM_CENTER_Y=-0.18;\n" + origin);
    const QByteArray swapped = smvFile(24, 10, 100, ramp(240, 0),
                                       "BEAM_CENTER_X=-0.18;\nBEAM_CENTER_Y=0.52;\n" + origin);
    const QByteArray halfPixel = smvFile(24, 10, 100, ramp(240, 0),
                                         "BEAM_CENTER_X=0.57;\nBEAM_CENTER_Y=-0.18;\n" + origin);
    const QByteArray otherOrigin = smvFile(
        24, 10, 100, ramp(240, 0),
        "BEAM_CENTER_X=0.52;\nBEAM_CENTER_Y=-0.18;\nDIALS_ORIGIN=-0.62,1.28,-101\nBEAMLINE=fake;\n");
    QTest::newRow("SMV precise: dxtbx's beam centre") << dxtbx << reference << ".img"
                                                      << "precise" << 0;
    QTest::newRow("SMV fast: dxtbx's beam centre") << dxtbx << reference << ".img"
                                                   << "fast" << 0;
    QTest::newRow("SMV: the reference's values would be read elsewhere")
        << reference << dxtbx << ".img"
        << "precise" << 1;
    QTest::newRow("SMV: X and Y swapped") << swapped << reference << ".img"
                                          << "precise" << 1;
    QTest::newRow("SMV: half a pixel off") << halfPixel << reference << ".img"
                                           << "precise" << 1;
    QTest::newRow("SMV: the rest of the header still counts") << otherOrigin << reference
                                                              << ".img"
                                                              << "precise" << 1;

    const QByteArray bytes(240, 'A'), otherBytes(240, 'B');
    const QByteArray pgm = pgmFile(24, 10, "2.41062", bytes);
    const QByteArray rescaled = pgmFile(24, 10, "2.41063", otherBytes);
    QTest::newRow("PGM precise: identical") << pgm << pgm << ".pgm"
                                            << "precise" << 0;
    QTest::newRow("PGM precise: another scale") << rescaled << pgm << ".pgm"
                                                << "precise" << 1;
    QTest::newRow("PGM fast: the scale and pixels follow the float image")
        << rescaled << pgm << ".pgm"
        << "fast" << 0;
    QTest::newRow("PGM fast: the size does not")
        << pgmFile(20, 12, "2.41062", bytes) << pgm << ".pgm"
        << "fast" << 1;
}

void TestCompare::integerImages() {
    QFETCH(QByteArray, candidate);
    QFETCH(QByteArray, reference);
    QFETCH(QString, suffix);
    QFETCH(QString, bar);
    QFETCH(int, exitCode);
    const Result r = runCompare(candidate, reference, suffix, {"--pixels", "--bar", bar});
    QVERIFY2(r.exitCode == exitCode, qPrintable(r.output));
}

QTEST_GUILESS_MAIN(TestCompare)
#include "tst_compare.moc"
