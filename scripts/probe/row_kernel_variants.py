#!/usr/bin/env python3
"""Timing-only variants of a generated softmax row kernel (VKT_COMPILE_DUMP's GLSL), for
vkt-pipeline-time: which part of the kernel the driver's pipeline creation pays for.
The variants drop eager's rare paths (NOT correct kernels; never run them):
  nodivslow: the row divide without div_f32's fallback; noexpslow: exp without its
  underflow scaling branch; nonan: the row max without its NaN lane; lean: all three;
  noprecise: no `precise`.
For the rare=once kernel (--once): nofixup drops the loop that redoes slow divides,
  nofirstnan the NaN lane's first-NaN selects, expfast exp's underflow scaling; lean all three.
Usage: row_kernel_variants.py [--once] SOFTMAX.comp OUTDIR"""
import os
import sys

HELPERS = '''
float div_fast_only(float a, RowDivisor d) {
  precise float q = a * d.r;
  precise float residual = fma(-q, d.b, a);
  precise float refined = fma(residual, d.r, q);
  return refined;
}
float exp_fast_only(float x) {
  int n;
  const float er = exp_reduced(x, n);
  return exp_scaled_on_bits(er, n);
}
'''


def helpers(s):
    return s.replace('\nvoid main() {', HELPERS + '\nvoid main() {', 1)


def nodiv(s):
    return helpers(s).replace('div_f32_row(', 'div_fast_only(')


def noexp(s):
    return helpers(s).replace('exp_f32_nonpositive(', 'exp_fast_only(')


def nonan(s):
    i = s.index('  [[dont_flatten]] if (bits_hold_nan(')
    j = s.index('  } else {\n', i)
    k = s.index('\n  }\n', j + 10)
    return s[:i] + s[j + len('  } else {\n'):k] + s[k + 4:]


def lean(s):
    s = helpers(s).replace('div_f32_row(', 'div_fast_only(')
    return nonan(s.replace('exp_f32_nonpositive(', 'exp_fast_only('))


def drop_block(s, opener):
    """Removes the block that starts with the line `opener` (to its closing brace)."""
    i = s.index(opener)
    depth, k = 0, i
    while True:
        c = s[k]
        if c == '{':
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                break
        k += 1
    return s[:i] + s[k + 2:]


def nofixup(s):
    return drop_block(s, '  [[dont_flatten]] if ((slow')


def nofirstnan(s):
    return drop_block(s, '  [[dont_flatten]] if (bits_hold_nan(')


def expfast(s):
    return helpers(s).replace('exp_f32_nonpositive_flat(', 'exp_fast_only(')


ONCE_VARIANTS = {'nofixup': nofixup, 'nofirstnan': nofirstnan, 'expfast': expfast,
                 'oncelean': lambda s: nofixup(nofirstnan(expfast(s)))}

VARIANTS = {'nodivslow': nodiv, 'noexpslow': noexp, 'nonan': nonan, 'lean': lean,
            'noprecise': lambda s: s.replace('precise ', '')}

if __name__ == '__main__':
    args = sys.argv[1:]
    once = args[0] == '--once'
    if once:
        args = args[1:]
    src = open(args[0]).read()
    base = os.path.splitext(os.path.basename(args[0]))[0]
    for name, f in (ONCE_VARIANTS if once else VARIANTS).items():
        with open(os.path.join(args[1], f'{base}_{name}.comp'), 'w') as out:
            out.write(f(src))
