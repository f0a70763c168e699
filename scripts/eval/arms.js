// The eval's arms: what each sends for a trial (pure). Direct arms call the model's own
// OpenAI-compatible endpoint with no Valve in between; Valve arms send the Reason request as
// `scripts/eval-injection.js` always has: the caller's instruction and question in `instructions`, the
// e-mail as one untrusted context item.
import { instructionText } from './trials.js';

export const sampling = { temperature: 0, seed: 42 };
export const maxOutputTokens = 64;

/** Arms that need the model's own endpoint. */
export const directArms = ['naive-after', 'naive-before', 'system-user'];
/**
 * Valve arms: `valve` leaves the rendering to the model's catalog entry; `valve:<mode>` forces one mode
 * (`rendering.mode`), `valve@<layout>` one layout (`rendering.layout`), and `valve:<mode>@<layout>` both.
 */
export const valveArms = [
  'valve',
  'valve:tags',
  'valve:tags+lines',
  'valve:tags+datamark',
  'valve:json',
  'valve:tags+base64',
  'valve@system',
  'valve@after-data',
  'valve@data-turn',
  'valve:tags+datamark@after-data',
];
export const allArms = [...directArms, ...valveArms];

/** Valve's rendering modes and layouts (src/contracts/reason-request.ts), as the eval may force them. */
export const promptModes = ['tags', 'tags+lines', 'tags+datamark', 'tags+base64', 'json'];
export const promptLayouts = ['system', 'after-data', 'data-turn'];

/** The mode and layout a Valve arm forces (either may be undefined), or undefined if `arm` is not one. */
export function parseValveArm(arm) {
  const match = /^valve(?::([^@]+))?(?:@(.+))?$/.exec(arm);
  if (!match) return undefined;
  const [, mode, layout] = match;
  if (mode !== undefined && !promptModes.includes(mode)) return undefined;
  if (layout !== undefined && !promptLayouts.includes(layout)) return undefined;
  return { mode, layout };
}

/** Whether `arm` is an arm the eval can run: a listed one, or any `valve:<mode>@<layout>`. */
export function isArm(arm) {
  return directArms.includes(arm) || parseValveArm(arm) !== undefined;
}
/** The arm every other is compared with (McNemar, "half of naive"). */
export const referenceArm = 'naive-after';

/** The chat-completions body of a direct arm. */
export function directBody(arm, trial, model) {
  const { question } = trial.email;
  const email = `E-mail:\n${trial.document}`;
  let messages;
  switch (arm) {
    case 'naive-after':
      messages = [{ role: 'user', content: `${instructionText}\n\n${email}\n\n${question}` }];
      break;
    case 'naive-before':
      messages = [{ role: 'user', content: `${instructionText}\n\n${question}\n\n${email}` }];
      break;
    case 'system-user':
      messages = [
        { role: 'system', content: `${instructionText} ${question}` },
        { role: 'user', content: email },
      ];
      break;
    default:
      throw new Error(`not a direct arm: ${arm}`);
  }
  return { model, messages, ...sampling, max_tokens: maxOutputTokens };
}

/** The Reason request of a Valve arm; `pinned` is "provider/model" or undefined. */
export function valveBody(arm, trial, pinned) {
  const parsed = parseValveArm(arm);
  if (!parsed) throw new Error(`not a Valve arm: ${arm}`);
  const { mode, layout } = parsed;
  const rendering = { ...(mode ? { mode } : {}), ...(layout ? { layout } : {}) };
  const [provider, ...rest] = pinned ? pinned.split('/') : [];
  return {
    task: 'answer',
    instructions: `${instructionText} ${trial.email.question}`,
    context: [{ label: 'e-mail', trust: 'untrusted', privacy: 'internal', content: trial.document }],
    sampling,
    modelPolicy: {
      ...(pinned ? { pinned: { provider, model: rest.join('/') }, allowFallback: false } : {}),
      maxOutputTokens,
    },
    ...(mode || layout ? { rendering } : {}),
  };
}

/** The text of an answer: a Reason response's output, or a chat completion's message. */
export function answerText(arm, json) {
  if (directArms.includes(arm)) return String(json?.choices?.[0]?.message?.content ?? '');
  const output = json?.output;
  return output?.format === 'text' ? String(output.text) : JSON.stringify(output?.value ?? '');
}
