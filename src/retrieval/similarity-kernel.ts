import { body, HEADER, name, op, SECTION, section, T, u32, vec } from './wasm-bytes.js';

/**
 * Two loops over vectors in WebAssembly memory, 16 bytes at a time (WebAssembly SIMD):
 *
 * - `hamming(q, rows, n, chunks, out)`: for each of `n` bit rows of `chunks` × 16 bytes laid end to
 *   end from `rows`, the number of bits that differ from the bits at `q`, as an i32 at `out`.
 * - `dots(q, matrix, chunks, picks, count, out)`: for each of the `count` row numbers (i32) at
 *   `picks`, the dot product of that row of `matrix` (`chunks` × 4 floats a row) with the floats at
 *   `q`, as an f32 at `out`.
 * - `dots8(q, matrix, chunks, picks, count, out)`: the same for rows of `chunks` × 16 signed bytes
 *   and a query of as many 16-bit integers, as an i32 at `out`.
 *
 * Callers pad rows to whole chunks with zeros, which changes neither figure.
 */
export interface SimilarityKernel {
  hamming(q: number, rows: number, n: number, chunks: number, out: number): void;
  dots(q: number, matrix: number, chunks: number, picks: number, count: number, out: number): void;
  dots8(q: number, matrix: number, chunks: number, picks: number, count: number, out: number): void;
}

const { get, set, tee } = op;

/** hamming: params q 0, rows 1, n 2, chunks 3, out 4; locals r 5, k 6, qp 7, acc 8 (v128). */
const hammingBody = body(
  [T.i32, T.i32, T.i32, T.v128],
  [
    get(2),
    op.i32Eqz,
    op.brIf(0),
    op.loop,
    op.v128Zero,
    set(8),
    get(0),
    set(7),
    get(3),
    set(6),
    op.loop,
    // acc += pairwise sums of popcount(row ^ q): 16-bit lanes never overflow at any length here.
    get(8),
    get(1),
    op.v128Load,
    get(7),
    op.v128Load,
    op.v128Xor,
    op.i8x16Popcnt,
    op.i16x8AddPairsU8,
    op.i16x8Add,
    set(8),
    get(1),
    op.i32Const(16),
    op.i32Add,
    set(1),
    get(7),
    op.i32Const(16),
    op.i32Add,
    set(7),
    get(6),
    op.i32Const(1),
    op.i32Sub,
    tee(6),
    op.brIf(0),
    op.end,
    // out[r] = the sum of acc's lanes
    get(4),
    get(5),
    op.i32Const(2),
    op.i32Shl,
    op.i32Add,
    get(8),
    op.i32x4AddPairsU16,
    tee(8),
    op.i32x4Lane(0),
    get(8),
    op.i32x4Lane(1),
    op.i32Add,
    get(8),
    op.i32x4Lane(2),
    op.i32Add,
    get(8),
    op.i32x4Lane(3),
    op.i32Add,
    op.i32Store,
    get(5),
    op.i32Const(1),
    op.i32Add,
    tee(5),
    get(2),
    op.i32LtU,
    op.brIf(0),
    op.end,
  ],
);

/**
 * A loop over picked rows: params q 0, matrix 1, chunks 2, picks 3, count 4, out 5; locals c 6, p 7,
 * qp 8, k 9, acc 10 (v128), row 11 (v128). For each pick, `step` adds one 16-byte chunk of the row
 * (at p, also in `row`) times the query (at qp) into acc, the query moving on `queryStep` bytes a
 * chunk; `total` turns acc into one number, and `store` writes it at out[c].
 */
