// A door answer's `valve` is read as it is: the Reason response, with the calls it held back.
import { doorExtensionSchema } from '../../src/contracts/door-approvals';
import { reasonRequestSchema } from '../../src/contracts/reason-request';
import type { DisclosureBundle } from '../../src/contracts/receipt-bodies';
import { type ItemList, itemName } from '../../src/contracts/receipt-field-names';
import { buildDisclosure } from '../../src/receipts/disclose';
import { type ParsedArgs, UsageError } from './args';
import { readJsonFile } from './read-json';

function listOf(text: string | undefined): string[] {
  return text === undefined
    ? []
    : text
        .split(',')
        .map((f) => f.trim())
        .filter((f) => f !== '');
}

function itemsOf(args: ParsedArgs, option: string, list: ItemList): string[] {
  return listOf(args.options.get(option)).map((index) => {
    if (!/^(0|[1-9][0-9]*)$/.test(index))
      throw new UsageError(`--${option} takes item numbers such as 0,2, not ${index}`);
    return itemName(list, Number(index));
  });
}

/**
 * `disclose --request <file> --response <file> [--salt <salt>] [--fields a,b] [--context 0,2]
 * [--conversation 1] [--tenant <name>]`: a bundle for an auditor. With none of --fields, --context
 * and --conversation every field is opened by handing over the salt; with them, only those names'
 * keys, so the other fields and items stay closed.
 */
export async function discloseCommand(args: ParsedArgs): Promise<DisclosureBundle> {
  const requestPath = args.options.get('request');
  const responsePath = args.options.get('response');
  if (requestPath === undefined || responsePath === undefined) {
    throw new UsageError(
      'disclose needs --request <file> (what was sent) and --response <file> (what came back)',
    );
  }
  const request = reasonRequestSchema.safeParse(readJsonFile(requestPath, 'request'));
  if (!request.success) throw new UsageError(`${requestPath} is not a Reason request`);
  const response = doorExtensionSchema.safeParse(readJsonFile(responsePath, 'response'));
  if (!response.success) throw new UsageError(`${responsePath} is not a Reason response with a receipt`);
  const salt = args.options.get('salt') ?? request.data.receiptSalt ?? response.data.receipt.receiptSalt;
  if (salt === undefined) throw new UsageError('no salt: pass --salt, or keep it in the request or response');
  const chosen = [
    ...listOf(args.options.get('fields')),
    ...itemsOf(args, 'context', 'req.context'),
    ...itemsOf(args, 'conversation', 'req.conversation'),
  ];
  const partial = ['fields', 'context', 'conversation'].some((o) => args.options.has(o));
  try {
    return await buildDisclosure({
      request: request.data,
      response: response.data,
      salt,
      fields: partial ? chosen : undefined,
      tenant: args.options.get('tenant'),
    });
  } catch (error) {
    if (error instanceof TypeError) throw new UsageError(error.message);
    throw error;
  }
}
