// Backends own storage and run ops. The dispatch core (src/core/dispatch.cpp) decides which
// backend runs a call and applies the host-fallback rule; backends never see each other.
//
// Threads. What may be shared between threads:
// - Tensors are immutable values: one tensor may be read, copied, passed to ops and read
//   back (to_vector, to_bytes, read_into, to_cpu, host_span) from any number of threads at
//   once. A Tensor object itself is like a std::shared_ptr: copies are independent, but
//   assigning to one variable while another thread reads that variable is a data race.
// - Every op, from_bytes/from_vector, transfer, copy and synchronize may be called from
//   any threads at once, on the same backend or on different ones.
// - cpu() is one process-wide backend with no state between calls. Each op runs its own
//   OpenMP parallel region on the calling thread, so N threads calling ops at once may use
//   N times OMP_NUM_THREADS threads.
// - vulkan(i) is one backend per device for the process, made once under a lock. Each of
//   its entry points holds that backend's (recursive) mutex, so ops from several threads
//   are serialised on the device and recorded into its one pending batch; a read or
//   synchronize() from any thread submits and waits for every thread's pending work.
//   Device timers (begin/end_device_timer) time all threads' work in between.
// - The fallback policy, the host pool (host_pool.h) and the ledger are
//   process-wide and internally locked or atomic: safe to change or read at any time, and
//   a change applies to every thread's next op.
// What is per thread, or not shared:
// - A BackendScope changes default_backend() for the thread that made it only, and must
//   be destroyed on that thread (it is a stack object).
// - Ledger counts are global: a LedgerScope's delta includes every thread's transfers and
//   dispatches in that interval, not only its own thread's.
// - A Backend subclass of your own is called from whichever threads call ops; the core
//   adds no lock around it.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace vkt {

class Tensor;
struct OpCall;
class Backend;

// Bytes owned by one backend. Immutable once a tensor refers to it.
class Storage {
 public:
  Storage(Backend& owner, std::size_t nbytes) : owner_(&owner), nbytes_(nbytes) {}
  virtual ~Storage() = default;
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  Backend& backend() const { return *owner_; }
  std::size_t nbytes() const { return nbytes_; }
  // Host address of the bytes where the backend keeps them in host memory, else nullptr.
  virtual const void* host_data() const { return nullptr; }

  // Early release (vkt::deallocate). deallocate() marks the storage and frees its bytes at
  // once, or when the last StorageUse still reading them ends; false when it was already
  // marked. Safe from any thread, and never throws.
  bool deallocate() noexcept;
  bool deallocated() const noexcept { return (state_.load() & kDeallocated) != 0; }

 protected:
  // Frees the bytes; called once, after deallocate(), when no StorageUse remains. A
  // backend's storage overrides it; the default keeps the bytes until destruction.
  virtual void release_bytes() noexcept {}
  // True once release_bytes() ran: a destructor then has nothing left to free.
  bool bytes_released() const noexcept { return released_.load(); }

 private:
  friend class StorageUse;
  static constexpr std::uint32_t kDeallocated = 1u << 31;
  void end_use() noexcept;
  void release_once() noexcept;
  Backend* owner_;
  std::size_t nbytes_;
  // kDeallocated, plus the count of StorageUses in progress in the low bits: one word, so
  // a use that begins and a deallocate that marks agree on who frees the bytes.
  std::atomic<std::uint32_t> state_{0};
  std::atomic<bool> released_{false};
};

// A claim on a storage's bytes while something reads them (an op, a read, an exported
// NumPy/DLPack view): a deallocate() meanwhile frees them only when the claim ends, as
// PjRt's usage holds do. Empty (false) when the storage was already deallocated.
class StorageUse {
 public:
  StorageUse() = default;
  explicit StorageUse(std::shared_ptr<Storage> storage) noexcept;
  ~StorageUse() { reset(); }
  StorageUse(StorageUse&& other) noexcept : storage_(std::move(other.storage_)) {}
  StorageUse& operator=(StorageUse&& other) noexcept;
  StorageUse(const StorageUse&) = delete;
  StorageUse& operator=(const StorageUse&) = delete;
  explicit operator bool() const { return storage_ != nullptr; }
  void reset() noexcept;

 private:
  std::shared_ptr<Storage> storage_;
};

