// SHA-256 (FIPS 180-4 §6.2) as a stream that can start from any chaining state: what HMAC needs to
// reuse the states after a key's padded blocks. Words are 32-bit integers in an Int32Array and bytes
// are read straight into the message schedule, so a block costs its 64 rounds and little else.

export const SHA256_BLOCK = 64;

/** H(0), FIPS 180-4 §5.3.3. */
export const SHA256_IV: Readonly<Int32Array> = Int32Array.from([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/** K, FIPS 180-4 §4.2.2. */
const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const W = new Int32Array(64);

/** Wipes the message schedule, which holds the last block's words (a key's, say). */
export function wipeSchedule(): void {
  W.fill(0);
}

/** One block of `bytes` at `offset` into `state` (FIPS 180-4 §6.2.2). */
export function compressBlock(state: Int32Array, bytes: Uint8Array, offset: number): void {
  const w = W;
  for (let i = 0, j = offset; i < 16; i++, j += 4) {
    w[i] =
      ((bytes[j] as number) << 24) |
      ((bytes[j + 1] as number) << 16) |
      ((bytes[j + 2] as number) << 8) |
      (bytes[j + 3] as number);
  }
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15] as number;
    const y = w[i - 2] as number;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = (s1 + (w[i - 7] as number) + s0 + (w[i - 16] as number)) | 0;
  }
  let a = state[0] as number;
  let b = state[1] as number;
  let c = state[2] as number;
  let d = state[3] as number;
  let e = state[4] as number;
  let f = state[5] as number;
  let g = state[6] as number;
  let h = state[7] as number;
  // Ch and Maj in their cheaper equal forms, g ^ (e & (f ^ g)) and (a & b) | (c & (a | b)): a tenth
  // off a block in V8.
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + (g ^ (e & (f ^ g))) + (K[i] as number) + (w[i] as number)) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) | (c & (a | b)))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = ((state[0] as number) + a) | 0;
  state[1] = ((state[1] as number) + b) | 0;
  state[2] = ((state[2] as number) + c) | 0;
  state[3] = ((state[3] as number) + d) | 0;
  state[4] = ((state[4] as number) + e) | 0;
  state[5] = ((state[5] as number) + f) | 0;
  state[6] = ((state[6] as number) + g) | 0;
  state[7] = ((state[7] as number) + h) | 0;
}

/** A SHA-256 computation in progress, reusable: `resume` starts it over from any chaining state. */
export class Sha256Stream {
  private readonly state = new Int32Array(8);
  private readonly block = new Uint8Array(SHA256_BLOCK);
  /** Bytes waiting in `block`. */
  private filled = 0;
  /** Bytes hashed in all, those before the resumed state included. */
  private length = 0;

  /** Starts over from `state`, the chaining state after `hashed` bytes (a multiple of the block). */
  resume(state: Readonly<Int32Array>, hashed: number): void {
    this.state.set(state);
    this.filled = 0;
    this.length = hashed;
  }

  update(bytes: Uint8Array): void {
    const { block, state } = this;
    const n = bytes.length;
    let at = 0;
    this.length += n;
    if (this.filled > 0) {
      const take = Math.min(SHA256_BLOCK - this.filled, n);
      block.set(take === n ? bytes : bytes.subarray(0, take), this.filled);
      this.filled += take;
      at = take;
      if (this.filled < SHA256_BLOCK) return;
      compressBlock(state, block, 0);
      this.filled = 0;
    }
    for (; at + SHA256_BLOCK <= n; at += SHA256_BLOCK) compressBlock(state, bytes, at);
    if (at < n) {
      block.set(at === 0 ? bytes : bytes.subarray(at), 0);
      this.filled = n - at;
    }
  }

  /** Pads (FIPS 180-4 §5.1.1), writes the 32-byte digest into `out`, and wipes the stream. */
  finish(out: Uint8Array): void {
    const { block, state } = this;
    const bits = this.length * 8;
    block[this.filled] = 0x80;
    block.fill(0, this.filled + 1);
    if (this.filled + 1 > SHA256_BLOCK - 8) {
      compressBlock(state, block, 0);
      block.fill(0);
    }
    const high = Math.floor(bits / 0x100000000);
    const low = bits >>> 0;
    block[56] = high >>> 24;
    block[57] = high >>> 16;
    block[58] = high >>> 8;
    block[59] = high;
    block[60] = low >>> 24;
    block[61] = low >>> 16;
    block[62] = low >>> 8;
    block[63] = low;
    compressBlock(state, block, 0);
    for (let i = 0; i < 8; i++) {
      const word = state[i] as number;
      out[i * 4] = word >>> 24;
      out[i * 4 + 1] = word >>> 16;
      out[i * 4 + 2] = word >>> 8;
      out[i * 4 + 3] = word;
    }
    block.fill(0);
    state.fill(0);
    wipeSchedule();
    this.filled = 0;
    this.length = 0;
  }
}
