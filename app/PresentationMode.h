#pragma once
// The presentation mode (View > Presentation mode, F5; Esc leaves): the window full screen,
// the image and the Lesson dock alone (menus, tool bar, status bar and the other docks
// hidden; the Reciprocal space dock too, unless the lesson names it: then it stands between
// the image and the lesson, its legend and labels large), the lesson's text and values in
// large type, the overlays' labels and lines 2.5 times their size, and the keyboard in charge
// (whichever widget or view has the focus, the reciprocal view's included):
//
//   Left/Down, Right/Up      step the focused value by its arrow-key step (Shift: large step)
//   Tab, Shift+Tab           the lesson's next / previous field
//   Page Down, N, Space      the next lesson (a presenter's remote sends Page Up/Down)
//   Page Up, P, Backspace    the previous lesson
//   Enter                    play / pause phi (the tool bar's Play phi, hidden here)
//   Esc                      leave
//
// Without an open lesson, entering opens the first. Leaving restores the window as it was.

#include <QByteArray>
#include <QObject>
#include <QRect>

class QAction;

namespace bv::app {

class LessonController;
class MainWindow;

class PresentationMode : public QObject {
    Q_OBJECT

  public:
    static constexpr double kOverlayScale = 2.5;

    PresentationMode(MainWindow& window, LessonController& lessons);

    QAction* action() const { return m_action; } // checkable, F5
    bool isActive() const { return m_active; }
    void enter();
    void leave();
    // Lays the docks out on the screen: the image, the Reciprocal space dock where it is
    // shown, the Lesson dock. Again after each lesson (LessonController::applyViews).
    void arrange();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    bool handleKey(int key, Qt::KeyboardModifiers modifiers);
    void fitLater();

    MainWindow& m_window;
    LessonController& m_lessons;
    QAction* m_action = nullptr;
    bool m_active = false;
    // what leave() restores
    QByteArray m_state;
    Qt::WindowStates m_windowState;
    QRect m_geometry;
    bool m_menuBarVisible = true, m_statusBarVisible = true;
    bool m_reciprocalByLesson = false;
};

} // namespace bv::app
