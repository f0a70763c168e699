import type { ModelWarning } from '../model/model-response';

export interface LeakSecrets {
  nonce: string;
  canary: string;
}

/**
 * A `prompt.leak_suspected` warning when any output text carries the request's canary or nonce (in any
 * letter case): the model repeated the system channel or the region markers, which an injection that
 * tries to exfiltrate the prompt would do. Empty when nothing leaked.
 */
export function detectLeak(texts: readonly string[], secrets: LeakSecrets): ModelWarning[] {
  const found = new Set<string>();
  for (const text of texts) {
    const lower = text.toLowerCase();
    if (lower.includes(secrets.canary.toLowerCase())) found.add('canary');
    if (lower.includes(secrets.nonce.toLowerCase())) found.add('region nonce');
  }
  if (found.size === 0) return [];
  return [
    {
      code: 'prompt.leak_suspected',
      message: `The output contains the prompt's ${[...found].join(' and ')}: the model may have revealed its instructions or followed injected text.`,
    },
  ];
}
