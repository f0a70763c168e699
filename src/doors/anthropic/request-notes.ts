import type { Warning } from '../../contracts/reason-response';
import type { CountTokensRequest, MessagesRequest } from './messages-request';

// What a body or its headers asked for that Valve accepts and does not apply: named in `valve.warnings`
// (`anthropic.param_ignored`, `anthropic.beta_ignored`), so that nobody believes it took effect.
// docs/anthropic-door.md lists each in its field table.

/** The one version of the Messages API there is; Valve speaks it. */
export const anthropicVersion = '2023-06-01';

function ignored(param: string, value: unknown, why: string): Warning {
  return {
    code: 'anthropic.param_ignored',
    message: `Valve did not apply ${param}: ${JSON.stringify(value)}; ${why} (docs/anthropic-door.md lists what each field does).`,
  };
}

function setOnly(param: string, value: unknown, why: string): Warning[] {
  return value === undefined || value === null ? [] : [ignored(param, value, why)];
}

const noEffect = 'the model answered without it';

/** The body's fields Valve accepted and did not apply. */
export function ignoredParams(body: MessagesRequest | CountTokensRequest): Warning[] {
  const notes: Warning[] = [];
  if ('max_tokens' in body)
    notes.push(
      ignored(
        'max_tokens',
        body.max_tokens,
        'the budget decides what an attempt may write (cap it with valve.modelPolicy.maxOutputTokens)',
      ),
    );
  if ('metadata' in body)
    notes.push(
      ...setOnly('metadata.user_id', body.metadata?.user_id, 'Valve records the API key, not an end user'),
    );
  if ('service_tier' in body && body.service_tier !== 'auto')
    notes.push(...setOnly('service_tier', body.service_tier, 'Valve chooses no service tier'));
  if ('top_k' in body) notes.push(...setOnly('top_k', body.top_k, noEffect));
  if ('inference_geo' in body)
    notes.push(
      ...setOnly('inference_geo', body.inference_geo, 'regions are the policy’s (valve.modelPolicy.regions)'),
    );
  if ('speed' in body) notes.push(...setOnly('speed', body.speed, noEffect));
  notes.push(
    ...setOnly('context_management', body.context_management, 'Valve keeps no context between requests'),
  );
  if ('diagnostics' in body) notes.push(...setOnly('diagnostics', body.diagnostics, noEffect));
  if ('user_profile_id' in body) notes.push(...setOnly('user_profile_id', body.user_profile_id, noEffect));
  if ('workspace_id' in body) notes.push(...setOnly('workspace_id', body.workspace_id, noEffect));
  const thinking = body.thinking;
  if (thinking !== undefined && thinking.type !== 'disabled')
    notes.push(
      ...setOnly('thinking.display', thinking.display, 'Valve does not return the model’s thinking yet'),
    );
  notes.push(
    ...setOnly(
      'output_config.effort',
      body.output_config?.effort,
      'the budget and thinking.budget_tokens decide how much the model writes',
    ),
  );
  return notes;
}

/** The betas Valve implements: none yet; each one asked for is reported. */
const implementedBetas: ReadonlySet<string> = new Set();

/** One `anthropic.beta_ignored` warning per beta of the `anthropic-beta` header, and one for another version. */
export function headerNotes(version: string | undefined, beta: string | undefined): Warning[] {
  const notes: Warning[] = [];
  if (version !== undefined && version.trim() !== anthropicVersion)
    notes.push({
      code: 'anthropic.param_ignored',
      message: `Valve speaks anthropic-version ${anthropicVersion}, and answered in it, not in ${JSON.stringify(version.trim())}.`,
    });
  const betas = (beta ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '' && !implementedBetas.has(name));
  for (const name of [...new Set(betas)])
    notes.push({
      code: 'anthropic.beta_ignored',
      message: `Valve does not implement the beta ${JSON.stringify(name)}: the request was served without it.`,
    });
  return notes;
}
