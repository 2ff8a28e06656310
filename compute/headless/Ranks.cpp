#include "compute/headless/Ranks.h"

#include "compute/core/Error.h"

#include <cstdlib>
#include <exception>
#include <limits>
#include <string>

#if BRAGGVIEW_WITH_MPI
#include <mpi.h>
#endif

namespace bv::headless {

namespace {

bool g_running = false;

std::optional<int> environmentInteger(const char* name) {
    const char* text = std::getenv(name);
    if (!text || !*text)
        return std::nullopt;
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (*end != '\0' || value < 0 || value > 1000000)
        return std::nullopt;
    return static_cast<int>(value);
}

} // namespace

RankPlace rankPlaceFromEnvironment() {
    RankPlace place;
    const auto read = [&](const char* size, const char* rank, const char* local) {
        const auto s = environmentInteger(size), r = environmentInteger(rank);
        if (!s || !r || *s < 1 || *r >= *s)
            return false;
        place.size = *s;
        place.rank = *r;
        place.localRank = environmentInteger(local).value_or(*r);
        return true;
    };
    if (!read("OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK") &&
        !read("PMI_SIZE", "PMI_RANK", "MPI_LOCALRANKID"))
        place = {};
    return place;
}

bool ranksRunning() {
    return g_running;
}

#if BRAGGVIEW_WITH_MPI

bool mpiBuilt() {
    return true;
}

struct Ranks::Pending {
    std::vector<char> bytes;
    MPI_Request request = MPI_REQUEST_NULL;
};

Ranks::Ranks() : m_exceptions(std::uncaught_exceptions()) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized)
        throw Error("MPI was started twice in one process (one batch per process under mpirun)");
    int provided = 0;
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        throw Error("MPI_Init failed: run the batch without mpirun, or check the MPI setup");
    g_running = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m_size);
    const RankPlace place = rankPlaceFromEnvironment();
    if (place.rank != m_rank || place.size != m_size)
        throw Error("MPI says rank " + std::to_string(m_rank) + " of " + std::to_string(m_size) +
                    ", the launcher's environment rank " + std::to_string(place.rank) + " of " +
                    std::to_string(place.size) + ": start braggview with this MPI's mpirun");
}

Ranks::~Ranks() {
    if (std::uncaught_exceptions() > m_exceptions)
        return; // runHeadless prints the error and stops every rank (abortAllRanks)
    finishSends();
    MPI_Finalize();
    g_running = false;
}

double Ranks::broadcast(double value) const {
    MPI_Bcast(&value, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    return value;
}

void Ranks::send(int tag, std::vector<char> bytes) {
    // sends that have gone already free their bytes
    for (auto it = m_sends.begin(); it != m_sends.end();) {
        int done = 0;
        MPI_Test(&(*it)->request, &done, MPI_STATUS_IGNORE);
        if (done) {
            it = m_sends.erase(it);
        } else {
            ++it;
        }
    }
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()))
        throw Error("a frame of " + std::to_string(bytes.size()) +
                    " bytes is more than one MPI message holds");
    m_sends.push_back(std::make_unique<Pending>());
    Pending* pending = m_sends.back().get();
    pending->bytes = std::move(bytes);
    MPI_Isend(pending->bytes.data(), static_cast<int>(pending->bytes.size()), MPI_BYTE, 0, tag,
              MPI_COMM_WORLD, &pending->request);
}

void Ranks::finishSends() {
    for (const std::unique_ptr<Pending>& pending : m_sends)
        MPI_Wait(&pending->request, MPI_STATUS_IGNORE);
    m_sends.clear();
}

namespace {
std::vector<char> receiveProbed(const MPI_Status& status, int tag) {
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    std::vector<char> bytes(static_cast<std::size_t>(count));
    MPI_Recv(bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, tag, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    return bytes;
}
} // namespace

std::optional<std::vector<char>> Ranks::poll(int tag) {
    int arrived = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &arrived, &status);
    if (!arrived)
        return std::nullopt;
    return receiveProbed(status, tag);
}

std::vector<char> Ranks::receive(int tag) {
    MPI_Status status;
    MPI_Probe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &status);
    return receiveProbed(status, tag);
}

void abortAllRanks(int code) {
    if (g_running)
        MPI_Abort(MPI_COMM_WORLD, code);
}

#else // built without MPI

bool mpiBuilt() {
    return false;
}

struct Ranks::Pending {};

Ranks::Ranks() {
    throw Error("started by mpirun, but this braggview was built without MPI (install "
                "libopenmpi-dev and build again, or run the batch as one process)");
}
Ranks::~Ranks() = default;
double Ranks::broadcast(double value) const {
    return value;
}
void Ranks::send(int, std::vector<char>) {}
void Ranks::finishSends() {}
std::optional<std::vector<char>> Ranks::poll(int) {
    return std::nullopt;
}
std::vector<char> Ranks::receive(int) {
    return {};
}
void abortAllRanks(int) {}

#endif

} // namespace bv::headless
