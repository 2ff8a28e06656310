#pragma once
// The "Lesson" dock: a lesson's title and text beside the image, and the values of the fields
// it is about, the focused one marked. In the presentation mode it grows its fonts to be read
// from the back of a room and shows the keys.

#include <QDockWidget>
#include <QStringList>

#include <vector>

class QLabel;
class QTextBrowser;

namespace bv::app {

struct Lesson;

class LessonDock : public QDockWidget {
    Q_OBJECT

  public:
    explicit LessonDock(QWidget* parent = nullptr);

    void showLesson(const Lesson& lesson, int index, int count);
    // one line per field: its label and value ("Wavelength  1.0000 Å"); `focused` is marked
    void showValues(const QStringList& labels, const QStringList& values, int focused);
    void setPresentation(bool on);
    // In the presentation mode beside another view (the Reciprocal space dock): a narrower
    // column, so a little smaller type, still read whole without scrolling.
    void setShared(bool shared);
    bool shared() const { return m_shared; }
    bool presentation() const { return m_presentation; }

    const QLabel* title() const { return m_title; }
    const QTextBrowser* text() const { return m_text; }
    const std::vector<QLabel*>& valueLabels() const { return m_values; }

  private:
    void applyFonts();

    QLabel* m_title = nullptr;
    QTextBrowser* m_text = nullptr;
    QWidget* m_valueArea = nullptr;
    std::vector<QLabel*> m_values;
    QLabel* m_keys = nullptr;
    QString m_markdown;
    bool m_presentation = false;
    bool m_shared = false;
};

} // namespace bv::app
