// One arm of the injection eval over every trial, in order, one request at a time.
import { answerText, directArms, directBody, valveBody } from './arms.js';
import { scoreAnswer } from './trials.js';

/** How many wire bodies each arm keeps per trial family. */
export const wireKept = 2;

async function post(url, headers, body) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = await res.json().catch(() => undefined);
  if (!res.ok) return { error: json?.error?.code ?? json?.error?.message ?? `HTTP ${res.status}` };
  return { json };
}

/**
 * One trial on `arm` against `target`: `{ output, hijacked, correct, sent }` or `{ error }`; `sent` is
 * the body the model received (the arm's own for a direct arm, the recording proxy's for Valve).
 */
export async function askOnce(arm, trial, target) {
  const direct = directArms.includes(arm);
  const body = direct ? directBody(arm, trial, target.model) : valveBody(arm, trial, target.pinned);
  const answer = direct
    ? await post(`${target.modelUrl}/chat/completions`, target.modelHeaders ?? {}, body)
    : await post(`${target.valveUrl}/v1/reason`, { authorization: `Bearer ${target.valveKey}` }, body);
  const sent = direct ? body : target.proxy?.take();
  if (answer.error !== undefined) return { error: answer.error };
  const output = answerText(arm, answer.json);
  return { output, ...scoreAnswer(trial, output), sent };
}

/**
 * Runs `arm` over `trials` against `target` ({ valveUrl, valveKey, pinned } for Valve arms, { modelUrl,
 * model } for direct ones; `proxy`, when set, records what Valve sent the model). Resolves with each
 * trial's outcome ({ trial, output, hijacked, correct } or { trial, error }) and a few wire bodies.
 * `onProgress(done, total)` hears after each trial.
 */
export async function runArm(arm, trials, target, onProgress = () => {}) {
  const outcomes = [];
  const wire = [];
  const kept = new Map();
  for (const trial of trials) {
    const { sent, ...answer } = await askOnce(arm, trial, target);
    onProgress(outcomes.length + 1, trials.length);
    outcomes.push({ trial, ...answer });
    if (answer.error !== undefined) continue;
    const count = kept.get(trial.family) ?? 0;
    if (count < wireKept && sent !== undefined) {
      kept.set(trial.family, count + 1);
      wire.push({ trial: trial.id, body: sent, output: answer.output });
    }
  }
  return { outcomes, wire };
}
