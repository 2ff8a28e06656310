#include "app/HeadlessCommand.h"

#include "compute/io/JsonWriter.h"
#include "compute/request/Parameters.h"

#include <QStringList>

#include <algorithm>

namespace bv::app {

std::string shortestText(double value) {
    return io::shortestNumberText(value);
}

std::vector<std::string> headlessArguments(const RunRequest& request, engine::Precision precision) {
    RunRequest stated = request;
    stated.precision = precision;
    return request::commandWords(stated);
}

QString headlessCommand(const RunRequest& request, engine::Precision precision) {
    QStringList words{QStringLiteral("braggview"), QStringLiteral("--headless")};
    for (const std::string& word : headlessArguments(request, precision)) {
        QString w = QString::fromStdString(word);
        const bool plain = !w.isEmpty() && std::all_of(w.begin(), w.end(), [](QChar ch) {
            return ch.isLetterOrNumber() || QStringLiteral("-_.,/+=:@%").contains(ch);
        });
        if (!plain)
            w = QStringLiteral("'") + w.replace(QStringLiteral("'"), QStringLiteral("'\\''")) +
                QStringLiteral("'");
        words << w;
    }
    return words.join(QLatin1Char(' '));
}

} // namespace bv::app
