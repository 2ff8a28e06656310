#pragma once
// What the series and job suites share: a small crystal and detector whose frames render in
// milliseconds on lavapipe, words added to a command line, and a batch run in-process.

#include "compute/headless/Batch.h"

#include <QString>

#include <sstream>
#include <string>
#include <vector>

namespace bv::testing {

inline const std::vector<std::string> kSmallSeries = {
    "-cell", "50",        "60", "70",         "90",  "90",         "90", "-misset",
    "10",    "20",        "30", "-lambda",    "1.0", "-N",         "3",  "-default_F",
    "100",   "-distance", "60", "-detpixels", "48",  "-noprogress"};

inline std::vector<std::string> with(std::vector<std::string> args, const QString& more) {
    for (const QString& word : more.split(' ', Qt::SkipEmptyParts))
        args.push_back(word.toStdString());
    return args;
}

// runBatch on the words; its printed lines into *log when asked for
inline headless::BatchReport batch(const std::vector<std::string>& args,
                                   std::string* log = nullptr) {
    std::ostringstream out, err;
    headless::BatchReport report = headless::runBatch(args, out, err);
    if (log)
        *log = out.str() + err.str();
    return report;
}

} // namespace bv::testing
