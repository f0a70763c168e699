import type { AuditEvent } from './audit-trail';

/** Appends an administrative action to the audit trail (one chain per deployment). */
export function recordAudit(env: Env, event: AuditEvent) {
  return env.AUDIT_TRAIL.getByName('global').append(event);
}
