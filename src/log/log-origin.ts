import { type CheckResult, fail, pass } from '../encoding/check-result';
import { originOfName } from './log-shards';

// Whose log a ReceiptLog object holds is a fact of its storage, not of how it was woken: an object an
// alarm wakes has no name (`ctx.id.name` is undefined), and one that then fell back to LOG_ORIGIN
// signed a shard's tree as the deployment's main log, a fork made by Valve itself. So the origin is
// written to the object's SQLite the first time it is used by name (schema version 1), and every wake
// reads it from there; a name that disagrees with it, or no origin at all, is refused.

/** Schema versions of `log_meta`: 1, the object's origin is stored. */
const SCHEMA_VERSION = 1;

function checkpointOrigin(sql: SqlStorage, order: 'ASC' | 'DESC'): string | undefined {
  const note = sql
    .exec<{ note: string }>(`SELECT note FROM log_checkpoints ORDER BY size ${order} LIMIT 1`)
    .toArray()[0]?.note;
  return note?.split('\n', 1)[0];
}

/**
 * The origin this object signs as, from its storage; stored now when the object has none yet.
 * `name` is the object's name when the runtime gave one. A log begun before origins were stored
 * (checkpoints but no `log_meta` row) takes the origin of its first checkpoint, which a named object
 * signed (nothing wakes a log object by alarm before a named append), provided its name, if known,
 * and its latest checkpoint agree; otherwise it waits for an operator rather than guess.
 * Needs the `log_checkpoints` table.
 */
export function resolveLogOrigin(
  sql: SqlStorage,
  name: string | undefined,
  deploymentOrigin: string,
): CheckResult<string> {
  sql.exec('CREATE TABLE IF NOT EXISTS log_meta (version INTEGER NOT NULL, origin TEXT NOT NULL)');
  const stored = sql.exec<{ origin: string }>('SELECT origin FROM log_meta').toArray()[0]?.origin;
  const named = name === undefined ? undefined : originOfName(name, deploymentOrigin);
  if (stored !== undefined) {
    if (named !== undefined && named !== stored) {
      return fail(`this log object is named ${name} (origin ${named}) but holds the log of ${stored}`);
    }
    return pass(stored);
  }
  const first = checkpointOrigin(sql, 'ASC');
  const origin = named ?? first;
  if (origin === undefined) {
    return fail('this log object was woken without a name and has no stored origin');
  }
  const latest = checkpointOrigin(sql, 'DESC');
  for (const seen of [first, latest]) {
    if (seen !== undefined && seen !== origin) {
      return fail(`this log object (origin ${origin}) holds a checkpoint signed as ${seen}`);
    }
  }
  sql.exec('INSERT INTO log_meta (version, origin) VALUES (?, ?)', SCHEMA_VERSION, origin);
  return pass(origin);
}
