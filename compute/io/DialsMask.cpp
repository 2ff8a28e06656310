#include "compute/io/DialsMask.h"

#include "compute/core/Error.h"
#include "compute/io/InputFile.h"

#include <cstring>
#include <map>
#include <memory>

namespace bv::io {

namespace {

constexpr std::size_t kMaxPanelPixels = std::size_t(1) << 31; // a panel larger is not a detector's

// What the pickle's stack holds: the few kinds a tuple of flex.bool is made of.
struct PickleValue {
    enum Kind { None, Int, Bool, Text, Bytes, Global, Tuple, Grid, BoolArray, Mark } kind = None;
    long long number = 0;
    std::string text; // Text (UTF-8), Bytes, Global ("module.name")
    std::vector<std::shared_ptr<PickleValue>> items; // Tuple
    long long gridFast = 0, gridSlow = 0;      // Grid, BoolArray
    std::vector<std::uint8_t> valid;           // BoolArray
};
using Ptr = std::shared_ptr<PickleValue>;

class Unpickler {
  public:
    Unpickler(const std::string& bytes, const std::string& name) : m_bytes(bytes), m_name(name) {}

    Ptr run() {
        for (;;) {
            const unsigned char op = byte();
            switch (op) {
            case 0x80: byte(); break;                 // PROTO
            case 0x95: little(8); break;              // FRAME
            case '.': return pop();                   // STOP
            case 0x8c: push(text(byte())); break;     // SHORT_BINUNICODE
            case 'X': push(text(length(4))); break;   // BINUNICODE
            case 0x8d: push(text(length(8))); break;  // BINUNICODE8
            case 'C': push(bytesOf(byte())); break;   // SHORT_BINBYTES
            case 'B': push(bytesOf(length(4))); break; // BINBYTES
            case 0x8e: push(bytesOf(length(8))); break; // BINBYTES8
            case 'U': push(bytesOf(byte())); break;   // SHORT_BINSTRING (Python 2)
            case 'T': push(bytesOf(length(4))); break; // BINSTRING
            case 'K': push(integer(byte())); break;   // BININT1
            case 'M': push(integer(static_cast<long long>(little(2)))); break; // BININT2
            case 'J': push(integer(static_cast<std::int32_t>(static_cast<std::uint32_t>(little(4))))); break; // BININT
            case 0x88: push(boolean(true)); break;    // NEWTRUE
            case 0x89: push(boolean(false)); break;   // NEWFALSE
            case 'N':
                push(std::make_shared<PickleValue>());
                break;
            case 0x94: m_memo[m_memo.size()] = top(); break; // MEMOIZE
            case 'q': m_memo[byte()] = top(); break;  // BINPUT
            case 'r': m_memo[index(4)] = top(); break; // LONG_BINPUT
            case 'h': push(memo(byte())); break;      // BINGET
            case 'j': push(memo(index(4))); break;   // LONG_BINGET
            case 'c': {                               // GLOBAL "module\nname\n"
                const std::string module = line(), name = line();
                push(global(module + "." + name));
                break;
            }
            case 0x93: {                              // STACK_GLOBAL
                const Ptr name = pop(), module = pop();
                if (name->kind != PickleValue::Text || module->kind != PickleValue::Text)
                    fail("a global named by something other than text");
                push(global(module->text + "." + name->text));
                break;
            }
            case '(': push(mark()); break;            // MARK
            case ')': push(tuple({})); break;         // EMPTY_TUPLE
            case 0x85: case 0x86: case 0x87: {        // TUPLE1..3
                std::vector<Ptr> items(op - 0x84);
                for (std::size_t i = items.size(); i-- > 0;)
                    items[i] = pop();
                push(tuple(std::move(items)));
                break;
            }
            case 't': {                               // TUPLE: items since the mark
                std::vector<Ptr> items;
                for (Ptr v = pop(); v->kind != PickleValue::Mark; v = pop())
                    items.insert(items.begin(), v);
                push(tuple(std::move(items)));
                break;
            }
            case 'R': {                               // REDUCE
                const Ptr args = pop(), callable = pop();
                push(reduce(*callable, *args));
                break;
            }
            case 'b': {                               // BUILD
                const Ptr state = pop();
                build(*top(), *state);
                break;
            }
            default:
                fail("pickle opcode 0x" + hex(op) + " is not one of a DIALS mask's");
            }
        }
    }

  private:
    const std::string& m_bytes;
    const std::string& m_name;
    std::size_t m_at = 0;
    std::vector<Ptr> m_stack;
    std::map<std::size_t, Ptr> m_memo;

