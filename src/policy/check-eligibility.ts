import type { ModelPolicy } from '../contracts/reason-request';
import { privacyLevels } from '../contracts/reason-request';
import { acceptsMimeType, acceptsSource } from '../model/media-sources';
import type { ProviderKind } from '../model/provider-kind';
import { knownInputTokens, minUsefulOutputTokens } from './attempt-limits';
import type { CatalogModel } from './catalog';
import type { CircuitState, Exclusion, ExclusionReason, MediaNeeds, Needs } from './plan-types';
import { reasoningProblem } from './resolve-reasoning';

export interface EligibilityInput {
  policy: ModelPolicy;
  needs: Needs;
  configured: boolean;
  notConfiguredDetail: string;
  circuit: CircuitState;
  /** The provider's catalog kind: some cannot be made to call a tool. */
  kind?: ProviderKind;
}

/**
 * Provider kinds whose API has no way to force a tool call: Workers AI's text-generation input takes
 * `tools` but no `tool_choice` (https://developers.cloudflare.com/workers-ai/models/). Dropping a forced
 * choice would change what the answer means, so those models are not eligible for one.
 */
const cannotForceToolCall: ReadonlySet<ProviderKind> = new Set(['workers-ai']);

export type Eligibility = { ok: true; region: string } | { ok: false; exclusion: Exclusion };

/**
 * The checks that do not depend on the budget, in the order a caller would ask "why not this one?":
 * configured, pinned, region, privacy, capability, context window, circuit. Pure.
 */
export function checkEligibility(entry: CatalogModel, input: EligibilityInput): Eligibility {
  const { policy, needs } = input;
  const no = (reason: ExclusionReason, detail: string) => exclude(entry, reason, detail);
  if (!input.configured) return no('not_configured', input.notConfiguredDetail);
  const pinned = policy.pinned;
  if (
    pinned &&
    policy.allowFallback === false &&
    !(pinned.provider === entry.provider && pinned.model === entry.model)
  ) {
    return no(
      'pinned',
      `not the pinned model ${pinned.provider}/${pinned.model}, and allowFallback is false`,
    );
  }
  const region = policy.regions ? firstShared(entry.regions, policy.regions) : entry.regions[0];
  if (region === undefined) return no('region', `serves ${entry.regions.join(', ')} only`);
  if (privacyLevels.indexOf(needs.privacy) > privacyLevels.indexOf(entry.maxPrivacy)) {
    return no('privacy', `allowed up to ${entry.maxPrivacy}, the request is ${needs.privacy}`);
  }
  if (needs.tools && !entry.capabilities.tools) return no('capability', 'does not support tools');
  if (needs.forcedToolCall && input.kind !== undefined && cannotForceToolCall.has(input.kind)) {
    return no('capability', 'cannot be made to call a tool, and toolChoice requires a call');
  }
  if (needs.json && entry.capabilities.json === 'none')
    return no('capability', 'does not support JSON output');
  const reasoning = reasoningProblem(entry, needs.reasoning);
  if (reasoning !== undefined) return no('capability', reasoning);
  const media = needs.media && mediaProblem(entry, needs.media, input.kind);
  if (media !== undefined) return no('modality_unsupported', media);
  if (knownInputTokens(needs) + minUsefulOutputTokens > entry.contextTokens) {
    return no(
      'context_window',
      `about ${knownInputTokens(needs)} input tokens and a useful answer do not fit its ${entry.contextTokens}-token window`,
    );
  }
  if (input.circuit === 'open') return no('circuit_open', 'its circuit is open after repeated failures');
  return { ok: true, region };
}

const sourceWords = { base64: 'as bytes', url: 'from a URL', fileId: 'by file id' } as const;

/** Why the model cannot read the request's media, or undefined when it can. */
function mediaProblem(entry: CatalogModel, media: MediaNeeds, kind: ProviderKind | undefined) {
  const reads = entry.inputModalities ?? ['text'];
  const unread = media.modalities.filter((modality) => !reads.includes(modality));
  if (unread.length > 0) return `does not read ${unread.join(' or ')} (it reads ${reads.join(', ')})`;
  for (const source of media.sources) {
    if (source.provider !== undefined && source.provider !== entry.provider)
      return `the ${source.modality} file id belongs to provider ${source.provider}`;
    if (kind !== undefined && !acceptsSource(kind, source.modality, source.kind))
      return `its provider takes no ${source.modality} ${sourceWords[source.kind]}`;
    if (kind !== undefined && !acceptsMimeType(kind, source.modality, source.mimeType))
      return `its provider takes no ${source.mimeType}`;
  }
  return undefined;
}

function exclude(entry: CatalogModel, reason: ExclusionReason, detail: string): Eligibility {
  return { ok: false, exclusion: { provider: entry.provider, model: entry.model, reason, detail } };
}

function firstShared(served: string[], allowed: string[]): string | undefined {
  for (const region of served) if (allowed.includes(region)) return region;
  return undefined;
}
