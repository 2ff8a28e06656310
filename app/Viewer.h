#pragma once
// The viewer's entry points, called by main(): the interactive window, and the screenshot
// mode (the window opened on an experiment, grabbed whole once the image is complete).

#include <QImage>

#include <string>
#include <vector>

namespace bv::app {

class MainWindow;

struct ViewerOptions {
    std::vector<std::string> arguments; // nanoBragg's; empty: the built-in demo experiment
    std::string session;                // a session file to open instead (JSON)
    std::string lesson;                 // a built-in lesson's name to open instead
    bool presentation = false;          // and show it in the presentation mode
    std::string screenshot;             // PNG to write, then exit
    QSize windowSize;                   // empty: the window's own (1500 x 950; presenting,
                                        // the screen); else this, presenting too
    int timeoutSeconds = 600;           // screenshot mode: give up after this long
};

// Whether a window system is there to show a window on (X11 or Wayland, or a QPA platform
// named explicitly).
bool haveDisplay();

// Runs the viewer (QApplication, Vulkan instance, main window) until it is closed, or in
// screenshot mode until the PNG is written. Returns the exit status; errors go to stderr (and
// a dialog when interactive).
int runViewer(int argc, char** argv, const ViewerOptions& options);

// The whole main window as it looks now. The Vulkan surface is read back from the swap chain
// (QVulkanWindow::grab) and drawn where its container sits, because QWidget::grab renders
// only widgets; where the swap chain cannot be read, the image is drawn by the CPU colour
// path (render/Colormap.h) with the same view and overlays.
QImage grabMainWindow(MainWindow& window);

} // namespace bv::app
