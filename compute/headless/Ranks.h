#pragma once
// The processes of one batch started by mpirun (docs/series.md, "Several processes (MPI)"):
// where this process stands among them, and the few messages a batch sends between them.
// Rank r renders the frames i with i % K == r; rank 0 gathers every frame's line (and a
// series' NeXus data) and prints and writes them in frame order.
//
// A plain run needs no MPI at all: rankPlaceFromEnvironment() reads what the launcher put in
// the environment, and only a batch of more than one process makes a Ranks (MPI_Init).
// Built without MPI (CMake did not find it), a batch under mpirun stops with a message.

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

namespace bv::headless {

struct RankPlace {
    int rank = 0;      // this process, 0 .. size - 1
    int size = 1;      // the processes of the run
    int localRank = 0; // this process among those on its node: which GPU it takes
};

// From the launcher's environment, without calling MPI: OpenMPI's OMPI_COMM_WORLD_SIZE,
// OMPI_COMM_WORLD_RANK and OMPI_COMM_WORLD_LOCAL_RANK, else PMI_SIZE, PMI_RANK and
// MPI_LOCALRANKID (MPICH's Hydra); a plain run (none of them): {0, 1, 0}.
RankPlace rankPlaceFromEnvironment();

// Whether this build has MPI.
bool mpiBuilt();

// MPI for one batch: MPI_Init_thread in the constructor (MPI_THREAD_FUNNELED: only the thread
// that made it calls MPI, the batch's main thread), MPI_Finalize in the destructor. When an
// exception leaves the batch, the destructor finalizes nothing: runHeadless prints the error
// and calls abortAllRanks(), which stops every rank.
class Ranks {
  public:
    Ranks(); // throws bv::Error when built without MPI or when MPI disagrees with the launcher
    ~Ranks();
    Ranks(const Ranks&) = delete;
    Ranks& operator=(const Ranks&) = delete;

    int rank() const { return m_rank; }
    int size() const { return m_size; }

    // `value` as rank 0 has it, on every rank.
    double broadcast(double value) const;
    // Posts `bytes` to rank 0 and returns; the bytes are kept until sent (finishSends waits).
    void send(int tag, std::vector<char> bytes);
    void finishSends();
    // A message with `tag` from any rank, if one has arrived; receive() waits for one.
    std::optional<std::vector<char>> poll(int tag);
    std::vector<char> receive(int tag);

  private:
    struct Pending;
    int m_rank = 0, m_size = 1;
    std::vector<std::unique_ptr<Pending>> m_sends; // posted, perhaps not sent yet
    int m_exceptions = 0; // uncaught exceptions when made: unwinding past it means failure
};

// Whether a Ranks is alive in this process.
bool ranksRunning();
// Every rank stops with `code` (MPI_Abort) when a Ranks is alive; returns at once otherwise.
void abortAllRanks(int code);

} // namespace bv::headless
