// readMtz, readReflectionCif, readModelFactors: crystallographers' files -> the P1 table.
// The files are made here (MTZ with gemmi's writer, mmCIF and PDB as text); every expected
// value is worked out by hand: the P1 mates from the space group's rotations, |F| of a model
// from the International Tables' form factor of carbon.

#include "compute/io/StructureFactorFiles.h"
#include "compute/core/Error.h"

#define GEMMI_WRITE_IMPLEMENTATION // gemmi's MTZ writer, compiled here (only the test writes)
#include <gemmi/mtz.hpp>

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <cmath>
#include <sstream>

namespace {

struct Row {
    int h, k, l;
    float FP, SIGFP, IMEAN;
};

// An MTZ of cell 30 40 50 90 100 90 with columns H K L FP (F) SIGFP (Q) IMEAN (J).
// `group` empty: no space group in the header.
std::string writeMtz(const QTemporaryDir& dir, const QString& name, const char* group,
                     const std::vector<Row>& rows, bool intensitiesOnly = false) {
    gemmi::Mtz mtz(true);
    if (group && *group) {
        mtz.spacegroup = gemmi::find_spacegroup_by_name(group);
        mtz.spacegroup_number = mtz.spacegroup->ccp4;
        mtz.spacegroup_name = mtz.spacegroup->hm;
    }
    mtz.set_cell_for_all(gemmi::UnitCell(30, 40, 50, 90, 100, 90));
    mtz.add_dataset("crystal");
    if (!intensitiesOnly) {
        mtz.add_column("FP", 'F', -1, -1, false);
        mtz.add_column("SIGFP", 'Q', -1, -1, false);
    }
    mtz.add_column("IMEAN", 'J', -1, -1, false);
    std::vector<float> data;
    for (const Row& r : rows) {
        data.insert(data.end(), {float(r.h), float(r.k), float(r.l)});
        if (!intensitiesOnly)
            data.insert(data.end(), {r.FP, r.SIGFP});
        data.push_back(r.IMEAN);
    }
    mtz.set_data(data.data(), data.size());
    const std::string path = dir.filePath(name).toStdString();
    mtz.write_to_file(path);
    return path;
}

std::string writeText(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
        qFatal("cannot write %s", qPrintable(path));
    return path.toStdString();
}

// the message of the bv::Error that `read` throws ("" if none)
template <typename Read> std::string errorOf(Read&& read) {
    try {
        read();
    } catch (const bv::Error& e) {
        return e.what();
    }
    return "";
}

// The grid's points that hold a value other than defaultF, as "h k l F" lines.
QStringList listed(const bv::StructureFactors& sf) {
    QStringList out;
    for (int h = sf.hMin; h <= sf.hMax; ++h)
        for (int k = sf.kMin; k <= sf.kMax; ++k)
            for (int l = sf.lMin; l <= sf.lMax; ++l)
                if (sf.amplitude(h, k, l) != sf.defaultF)
                    out << QStringLiteral("%1 %2 %3 %4").arg(h).arg(k).arg(l).arg(sf.amplitude(h, k, l));
    out.sort();
    return out;
}

// International Tables vol. C (1992), table 6.1.1.4: carbon's four Gaussians and constant
double carbonFormFactor(double stol2) {
    const double a[] = {2.31, 1.02, 1.5886, 0.865}, b[] = {20.8439, 10.2075, 0.5687, 51.6512};
    double f = 0.2156;
    for (int i = 0; i < 4; ++i)
        f += a[i] * std::exp(-b[i] * stol2);
    return f;
}

QByteArray pdbModel(const char* group, const std::vector<std::array<double, 4>>& carbons) {
    QByteArray text = QString::asprintf("CRYST1%9.3f%9.3f%9.3f%7.2f%7.2f%7.2f %-11s%4d\n", 10.0,
                                        10.0, 10.0, 90.0, 90.0, 90.0, group, 1)
                          .toLatin1();
    int serial = 1;
    for (const auto& c : carbons)
        text += QString::asprintf("ATOM  %5d  C   GLY A%4d    %8.3f%8.3f%8.3f%6.2f%6.2f          "
                                  " C\n",
                                  serial, serial, c[0], c[1], c[2], 1.0, c[3])
                    .toLatin1();
    return text + "END\n";
}

} // namespace

