/**
 * Single-precision `logf` and `expf` as Pagefind's WebAssembly computes them: Rust's f32 `ln` and
 * `exp` there are the `libm` crate's (musl's ports of FreeBSD's e_logf.c and e_expf.c), whose
 * results differ from a correctly rounded log or exp in the last bit for some inputs. Every step
 * is rounded to f32 (`Math.fround`) as the original rounds it, so scores match Pagefind's bit for bit.
 */
const f = Math.fround;
const bits = new DataView(new ArrayBuffer(4));
const toBits = (x: number): number => { bits.setFloat32(0, x); return bits.getUint32(0); };
const fromBits = (n: number): number => { bits.setUint32(0, n >>> 0); return bits.getFloat32(0); };

const LOG_LN2_HI = f(6.9313812256e-01);
const LOG_LN2_LO = f(9.0580006145e-06);
const LG1 = f(0.66666662693);
const LG2 = f(0.40000972152);
const LG3 = f(0.28498786688);
const LG4 = f(0.24279078841);

/** Natural logarithm of an f32 (libm `logf`). */
export function logf(input: number): number {
  let x = f(input);
  let ix = toBits(x);
  let k = 0;
  if (ix < 0x00800000 || ix >>> 31 !== 0) {
    if ((ix << 1) === 0) return -Infinity;
    if (ix >>> 31 !== 0) return NaN;
    k -= 25;
    x = f(x * 33554432);
    ix = toBits(x);
  } else if (ix >= 0x7f800000) {
    return x;
  } else if (ix === 0x3f800000) {
    return 0;
  }
  ix = (ix + (0x3f800000 - 0x3f3504f3)) >>> 0;
  k += (ix >>> 23) - 0x7f;
  ix = (ix & 0x007fffff) + 0x3f3504f3;
  x = fromBits(ix);
  const fx = f(x - 1);
  const s = f(fx / f(2 + fx));
  const z = f(s * s);
  const w = f(z * z);
  const t1 = f(w * f(LG2 + f(w * LG4)));
  const t2 = f(z * f(LG1 + f(w * LG3)));
  const r = f(t2 + t1);
  const hfsq = f(f(0.5 * fx) * fx);
  const dk = f(k);
  return f(f(f(f(f(s * f(hfsq + r)) + f(dk * LOG_LN2_LO)) - hfsq) + fx) + f(dk * LOG_LN2_HI));
}

const EXP_LN2_HI = f(6.9314575195e-01);
const EXP_LN2_LO = f(1.4286067653e-06);
const INV_LN2 = f(1.4426950216e+00);
const P1 = f(1.6666625440e-1);
const P2 = f(-2.7667332906e-3);

/** e to an f32 power (libm `expf`). */
export function expf(input: number): number {
  let x = f(input);
  let hx = toBits(x);
  const sign = hx >>> 31;
  hx &= 0x7fffffff;
  if (hx >= 0x42aeac50) {
    if (hx > 0x7f800000) return x;
    if (hx >= 0x42b17218 && sign === 0) return Infinity;
    if (sign !== 0 && hx >= 0x42cff1b5) return 0;
  }
  let k: number;
  let hi: number;
  let lo: number;
  if (hx > 0x3eb17218) {
    // Truncated toward zero, as Rust's `as i32` of an f32.
    k = hx > 0x3f851592 ? Math.trunc(f(f(INV_LN2 * x) + (sign === 0 ? 0.5 : -0.5))) : 1 - sign - sign;
    const kf = f(k);
    hi = f(x - f(kf * EXP_LN2_HI));
    lo = f(kf * EXP_LN2_LO);
    x = f(hi - lo);
  } else if (hx > 0x39000000) {
    k = 0;
    hi = x;
    lo = 0;
  } else {
    return f(1 + x);
  }
  const xx = f(x * x);
  const c = f(x - f(xx * f(P1 + f(xx * P2))));
  const y = f(1 + f(f(f(f(x * c) / f(2 - c)) - lo) + hi));
  // scalbnf: one rounding of y·2^k (exact unless the result is subnormal).
  return k === 0 ? y : f(y * 2 ** k);
}
