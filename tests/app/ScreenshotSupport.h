#pragma once
// What the suites that take screenshots share: where the shots go ($BRAGGVIEW_SCREENSHOT_DIR,
// else screenshots/ beside the test program) and how many colours an area of a shot holds
// (a blank or black view has one or two, an image of spots many).

#include <QCoreApplication>
#include <QDir>
#include <QImage>
#include <QRect>
#include <QString>

#include <set>

namespace bv::test {

inline QString screenshotFolder() {
    const QString dir = qEnvironmentVariableIsSet("BRAGGVIEW_SCREENSHOT_DIR")
                            ? qEnvironmentVariable("BRAGGVIEW_SCREENSHOT_DIR")
                            : QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
    QDir().mkpath(dir);
    return dir;
}

inline int coloursIn(const QImage& shot, const QRect& area) {
    std::set<QRgb> colours;
    for (int y = area.top(); y < area.bottom(); y += 3)
        for (int x = area.left(); x < area.right(); x += 3)
            colours.insert(shot.pixel(x, y));
    return static_cast<int>(colours.size());
}

} // namespace bv::test
