#include "app/PresentationMode.h"

#include "app/LessonDock.h"
#include "app/Overlays.h"
#include "app/ReciprocalDock.h"
#include "compute/core/Error.h"
#include "render/ImageWindow.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QKeyEvent>
#include <QMainWindow>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

namespace bv::app {

PresentationMode::PresentationMode(const Viewer& viewer, PresentedLessons& lessons)
    : QObject(&viewer.window), m_viewer(viewer), m_window(viewer.window), m_lessons(lessons) {
    m_action = new QAction(tr("&Presentation mode"), this);
    m_action->setObjectName(QStringLiteral("presentationAction"));
    m_action->setCheckable(true);
    m_action->setShortcut(QKeySequence(Qt::Key_F5));
    m_action->setToolTip(tr("Full screen, large type, keyboard only: arrows change the value, "
                            "Tab the next value, Page Down the next lesson, Esc leaves"));
    // on the window too, so that F5 works while the menu bar is hidden
    m_window.addAction(m_action);
    connect(m_action, &QAction::toggled, this, [this](bool on) {
        if (on == m_active)
            return;
        try {
            on ? enter() : leave();
        } catch (const Error& e) {
            m_action->setChecked(false);
            QMessageBox::warning(&m_window, tr("Cannot start the presentation"),
                                 QString::fromUtf8(e.what()));
        }
    });
}

void PresentationMode::enter() {
    if (m_active)
        return;
    if (m_lessons.current() < 0)
        m_lessons.openNext(); // throws where no lesson can be opened: nothing changed yet
    m_active = true;
    m_action->setChecked(true);
    m_state = m_window.saveState();
    m_windowState = m_window.windowState();
    m_geometry = m_window.geometry();
    m_menuBarVisible = m_window.menuBar()->isVisible();
    m_statusBarVisible = m_window.statusBar()->isVisible();
    m_window.menuBar()->hide();
    m_window.statusBar()->hide();
    for (QToolBar* bar : m_window.findChildren<QToolBar*>())
        bar->hide();
    LessonDock& dock = m_lessons.dock();
    ReciprocalDock& reciprocal = m_viewer.reciprocal;
    // every dock away but the lesson's; the lesson's views come back through applyViews(),
    // which then counts them as the lesson's (leave() gives back what the user had)
    m_reciprocalByLesson = m_lessons.reciprocalShownByLesson();
    for (QDockWidget* d : m_window.findChildren<QDockWidget*>())
        if (d != &dock)
            d->hide();
    m_lessons.setReciprocalShownByLesson(false);
    dock.setPresentation(true);
    reciprocal.setPresentation(true);
    m_viewer.overlays.setScale(kOverlayScale);
    m_viewer.image.invalidateOverlay();
    if (m_stage.isEmpty())
        m_window.showFullScreen();
    // without a window manager (Xvfb) full screen is only a hint: take the screen ourselves
    m_window.setGeometry(stage());
    m_lessons.applyViews(); // arranges the docks
    m_lessons.focusField(m_lessons.focusedField());
    m_window.setFocus(Qt::OtherFocusReason);
    qApp->installEventFilter(this);
    fitLater();
}

void PresentationMode::leave() {
    if (!m_active)
        return;
    m_active = false;
    qApp->removeEventFilter(this);
    m_action->setChecked(false);
    m_lessons.dock().setPresentation(false);
    m_lessons.dock().setShared(false);
    m_viewer.reciprocal.setPresentation(false);
    m_viewer.overlays.setScale(1.0);
    m_viewer.image.invalidateOverlay();
    m_window.setWindowState(m_windowState);
    if (!(m_windowState & (Qt::WindowFullScreen | Qt::WindowMaximized)))
        m_window.setGeometry(m_geometry);
    m_window.restoreState(m_state);
    m_window.menuBar()->setVisible(m_menuBarVisible);
    m_window.statusBar()->setVisible(m_statusBarVisible);
    // the docks as they were, then the current lesson's views (it may not be the one the
    // presentation started on)
    m_lessons.setReciprocalShownByLesson(m_reciprocalByLesson);
    m_lessons.applyViews();
    m_lessons.focusField(m_lessons.focusedField());
    fitLater();
}

void PresentationMode::arrange() {
    LessonDock& dock = m_lessons.dock();
    ReciprocalDock& reciprocal = m_viewer.reciprocal;
    m_window.addDockWidget(Qt::RightDockWidgetArea, &dock); // moved there, if it was elsewhere
    dock.setFloating(false);
    dock.show();
    const QRect screen = stage();
    dock.setShared(!reciprocal.isHidden());
    if (reciprocal.isHidden()) {
        // the image a square of the screen's height, the rest the lesson's
        m_window.resizeDocks({&dock},
                             {std::max(screen.width() - screen.height(), screen.width() / 3)},
                             Qt::Horizontal);
    } else {
        // three columns: the image, the construction that explains it, the text (in its
        // slightly smaller shared size, read whole without scrolling on 1920 x 1080)
        m_window.addDockWidget(Qt::RightDockWidgetArea, &reciprocal);
        reciprocal.setFloating(false);
        m_window.splitDockWidget(&reciprocal, &dock, Qt::Horizontal);
        const int text = std::max(screen.width() * 7 / 20, 400);
        const int ewald = std::max(screen.width() * 3 / 10, 300);
        m_window.resizeDocks({&reciprocal, &dock}, {ewald, text}, Qt::Horizontal);
    }
    fitLater();
}

QRect PresentationMode::stage() const {
    if (!m_stage.isEmpty())
        return m_stage;
    return m_window.screen() ? m_window.screen()->geometry() : m_window.geometry();
}

void PresentationMode::fitLater() {
    // after the layout has given the image its new size
    QTimer::singleShot(0, this, [this] { m_viewer.image.fitToWindow(); });
}

bool PresentationMode::eventFilter(QObject* watched, QEvent* event) {
    if (!m_active)
        return false;
    if (event->type() == QEvent::Resize && watched == m_viewer.imageContainer)
        fitLater();
    if (event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        // the window's keys only (its widgets and the image's QWindow), not a dialog's
        QWidget* active = QApplication::activeWindow();
        if (active && active != &m_window)
            return false;
        return handleKey(key->key(), key->modifiers());
    }
    return false;
}

bool PresentationMode::handleKey(int key, Qt::KeyboardModifiers modifiers) {
    const bool large = modifiers & Qt::ShiftModifier;
    try {
        switch (key) {
        case Qt::Key_Escape:
            leave();
            return true;
        case Qt::Key_Right:
        case Qt::Key_Up:
            m_lessons.stepFocused(1, large);
            return true;
        case Qt::Key_Left:
        case Qt::Key_Down:
            m_lessons.stepFocused(-1, large);
            return true;
        case Qt::Key_Tab:
            m_lessons.focusNext(1);
            return true;
        case Qt::Key_Backtab:
            m_lessons.focusNext(-1);
            return true;
        case Qt::Key_PageDown:
        case Qt::Key_N:
        case Qt::Key_Space:
            m_lessons.openNext(1);
            return true;
        case Qt::Key_PageUp:
        case Qt::Key_P:
        case Qt::Key_Backspace:
            m_lessons.openNext(-1);
            return true;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            m_viewer.togglePhi();
            return true;
        default:
            return false;
        }
    } catch (const Error& e) {
        QMessageBox::warning(&m_window, tr("Cannot open the lesson"), QString::fromUtf8(e.what()));
        return true;
    }
}

} // namespace bv::app
