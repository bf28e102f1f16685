// Scratch memory for a fused group's block values (compiled.cpp): while a BlockArena is
// alive on a thread, make_tensor there takes its buffers from it, so the blocks a thread
// evaluates reuse a few buffers that stay in its own cache, with no lock, no shared pool
// and no page fault in the loop. Before it, every op of every block took and gave back a
// host pool buffer (a mutex shared by all threads, buffers passed from core to core), and
// 16 threads gained far less over one on the compiled chain than eager did (on the H200
// host). A thread keeps its most recent buffers (up to 1 MiB)
// from one arena to its next, so the next call's blocks start in its own cache too.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "vkt/backend.h"

namespace vkt::cpu_kernels {

class BlockArena {
 public:
  BlockArena();  // becomes the calling thread's arena until destroyed
  ~BlockArena();
  BlockArena(const BlockArena&) = delete;
  BlockArena& operator=(const BlockArena&) = delete;

  // The calling thread's arena, or nullptr outside one.
  static BlockArena* current();

  // Storage of at least `bytes` that returns its buffer here when released; it must be
  // released before the arena is destroyed, on the arena's thread.
  std::shared_ptr<Storage> storage(std::size_t bytes);

  // While alive, the first request of exactly `bytes` gets `dst` (memory the caller owns and
  // keeps alive, such as a group output's rows), so the kernel that makes a group's output
  // writes it in place rather than into a buffer copied out afterwards.
  class Placement {
   public:
    Placement(BlockArena& arena, void* dst, std::size_t bytes);
    ~Placement();
    Placement(const Placement&) = delete;
    Placement& operator=(const Placement&) = delete;

   private:
    BlockArena& arena_;
  };

 private:
  friend class ScratchStorage;
  struct Buffer {
    void* data;
    std::size_t capacity;
  };
  void release(Buffer b);

  BlockArena* previous_;
  bool poison_;               // the host pool's setting (vkt/host_pool.h), read once
  std::vector<Buffer> free_;  // released, the most recent last
  std::vector<std::shared_ptr<Storage>> backing_;  // the buffers' memory, from the host pool
  std::size_t in_use_ = 0;
  void* placed_ = nullptr;  // Placement's destination until a request takes it
  std::size_t placed_bytes_ = 0;
};

}  // namespace vkt::cpu_kernels
