#include "app/LessonDock.h"

#include "app/Lessons.h"

#include <QLabel>
#include <QTextBlockFormat>
#include <QTextBrowser>
#include <QTextCursor>
#include <QVBoxLayout>

namespace bv::app {

namespace {
// pixel sizes: in the presentation mode about what a slide uses on a 1080-line projector
struct Sizes {
    int title, text, value;
};
constexpr Sizes kWindow{17, 13, 14};
constexpr Sizes kPresentation{42, 32, 44};
constexpr Sizes kPresentationShared{36, 28, 34}; // a third of 1920 px beside the Ewald view
const Sizes& sizesFor(bool presentation, bool shared) {
    return !presentation ? kWindow : shared ? kPresentationShared : kPresentation;
}
const QString kMarked = QStringLiteral("#e08a00"); // the marked fields' colour (LessonController)
} // namespace

LessonDock::LessonDock(QWidget* parent) : QDockWidget(tr("Lesson"), parent) {
    setObjectName(QStringLiteral("lessonDock"));
    auto* area = new QWidget(this);
    auto* layout = new QVBoxLayout(area);
    m_title = new QLabel(area);
    m_title->setObjectName(QStringLiteral("lessonTitle"));
    m_title->setWordWrap(true);
    m_text = new QTextBrowser(area);
    m_text->setObjectName(QStringLiteral("lessonText"));
    m_text->setFrameShape(QFrame::NoFrame);
    m_text->setOpenExternalLinks(false);
    m_valueArea = new QWidget(area);
    new QVBoxLayout(m_valueArea);
    m_valueArea->layout()->setContentsMargins(0, 0, 0, 0);
    m_keys = new QLabel(tr("← → change the value (Shift: more) · Tab: next value · "
                           "Page Down / N: next lesson · Enter: play/pause φ · Esc: leave"),
                        area);
    m_keys->setObjectName(QStringLiteral("lessonKeys"));
    m_keys->setWordWrap(true);
    m_keys->hide();
    layout->addWidget(m_title);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_valueArea);
    layout->addWidget(m_keys);
    setWidget(area);
    applyFonts();
}

void LessonDock::showLesson(const Lesson& lesson, int index, int count) {
    m_title->setText(tr("Lesson %1 of %2: %3").arg(index + 1).arg(count).arg(lesson.title));
    m_markdown = lesson.text;
    applyFonts();
}

void LessonDock::showValues(const QStringList& labels, const QStringList& values, int focused) {
    while (m_values.size() < static_cast<std::size_t>(labels.size())) {
        auto* label = new QLabel(m_valueArea);
        label->setObjectName(QStringLiteral("lessonValue%1").arg(m_values.size()));
        m_valueArea->layout()->addWidget(label);
        m_values.push_back(label);
    }
    const int px = sizesFor(m_presentation, m_shared).value;
    for (std::size_t i = 0; i < m_values.size(); ++i) {
        QLabel* label = m_values[i];
        const bool shown = i < static_cast<std::size_t>(labels.size());
        label->setVisible(shown);
        if (!shown)
            continue;
        const int k = static_cast<int>(i);
        const bool isFocused = k == focused;
        label->setText(QStringLiteral("%1&nbsp;&nbsp;<b>%2</b>")
                           .arg(labels[k].toHtmlEscaped(), values[k].toHtmlEscaped()));
        label->setStyleSheet(
            QStringLiteral("QLabel { font-size: %1px; padding: %2px; border: %3px solid %4; "
                           "border-radius: 6px; }")
                .arg(px)
                .arg(px / 4)
                .arg(isFocused ? 3 : 1)
                .arg(isFocused ? kMarked : QStringLiteral("#bbbbbb")));
    }
}

void LessonDock::setPresentation(bool on) {
    m_presentation = on;
    m_keys->setVisible(on);
    // no title bar (its small "Lesson", float and close buttons) on the projector
    if (on && !titleBarWidget())
        setTitleBarWidget(new QWidget(this));
    else if (!on && titleBarWidget()) {
        QWidget* empty = titleBarWidget();
        setTitleBarWidget(nullptr); // the usual title bar again; the empty one is ours to delete
        delete empty;
    }
    applyFonts();
}

void LessonDock::setShared(bool shared) {
    if (shared == m_shared)
        return;
    m_shared = shared;
    applyFonts();
}

void LessonDock::applyFonts() {
    const Sizes& s = sizesFor(m_presentation, m_shared);
    m_title->setStyleSheet(
        QStringLiteral("QLabel { font-size: %1px; font-weight: bold; }").arg(s.title));
    QFont font = m_text->font();
    font.setPixelSize(s.text);
    m_text->document()->setDefaultFont(font);
    m_text->setMarkdown(m_markdown); // laid out again in the new size
    // Markdown's paragraphs come without space between them: half a line each
    QTextCursor all(m_text->document());
    all.select(QTextCursor::Document);
    QTextBlockFormat spaced;
    spaced.setBottomMargin(s.text / 2.0);
    all.mergeBlockFormat(spaced);
    m_keys->setStyleSheet(QStringLiteral("QLabel { font-size: %1px; color: #555555; }")
                              .arg(m_presentation ? 22 : 12));
}

} // namespace bv::app
