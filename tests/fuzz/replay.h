// Replays a fuzz program on one backend and keeps every node's outcome (the error class
// it threw, or its dtype, shape and bytes), so runs can be compared bit for bit: the
// thread-safety tests run programs from many threads against a single-threaded replay.
#pragma once

#include <string>
#include <vector>

#include "fuzz/program.h"

namespace vkt::fuzz {

struct NodeOutcome {
  std::string error;  // empty when the node gave a tensor
  DType dtype = DType::u8;
  Shape shape;
  std::vector<std::byte> bytes;
  bool operator==(const NodeOutcome&) const = default;
};

// Leaves are made on `b`; every result is read back as soon as it is made.
std::vector<NodeOutcome> replay(const Program& p, Backend& b);

}  // namespace vkt::fuzz
