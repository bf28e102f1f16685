#include "measure.h"

#include "vkt/vkt.h"

namespace vkt::bench {

namespace {
// Keeps the compiler from dropping a read whose result is not otherwise used.
const void* volatile g_sink = nullptr;
}  // namespace

Column measure(const OpCase& c, Backend& b, Read read, const TimingPlan& plan) {
  BackendScope scope(b);
  const std::vector<Tensor> in = place_inputs(c, b);
  b.synchronize();
  auto once = [&] {
    Tensor r = c.run(in);
    switch (read) {
      case Read::none:
        r.backend().synchronize();
        break;
      case Read::to_cpu: {
        const Tensor h = r.to_cpu();
        g_sink = h.storage()->host_data();  // what host_span<T>() returns, for any dtype
        break;
      }
      case Read::to_vector:
        g_sink = r.to_bytes().data();
        break;
    }
  };
  Column col;
  col.stats = time_it(once, plan);
  LedgerScope ledger_scope;
  once();
  col.ledger = ledger_scope.delta();
  col.measured = true;
  return col;
}

}  // namespace vkt::bench
