#include "compute/cli/BatchWords.h"

#include "compute/core/Error.h"
#include "compute/request/Parameters.h"

namespace bv::cli {

using request::findFlag;

bool isJobCommand(const std::vector<std::string>& args) {
    return !args.empty() && findFlag(args.front()) == findFlag("--job");
}

bool isBatchCommand(const std::vector<std::string>& args) {
    if (isJobCommand(args))
        return true;
    const request::Flag* series = findFlag("-series");
    for (const std::string& token : args)
        if (findFlag(token) == series)
            return true;
    return false;
}

JobCommand jobCommand(const std::vector<std::string>& args) {
    if (args.size() < 2 || findFlag(args[1]))
        throw Error(args.front() + ": missing value (" + args.front() + " <file.json>)");
    return {args[1], std::vector<std::string>(args.begin() + 2, args.end())};
}

const std::string* headerOption(const std::vector<std::string>& words) {
    for (const std::string& token : words)
        if (const request::Flag* flag = findFlag(token);
            flag && (flag == findFlag("-img") || flag == findFlag("-mask")))
            return &token;
    return nullptr;
}

} // namespace bv::cli
