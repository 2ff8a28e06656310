#include "app/ViewerArguments.h"

#include <charconv>

namespace bv::app {

namespace {

// A whole decimal number, digits only (no sign, no spaces).
bool readInt(const std::string& text, int& value) {
    if (text.empty() || text.size() > 9)
        return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() && text[0] != '-' &&
           text[0] != '+';
}

} // namespace

QSize parseWindowSize(const std::string& text, std::string& error) {
    const std::size_t x = text.find_first_of("xX");
    int width = 0, height = 0;
    if (x == std::string::npos || !readInt(text.substr(0, x), width) ||
        !readInt(text.substr(x + 1), height)) {
        error = "--size: expected WIDTHxHEIGHT in pixels, such as 1920x1080, got \"" + text + "\"";
        return {};
    }
    if (width < kMinWindowWidth || height < kMinWindowHeight || width > kMaxWindowSide ||
        height > kMaxWindowSide) {
        error = "--size: " + text + " is outside " + std::to_string(kMinWindowWidth) + "x" +
                std::to_string(kMinWindowHeight) + " .. " + std::to_string(kMaxWindowSide) + "x" +
                std::to_string(kMaxWindowSide);
        return {};
    }
    return QSize(width, height);
}

ViewerArguments readViewerArguments(const std::vector<std::string>& words) {
    ViewerArguments read;
    ViewerOptions& o = read.options;
    bool demo = false;
    std::vector<std::string> given; // the viewer's options seen, for "given twice"
    auto fail = [&](std::string why) {
        read.error = std::move(why);
        return read;
    };
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        if (w.rfind("--", 0) != 0) {
            o.arguments.push_back(w);
            continue;
        }
        for (const std::string& g : given)
            if (g == w)
                return fail(w + " is given twice");
        given.push_back(w);
        // the value of an option that takes one: the next word, which must not be an option
        auto value = [&]() -> const std::string* {
            if (i + 1 >= words.size() || words[i + 1].empty() || words[i + 1][0] == '-')
                return nullptr;
            return &words[++i];
        };
        if (w == "--screenshot") {
            const std::string* file = value();
            if (!file)
                return fail("--screenshot needs the PNG file to write");
            o.screenshot = *file;
        } else if (w == "--size") {
            const std::string* size = value();
            if (!size)
                return fail("--size needs the window's size, WIDTHxHEIGHT, such as 1920x1080");
            std::string error;
            o.windowSize = parseWindowSize(*size, error);
            if (!error.empty())
                return fail(error);
        } else if (w == "--session") {
            const std::string* file = value();
            if (!file)
                return fail("--session needs one session file");
            o.session = *file;
        } else if (w == "--lesson") {
            const std::string* name = value();
            if (!name)
                return fail("--lesson needs a lesson's name");
            o.lesson = *name;
        } else if (w == "--presentation") {
            o.presentation = true;
        } else if (w == "--demo") {
            demo = true;
        } else if (w == "--headless") {
            return fail("--headless must come first (braggview --headless <nanoBragg arguments>)");
        } else {
            return fail("unknown option " + w);
        }
    }
    // what the window opens on: one source at most
    const int sources = int(!o.session.empty()) + int(!o.lesson.empty()) + int(demo) +
                        int(!o.arguments.empty());
    if (sources > 1) {
        std::vector<std::string> named;
        if (!o.session.empty())
            named.push_back("--session");
        if (!o.lesson.empty())
            named.push_back("--lesson");
        if (demo)
            named.push_back("--demo");
        if (!o.arguments.empty())
            named.push_back("nanoBragg's arguments (" + o.arguments.front() + " ...)");
        std::string list = named[0];
        for (std::size_t k = 1; k < named.size(); ++k)
            list += (k + 1 == named.size() ? " and " : ", ") + named[k];
        return fail("the window opens on one experiment: " + list + " cannot be combined");
    }
    // presenting opens the lessons (the first one without --lesson): it would replace a
    // session's or the arguments' experiment
    if (o.presentation && (!o.session.empty() || !o.arguments.empty() || demo))
        return fail(std::string("--presentation presents the lessons (--lesson NAME, or the "
                                "first); it cannot be combined with ") +
                    (!o.session.empty() ? "--session" : demo ? "--demo" : "nanoBragg's arguments"));
    return read;
}

} // namespace bv::app
