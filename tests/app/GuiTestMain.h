#pragma once
// main() for the viewer's Qt Test suites. A Vulkan surface needs a real window system, so each
// suite starts its own X server, Xvfb, on a free display (Xvfb -displayfd picks one, so suites
// run in parallel without meeting) and runs on Qt's xcb platform there, whatever ctest's
// QT_QPA_PLATFORM=offscreen says (an offscreen window has no Vulkan surface). The Vulkan
// driver is whatever the loader finds: lavapipe on a machine without a GPU.
//
// Xvfb writes its display number before its socket necessarily takes connections (tst_session
// once aborted at start, Qt unable to connect to the display just reported), so start() waits,
// at most kSocketWaitMilliseconds, until /tmp/.X11-unix/X<n> exists and accepts a connection.
//
// BRAGGVIEW_TEST_DISPLAY=1 uses the current $DISPLAY instead (to watch a suite run).

#include "app/CommandReader.h"
#include "compute/cli/CommandLine.h"

#include <QApplication>
#include <QTest>

#include <csignal>
#include <fcntl.h>
#include <cstdio>
#include <cstdlib>
#include <spawn.h>
#include <string>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char** environ;

namespace bv::test {

class PrivateXServer {
  public:
    static constexpr int kSocketWaitMilliseconds = 10000;

    // `screen`: Xvfb's "WIDTHxHEIGHTxDEPTH"
    bool start(const char* screen = "1920x1200x24") {
        if (qEnvironmentVariableIntValue("BRAGGVIEW_TEST_DISPLAY") == 1 &&
            qEnvironmentVariableIsSet("DISPLAY")) {
            qputenv("QT_QPA_PLATFORM", "xcb");
            return true;
        }
        int fds[2];
        if (pipe(fds) != 0) {
            std::perror("pipe");
            return false;
        }
        const std::string fd = std::to_string(fds[1]);
        const char* args[] = {"Xvfb", "-displayfd", fd.c_str(), "-screen", "0", screen,
                              "-nolisten", "tcp", nullptr};
        // its chatter about displays already taken goes nowhere, and it holds none of the
        // test's pipes: a test that dies leaves ctest's pipes closed even while the orphaned
        // Xvfb lives on (-displayfd writes to its own fd, fds[1])
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addclose(&actions, fds[0]);
        const int spawned =
            posix_spawnp(&m_pid, "Xvfb", &actions, nullptr, const_cast<char**>(args), environ);
        posix_spawn_file_actions_destroy(&actions);
        if (spawned != 0) {
            std::fprintf(stderr, "cannot start Xvfb (Debian package xvfb)\n");
            m_pid = 0;
            return false;
        }
        close(fds[1]);
        std::string number;
        char c = 0;
        while (read(fds[0], &c, 1) == 1 && c != '\n')
            number += c;
        close(fds[0]);
        if (number.empty()) {
            std::fprintf(stderr, "Xvfb did not report its display\n");
            return false;
        }
        if (!waitForSocket(number))
            return false;
        qputenv("DISPLAY", QByteArray(":") + QByteArray::fromStdString(number));
        qputenv("QT_QPA_PLATFORM", "xcb");
        qunsetenv("WAYLAND_DISPLAY");
        return true;
    }
    ~PrivateXServer() {
        if (m_pid > 0) {
            kill(m_pid, SIGTERM);
            int status = 0;
            waitpid(m_pid, &status, 0);
        }
    }

  private:
    // Until display `number`'s socket accepts a connection (then closed at once: the server
    // takes it as a client that left), Xvfb exits, or kSocketWaitMilliseconds pass.
    bool waitForSocket(const std::string& number) {
        const std::string path = "/tmp/.X11-unix/X" + number;
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        if (path.size() >= sizeof(address.sun_path)) {
            std::fprintf(stderr, "Xvfb's socket path %s is too long\n", path.c_str());
            return false;
        }
        std::snprintf(address.sun_path, sizeof(address.sun_path), "%s", path.c_str());
        const timespec pause{0, 20 * 1000 * 1000}; // 20 ms between tries
        for (int waited = 0; waited < kSocketWaitMilliseconds; waited += 20) {
            int status = 0;
            if (waitpid(m_pid, &status, WNOHANG) == m_pid) {
                m_pid = 0;
                std::fprintf(stderr, "Xvfb exited before display :%s took connections\n",
                             number.c_str());
                return false;
            }
            if (access(path.c_str(), F_OK) == 0) {
                const int s = socket(AF_UNIX, SOCK_STREAM, 0);
                if (s >= 0) {
                    const bool connected =
                        connect(s, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
                    close(s);
                    if (connected)
                        return true;
                }
            }
            nanosleep(&pause, nullptr);
        }
        std::fprintf(stderr,
                     "Xvfb reported display :%s, but its socket %s took no connection within "
                     "%d ms\n",
                     number.c_str(), path.c_str(), kSocketWaitMilliseconds);
        return false;
    }

    pid_t m_pid = 0;
};

} // namespace bv::test

#define BV_GUI_TEST_MAIN(TestClass) BV_GUI_TEST_MAIN_ON_SCREEN(TestClass, "1920x1200x24")

// The same on a screen of that size ("1920x1080x24": a projector's, for the presentation mode).
#define BV_GUI_TEST_MAIN_ON_SCREEN(TestClass, screen)                                            \
    int main(int argc, char** argv) {                                                            \
        bv::test::PrivateXServer server;                                                         \
        if (!server.start(screen))                                                               \
            return 1;                                                                            \
        bv::app::setCommandReader([](const std::vector<std::string>& words) {                    \
            return bv::cli::parseCommandLine(words);                                             \
        });                                                                                      \
        QApplication application(argc, argv);                                                    \
        TestClass test;                                                                          \
        return QTest::qExec(&test, argc, argv);                                                  \
    }
