import { describe, expect, it } from 'vitest';
import { encodeBase64 } from '../../src/encoding/base64';
import { hexToBytes } from '../../src/encoding/hex';
import { utf8 } from '../../src/encoding/utf8';
import { LogSigning } from '../../src/log/log-signing';
import { entryHash, leafHash } from '../../src/log/merkle';
import { MemoryNodeStore, MerkleTree } from '../../src/log/merkle-tree';
import { ed25519Pkcs8FromSeed } from '../../src/signing/keys';
import { LOG_CHECKPOINT_5, LOG_ORIGIN, LOG_SEED } from './known-answers';

// The log's signing key: a checkpoint signed under the object's origin, the signer made once, a key
// that fails to import tried again, and nothing signed while the origin is refused.

const key = encodeBase64(ed25519Pkcs8FromSeed(hexToBytes(LOG_SEED) as Uint8Array));

function knownTree(): MerkleTree {
  const tree = new MerkleTree(new MemoryNodeStore());
  for (let n = 0; n < 5; n++) tree.append(leafHash(entryHash(utf8(`{"n":${n}}`))));
  return tree;
}

describe('LogSigning', () => {
  it('signs the known checkpoint of size 5 under the origin it is given', async () => {
    const signing = new LogSigning(() => LOG_ORIGIN, { LOG_SIGNING_KEY: key });
    expect(await signing.sign(5, knownTree().root())).toBe(LOG_CHECKPOINT_5);
  });

  it('makes the signer once, and again after a key that failed to import', async () => {
    const env = { LOG_SIGNING_KEY: 'not a key' };
    const signing = new LogSigning(() => LOG_ORIGIN, env);
    await expect(signing.signerOf()).rejects.toThrow();
    env.LOG_SIGNING_KEY = key;
    const signer = signing.signerOf();
    expect(signing.signerOf()).toBe(signer);
    expect((await signer).name).toBe(LOG_ORIGIN);
  });

  it('signs nothing while the origin is refused', async () => {
    const refused = () => {
      throw new Error('log object refused: no origin');
    };
    const signing = new LogSigning(refused, { LOG_SIGNING_KEY: key });
    await expect(signing.sign(5, knownTree().root())).rejects.toThrow('log object refused: no origin');
  });
});
