// Files vktensor keeps between processes (vkt::compile's kernels, kernel_cache.h; the
// driver's pipeline cache, pipeline_cache.h): one directory, one hash, one way to write.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace vkt::vk {

// Overrides::cache_dir where a test sets it, else Settings::cache_dir ($VKT_CACHE_DIR, else
// $XDG_CACHE_HOME/vktensor, else $HOME/.cache/vktensor); empty (no files) when off or unset.
std::string cache_dir();

// FNV-1a over n bytes, from basis h (another basis gives an independent second hash).
std::uint64_t fnv1a(const void* data, std::size_t n, std::uint64_t h = 14695981039346656037ull);

// Writes `head` then `body` to a temporary name in path's directory (made when missing)
// and renames it over path, so a reader never sees half a file. False when any step fails
// (a cache that cannot be written is only a slower next start).
bool write_file_atomically(const std::string& path, const void* head, std::size_t head_bytes,
                           const void* body, std::size_t body_bytes);

}  // namespace vkt::vk
