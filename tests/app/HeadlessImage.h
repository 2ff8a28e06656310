#pragma once
// The headless mode's image for what a viewer test shows: the viewer's images must equal it
// bit for bit (tst_viewer, tst_preview).

#include "ViewerHarness.h"
#include "app/HeadlessCommand.h"
#include "compute/headless/Headless.h"
#include "compute/io/FloatImageFile.h"

#include <QTemporaryDir>

#include <sstream>
#include <string>
#include <vector>

namespace bv::test {

inline int runHeadless(const std::vector<std::string>& args) {
    std::ostringstream out, err;
    const int status = headless::runHeadless(args, out, err);
    if (status != 0)
        qWarning("headless: %s", err.str().c_str());
    return status;
}

// The float image `braggview --headless` computes for these arguments (empty on failure).
inline std::vector<float> headlessImage(std::vector<std::string> args) {
    QTemporaryDir dir;
    const std::string floatFile = (dir.path() + QStringLiteral("/h.bin")).toStdString();
    args.insert(args.end(), {"-floatfile", floatFile, "-intfile",
                             (dir.path() + QStringLiteral("/h.img")).toStdString(), "-nonoise",
                             "-nopgm", "-noprogress"});
    if (runHeadless(args) != 0)
        return {};
    return io::readFloatImage(floatFile);
}

// ... and for the experiment on screen ("Copy headless command")
inline std::vector<float> headlessImage(ViewerHarness& v) {
    return headlessImage(
        app::headlessArguments(v.document().commandLine(), v.document().precision()));
}

} // namespace bv::test
