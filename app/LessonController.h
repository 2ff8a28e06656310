#pragma once
// The Lessons menu and what choosing a lesson does: its session is opened, its text shown in
// the Lesson dock beside the image, and the editors it is about marked (a coloured frame, a
// bold label) in the Parameters dock, whose tab switches to the first of them, focused. The
// presentation mode (PresentationMode.h) drives the same object with the keyboard: step the
// focused value, move between the lesson's fields, go to the next lesson.
//
// A lesson that names views (Lesson::views: "reciprocal") shows them while it is open. The
// Reciprocal space dock is shown if it was hidden, and hidden again by the next lesson without
// it (or closing the lesson) only if a lesson had shown it: a dock the user opened stays.

#include "app/Lessons.h"
#include "app/PresentationMode.h"

#include <QObject>

#include <functional>
#include <vector>

class QAction;
class QComboBox;
class QMenu;
class QMenuBar;
class QTabWidget;

namespace bv::app {

class ExperimentDocument;
class LessonDock;
class ParameterField;
class ParameterPanel;
class SimulationController;
struct Session;

// One editor a lesson is about: a number (field) or a choice (choice), in its panel.
struct LessonField {
    QString name;
    ParameterPanel* panel = nullptr;
    ParameterField* field = nullptr;
    QComboBox* choice = nullptr;
    QWidget* marked() const; // the widget that carries the mark (the field, the combo box)
    QString label() const;
    QString valueText() const;
};

class LessonController : public QObject, public PresentedLessons {
    Q_OBJECT

  public:
    // What the lessons use of the main window: what the presentation mode uses (the window,
    // its image, overlays, reciprocal dock and phi animation), the document's changes and
    // the controller's images (they refresh the values shown), the parameter panels and
    // their tabs (a lesson's fields), and how a session is shown (a lesson's own).
    struct Viewer {
        PresentationMode::Viewer window;
        ExperimentDocument& document;
        const SimulationController& controller;
        const std::vector<ParameterPanel*>& panels;
        QTabWidget* parameterTabs;
        std::function<void(const Session&)> showSession;
    };

    // Reads the built-in lessons (a list that cannot be read leaves the menu with the reason).
    explicit LessonController(const Viewer& viewer);

    // The Lessons menu in `bar`, and View > Presentation mode in `view`.
    void addMenus(QMenuBar* bar, QMenu* view);

    const std::vector<Lesson>& lessons() const { return m_lessons; }
    int current() const override { return m_current; } // -1: none open
    // Opens lesson `index`; throws bv::Error (a session or field that cannot be found).
    void openLesson(int index);
    void openNext(int delta = 1) override; // cyclic; opens the first when none is open
    void closeLesson();

    const std::vector<LessonField>& fields() const { return m_fields; }
    int focusedField() const override { return m_focused; }
    void focusField(int index) override;    // also switches the Parameters tab to its panel
    void focusNext(int delta = 1) override; // cyclic
    // Steps the focused value as its arrow keys do (a choice: the next item).
    void stepFocused(int steps, bool large) override;

    // Shows or hides the views beside the image for the current lesson (see above).
    void applyViews() override;
    // Whether the Reciprocal space dock is open because a lesson asked for it (the
    // presentation mode keeps this across its own showing and hiding of docks).
    bool reciprocalShownByLesson() const override { return m_reciprocalByLesson; }
    void setReciprocalShownByLesson(bool byLesson) override { m_reciprocalByLesson = byLesson; }

    LessonDock& dock() override { return *m_dock; }
    PresentationMode& presentation() { return *m_presentation; }

  private:
    void mark(bool on);
    void updateValues();

    Viewer m_viewer;
    QMainWindow& m_window;
    std::vector<Lesson> m_lessons;
    QString m_loadError;
    int m_current = -1;
    std::vector<LessonField> m_fields;
    int m_focused = 0;
    bool m_reciprocalByLesson = false;
    LessonDock* m_dock = nullptr;
    PresentationMode* m_presentation = nullptr;
};

} // namespace bv::app
