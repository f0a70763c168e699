// The fields a v1 receipt commits to, one commitment each; the public receipt bodies and the
// commitment code both name them.

export const RECEIPT_FIELDS_V1 = [
  'req.task',
  'req.instructions',
  'req.context',
  'req.conversation',
  'req.tools',
  'req.output',
  'req.modelPolicy',
  'res.output',
  'res.toolCalls',
  'res.meta',
  'dec.model',
  'dec.trace',
] as const;

export type ReceiptField = (typeof RECEIPT_FIELDS_V1)[number];

export function isReceiptField(name: string): name is ReceiptField {
  return (RECEIPT_FIELDS_V1 as readonly string[]).includes(name);
}
