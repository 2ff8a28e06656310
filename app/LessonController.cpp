#include "app/LessonController.h"

#include "app/ExperimentDocument.h"
#include "app/LessonDock.h"
#include "app/ParameterPanels.h"
#include "app/ReciprocalDock.h"
#include "app/Session.h"
#include "app/SimulationController.h"
#include "compute/core/Error.h"
#include "render/ImageWindow.h"
#include "render/ReciprocalWindow.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScrollArea>
#include <QTabWidget>
#include <QTimer>

#include <algorithm>

namespace bv::app {

QWidget* LessonField::marked() const {
    return field ? static_cast<QWidget*>(field) : choice;
}

QString LessonField::label() const {
    if (field)
        return field->binding().label;
    // a choice's label is the other widget of its row (ParameterPanel::addChoice)
    const QLabel* text = choice->parentWidget()->findChild<QLabel*>();
    return text ? text->text() : name;
}

QString LessonField::valueText() const {
    return field ? field->spinBox()->text() : choice->currentText();
}

LessonController::LessonController(const Viewer& viewer)
    : QObject(&viewer.window.window), m_viewer(viewer), m_window(viewer.window.window) {
    QMainWindow& window = m_window;
    try {
        m_lessons = readLessons();
    } catch (const Error& e) {
        m_loadError = QString::fromUtf8(e.what());
    }
    m_dock = new LessonDock(&window);
    // under the Parameters, beside the image and next to the sliders the text talks about
    if (auto* parameters = window.findChild<QDockWidget*>(QStringLiteral("parametersDock")))
        window.splitDockWidget(parameters, m_dock, Qt::Vertical);
    else
        window.addDockWidget(Qt::LeftDockWidgetArea, m_dock);
    m_dock->hide();
    m_presentation = new PresentationMode(m_viewer.window, *this);
    // queued: the panels have read the document again by then
    connect(&m_viewer.document, &ExperimentDocument::changed, this, &LessonController::updateValues,
            Qt::QueuedConnection);
    connect(&m_viewer.controller, &SimulationController::imageReady, this,
            &LessonController::updateValues, Qt::QueuedConnection);
}

void LessonController::addMenus(QMenuBar* bar, QMenu* view) {
    QMenu* menu = bar->addMenu(tr("&Lessons"));
    menu->setObjectName(QStringLiteral("lessonsMenu"));
    if (!m_loadError.isEmpty())
        menu->addAction(tr("The lessons cannot be read: %1").arg(m_loadError))->setEnabled(false);
    for (std::size_t i = 0; i < m_lessons.size(); ++i) {
        const int index = static_cast<int>(i);
        menu->addAction(QStringLiteral("&%1 %2").arg(index + 1).arg(m_lessons[i].title), this,
                        [this, index] {
                            try {
                                openLesson(index);
                            } catch (const Error& e) {
                                QMessageBox::warning(&m_window, tr("Cannot open the lesson"),
                                                     QString::fromUtf8(e.what()));
                            }
                        });
    }
    menu->addSeparator();
    menu->addAction(tr("&Next lesson"), QKeySequence(tr("Ctrl+PgDown")), this,
                    [this] { openNext(1); });
    menu->addAction(tr("&Previous lesson"), QKeySequence(tr("Ctrl+PgUp")), this,
                    [this] { openNext(-1); });
    menu->addAction(tr("&Close lesson"), this, &LessonController::closeLesson);
    view->addSeparator();
    view->addAction(m_presentation->action());
}

void LessonController::openLesson(int index) {
    if (index < 0 || index >= static_cast<int>(m_lessons.size()))
        throw Error("no lesson " + std::to_string(index + 1));
    const Lesson& lesson = m_lessons[static_cast<std::size_t>(index)];
    std::vector<LessonField> fields;
    for (const QString& name : lesson.fields) {
        LessonField f;
        f.name = name;
        for (ParameterPanel* p : m_viewer.panels) {
            if ((f.field = p->field(name)) || (f.choice = p->findChild<QComboBox*>(name))) {
                f.panel = p;
                break;
            }
        }
        if (!f.panel)
            throw Error(lesson.folder.toStdString() + "/lessons.json: lesson \"" +
                        lesson.name.toStdString() + "\" names the field \"" + name.toStdString() +
                        "\", which no parameter panel has");
        fields.push_back(f);
    }
    m_viewer.showSession(lessonSession(lesson));
    m_viewer.window.image.fitToWindow(); // a lesson's session shows the whole image
    mark(false);
    m_current = index;
    m_fields = std::move(fields);
    mark(true);
    m_dock->showLesson(lesson, index, static_cast<int>(m_lessons.size()));
    if (!m_dock->isVisible()) {
        m_dock->show();
        if (auto* parameters = m_window.findChild<QDockWidget*>(QStringLiteral("parametersDock"));
            parameters && !m_presentation->isActive())
            m_window.resizeDocks({parameters, m_dock}, {55, 45}, Qt::Vertical);
    }
    applyViews();
    focusField(0); // after the views: the keys stay with the lesson's editor
}

void LessonController::openNext(int delta) {
    const int n = static_cast<int>(m_lessons.size());
    if (n == 0)
        return;
    openLesson(m_current < 0 ? 0 : ((m_current + delta) % n + n) % n);
}

void LessonController::closeLesson() {
    if (m_presentation->isActive())
        m_presentation->leave();
    mark(false);
    m_fields.clear();
    m_current = -1;
    m_dock->hide();
    applyViews();
}

void LessonController::applyViews() {
    const bool wanted =
        m_current >= 0 &&
        m_lessons[static_cast<std::size_t>(m_current)].views.contains(kReciprocalView);
    ReciprocalDock& reciprocal = m_viewer.window.reciprocal;
    if (wanted && reciprocal.isHidden()) {
        // its dock's least width shows the sphere too small to read: a quarter of the
        // window, but at most 2/5 of the image's width before it (a small window keeps its
        // image). A window not shown yet (braggview --lesson) has no widths to share: then
        // once it is shown.
        auto widen = [this, &reciprocal](int imageWidth) {
            if (m_presentation->isActive() || reciprocal.isFloating() || reciprocal.isHidden())
                return;
            const int width = std::min(m_window.width() / 4, imageWidth * 2 / 5);
            m_window.resizeDocks({&reciprocal}, {std::max(reciprocal.width(), width)},
                                 Qt::Horizontal);
        };
        const int imageWidth = m_viewer.window.imageContainer->width();
        reciprocal.show();
        m_reciprocalByLesson = true;
        if (m_window.isVisible())
            widen(imageWidth);
        else
            QTimer::singleShot(0, this, [this, widen, &reciprocal] {
                widen(m_viewer.window.imageContainer->width() + reciprocal.width());
            });
    } else if (!wanted && m_reciprocalByLesson) {
        reciprocal.hide();
        reciprocal.view().resetView(); // the whole sphere when the user opens it next
        m_reciprocalByLesson = false;
    }
    // A lesson looks closely at the spots' cap (S, Frame spots): at a lesson's size the whole
    // sphere leaves the lattice a few pixels per spacing, too dense to tell the nodes apart
    // (docs/user-guide.md, "Lessons and presentation mode"). R shows the whole sphere.
    if (wanted)
        reciprocal.view().frameSpots();
    if (m_presentation->isActive())
        m_presentation->arrange(); // the docks share the screen anew
}

void LessonController::focusField(int index) {
    if (m_fields.empty())
        return;
    m_focused = std::clamp(index, 0, static_cast<int>(m_fields.size()) - 1);
    const LessonField& f = m_fields[static_cast<std::size_t>(m_focused)];
    QTabWidget* tabs = m_viewer.parameterTabs;
    for (int t = 0; t < tabs->count(); ++t)
        if (auto* scroll = qobject_cast<QScrollArea*>(tabs->widget(t));
            scroll && scroll->widget() == f.panel) {
            tabs->setCurrentIndex(t);
            scroll->ensureWidgetVisible(f.marked());
        }
    if (!m_presentation->isActive()) // there the keys go to the presentation, the docks are away
        (f.field ? static_cast<QWidget*>(f.field) : f.choice)->setFocus(Qt::OtherFocusReason);
    updateValues();
}

void LessonController::focusNext(int delta) {
    const int n = static_cast<int>(m_fields.size());
    if (n > 0)
        focusField(((m_focused + delta) % n + n) % n);
}

void LessonController::stepFocused(int steps, bool large) {
    if (m_fields.empty())
        return;
    const LessonField& f = m_fields[static_cast<std::size_t>(m_focused)];
    if (f.field)
        f.field->stepBy(steps, large);
    else
        f.choice->setCurrentIndex(
            std::clamp(f.choice->currentIndex() + steps, 0, f.choice->count() - 1));
    updateValues();
}

void LessonController::mark(bool on) {
    const QString frame = QStringLiteral("border: 2px solid #e08a00; border-radius: 4px; "
                                         "background: #fff3e0;");
    for (const LessonField& f : m_fields) {
        QWidget* w = f.marked();
        w->setProperty("lessonField", on);
        if (f.field) {
            w->setAttribute(Qt::WA_StyledBackground, on);
            // the first rule matches the field alone (by its name), the second its label
            w->setStyleSheet(
                on ? QStringLiteral("#%1 { %2 } QLabel { font-weight: bold; }").arg(f.name, frame)
                   : QString());
        } else {
            w->setStyleSheet(on ? QStringLiteral("QComboBox { %1 padding: 1px 6px; }").arg(frame)
                                : QString());
            if (auto* label = w->parentWidget()->findChild<QLabel*>())
                label->setStyleSheet(on ? QStringLiteral("QLabel { font-weight: bold; }")
                                        : QString());
        }
    }
}

void LessonController::updateValues() {
    QStringList labels, values;
    for (const LessonField& f : m_fields) {
        labels << f.label();
        values << f.valueText();
    }
    m_dock->showValues(labels, values, m_focused);
}

} // namespace bv::app
