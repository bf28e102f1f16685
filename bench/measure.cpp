#include "measure.h"

#include "vkt/vkt.h"

namespace vkt::bench {

Column measure(const OpCase& c, Backend& b, bool read, const TimingPlan& plan) {
  BackendScope scope(b);
  const std::vector<Tensor> in = place_inputs(c, b);
  b.synchronize();
  auto once = [&] {
    Tensor r = c.run(in);
    if (read) {
      (void)r.to_bytes();
    } else {
      r.backend().synchronize();
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
