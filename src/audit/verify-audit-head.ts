import type { AuditProofs } from '../contracts/audit-proofs';
import type { VerifyCheck } from '../contracts/receipt-bodies';
import type { TrustRoot } from '../contracts/trust-root';
import { decodeBase64 } from '../encoding/base64';
import type { Bytes } from '../encoding/bytes';
import { auditEntryHash } from '../log/audit-entry';
import { leafHash, verifyInclusion } from '../log/merkle';
import type { AuditRecord } from './audit-chain';
import { type AuditReport, chainCheck, checkpointCheck } from './verify-audit-trail';

// What the operator's console checks of the audit trail at a glance, with one inclusion proof instead
// of one per record (`valve-verify audit` checks them all): the hash chain from genesis, and that the
// newest record a checkpoint holds is an entry of the pinned log. Each record's hash commits to the one
// before it, so that one entry holds every record up to it as downloaded.

export async function verifyAuditHead(
  records: readonly AuditRecord[],
  proofs: AuditProofs,
  trustRoot: TrustRoot,
): Promise<AuditReport> {
  const checks: VerifyCheck[] = [];
  checks.push(chainCheck(records));
  const report = () => ({ ok: checks.every((c) => c.ok), records: records.length, checks });
  if (records.length === 0) return report();

  const checkpoint = await checkpointCheck(proofs.checkpoint, trustRoot, checks);
  if (checkpoint === null) return report();
  const { size, root } = checkpoint;

  const head = proofs.proofs.reduce<AuditProofs['proofs'][number] | undefined>(
    (newest, proof) => (newest === undefined || proof.seq > newest.seq ? proof : newest),
    undefined,
  );
  const record = head === undefined ? undefined : records.find((r) => r.seq === head.seq);
  if (head === undefined || record === undefined) {
    checks.push({
      check: 'audit.inclusion',
      ok: false,
      detail: 'no record of the trail is in a checkpoint yet',
    });
    return report();
  }
  const path = head.hashes.map((h) => decodeBase64(h));
  const included =
    head.hash !== record.hash || path.some((h) => h === null)
      ? ({ ok: false, reason: 'the proof is for another hash' } as const)
      : verifyInclusion(leafHash(auditEntryHash(record.hash)), head.index, size, path as Bytes[], root);
  const waiting = records.length - records.indexOf(record) - 1;
  checks.push(
    included.ok
      ? {
          check: 'audit.inclusion',
          ok: true,
          detail: `records 1 to ${record.seq} are in the log (seq ${record.seq} is entry ${head.index})${
            waiting > 0 ? `; the newest ${waiting} are not in a checkpoint yet` : ''
          }`,
        }
      : { check: 'audit.inclusion', ok: false, detail: `seq ${record.seq}: ${included.reason}` },
  );
  return report();
}
