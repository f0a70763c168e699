import { type CheckResult, fail, pass } from '../encoding/check-result';

// What a receipt commits to, by name. v1 commits to twelve fields. v2 adds the tenant (`req.tenant`)
// and one commitment per context item (`req.context[i]`) and per conversation turn
// (`req.conversation[i]`), so a caller can open one document without revealing the others. Every
// name, item names included, gets its key and commitment by the same derivation as a v1 field.

export const RECEIPT_TYP_V1 = 'valve-receipt/v1';
export const RECEIPT_TYP_V2 = 'valve-receipt/v2';
export type ReceiptTyp = typeof RECEIPT_TYP_V1 | typeof RECEIPT_TYP_V2;

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

/** v2: the v1 fields and the tenant the receipt was issued to. */
export const RECEIPT_FIELDS_V2 = [...RECEIPT_FIELDS_V1, 'req.tenant'] as const;

export type ReceiptField = (typeof RECEIPT_FIELDS_V2)[number];
/** The two lists whose items v2 commits to one by one. */
export const ITEM_LISTS = ['req.context', 'req.conversation'] as const;
export type ItemList = (typeof ITEM_LISTS)[number];
export type ItemCounts = Record<ItemList, number>;

export const TENANT_FIELD = 'req.tenant';

export const ITEM_NAME = /^(req\.context|req\.conversation)\[(0|[1-9][0-9]{0,5})\]$/;

export function isReceiptField(name: string): name is ReceiptField {
  return (RECEIPT_FIELDS_V2 as readonly string[]).includes(name);
}

export function itemName(list: ItemList, index: number): string {
  return `${list}[${index}]`;
}

/** `req.context[2]` → { list: 'req.context', index: 2 }; anything else → null. */
export function parseItemName(name: string): { list: ItemList; index: number } | null {
  const match = ITEM_NAME.exec(name);
  return match === null ? null : { list: match[1] as ItemList, index: Number(match[2]) };
}

/** Every committed name of a receipt of that version, in report order (items after their list). */
export function committedNames(
  typ: ReceiptTyp,
  counts: ItemCounts = { 'req.context': 0, 'req.conversation': 0 },
): string[] {
  if (typ === RECEIPT_TYP_V1) return [...RECEIPT_FIELDS_V1];
  return RECEIPT_FIELDS_V2.flatMap((field) =>
    field === 'req.context' || field === 'req.conversation'
      ? [field, ...Array.from({ length: counts[field] }, (_, i) => itemName(field, i))]
      : [field],
  );
}

/**
 * The names of a receipt's `cmt`, in report order, when they are exactly what its version commits
 * to: the version's fields and, for v2, items numbered 0, 1, … with no gap.
 */
export function checkCommittedNames(typ: ReceiptTyp, names: readonly string[]): CheckResult<string[]> {
  const counts: ItemCounts = { 'req.context': 0, 'req.conversation': 0 };
  if (typ === RECEIPT_TYP_V2) {
    for (const name of names) {
      const item = parseItemName(name);
      if (item !== null) counts[item.list] = Math.max(counts[item.list], item.index + 1);
    }
  }
  const expected = committedNames(typ, counts);
  const present = new Set(names);
  const extra = names.filter((n) => !expected.includes(n));
  if (extra.length > 0) return fail(`cmt has names outside ${typ}: ${extra.join(', ')}`);
  const missing = expected.filter((n) => !present.has(n));
  if (missing.length > 0) return fail(`cmt lacks ${missing.join(', ')}`);
  return pass(expected);
}
