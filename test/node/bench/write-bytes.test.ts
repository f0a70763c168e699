import { existsSync, fsyncSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeBytesOf } from '../../../bench/lib/processes.js';

const TMPFS_MAGIC = 0x01021994;

describe.skipIf(!existsSync('/proc/self/io'))('writeBytesOf', () => {
  it("counts the bytes a process writes to a file on disk, and nothing for a process that isn't there", () => {
    expect(writeBytesOf([])).toBe(0);
    expect(writeBytesOf([2 ** 22 + 12345])).toBeNaN();
    const dir = mkdtempSync(join(process.cwd(), '.write-bytes-'));
    try {
      const before = writeBytesOf([process.pid]);
      expect(Number.isFinite(before)).toBe(true);
      const fd = openSync(join(dir, 'data'), 'w');
      writeSync(fd, new Uint8Array(256 * 1024).fill(7));
      fsyncSync(fd);
      const after = writeBytesOf([process.pid]);
      // A folder on tmpfs is never written to storage; anywhere else the 256 KiB count.
      if (statfsSync(dir).type !== TMPFS_MAGIC) expect(after - before).toBeGreaterThanOrEqual(256 * 1024);
      else expect(after).toBeGreaterThanOrEqual(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