class TestStructureFactorFiles : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

  private slots:
    // P 1 21 1 turns (h, k, l) into (-h, k, -l); with the Friedel mates each general
    // reflection stands at four indices, one with k = 0 at two.
    void mtzAmplitudesExpandToP1() {
        const std::string path =
            writeMtz(m_dir, "p21.mtz", "P 1 21 1", {{1, 2, 3, 10, 1, 400}, {2, 0, 1, 5, 0.5, -4}});
        std::ostringstream log;
        const bv::StructureFactors sf = bv::io::readMtz(path, "", 7.0, log);
        QCOMPARE(listed(sf), QStringList({"-1 -2 -3 10", "-1 2 -3 10", "-2 0 -1 5", "1 -2 3 10",
                                          "1 2 3 10", "2 0 1 5"}));
        QCOMPARE(sf.reflectionCount, std::size_t(6));
        QCOMPARE(sf.hMin, -2);
        QCOMPARE(sf.hMax, 2);
        QCOMPARE(sf.kMin, -2);
        QCOMPARE(sf.lMax, 3);
        QCOMPARE(sf.amplitude(1, 2, -3), 7.0); // not a mate of (1 2 3) in P 1 21 1
        QCOMPARE(sf.amplitude(9, 9, 9), 7.0);  // off the grid
        QVERIFY2(log.str().find("column FP (amplitudes)") != std::string::npos, log.str().c_str());
        QVERIFY2(log.str().find("P 1 21 1") != std::string::npos, log.str().c_str());
    }

    // IMEAN: sqrt of 400 is 20, and the negative -4 an F of 0
    void mtzIntensitiesTakeTheSquareRoot() {
        const std::string path =
            writeMtz(m_dir, "p21i.mtz", "P 1 21 1", {{1, 2, 3, 10, 1, 400}, {2, 0, 1, 5, 0.5, -4}});
        std::ostringstream log;
        const bv::StructureFactors sf = bv::io::readMtz(path, "IMEAN", 7.0, log);
        QCOMPARE(sf.amplitude(-1, 2, -3), 20.0);
        QCOMPARE(sf.amplitude(-2, 0, -1), 0.0);
        QVERIFY2(log.str().find("1 negative intensities") != std::string::npos, log.str().c_str());
        // with no amplitude column, the first intensities are taken
        const std::string onlyI = writeMtz(m_dir, "onlyi.mtz", "P 1 21 1",
                                           {{1, 2, 3, 0, 0, 9}}, /*intensitiesOnly=*/true);
        QCOMPARE(bv::io::readMtz(onlyI, "", 0.0, log).amplitude(1, -2, 3), 3.0);
    }

    // P 41: the four-fold turns (h, k) into (k, -h); eight indices with the Friedel mates.
    // A missing value (NaN) is skipped.
    void mtzTetragonal() {
        const std::string path = writeMtz(m_dir, "p41.mtz", "P 41",
                                          {{1, 2, 3, 6, 1, 36}, {3, 3, 3, NAN, 1, 1}});
        std::ostringstream log;
        const bv::StructureFactors sf = bv::io::readMtz(path, "FP", 0.0, log);
        QCOMPARE(listed(sf), QStringList({"-1 -2 -3 6", "-1 -2 3 6", "-2 1 -3 6", "-2 1 3 6",
                                          "1 2 -3 6", "1 2 3 6", "2 -1 -3 6", "2 -1 3 6"}));
    }

    void mtzErrors() {
        const std::string good = writeMtz(m_dir, "good.mtz", "P 1 21 1", {{1, 2, 3, 10, 1, 400}});
        std::ostringstream log;
        const std::string missing = m_dir.filePath("absent.mtz").toStdString();
        QVERIFY(errorOf([&] { bv::io::readMtz(missing, "", 0, log); }).find("absent.mtz") !=
                std::string::npos);
        const std::string noColumn = errorOf([&] { bv::io::readMtz(good, "FOBS", 0, log); });
        QVERIFY2(noColumn.find("no column FOBS") != std::string::npos &&
                     noColumn.find("FP (F)") != std::string::npos,
                 noColumn.c_str());
        const std::string sigma = errorOf([&] { bv::io::readMtz(good, "SIGFP", 0, log); });
        QVERIFY2(sigma.find("type Q") != std::string::npos, sigma.c_str());
        // the space group's records (SYMINF, SYMM) renamed: gemmi skips unknown records
        const std::string withGroup =
            writeMtz(m_dir, "withgroup.mtz", "P 1 21 1", {{1, 2, 3, 10, 1, 400}});
        QFile original(QString::fromStdString(withGroup));
        QVERIFY(original.open(QIODevice::ReadOnly));
        QByteArray bytes = original.readAll();
        QVERIFY(bytes.contains("SYMINF") && bytes.contains("SYMM "));
        bytes.replace("SYMINF", "XYMINF").replace("SYMM ", "XYMM ");
        const std::string noGroup = writeText(m_dir, "nogroup.mtz", bytes);
        const std::string group = errorOf([&] { bv::io::readMtz(noGroup, "", 0, log); });
        QVERIFY2(group.find("no space group") != std::string::npos, group.c_str());
        const std::string text = writeText(m_dir, "text.mtz", "1 2 3 10\n");
        const std::string notMtz = errorOf([&] { bv::io::readMtz(text, "", 0, log); });
        QVERIFY2(notMtz.find("not a readable MTZ") != std::string::npos, notMtz.c_str());
        // an NCOL record announcing more reflections than the file holds
        QByteArray counted = bytes;
        const qsizetype ncol = counted.indexOf("NCOL");
        QVERIFY(ncol > 0);
        counted.replace(ncol, 80, QByteArray("NCOL    6  999999999        0").leftJustified(80, ' '));
        const std::string hugePath = writeText(m_dir, "huge.mtz", counted);
        const std::string huge = errorOf([&] { bv::io::readMtz(hugePath, "", 0, log); });
        QVERIFY2(huge.find("999999999 reflections") != std::string::npos, huge.c_str());
        const std::string negative = writeMtz(m_dir, "neg.mtz", "P 1", {{1, 2, 3, -1, 1, 1}});
        const std::string amplitude = errorOf([&] { bv::io::readMtz(negative, "FP", 0, log); });
        QVERIFY2(amplitude.find("reflection 1 2 3") != std::string::npos, amplitude.c_str());
    }

    void cifReflections() {
        const QByteArray head = "data_r1xyzsf\n_cell.length_a 30\n_cell.length_b 40\n"
                                "_cell.length_c 50\n_cell.angle_alpha 90\n_cell.angle_beta 100\n"
                                "_cell.angle_gamma 90\n";
        const QByteArray loop = "loop_\n_refln.index_h\n_refln.index_k\n_refln.index_l\n"
                                "_refln.F_meas_au\n_refln.F_meas_sigma_au\n_refln.intensity_meas\n"
                                "1 2 3 10.0 1.0 400\n2 0 1 5.0 0.5 -4\n3 1 1 ? ? 9\n";
        const std::string path = writeText(
            m_dir, "r1xyzsf.cif", head + "_symmetry.space_group_name_H-M 'P 1 21 1'\n" + loop);
        std::ostringstream log;
        const bv::StructureFactors F = bv::io::readReflectionCif(path, "", 0.0, log);
        QCOMPARE(listed(F), QStringList({"-1 -2 -3 10", "-1 2 -3 10", "-2 0 -1 5", "1 -2 3 10",
                                         "1 2 3 10", "2 0 1 5"}));
        QVERIFY2(log.str().find("column F_meas_au") != std::string::npos, log.str().c_str());
        const bv::StructureFactors I =
            bv::io::readReflectionCif(path, "_refln.intensity_meas", 0.0, log);
        QCOMPARE(I.amplitude(1, -2, 3), 20.0);
        QCOMPARE(I.amplitude(2, 0, 1), 0.0);
        QCOMPARE(I.amplitude(-3, 1, -1), 3.0); // (3 1 1) under (-h, k, -l)
        QCOMPARE(I.amplitude(-3, -1, -1), 3.0);

        const std::string noColumn =
            errorOf([&] { bv::io::readReflectionCif(path, "F_calc", 0.0, log); });
        QVERIFY2(noColumn.find("no column F_calc") != std::string::npos &&
                     noColumn.find("F_meas_au") != std::string::npos,
                 noColumn.c_str());
        const std::string noGroupPath = writeText(m_dir, "nogroup.cif", head + loop);
        const std::string noGroup =
            errorOf([&] { bv::io::readReflectionCif(noGroupPath, "", 0.0, log); });
        QVERIFY2(noGroup.find("no space group") != std::string::npos, noGroup.c_str());
        const std::string halfPath = writeText(
            m_dir, "half.cif",
            head + "_symmetry.space_group_name_H-M 'P 1'\nloop_\n_refln.index_h\n_refln.index_k\n"
                   "_refln.index_l\n_refln.F_meas_au\n1.5 2 3 10\n");
        const std::string half = errorOf([&] { bv::io::readReflectionCif(halfPath, "", 0.0, log); });
        QVERIFY2(half.find("Miller index 1.5") != std::string::npos, half.c_str());
        const std::string noLoopPath = writeText(m_dir, "noloop.cif", head);
        const std::string noLoop =
            errorOf([&] { bv::io::readReflectionCif(noLoopPath, "", 0.0, log); });
        QVERIFY2(noLoop.find("no _refln") != std::string::npos, noLoop.c_str());
        const std::string brokenPath = writeText(m_dir, "broken.cif", "data_x\nloop_\n_a.b\n'open\n");
        const std::string broken =
            errorOf([&] { bv::io::readReflectionCif(brokenPath, "", 0.0, log); });
        QVERIFY2(broken.find("not a readable mmCIF") != std::string::npos, broken.c_str());
    }

    // One carbon atom in P 1 in a 10 A cube: |F(hkl)| = f_C(s) exp(-B s^2/4), with
    // s^2 = 1/d^2 = (h^2 + k^2 + l^2) / 100, wherever the atom is.
    void modelOneAtom() {
        const std::string path =
            writeText(m_dir, "one.pdb", pdbModel("P 1", {{1.0, 2.0, 3.0, 20.0}}));
        std::ostringstream log;
        const bv::StructureFactors sf = bv::io::readModelFactors(path, 3.0, -1.0, log);
        // to 3 A: h^2 + k^2 + l^2 <= 11.1, so indices -3..3
        QCOMPARE(sf.hMin, -3);
        QCOMPARE(sf.hMax, 3);
        QCOMPARE(sf.lMin, -3);
        for (const auto& hkl : {std::array<int, 3>{0, 0, 0}, {1, 0, 0}, {1, 2, -2}, {-3, 1, 0},
                                {0, -2, 2}, {3, 1, 1}}) {
            const double stol2 = (hkl[0] * hkl[0] + hkl[1] * hkl[1] + hkl[2] * hkl[2]) / 400.0;
            const double expected = carbonFormFactor(stol2) * std::exp(-20.0 * stol2);
            const double got = sf.amplitude(hkl[0], hkl[1], hkl[2]);
            QVERIFY2(std::fabs(got - expected) < 1e-9 * expected,
                     qPrintable(QStringLiteral("%1 %2 %3: %4, expected %5")
                                    .arg(hkl[0]).arg(hkl[1]).arg(hkl[2]).arg(got).arg(expected)));
        }
        QCOMPARE(sf.amplitude(3, 2, 0), -1.0);  // d = 2.77 A, beyond 3 A: defaultF
        QCOMPARE(sf.amplitude(1, 2, -3), -1.0); // d = 2.67 A
        QCOMPARE(sf.amplitude(0, 0, 0), carbonFormFactor(0)); // 6 electrons, 5.9992
    }

    // P -1 puts a second carbon at -x: |F| = 2 f_C |cos(2 pi h.x)| exp(-B s^2/4), a test of
    // the symmetry the calculation applies (the asymmetric unit is half the sphere, the
    // expansion the other half)
    void modelCentrosymmetric() {
        const std::string path =
            writeText(m_dir, "pbar1.pdb", pdbModel("P -1", {{1.0, 2.0, 3.0, 10.0}}));
        std::ostringstream log;
        // to 2.45 A: h^2 + k^2 + l^2 <= 16.7, no index on the limit
        const bv::StructureFactors sf = bv::io::readModelFactors(path, 2.45, 0.0, log);
        int checked = 0;
        for (int h = -4; h <= 4; ++h)
            for (int k = -4; k <= 4; ++k)
                for (int l = -4; l <= 4; ++l) {
                    const double s2 = (h * h + k * k + l * l) / 100.0;
                    if (h * h + k * k + l * l > 16)
                        continue;
                    const double stol2 = s2 / 4.0;
                    const double expected =
                        2.0 * carbonFormFactor(stol2) * std::exp(-10.0 * stol2) *
                        std::fabs(std::cos(2.0 * M_PI * (0.1 * h + 0.2 * k + 0.3 * l)));
                    QVERIFY2(std::fabs(sf.amplitude(h, k, l) - expected) < 1e-9 * 12.0,
                             qPrintable(QStringLiteral("%1 %2 %3").arg(h).arg(k).arg(l)));
                    ++checked;
                }
        QCOMPARE(checked, 257); // the integer points within radius 4 (h^2 + k^2 + l^2 <= 16)
        QVERIFY2(log.str().find("1 atoms") != std::string::npos, log.str().c_str());
    }

    // The same through mmCIF: one oxygen in P 21 21 21 is four in the cell, so F(000) is four
    // times oxygen's electrons by the Tables' coefficients (3.0485 + 2.2868 + 1.5463 + 0.867
    // + 0.2508 = 7.9994), whatever the B factor; and the _space_group item is read when the
    // reflections' file has no _symmetry one
    void modelFromMmcif() {
        const QByteArray cell = "_cell.length_a 12\n_cell.length_b 12\n_cell.length_c 12\n"
                                "_cell.angle_alpha 90\n_cell.angle_beta 90\n_cell.angle_gamma 90\n";
        const std::string path = writeText(
            m_dir, "water.cif",
            "data_water\n" + cell +
                "_symmetry.space_group_name_H-M 'P 21 21 21'\nloop_\n_atom_site.group_PDB\n"
                "_atom_site.id\n_atom_site.type_symbol\n_atom_site.label_alt_id\n"
                "_atom_site.label_atom_id\n_atom_site.label_comp_id\n_atom_site.label_asym_id\n"
                "_atom_site.label_seq_id\n_atom_site.Cartn_x\n_atom_site.Cartn_y\n"
                "_atom_site.Cartn_z\n_atom_site.occupancy\n_atom_site.B_iso_or_equiv\n"
                "_atom_site.auth_seq_id\n_atom_site.auth_asym_id\n"
                "ATOM 1 O . O HOH A 1 1.5 2.5 3.5 1.0 15.0 1 A\n");
        std::ostringstream log;
        const bv::StructureFactors sf = bv::io::readModelFactors(path, 2.9, 0.0, log);
        QVERIFY(std::fabs(sf.amplitude(0, 0, 0) - 4 * 7.9994) < 1e-9);
        QVERIFY2(log.str().find("P 21 21 21") != std::string::npos, log.str().c_str());
        // (h 0 0): the four x are x, 1/2 - x, -x, 1/2 + x, so F = 2 cos(2 pi h x) (1 + (-1)^h) f:
        // 0 for odd h (the screw axis), 4 f cos(2 pi h / 8) for even h at x = 1.5 / 12 = 1/8,
        // so |F(4 0 0)| = 4 f_O exp(-B s^2 / 4) at s = 1/3 A^-1
        const double stol2 = 1.0 / 36.0;
        const double a[] = {3.0485, 2.2868, 1.5463, 0.867}, b[] = {13.2771, 5.7011, 0.3239, 32.9089};
        double fO = 0.2508;
        for (int i = 0; i < 4; ++i)
            fO += a[i] * std::exp(-b[i] * stol2);
        QVERIFY(sf.amplitude(1, 0, 0) < 1e-9 && sf.amplitude(3, 0, 0) < 1e-9);
        QVERIFY2(std::fabs(sf.amplitude(4, 0, 0) - 4 * fO * std::exp(-15.0 * stol2)) < 1e-9,
                 qPrintable(QString::number(sf.amplitude(4, 0, 0))));

        const std::string sfPath = writeText(
            m_dir, "alt.cif",
            "data_alt\n" + cell +
                "_space_group.name_H-M_alt 'P 41'\nloop_\n_refln.index_h\n_refln.index_k\n"
                "_refln.index_l\n_refln.F_meas_au\n1 2 3 6\n");
        QCOMPARE(bv::io::readReflectionCif(sfPath, "", 0.0, log).amplitude(2, -1, 3), 6.0);
    }

    void modelErrors() {
        std::ostringstream log;
        const std::string noCell = writeText(
            m_dir, "nocell.pdb",
            "ATOM      1  C   GLY A   1       1.000   2.000   3.000  1.00 20.00           C\nEND\n");
        const std::string cell = errorOf([&] { bv::io::readModelFactors(noCell, 3.0, 0, log); });
        QVERIFY2(cell.find("no unit cell") != std::string::npos, cell.c_str());
        const std::string empty = writeText(m_dir, "empty.pdb", pdbModel("P 1", {}));
        const std::string atoms = errorOf([&] { bv::io::readModelFactors(empty, 3.0, 0, log); });
        QVERIFY2(atoms.find("no atoms") != std::string::npos, atoms.c_str());
        const std::string one = writeText(m_dir, "one.pdb", pdbModel("P 1", {{1, 2, 3, 20}}));
        const std::string tiny = errorOf([&] { bv::io::readModelFactors(one, 0.001, 0, log); });
        QVERIFY2(tiny.find("larger -model_dmin") != std::string::npos, tiny.c_str());
        // a binary byte in a text model: refused before gemmi reads it (fuzz_model)
        const std::string nul = writeText(m_dir, "nul.pdb", pdbModel("P 1", {{1, 2, 3, 20}}) + QByteArray("\0END\n", 5));
        const std::string binary = errorOf([&] { bv::io::readModelFactors(nul, 3.0, 0, log); });
        QVERIFY2(binary.find("a NUL byte at offset") != std::string::npos, binary.c_str());
        const std::string absent = m_dir.filePath("absent.pdb").toStdString();
        QVERIFY(errorOf([&] { bv::io::readModelFactors(absent, 3.0, 0, log); })
                    .find("absent.pdb") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestStructureFactorFiles)
#include "tst_structurefactorfiles.moc"