// Users call a backend's name(), synchronize() and properties(); a subclass of your own
// implements supports()/execute() with vkt/backend/op_call.h (OpCall, parameter structs).
class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  // Where the data lives: true for the backend whose storage is host memory (placement,
  // transfers, to_pointer). What a backend chooses to run goes through supports() and the
  // virtuals below, never through this.
  virtual bool is_cpu() const { return false; }
  // True where the core hands this backend every call as it comes, with no fallback policy:
  // the cpu (the reference runs everything) and vkt::compile's tracer (records every call).
  virtual bool takes_every_call() const { return is_cpu(); }
  // True where this backend records calls rather than running them (vkt::compile's tracer):
  // a tensor of a device that such a call reads is kept by reference, a constant of the
  // recording (capture), where a cpu tensor's bytes are copied in.
  virtual bool captures_device_tensors() const { return false; }
  // `t`, a tensor of a device, as this backend's; only where captures_device_tensors().
  virtual Tensor capture(const Tensor& t);

  // Storage holding a copy of `nbytes` host bytes (an upload on a device backend).
  virtual std::shared_ptr<Storage> from_host(const void* data, std::size_t nbytes) = 0;
  // Copies `nbytes` from `offset` of storage into host memory (a download on a device).
  virtual void to_host(const Storage& storage, std::size_t offset, void* dst,
                       std::size_t nbytes) = 0;
  // A host-readable copy of the first `nbytes` of `storage`, owned by `host` (the cpu
  // backend), made the cheapest way this backend knows (a device can copy straight into
  // pinned host memory); nullptr when it has none, and the core reads through to_host
  // into a pooled host buffer.
  virtual std::shared_ptr<Storage> to_host_storage(const Storage& storage, std::size_t nbytes,
                                                   Backend& host) {
    (void)storage, (void)nbytes, (void)host;
    return nullptr;
  }
  // True when this backend runs `call` itself for these dtypes and shapes.
  virtual bool supports(const OpCall& call) const = 0;
  // Runs `call`; every input is on this backend. Only called when supports(call).
  virtual Tensor execute(const OpCall& call) = 0;
  // Makes ready what running `call` will need (a device compiles its pipelines) without
  // running it; inputs may hold no data. Any thread: vkt::compile prepares a plan's steps
  // together before its first run needs them one after another.
  virtual void prepare(const OpCall& call) { (void)call; }
  // Blocks until all work this backend has been given is complete.
  virtual void synchronize() {}
  // Profiling (vkt-bench's device-time column): the device's own clock around the work
  // given between begin_device_timer() and end_device_timer(). device_timer_us() is read
  // after synchronize(); negative where there is no device clock (the cpu backend).
  virtual void begin_device_timer() {}
  virtual void end_device_timer() {}
  virtual double device_timer_us() { return -1; }
  // After device_timer_us(): the device time of each pass of an op that marks its passes
  // (the Vulkan conv's im2col path: the im2col, then the GEMM), in order; empty where none.
  virtual std::vector<double> device_timer_passes_us() { return {}; }
  // Per-op device time: between begin_op_profile() and end_op_profile(), each op this
  // backend ran (and each kernel of a compiled plan), in the order they were given, with
  // how far it moved the device's timeline (overlaps and the host's gaps counted once or
  // not at all, so the times add up to the device's busy time). end_op_profile() waits for
  // the work. Empty where the backend has no device clock (the cpu). Past the first 8192 ops
  // a last entry says how many more ran untimed.
  struct OpTime {
    std::string label;  // the op, its dtype, its output's and inputs' shapes
    double device_us = 0;
  };
  virtual void begin_op_profile() {}
  virtual std::vector<OpTime> end_op_profile() { return {}; }
  // Facts about the device for reports: device_name, device_type, driver_version,
  // api_version, ... (empty for the cpu).
  virtual std::vector<std::pair<std::string, std::string>> properties() const { return {}; }

  // Device memory for tensors: bytes held by live tensors (their pooled ranges) and bytes
  // reserved from the driver (pool blocks and kept buffers), with the most of each since
  // reset_peak_memory() (PyTorch's max_memory_allocated / max_memory_reserved). Zeros on a
  // backend that does not pool device memory (the cpu).
  struct MemoryStats {
    std::uint64_t in_use = 0, reserved = 0, peak_in_use = 0, peak_reserved = 0;
  };
  virtual MemoryStats memory_stats() const { return {}; }
  virtual void reset_peak_memory() {}
};

Backend& cpu();
// The Vulkan backend on device `index` (-1: the default device, or VKT_DEVICE). Throws
// NoDevice when no Vulkan device exists or the library was built without Vulkan.
Backend& vulkan(int index = -1);
// Every Vulkan device with its type, API version, memory heaps and types, limits and
// features, and which is the default (what `vkt-bench info` prints). Throws NoDevice.
std::string vulkan_info();

// The backend creation ops use when no input decides: cpu, unless VKT_BACKEND=vulkan, or
// a BackendScope on this thread says otherwise.
Backend& default_backend();

class BackendScope {
 public:
  explicit BackendScope(Backend& b);
  ~BackendScope();
  BackendScope(const BackendScope&) = delete;
  BackendScope& operator=(const BackendScope&) = delete;

 private:
  Backend* previous_;
};

enum class FallbackPolicy { allow, warn, error };
// Process-wide; initialised from VKT_FALLBACK=allow|warn|error.
void set_fallback_policy(FallbackPolicy p);
FallbackPolicy fallback_policy();

}  // namespace vkt
