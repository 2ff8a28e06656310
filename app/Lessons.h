#pragma once
// Lessons (issue "Teaching"): an experiment, a short text a student reads beside it, and the
// one or two parameter editors it is about. They live in resources/lessons/:
//
//   lessons.json   the list, in menu order:
//                  { "lessons": [ { "name": "bragg", "title": "Bragg's law and wavelength",
//                                   "fields": ["wavelength"],
//                                   "views": ["reciprocal"] }, ... ] }
//   <name>.json    the experiment and its view, a session file (app/Session.h)
//   <name>.md      the text (Markdown)
//
// "fields" are the object names of the parameter panels' editors ("wavelength", "cellb",
// "shape"): a ParameterField, or a choice's combo box. The folder is compiled into the
// program as the Qt resource :/lessons (app/CMakeLists.txt), so an installed binary or a
// fresh build finds them without a path.
//
// "views" (optional) names the views beside the image the lesson explains its point with;
// opening the lesson shows them (LessonController::applyViews). The one view so far:
// "reciprocal", the Reciprocal space dock (the Ewald construction, app/ReciprocalDock.h).

#include "app/Session.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace bv::app {

struct Lesson {
    QString name;       // "bragg": <name>.json and <name>.md in the lessons' folder
    QString title;      // the menu's and the dock's
    QString text;       // Markdown
    QStringList fields; // the editors it is about, the first focused
    QStringList views;  // the views it shows beside the image (kLessonViews), often none
    QString folder;     // where its files are (":/lessons" for the built-in ones)
};

// The views a lesson may name in "views".
inline const QString kReciprocalView = QStringLiteral("reciprocal");
inline const QStringList kLessonViews{kReciprocalView};

// The built-in lessons' folder, a Qt resource.
inline const QString kBuiltInLessons = QStringLiteral(":/lessons");

// Reads `folder`'s lessons.json and every lesson's text. Throws bv::Error naming the file
// (and line, column and key for a malformed list).
std::vector<Lesson> readLessons(const QString& folder = kBuiltInLessons);

// The lesson's session (its <name>.json). Throws bv::Error naming the file.
Session lessonSession(const Lesson& lesson);

} // namespace bv::app