function pickedRowsBody(
  step: readonly (readonly number[])[],
  queryStep: number,
  total: readonly (readonly number[])[],
  store: readonly number[],
): number[] {
  return body(
    [T.i32, T.i32, T.i32, T.i32, T.v128, T.v128],
    [
      get(4),
      op.i32Eqz,
      op.brIf(0),
      op.loop,
      // p = matrix + picks[c] * chunks * 16
      get(1),
      get(3),
      get(6),
      op.i32Const(2),
      op.i32Shl,
      op.i32Add,
      op.i32Load,
      get(2),
      op.i32Mul,
      op.i32Const(4),
      op.i32Shl,
      op.i32Add,
      set(7),
      get(0),
      set(8),
      get(2),
      set(9),
      op.v128Zero,
      set(10),
      op.loop,
      get(7),
      op.v128Load,
      set(11),
      ...step,
      get(7),
      op.i32Const(16),
      op.i32Add,
      set(7),
      get(8),
      op.i32Const(queryStep),
      op.i32Add,
      set(8),
      get(9),
      op.i32Const(1),
      op.i32Sub,
      tee(9),
      op.brIf(0),
      op.end,
      get(5),
      get(6),
      op.i32Const(2),
      op.i32Shl,
      op.i32Add,
      ...total,
      store,
      get(6),
      op.i32Const(1),
      op.i32Add,
      tee(6),
      get(4),
      op.i32LtU,
      op.brIf(0),
      op.end,
    ],
  );
}

/** The sum of acc's four lanes, read by `lane` and added by `add`. */
function laneSum(lane: (i: number) => number[], add: readonly number[]): (readonly number[])[] {
  return [get(10), lane(0), get(10), lane(1), add, get(10), lane(2), add, get(10), lane(3), add];
}

/** dots: float rows times a float query, four lanes at a time. */
const dotsBody = pickedRowsBody(
  [get(10), get(11), get(8), op.v128Load, op.f32x4Mul, op.f32x4Add, set(10)],
  16,
  laneSum(op.f32x4Lane, op.f32Add),
  op.f32Store,
);

/** dots8: int8 rows times an int16 query, each 16 row bytes widened to two halves of eight. */
const dots8Body = pickedRowsBody(
  [
    get(10),
    get(11),
    op.i16x8FromLowI8,
    get(8),
    op.v128Load,
    op.i32x4DotI16,
    op.i32x4Add,
    get(11),
    op.i16x8FromHighI8,
    get(8),
    op.v128LoadAt(16),
    op.i32x4DotI16,
    op.i32x4Add,
    set(10),
  ],
  32,
  laneSum(op.i32x4Lane, op.i32Add),
  op.i32Store,
);

/** The kernel module: one imported memory (`env.memory`), three exported functions. */
export function kernelBytes(): Uint8Array {
  const fn = (params: number) => [0x60, ...vec(new Array(params).fill([T.i32])), 0];
  return Uint8Array.from([
    ...HEADER,
    ...section(SECTION.type, vec([fn(5), fn(6)])),
    ...section(SECTION.import, vec([[...name('env'), ...name('memory'), 0x02, 0x00, ...u32(1)]])),
    ...section(SECTION.function, vec([u32(0), u32(1), u32(1)])),
    ...section(
      SECTION.export,
      vec([
        [...name('hamming'), 0x00, 0],
        [...name('dots'), 0x00, 1],
        [...name('dots8'), 0x00, 2],
      ]),
    ),
    ...section(SECTION.code, vec([hammingBody, dotsBody, dots8Body])),
  ]);
}

/** The part of the WebAssembly API used here (the project's type libraries leave it out). */
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: object };
  Memory: new (descriptor: { initial: number }) => { readonly buffer: ArrayBuffer };
}

let compiled: object | null | undefined;

/** True where this engine runs the kernel (WebAssembly with SIMD). */
export function hasKernel(): boolean {
  return compiledKernel() !== null;
}

/** The kernel's module, compiled once per process; null without WebAssembly SIMD. */
function compiledKernel(): object | null {
  if (compiled === undefined) {
    const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
    const module = kernelBytes();
    compiled = wasm?.validate(module) ? new wasm.Module(module) : null;
  }
  return compiled;
}

/**
 * `bytes` of zeroed memory (whole 64 KiB pages) and the kernel running on it; no kernel where this
 * engine has no WebAssembly SIMD (the caller then computes in JavaScript on the same bytes). The
 * module is compiled once per process.
 */
export function kernelMemory(bytes: number): { buffer: ArrayBuffer; kernel?: SimilarityKernel } {
  const module = compiledKernel();
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  const pages = Math.max(1, Math.ceil(bytes / 65536));
  if (module === null || wasm === undefined) return { buffer: new ArrayBuffer(pages * 65536) };
  const memory = new wasm.Memory({ initial: pages });
  const instance = new wasm.Instance(module, { env: { memory } });
  return { buffer: memory.buffer, kernel: instance.exports as SimilarityKernel };
}
