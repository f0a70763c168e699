import { env, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { vi } from 'vitest';
import { parseAddCheckpoint } from '../../src/log/add-checkpoint-body';
import { createCosigner, formatCosignerKey } from '../../src/log/cosignature';
import type { ReceiptLog } from '../../src/log/receipt-log';
import { seed } from '../witness/test-log';

// How a log object is woken in these tests as production wakes it: restarted (its in-memory state
// gone), then run by its witnessing alarm through an id that carries no name, so `ctx.id.name` is
// undefined, as it is for an object an alarm wakes. Named calls that follow reach that same instance.

/** The first line of a signed checkpoint: its origin. */
export function originOf(note: string): string {
  return note.split('\n', 1)[0] as string;
}

export function entry(n: number): Uint8Array {
  const bytes = new Uint8Array(32);
  new DataView(bytes.buffer).setUint32(0, n);
  bytes[31] = 7;
  return bytes;
}

/** A stub of the object named `origin`, made from an id that has lost its name. */
export function namelessStub(origin: string): DurableObjectStub<ReceiptLog> {
  const id = env.RECEIPT_LOG.idFromName(origin).toString();
  return env.RECEIPT_LOG.get(env.RECEIPT_LOG.idFromString(id));
}

const RESTART = 'a test restarts the log object';

/**
 * Ends the object's life: the next call, named or not, constructs it again from its storage. The
 * abort runs from a timer once this call has answered, because workerd reports an abort that breaks a
 * call still in flight as an uncaught exception; the stub that reached the ended object then refuses
 * every call with the abort's reason, which is how we know the object is gone.
 */
export async function restart(stub: DurableObjectStub): Promise<void> {
  const ended = { yet: false };
  await runInDurableObject(stub, (_instance, state) => {
    setTimeout(() => {
      ended.yet = true;
      state.abort(RESTART);
    }, 0);
  });
  while (!ended.yet) await new Promise((resolve) => setTimeout(resolve, 0));
  const after = await runInDurableObject(stub, () => 'still running').catch((error: unknown) =>
    String(error),
  );
  if (!after.includes(RESTART)) throw new Error(`the log object did not restart: ${after}`);
}

/** Runs the object's alarm as a wake with no name does; true when one was set. */
export function wakeByAlarm(origin: string): Promise<boolean> {
  return runDurableObjectAlarm(namelessStub(origin));
}

/** Every checkpoint the object holds in its SQLite. */
export function storedCheckpoints(origin: string): Promise<string[]> {
  return runInDurableObject(namelessStub(origin), (_instance, state) =>
    state.storage.sql
      .exec<{ note: string }>('SELECT note FROM log_checkpoints ORDER BY size')
      .toArray()
      .map((row) => row.note),
  );
}

/**
 * LOG_WITNESSES naming one witness at https://witness.test, whose every push is recorded (the
 * checkpoint it carried) and answered 503, so each round fails and the log retries by alarm.
 * `restore` puts the setting and fetch back.
 */
export async function recordingWitness() {
  const cosigner = await createCosigner('witness.test', seed(40));
  const settings = env as unknown as Record<string, string>;
  const before = settings.LOG_WITNESSES ?? '';
  settings.LOG_WITNESSES = `${formatCosignerKey('witness.test', cosigner.publicKey)} https://witness.test`;
  const pushed: string[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    if (new URL(String(input instanceof Request ? input.url : input)).host !== 'witness.test') {
      throw new Error(`an unmocked request to ${String(input)}`);
    }
    const body = parseAddCheckpoint(String(init?.body));
    if (body.ok) pushed.push(body.value.checkpoint);
    return new Response('busy', { status: 503 });
  });
  const restore = () => {
    settings.LOG_WITNESSES = before;
    spy.mockRestore();
  };
  return { pushed, restore };
}
