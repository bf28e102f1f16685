// What a generation stage needs of the program being made: append a node (run on the cpu
// at once, so later choices see the shapes and dtypes it really gave) and read the results.
#pragma once

#include "fuzz/program.h"

namespace vkt::fuzz {

class Builder {
 public:
  // Appends n when its cpu result is small enough (or it threw): its index, else -1.
  virtual int add(Node n) = 0;
  // The cpu's result of node i: undefined where the node threw.
  virtual const Tensor& val(int i) const = 0;

 protected:
  Builder() = default;
  Builder(const Builder&) = default;
  Builder& operator=(const Builder&) = default;
  ~Builder() = default;
};

}  // namespace vkt::fuzz
