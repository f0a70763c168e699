import type { AuditProofs } from '../contracts/audit-proofs';
import type { VerifyCheck } from '../contracts/receipt-bodies';
import type { TrustRoot } from '../contracts/trust-root';
import { decodeBase64 } from '../encoding/base64';
import type { Bytes } from '../encoding/bytes';
import { auditEntryHash } from '../log/audit-entry';
import { verifyCheckpoint } from '../log/checkpoint';
import { leafHash, verifyInclusion } from '../log/merkle';
import { type AuditRecord, verifyAuditChain } from './audit-chain';

// What `valve-verify audit` checks of a downloaded trail: the hash chain from genesis, and, given the
// log proofs, that every record's hash is an entry of the pinned log under a verified checkpoint, so
// the trail cannot be rewritten or cut short before its last logged record without the log showing it.

export interface AuditReport {
  ok: boolean;
  records: number;
  checks: VerifyCheck[];
}

/** The `audit.chain` check: every record links to the one before, from genesis. */
export function chainCheck(records: readonly AuditRecord[]): VerifyCheck {
  const chain = verifyAuditChain(records);
  return chain.ok
    ? { check: 'audit.chain', ok: true, detail: `${records.length} records link from genesis` }
    : {
        check: 'audit.chain',
        ok: false,
        detail: `breaks at seq ${chain.brokenAt?.seq}: ${chain.brokenAt?.reason}`,
      };
}

export async function verifyAuditTrail(
  records: readonly AuditRecord[],
  proofs: AuditProofs | undefined,
  trustRoot: TrustRoot | undefined,
): Promise<AuditReport> {
  const checks: VerifyCheck[] = [];
  checks.push(chainCheck(records));
  if (proofs !== undefined && trustRoot !== undefined) await checkProofs(records, proofs, trustRoot, checks);
  return { ok: checks.every((c) => c.ok), records: records.length, checks };
}

/**
 * The `log.checkpoint` check of the proofs' checkpoint, pushed to `checks`: signed by the key the trust
 * root pins for its origin. Its size and root when it passed, else null.
 */
export async function checkpointCheck(
  note: string,
  trustRoot: TrustRoot,
  checks: VerifyCheck[],
): Promise<{ size: number; root: Uint8Array } | null> {
  const origin = note.split('\n', 1)[0] ?? '';
  const pinned = trustRoot.logs.find((log) => log.origin === origin);
  const checkpoint = pinned
    ? await verifyCheckpoint(note, pinned)
    : ({ ok: false, reason: `log ${origin} is not in the trust root` } as const);
  if (!checkpoint.ok) {
    checks.push({ check: 'log.checkpoint', ok: false, detail: checkpoint.reason });
    return null;
  }
  checks.push({ check: 'log.checkpoint', ok: true, detail: `${origin} at size ${checkpoint.value.size}` });
  return checkpoint.value;
}

async function checkProofs(
  records: readonly AuditRecord[],
  proofs: AuditProofs,
  trustRoot: TrustRoot,
  checks: VerifyCheck[],
) {
  const checkpoint = await checkpointCheck(proofs.checkpoint, trustRoot, checks);
  if (checkpoint === null) return;
  const { size, root } = checkpoint;
  const bySeq = new Map(proofs.proofs.map((p) => [p.seq, p]));
  const missing: number[] = [];
  const failed: string[] = [];
  for (const record of records) {
    const proof = bySeq.get(record.seq);
    if (proof === undefined) {
      missing.push(record.seq);
      continue;
    }
    const path = proof.hashes.map((h) => decodeBase64(h));
    if (proof.hash !== record.hash || path.some((h) => h === null)) {
      failed.push(`seq ${record.seq}: the proof is for another hash`);
      continue;
    }
    const leaf = leafHash(auditEntryHash(record.hash));
    const included = verifyInclusion(leaf, proof.index, size, path as Bytes[], root);
    if (!included.ok) failed.push(`seq ${record.seq}: ${included.reason}`);
  }
  checks.push(
    failed.length === 0 && missing.length === 0
      ? { check: 'audit.inclusion', ok: true, detail: `all ${records.length} records are log entries` }
      : {
          check: 'audit.inclusion',
          ok: false,
          detail: [...failed, ...(missing.length ? [`no proof for seq ${missing.join(', ')}`] : [])].join(
            '; ',
          ),
        },
  );
}