    [[noreturn]] void fail(const std::string& what) const {
        throw Error(m_name + ": not a DIALS mask (" + what + ", at byte " + std::to_string(m_at) + ")");
    }
    static std::string hex(unsigned v) {
        const char* digits = "0123456789abcdef";
        return {digits[(v >> 4) & 15], digits[v & 15]};
    }
    unsigned char byte() {
        if (m_at >= m_bytes.size())
            fail("the file ends early");
        return static_cast<unsigned char>(m_bytes[m_at++]);
    }
    std::uint64_t little(int count) {
        std::uint64_t v = 0;
        for (int i = 0; i < count; ++i)
            v |= std::uint64_t(byte()) << (8 * i);
        return v;
    }
    // a length of what follows: no more than the file holds
    std::size_t length(int count) {
        const std::uint64_t v = little(count);
        if (v > m_bytes.size() - m_at)
            fail("a length past the end of the file");
        return static_cast<std::size_t>(v);
    }
    std::size_t index(int count) { return static_cast<std::size_t>(little(count)); }
    std::string take(std::size_t n) {
        if (n > m_bytes.size() - m_at)
            fail("the file ends early");
        std::string s = m_bytes.substr(m_at, n);
        m_at += n;
        return s;
    }
    std::string line() {
        const std::size_t end = m_bytes.find('\n', m_at);
        if (end == std::string::npos)
            fail("the file ends early");
        std::string text = take(end - m_at + 1);
        text.pop_back(); // the '\n'
        return text;
    }
    void push(Ptr v) { m_stack.push_back(std::move(v)); }
    Ptr top() {
        if (m_stack.empty())
            fail("an empty stack");
        return m_stack.back();
    }
    Ptr pop() {
        Ptr v = top();
        m_stack.pop_back();
        return v;
    }
    Ptr memo(std::size_t i) {
        const auto it = m_memo.find(i);
        if (it == m_memo.end())
            fail("a memo entry it does not hold");
        return it->second;
    }
    static Ptr make(PickleValue::Kind kind) {
        auto v = std::make_shared<PickleValue>();
        v->kind = kind;
        return v;
    }
    Ptr text(std::size_t n) {
        Ptr v = make(PickleValue::Text);
        v->text = take(n);
        return v;
    }
    Ptr bytesOf(std::size_t n) {
        Ptr v = make(PickleValue::Bytes);
        v->text = take(n);
        return v;
    }
    static Ptr integer(long long n) {
        Ptr v = make(PickleValue::Int);
        v->number = n;
        return v;
    }
    static Ptr boolean(bool b) {
        Ptr v = make(PickleValue::Bool);
        v->number = b;
        return v;
    }
    static Ptr global(const std::string& name) {
        Ptr v = make(PickleValue::Global);
        v->text = name;
        return v;
    }
    static Ptr mark() { return make(PickleValue::Mark); }
    static Ptr tuple(std::vector<Ptr> items) {
        Ptr v = make(PickleValue::Tuple);
        v->items = std::move(items);
        return v;
    }
    long long intAt(const PickleValue& t, std::size_t i) {
        if (t.kind != PickleValue::Tuple || i >= t.items.size() ||
            t.items[i]->kind != PickleValue::Int)
            fail("a grid's bounds are not integers");
        return t.items[i]->number;
    }
    // Python 2's bytes under protocol 2: _codecs.encode(text, "latin1")
    Ptr latin1(const PickleValue& args) {
        if (args.kind != PickleValue::Tuple || args.items.empty() ||
            args.items[0]->kind != PickleValue::Text)
            fail("_codecs.encode of something other than text");
        Ptr v = make(PickleValue::Bytes);
        const std::string& s = args.items[0]->text;
        for (std::size_t i = 0; i < s.size(); ++i) {
            const auto c = static_cast<unsigned char>(s[i]);
            if (c < 0x80) {
                v->text += static_cast<char>(c);
            } else if ((c & 0xe0) == 0xc0 && i + 1 < s.size()) { // U+0080..U+00FF in UTF-8
                const unsigned code = ((c & 0x1fu) << 6) | (static_cast<unsigned char>(s[++i]) & 0x3fu);
                if (code > 0xff)
                    fail("a latin-1 string with a character past U+00FF");
                v->text += static_cast<char>(code);
            } else {
                fail("a latin-1 string that is not UTF-8 of U+0000..U+00FF");
            }
        }
        return v;
    }
    Ptr reduce(const PickleValue& callable, const PickleValue& args) {
        if (callable.kind != PickleValue::Global)
            fail("a call of something other than a global");
        if (callable.text == "scitbx_array_family_flex_ext.bool")
            return make(PickleValue::BoolArray);
        if (callable.text == "_codecs.encode")
            return latin1(args);
        if (callable.text == "scitbx_array_family_flex_ext.grid") {
            // grid(origin, last, open_range): the array's slow x fast extent
            if (args.kind != PickleValue::Tuple || args.items.size() < 2)
                fail("a grid without its bounds");
            Ptr g = make(PickleValue::Grid);
            const bool open = args.items.size() < 3 || args.items[2]->number != 0;
            g->gridSlow = intAt(*args.items[1], 0) - intAt(*args.items[0], 0) + (open ? 0 : 1);
            g->gridFast = intAt(*args.items[1], 1) - intAt(*args.items[0], 1) + (open ? 0 : 1);
            if (g->gridSlow <= 0 || g->gridFast <= 0 ||
                static_cast<std::size_t>(g->gridSlow) * static_cast<std::size_t>(g->gridFast) >
                    kMaxPanelPixels)
                fail("a grid of " + std::to_string(g->gridSlow) + " x " + std::to_string(g->gridFast));
            return g;
        }
        fail("a call of " + callable.text + ", which a DIALS mask does not hold");
    }
    // a flex.bool's state: (grid, cctbx's single-buffered values)
    void build(PickleValue& target, const PickleValue& state) {
        if (target.kind == PickleValue::Grid)
            return; // its focus: the same extent here
        if (target.kind != PickleValue::BoolArray || state.kind != PickleValue::Tuple ||
            state.items.size() != 2 || state.items[0]->kind != PickleValue::Grid ||
            state.items[1]->kind != PickleValue::Bytes)
            fail("an object built from something other than a flex.bool's grid and values");
        const PickleValue& grid = *state.items[0];
        const std::string& data = state.items[1]->text;
        // the count: one byte giving how many bytes it takes (that byte included), then the
        // count little-endian
        if (data.empty())
            fail("a flex.bool without values");
        const std::size_t header = static_cast<unsigned char>(data[0]);
        if (header < 1 || header > 9 || header > data.size())
            fail("a flex.bool whose count is not cctbx's encoding");
        std::uint64_t count = 0;
        for (std::size_t i = 1; i < header; ++i)
            count |= std::uint64_t(static_cast<unsigned char>(data[i])) << (8 * (i - 1));
        const std::uint64_t pixels = std::uint64_t(grid.gridSlow) * std::uint64_t(grid.gridFast);
        if (count != pixels || data.size() - header != pixels)
            fail("a flex.bool of " + std::to_string(data.size() - header) + " values for a grid of " +
                 std::to_string(grid.gridSlow) + " x " + std::to_string(grid.gridFast));
        target.gridSlow = grid.gridSlow;
        target.gridFast = grid.gridFast;
        target.valid.resize(static_cast<std::size_t>(pixels));
        for (std::size_t i = 0; i < target.valid.size(); ++i) {
            const char c = data[header + i];
            if (c != '0' && c != '1')
                fail("a flex.bool value other than 0 or 1");
            target.valid[i] = c == '1';
        }
    }
};

} // namespace

std::vector<PanelMask> parseDialsMask(const std::string& bytes, const std::string& name) {
    Unpickler unpickler(bytes, name);
    const Ptr root = unpickler.run();
    std::vector<Ptr> arrays;
    if (root->kind == PickleValue::Tuple)
        arrays = root->items;
    else
        arrays.push_back(root);
    if (arrays.empty())
        throw Error(name + ": not a DIALS mask (no panel's mask in it)");
    std::vector<PanelMask> masks;
    for (std::size_t i = 0; i < arrays.size(); ++i) {
        const Ptr& a = arrays[i];
        for (std::size_t j = 0; j < i; ++j) // one array named twice (a memo entry): no panel's
            if (arrays[j] == a)
                throw Error(name + ": not a DIALS mask (one array stands for two panels)");
        if (a->kind != PickleValue::BoolArray || a->valid.empty())
            throw Error(name + ": not a DIALS mask (a panel's mask is not a flex.bool of values)");
        masks.push_back({static_cast<int>(a->gridFast), static_cast<int>(a->gridSlow), a->valid});
    }
    return masks;
}

std::vector<PanelMask> readDialsMask(const std::string& path) {
    return parseDialsMask(readWholeFile(path, "DIALS mask", kImageFileMaxBytes), path);
}

} // namespace bv::io
