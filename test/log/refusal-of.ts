import { runInDurableObject } from 'cloudflare:test';
import type { ReceiptLog } from '../../src/log/receipt-log';

/**
 * The message the log object refuses `call` with ('not refused' when it does not), called on the
 * instance itself. An exception that leaves a Durable Object's RPC method is reported by the runtime
 * as an uncaught exception even when the caller handles it, so a test that means a refusal reads it
 * in-process and leaves the runtime's report for real faults.
 */
export function refusalOf(
  stub: DurableObjectStub<ReceiptLog>,
  call: (log: ReceiptLog) => unknown,
): Promise<string> {
  return runInDurableObject(stub, async (instance) => {
    try {
      await call(instance);
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
    return 'not refused';
  });
}
