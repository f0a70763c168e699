import { reasonRequestSchema } from '../../src/contracts/reason-request';
import { reasonResponseSchema } from '../../src/contracts/reason-response';
import type { DisclosureBundle } from '../../src/contracts/receipt-bodies';
import { isReceiptField, type ReceiptField } from '../../src/contracts/receipt-field-names';
import { buildDisclosure } from '../../src/receipts/disclose';
import { type ParsedArgs, UsageError } from './args';
import { readJsonFile } from './read-json';

/**
 * `disclose --request <file> --response <file> [--salt <salt>] [--fields a,b]`: a bundle for an auditor.
 * Without --fields every field is opened by handing over the salt; with it, only those fields' keys.
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
  const response = reasonResponseSchema.safeParse(readJsonFile(responsePath, 'response'));
  if (!response.success) throw new UsageError(`${responsePath} is not a Reason response with a receipt`);
  const salt = args.options.get('salt') ?? request.data.receiptSalt ?? response.data.receipt.receiptSalt;
  if (salt === undefined) throw new UsageError('no salt: pass --salt, or keep it in the request or response');
  const fieldList = args.options.get('fields');
  let fields: ReceiptField[] | undefined;
  if (fieldList !== undefined) {
    const names = fieldList.split(',').map((f) => f.trim());
    const unknown = names.filter((f) => !isReceiptField(f));
    if (unknown.length > 0) throw new UsageError(`not receipt fields: ${unknown.join(', ')}`);
    fields = names as ReceiptField[];
  }
  return buildDisclosure({ request: request.data, response: response.data, salt, fields });
}
