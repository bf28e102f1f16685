#include "fuzz/replay.h"

#include <typeinfo>

namespace vkt::fuzz {

std::vector<NodeOutcome> replay(const Program& p, Backend& b) {
  std::vector<NodeOutcome> out(p.nodes.size());
  std::vector<Tensor> results(p.nodes.size());
  for (std::size_t i = 0; i < p.nodes.size(); ++i) {
    const Node& n = p.nodes[i];
    std::vector<Tensor> in;
    bool ready = true;
    for (int a : n.args) {
      ready = ready && results[static_cast<std::size_t>(a)].defined();
      if (ready) in.push_back(results[static_cast<std::size_t>(a)]);
    }
    if (!ready) {
      out[i].error = "input missing";
      continue;
    }
    try {
      results[i] = run_node(n, in, b);
      out[i].dtype = results[i].dtype();
      out[i].shape = results[i].shape();
      out[i].bytes = results[i].to_bytes();
    } catch (const Error& e) {
      out[i].error = typeid(e).name();
    }
  }
  return out;
}

}  // namespace vkt::fuzz
