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
//
// It knows the main window as a QMainWindow and the few parts below (Viewer), and the lessons
// as the PresentedLessons it drives (LessonController is one), so that neither the main
// window's header nor the lessons' is included here.

#include <QByteArray>
#include <QObject>
#include <QRect>

#include <functional>

class QAction;
class QMainWindow;

namespace bv::render {
class ImageWindow;
}

namespace bv::app {

class LessonDock;
class Overlays;
class ReciprocalDock;

// What the presentation mode drives of the lessons (LessonController.h says what each does).
class PresentedLessons {
  public:
    virtual int current() const = 0; // -1: none open
    virtual void openNext(int delta = 1) = 0;
    virtual LessonDock& dock() = 0;
    virtual bool reciprocalShownByLesson() const = 0;
    virtual void setReciprocalShownByLesson(bool byLesson) = 0;
    virtual void applyViews() = 0;
    virtual int focusedField() const = 0;
    virtual void focusField(int index) = 0;
    virtual void focusNext(int delta = 1) = 0;
    virtual void stepFocused(int steps, bool large) = 0;

  protected:
    ~PresentedLessons() = default;
};

class PresentationMode : public QObject {
    Q_OBJECT

  public:
    static constexpr double kOverlayScale = 2.5;

    // What it uses of the main window besides the QMainWindow (menus, docks, full screen).
    struct Viewer {
        QMainWindow& window;
        render::ImageWindow& image; // fitted to the screen, its overlay drawn again
        QWidget* imageContainer;    // its resizes fit the image again
        Overlays& overlays;         // scaled for a projector
        ReciprocalDock& reciprocal; // shown between the image and the lesson where named
        std::function<void()> togglePhi; // Enter: play / pause phi (the tool bar's)
    };

    PresentationMode(const Viewer& viewer, PresentedLessons& lessons);

    QAction* action() const { return m_action; } // checkable, F5
    bool isActive() const { return m_active; }
    void enter();
    void leave();
    // The area presenting takes instead of the screen (the screenshot mode's --size);
    // an empty QRect: the screen.
    void setStage(const QRect& area) { m_stage = area; }
    QRect stage() const;
    // Lays the docks out on the stage: the image, the Reciprocal space dock where it is
    // shown, the Lesson dock. Again after each lesson (LessonController::applyViews).
    void arrange();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

  private:
    bool handleKey(int key, Qt::KeyboardModifiers modifiers);
    void fitLater();

    Viewer m_viewer;
    QMainWindow& m_window;
    PresentedLessons& m_lessons;
    QAction* m_action = nullptr;
    bool m_active = false;
    // what leave() restores
    QByteArray m_state;
    Qt::WindowStates m_windowState;
    QRect m_geometry;
    bool m_menuBarVisible = true, m_statusBarVisible = true;
    bool m_reciprocalByLesson = false;
    QRect m_stage;
};

} // namespace bv::app
