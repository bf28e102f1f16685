#!/usr/bin/env python3
"""Timing-only variants of a generated softmax row kernel (VKT_COMPILE_DUMP's GLSL), for
vkt-pipeline-time: which part of the kernel the driver's pipeline creation pays for.
The variants drop eager's rare paths (NOT correct kernels; never run them):
  nodivslow: the row divide without div_f32's fallback; noexpslow: exp without its
  underflow scaling branch; nonan: the row max without its NaN lane; lean: all three;
  noprecise: no `precise`.
Usage: row_kernel_variants.py SOFTMAX.comp OUTDIR"""
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


VARIANTS = {'nodivslow': nodiv, 'noexpslow': noexp, 'nonan': nonan, 'lean': lean,
            'noprecise': lambda s: s.replace('precise ', '')}

if __name__ == '__main__':
    src = open(sys.argv[1]).read()
    base = os.path.splitext(os.path.basename(sys.argv[1]))[0]
    for name, f in VARIANTS.items():
        with open(os.path.join(sys.argv[2], f'{base}_{name}.comp'), 'w') as out:
            out.write(f(src))
