#pragma once
// The words of a batch before they are parsed (compute/headless/Batch.h): whether a command
// line is a -series or a --job, the job file it names, and the words of a job that would read
// an image header. Everything after these reads a RunRequest, never the words.
//
//     if (bv::cli::isJobCommand(args)) {
//         const bv::cli::JobCommand job = bv::cli::jobCommand(args); // job.path, job.extra

#include <string>
#include <vector>

namespace bv::cli {

// Whether `args` run a job: --job (or -job) is the first word.
bool isJobCommand(const std::vector<std::string>& args);
// Whether `args` run a job or ask for a -series.
bool isBatchCommand(const std::vector<std::string>& args);

// "--job FILE [options]": the file and the options after it, which add to the job's base.
struct JobCommand {
    std::string path;
    std::vector<std::string> extra;
};
// Throws bv::Error "--job: missing value (--job <file.json>)" when no file name follows.
JobCommand jobCommand(const std::vector<std::string>& args);

// The first of `words` that reads an image header (-img, -mask, any spelling), or nullptr.
const std::string* headerOption(const std::vector<std::string>& words);

} // namespace bv::cli
