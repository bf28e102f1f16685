"""A small tour, as examples/example.cpp: create tensors, run ops, read the result, and see
what the bus cost."""
import vktensor as vt

a = vt.iota((2, 3), dtype=vt.float32)
b = vt.asarray([10.0, 20.0, 30.0])
with vt.ledger() as led:
    c = a * 2.0 + b  # broadcasts b over a's rows
    s = vt.sum(c, axis=1)
print(" ".join(f"{v:g}" for v in s.tolist()))
print(f"device: {s.device}; ledger: uploads {led.uploads}, downloads {led.downloads}, "
      f"fallbacks {led.fallbacks}")
