/**
 * Just enough of the WebAssembly binary format to write the similarity kernel by hand: LEB128
 * numbers, sections, and the opcodes the kernel uses, by name. The kernel (`similarity-kernel.ts`)
 * is a few hundred bytes; writing it here keeps it readable and needs no toolchain.
 */

/** An unsigned LEB128 number. */
export function u32(n: number): number[] {
  const out: number[] = [];
  let v = n >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

/** A signed LEB128 number (an `i32.const` operand). */
export function s32(n: number): number[] {
  const out: number[] = [];
  let v = n | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    const done = (v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

/** A vector: its length, then its items. */
export function vec(items: readonly (readonly number[])[]): number[] {
  return [...u32(items.length), ...items.flat()];
}

/** A name as the format writes it (length, then UTF-8). */
export function name(text: string): number[] {
  const bytes = [...new TextEncoder().encode(text)];
  return [...u32(bytes.length), ...bytes];
}

/** A section: its id, its size, its contents. */
export function section(id: number, contents: readonly number[]): number[] {
  return [id, ...u32(contents.length), ...contents];
}

/** Section ids. */
export const SECTION = { type: 1, import: 2, function: 3, export: 7, code: 10 } as const;

/** Value types. */
export const T = { i32: 0x7f, f32: 0x7d, v128: 0x7b } as const;

/** A SIMD instruction: the 0xfd prefix and its number. */
function simd(code: number): number[] {
  return [0xfd, ...u32(code)];
}

/** Alignment (log2 bytes) and offset of a memory access. */
function memarg(alignLog2: number, offset = 0): number[] {
  return [alignLog2, ...u32(offset)];
}

/** The instructions the kernel uses, each as its bytes (those with an operand are functions). */
export const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, ...u32(depth)],
  brIf: (depth: number) => [0x0d, ...u32(depth)],
  get: (local: number) => [0x20, ...u32(local)],
  set: (local: number) => [0x21, ...u32(local)],
  tee: (local: number) => [0x22, ...u32(local)],
  i32Load: [0x28, ...memarg(2)],
  i32Store: [0x36, ...memarg(2)],
  f32Store: [0x38, ...memarg(2)],
  i32Const: (n: number) => [0x41, ...s32(n)],
  i32Eqz: [0x45],
  i32LtU: [0x49],
  i32Add: [0x6a],
  i32Sub: [0x6b],
  i32Mul: [0x6c],
  i32Shl: [0x74],
  f32Add: [0x92],
  v128Load: [...simd(0x00), ...memarg(4)],
  /** v128.load of the 16 bytes `offset` bytes past the address. */
  v128LoadAt: (offset: number) => [...simd(0x00), ...memarg(4, offset)],
  v128Zero: [...simd(0x0c), ...new Array<number>(16).fill(0)],
  i32x4Lane: (lane: number) => [...simd(0x1b), lane],
  f32x4Lane: (lane: number) => [...simd(0x1f), lane],
  v128Xor: simd(0x51),
  i8x16Popcnt: simd(0x62),
  i16x8AddPairsU8: simd(0x7d),
  i32x4AddPairsU16: simd(0x7f),
  i16x8FromLowI8: simd(0x87),
  i16x8FromHighI8: simd(0x88),
  i16x8Add: simd(0x8e),
  i32x4Add: simd(0xae),
  i32x4DotI16: simd(0xba),
  f32x4Add: simd(0xe4),
  f32x4Mul: simd(0xe6),
} as const;

/** One function's body: its locals (each one of a type) and its instructions, ending in `end`. */
export function body(locals: readonly number[], code: readonly (readonly number[])[]): number[] {
  const content = [...vec(locals.map((t) => [1, t])), ...code.flat(), ...op.end];
  return [...u32(content.length), ...content];
}

/** The module header: magic and version 1. */
export const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
