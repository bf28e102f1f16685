#include "vulkan/ops/fft_tuning.h"

#include <charconv>

#include "vkt/error.h"

namespace vkt::vk {
namespace {

struct Range {
  std::string_view key;
  std::uint64_t low, high;
  bool power_of_two;
};

// The ranges VkFFT 1.2.26 can use: it reads 0 as "its own default", so only values it acts
// on are accepted (useLUT=1 turns the tables on; nothing can turn a vendor's tables off).
// Left out: registerBoost4Step (initializeVkFFT forces it to 1, "temporary set") and
// disableReorderFourStep (multi-pass results come out in another order: wrong values).
constexpr Range kRanges[] = {
    {"coalescedMemory", 8, 1024, true},      // bytes a strided pass reads per row
    {"aimThreads", 32, 1024, false},         // threads per workgroup aimed at
    {"numSharedBanks", 16, 64, true},        // shared-memory banks (padding against conflicts)
    {"registerBoost", 1, 8, false},          // registers standing in for shared memory
    {"registerBoostNonPow2", 1, 1, false},   // the same for lengths not a power of two
    {"useLUT", 1, 1, false},                 // twiddles from tables instead of sin/cos
    {"performBandwidthBoost", 1, 8, false},  // strided axes: narrower reads, longer sequences
    {"swapTo3Stage4Step", 17, 40, false},    // log2 length from which three passes are forced
    {"fixMaxRadixBluestein", 2, 13, false},  // Bluestein's padded length: primes up to this
};

std::string known_keys() {
  std::string s;
  for (const Range& r : kRanges) s += std::string(r.key) + ", ";
  return s + "rows (wide|vendor|narrow), input (direct|copy), report (0|1)";
}

[[noreturn]] void bad(std::string_view item, const std::string& why) {
  throw Error("[fft] VKT_VK_FFT: '" + std::string(item) + "' " + why + " (keys: " + known_keys() +
              ")");
}

void set(FftTuning& t, std::string_view item, std::string_view key, std::string_view value) {
  if (key == "input") {
    if (value != "direct" && value != "copy") bad(item, "is not input=direct or input=copy");
    t.direct_input = value == "direct";
    return;
  }
  if (key == "rows") {
    if (value == "wide") {
      t.rows = FftRows::wide;
    } else if (value == "vendor") {
      t.rows = FftRows::vendor;
    } else if (value == "narrow") {
      t.rows = FftRows::narrow;
    } else {
      bad(item, "is not rows=wide, rows=vendor or rows=narrow");
    }
    return;
  }
  if (key == "report") {
    if (value != "0" && value != "1") bad(item, "is not report=0 or report=1");
    t.report = value == "1";
    return;
  }
  for (const Range& r : kRanges) {
    if (r.key != key) continue;
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    const bool pow2_ok = !r.power_of_two || (v & (v - 1)) == 0;
    if (ec != std::errc() || end != value.data() + value.size() || v < r.low || v > r.high ||
        !pow2_ok) {
      bad(item, "needs " + std::string(r.power_of_two ? "a power of two " : "an integer ") +
                    "from " + std::to_string(r.low) + " to " + std::to_string(r.high));
    }
    t.vkfft[std::string(key)] = v;
    return;
  }
  bad(item, "names no known key");
}

}  // namespace

const std::vector<std::string_view>& fft_tuning_keys() {
  static const std::vector<std::string_view> keys = [] {
    std::vector<std::string_view> k;
    for (const Range& r : kRanges) k.push_back(r.key);
    return k;
  }();
  return keys;
}

FftTuning parse_fft_tuning(const char* text) {
  FftTuning t;
  if (text == nullptr) return t;
  std::string_view rest(text);
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) bad(item, "has no '='");
    set(t, item, item.substr(0, eq), item.substr(eq + 1));
  }
  return t;
}

}  // namespace vkt::vk
