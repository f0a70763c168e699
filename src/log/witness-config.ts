import { type CheckResult, fail, pass } from '../encoding/check-result';
import { type Cosigner, parseCosignerKey } from './cosignature';

// LOG_WITNESSES: the witnesses a deployment's logs push their checkpoints to, one per line (or comma),
// each "<witness verifier key> <submission URL prefix>", the prefix being what `/add-checkpoint` is
// appended to (c2sp.org/tlog-witness).

export interface ConfiguredWitness {
  cosigner: Cosigner;
  verifierKey: string;
  /** The submission prefix, without a trailing slash. */
  url: string;
}

export function parseWitnessList(text: string | undefined): CheckResult<ConfiguredWitness[]> {
  const entries = (text ?? '')
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const witnesses: ConfiguredWitness[] = [];
  for (const entry of entries) {
    const [verifierKey, url, ...rest] = entry.split(/\s+/);
    if (verifierKey === undefined || url === undefined || rest.length > 0) {
      return fail(`LOG_WITNESSES entry "${entry}" is not "<verifier key> <URL>"`);
    }
    const cosigner = parseCosignerKey(verifierKey);
    if (!cosigner.ok) return fail(`LOG_WITNESSES key ${verifierKey}: ${cosigner.reason}`);
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
      return fail(`LOG_WITNESSES URL ${url} is not an http(s) URL`);
    }
    if (witnesses.some((w) => w.cosigner.name === cosigner.value.name)) {
      return fail(`LOG_WITNESSES names the witness ${cosigner.value.name} twice`);
    }
    witnesses.push({ cosigner: cosigner.value, verifierKey, url: url.replace(/\/+$/, '') });
  }
  return pass(witnesses);
}
