// The consumer table's last lines: per op, where the device path (D: op plus reading the
// result) beats the cpu (B), and what the device's figures mean when it is a CPU emulation.
#pragma once

#include <cstdio>
#include <vector>

#include "csv.h"
#include "host_info.h"

namespace vkt::bench {

void print_verdicts(std::FILE* f, const std::vector<Row>& rows, const HostInfo& host);

}  // namespace vkt::bench
