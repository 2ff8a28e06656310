#include "compute/core/HostThreads.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace bv {

unsigned hostThreads() {
    return std::clamp(std::thread::hardware_concurrency(), 1u, 16u);
}

void forEachOnHostThreads(std::size_t count, const std::function<void(std::size_t)>& work,
                          unsigned threads, std::size_t chunk) {
    chunk = std::max<std::size_t>(chunk, 1);
    const std::size_t chunks = (count + chunk - 1) / chunk;
    const std::size_t workers =
        std::min<std::size_t>(chunks, threads > 0 ? threads : hostThreads());
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr failure;
    std::mutex failureLock;
    const auto share = [&] {
        try {
            for (std::size_t c = next++; c < chunks && !failed; c = next++)
                for (std::size_t i = c * chunk; i < std::min(count, (c + 1) * chunk); ++i)
                    work(i);
        } catch (...) {
            const std::lock_guard<std::mutex> lock(failureLock);
            if (!failure)
                failure = std::current_exception();
            failed = true;
        }
    };
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < workers; ++t) {
        try {
            pool.emplace_back(share);
        } catch (const std::system_error&) {
            break; // no more threads to be had: the ones running (and this one) finish
        }
    }
    share();
    for (std::thread& t : pool)
        t.join();
    if (failure)
        std::rethrow_exception(failure);
}

} // namespace bv
