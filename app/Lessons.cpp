#include "app/Lessons.h"

#include "compute/core/Error.h"
#include "compute/io/JsonFields.h"

#include <nlohmann/json.hpp>

#include <QFile>

namespace bv::app {

namespace {

// QFile rather than the compute layer's file reading: the built-in lessons are Qt resources
std::string readText(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw Error(path.toStdString() +
                    ": cannot read the lesson file: " + file.errorString().toStdString());
    return file.readAll().toStdString();
}

} // namespace

std::vector<Lesson> readLessons(const QString& folder) {
    const QString listPath = folder + QStringLiteral("/lessons.json");
    const io::JsonDocument doc = io::parseJson(readText(listPath), listPath.toStdString());
    const io::JsonFields top(doc, doc.root());
    const io::Json& list = top.value("lessons");
    if (!list.is_array())
        top.fail(list, "lessons", "an array of lessons");
    std::vector<Lesson> lessons;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string path = "lessons[" + std::to_string(i) + "]";
        if (!list[i].is_object())
            top.fail(list[i], path, "an object { name, title, fields }");
        const io::JsonFields entry(doc, list[i], path);
        Lesson lesson;
        lesson.folder = folder;
        lesson.name = QString::fromStdString(entry.text("name"));
        lesson.title = QString::fromStdString(entry.text("title"));
        if (lesson.name.isEmpty() || lesson.name.contains(QLatin1Char('/')))
            entry.fail(entry.value("name"), "name", "a file name without a folder");
        const io::Json& fields = entry.value("fields");
        if (!fields.is_array() || fields.empty())
            entry.fail(fields, "fields", "an array of one or more editor names");
        for (std::size_t k = 0; k < fields.size(); ++k) {
            if (!fields[k].is_string())
                entry.fail(fields[k], "fields[" + std::to_string(k) + "]", "an editor's name");
            lesson.fields << QString::fromStdString(fields[k].get<std::string>());
        }
        if (entry.has("views")) {
            const io::Json& views = entry.value("views");
            if (!views.is_array())
                entry.fail(views, "views", "an array of view names");
            for (std::size_t k = 0; k < views.size(); ++k) {
                const std::string key = "views[" + std::to_string(k) + "]";
                if (!views[k].is_string() ||
                    !kLessonViews.contains(QString::fromStdString(views[k].get<std::string>())))
                    entry.fail(views[k], key,
                               "a view's name: " +
                                   kLessonViews.join(QStringLiteral(", ")).toStdString());
                lesson.views << QString::fromStdString(views[k].get<std::string>());
            }
        }
        lesson.text = QString::fromStdString(
            readText(folder + QLatin1Char('/') + lesson.name + QStringLiteral(".md")));
        lessons.push_back(lesson);
    }
    return lessons;
}

Session lessonSession(const Lesson& lesson) {
    const QString path = lesson.folder + QLatin1Char('/') + lesson.name + QStringLiteral(".json");
    // a lesson names no input file (structure factors from -default_F), so the folder given
    // for relative names is never used; the resource path would mean nothing to the file system
    return sessionFromJson(io::parseJson(readText(path), path.toStdString()), std::string());
}

} // namespace bv::app
