#pragma once
// Work shared out over the host's threads: items 0 .. count taken in chunks, in order, by
// this thread and up to `threads` - 1 others (0: as many as the host has, at most 16). Each
// item is done exactly once, by one thread; a caller that writes item i's result to slot i and
// combines the slots in order gets the same result whatever the threads did.
//
//     bv::forEachOnHostThreads(rows, [&](std::size_t row) { sums[row] = rowSum(row); });
//
// Where no more threads can be had, the ones running finish the work. An exception thrown by
// `work` is rethrown here once every thread has stopped (the first one thrown).

#include <cstddef>
#include <functional>

namespace bv {

void forEachOnHostThreads(std::size_t count, const std::function<void(std::size_t)>& work,
                          unsigned threads = 0, std::size_t chunk = 1);

// The threads forEachOnHostThreads uses where it is given 0.
unsigned hostThreads();

} // namespace bv
