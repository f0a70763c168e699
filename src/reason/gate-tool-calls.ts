import type { HeldCall } from '../contracts/approvals';
import type { ReasonRequest } from '../contracts/reason-request';
import type { ToolCall, UnsignedResponse } from '../contracts/reason-response';
import { argsSha256, signCapability } from '../receipts/capability-token';
import type { Ed25519SigningKey } from '../signing/keys';

// The tool-call boundary (docs/approvals.md): of the calls an answer hands over, those that may run
// now (no approval request) get a capability token, signed before the receipt so the receipt commits
// to the answer as sent; those that wait for a reviewer are kept once the receipt is issued, so a
// decision always names a receipt that exists.

export interface ToolCallGateDeps {
  tenant: string;
  issuer: string;
  signingKey: Ed25519SigningKey;
  now: () => number;
  capabilityTtlMs: number;
  approvalWindowMs: number;
  /** Keeps the held calls for a decision (D1). */
  keepHeld: (calls: HeldCall[]) => Promise<void>;
}

export interface GatedAnswer {
  answer: UnsignedResponse;
  /** Keeps the held calls; run once the receipt is issued. */
  hold: () => Promise<void>;
}

export type GateToolCalls = (request: ReasonRequest, answer: UnsignedResponse) => Promise<GatedAnswer>;

export function toolCallGate(deps: () => Promise<ToolCallGateDeps>): GateToolCalls {
  return async (request, answer) => {
    if (answer.toolCalls.length === 0) return { answer, hold: async () => undefined };
    const gate = await deps();
    const iat = gate.now();
    const toolCalls = await Promise.all(
      answer.toolCalls.map(async (call): Promise<ToolCall> => {
        if (call.approval !== undefined) return call;
        const capability = await signCapability(
          {
            v: 1,
            iss: gate.issuer,
            tenant: gate.tenant,
            rid: answer.receiptId,
            call: call.id,
            tool: call.name,
            argsSha256: argsSha256(call.arguments),
            tainted: call.tainted,
            decision: 'none',
            by: null,
            iat,
            exp: iat + gate.capabilityTtlMs,
          },
          gate.signingKey,
        );
        return { ...call, capability };
      }),
    );
    const tools = (request.tools ?? []).map((tool) => ({ name: tool.name, inputSchema: tool.inputSchema }));
    const held: HeldCall[] = answer.toolCalls.flatMap((call) =>
      call.approval === undefined
        ? []
        : [
            {
              tenant: gate.tenant,
              receiptId: answer.receiptId,
              callId: call.id,
              tool: call.name,
              args: call.arguments,
              tools,
              ...(call.approval.description === undefined ? {} : { description: call.approval.description }),
              allowed: call.approval.allowed,
              tainted: call.tainted,
              heldAt: iat,
              expiresAt: iat + gate.approvalWindowMs,
            },
          ],
    );
    return { answer: { ...answer, toolCalls }, hold: () => gate.keepHeld(held) };
  };
}
